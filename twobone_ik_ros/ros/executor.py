# Copyright 2026 The twobone_ik_ros Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""
A lean executor for one node: the entities gathered once, each callback called directly.

rclpy's ``SingleThreadedExecutor`` does on every wake-up what a node whose
entities rarely change needs once: it gathers every node's entities anew,
enters each handle's context, makes a new rcl wait set, yields a handler
per ready entity from a generator and runs each as a ``Task`` (a coroutine
and a future).  For this node, which answers a target in a few
microseconds, that is most of the CPU a target costs
(``benchmarks/bench_node.py``, doc/performance.md).

``LeanExecutor`` serves one node with rclpy's own lower-level calls, the
same on Humble through Rolling (``_rclpy.WaitSet``, ``take_message``,
``call_timer``, ``service_take_request``, ``take_response``, and the
``Waitable`` interface of action clients and QoS event handlers): the
entities and a wait set sized for them are gathered when the node says its
entities changed (rclpy's ``Node`` calls ``executor.wake()`` on every
create and destroy), then each wait re-adds the handles (rcl clears the
ones that were not ready) and calls each ready entity's callback in
rclpy's order: timers, subscriptions, guard conditions, clients, services,
waitables.  A future it completes has no executor, so its done callbacks
run at once, in this thread.  Callback groups are not consulted: one
thread runs one callback at a time, which every group allows.

Where this rclpy lacks one of those calls, ``spinner_executor`` gives
rclpy's ``SingleThreadedExecutor`` instead, and says so.
"""

from __future__ import annotations

from contextlib import ExitStack
import threading
from typing import Any, Callable, Dict, List, Optional, Tuple

#: rcl's entity kinds, in the order rclpy's executor serves them
_KINDS = ('timer', 'subscription', 'guard_condition', 'client', 'service')
#: the wait set's method that adds an entity of each kind
_ADD = {'timer': 'add_timer', 'subscription': 'add_subscription',
        'guard_condition': 'add_guard_condition', 'client': 'add_client',
        'service': 'add_service'}


class LeanExecutor:
    """Spin one node with a wait set that is rebuilt only when the node's entities change."""

    def __init__(self, *, context: Any = None) -> None:
        """Serve nodes of ``context`` (rclpy's default context when None)."""
        from rclpy.guard_condition import GuardCondition
        from rclpy.impl.implementation_singleton import rclpy_implementation
        from rclpy.utilities import get_default_context
        from rclpy.waitable import NumberOfEntities

        self._rclpy = rclpy_implementation
        self._count_type = NumberOfEntities
        self._context = get_default_context() if context is None else context
        # wakes a wait: a stop, or the node's entities changed
        self._guard = GuardCondition(None, None, context=self._context)
        self._node: Any = None
        self._lock = threading.Lock()
        self._changed = True
        self._is_shutdown = False
        self._wait_set: Any = None
        self._additions: List[Tuple[Callable[[Any], None], Any]] = []
        self._kinds: List[Tuple[str, Dict[int, Any], Callable[[LeanExecutor, Any], None]]] = []
        self._waitables: List[Any] = []
        self._held = ExitStack()  # the handles of the entities in the wait set (``_gather``)
        self._pending: List[Any] = []  # coroutines of waitables that awaited (none do today)
        self._call_timer: Callable[[Any], Any] = _call_timer
        self._context.on_shutdown(self.wake)  # a wait returns when the context goes

    @property
    def context(self) -> Any:
        """Return the context whose entities this executor waits on."""
        return self._context

    # ---------------------------------------------------------------- what a Node expects

    def add_node(self, node: Any) -> bool:
        """Serve ``node`` (one node: another replaces it); True if it is new."""
        with self._lock:
            if node is self._node:
                return False
            self._node = node
            self._changed = True
        node.executor = self  # rclpy's Node calls add_node back, which returns False
        self.wake()
        return True

    def remove_node(self, node: Any) -> None:
        """Stop serving ``node``."""
        with self._lock:
            if node is not self._node:
                return
            self._node = None
            self._changed = True
        node.executor = None
        self.wake()

    def get_nodes(self) -> List[Any]:
        """Return the node served, in a list (rclpy's Executor interface)."""
        return [] if self._node is None else [self._node]

    def wake(self) -> None:
        """Make the wait return, and gather the node's entities again before the next one."""
        self._changed = True
        if not self._is_shutdown:
            try:
                self._guard.trigger()
            except Exception:  # noqa: B902  (the context is gone: so is the wait)
                pass

    def create_task(self, callback: Callable[..., Any], *args: Any) -> None:
        """Run ``callback(*args)`` now (a future's done callback, were one given this executor)."""
        callback(*args)

    def shutdown(self, timeout_sec: Optional[float] = None) -> bool:
        """Stop serving; the caller has left ``spin_once`` (``process.Spinner`` joins first)."""
        if not self._is_shutdown:
            self._is_shutdown = True
            node = self._node
            if node is not None:
                self.remove_node(node)
            self._wait_set = None
            self._held.close()
            self._guard.destroy()
        return True

    # ---------------------------------------------------------------- spinning

    def spin_once(self, timeout_sec: Optional[float] = None) -> None:
        """
        Wait for work (at most ``timeout_sec``; None: until some comes), then do it all.

        The caller checks that the context is still up (``process.Spinner``):
        rclpy's ``ExternalShutdownException`` is not raised here.
        """
        if self._is_shutdown:
            return
        if self._changed:
            self._gather()
        wait_set = self._wait_set
        wait_set.clear_entities()
        for add, handle in self._additions:
            add(handle)
        for waitable in self._waitables:
            waitable.add_to_wait_set(wait_set)
        wait_set.wait(-1 if timeout_sec is None else int(timeout_sec * 1e9))
        if self._is_shutdown:
            return
        for kind, table, run in self._kinds:
            ready = wait_set.get_ready_entities(kind)
            for pointer in ready:
                entity = table.get(pointer)
                if entity is not None:
                    run(self, entity)
        for waitable in self._waitables:
            if waitable.is_ready(wait_set):
                self._execute(waitable.execute(waitable.take_data()))
        if self._pending:
            pending, self._pending = self._pending, []
            for coroutine in pending:
                self._execute(coroutine)

    def _gather(self) -> None:
        """
        Take the node's entities, hold their handles, and size a new wait set for them.

        A handle held (entered, as rclpy's executor enters each for its
        wait) is not destroyed under a wait: its destruction waits until it
        is let go, here at the next gathering, which every destroy asks for
        (``wake``), or at ``shutdown``.  That matters when the context is
        shut down from another thread, which destroys the node's entities.
        """
        with self._lock:
            node = self._node
            self._changed = False
        self._held.close()  # let the previous handles go: destroyed ones now go for good
        held = self._held = ExitStack()
        held.enter_context(self._context.handle)
        lists: Dict[str, List[Any]] = {kind: [] for kind in _KINDS}
        waitables: List[Any] = []
        if node is not None:
            lists['timer'] = list(node.timers)
            lists['subscription'] = list(node.subscriptions)
            lists['guard_condition'] = list(node.guards)
            lists['client'] = list(node.clients)
            lists['service'] = list(node.services)
            waitables = list(node.waitables)
        lists['guard_condition'].append(self._guard)
        handles: Dict[str, List[Any]] = {}
        entities: Dict[str, Dict[int, Any]] = {}
        for kind, found in lists.items():
            handles[kind], entities[kind] = [], {}
            for entity in found:
                handle = entity.handle
                try:
                    held.enter_context(handle)
                    pointer = handle.pointer
                except Exception:  # noqa: B902  (rclpy's InvalidHandle: destroyed meanwhile)
                    continue
                handles[kind].append(handle)
                entities[kind][pointer] = entity
        count = self._count_type(len(handles['subscription']), len(handles['guard_condition']),
                                 len(handles['timer']), len(handles['client']),
                                 len(handles['service']))
        entered = []
        for waitable in waitables:
            try:
                held.enter_context(waitable)
            except Exception:  # noqa: B902  (InvalidHandle)
                continue
            entered.append(waitable)
            count += waitable.get_num_entities()
        waitables = entered
        wait_set = self._rclpy.WaitSet(
            count.num_subscriptions, count.num_guard_conditions, count.num_timers,
            count.num_clients, count.num_services, count.num_events, self._context.handle)
        # each wait adds the same handles again (rcl empties the places of those
        # not ready): the adding methods are looked up once, here
        self._additions = [(getattr(wait_set, _ADD[kind]), handle)
                           for kind in _KINDS for handle in handles[kind]]
        self._kinds = [(kind, entities[kind], _RUN[kind]) for kind in _KINDS if entities[kind]]
        self._wait_set, self._waitables = wait_set, waitables

    def _execute(self, coroutine: Any) -> None:
        """Run a waitable's ``execute`` coroutine; one that awaits goes on at the next wait."""
        try:
            coroutine.send(None)
        except StopIteration:
            return
        self._pending.append(coroutine)

    # ---------------------------------------------------------------- each kind

    def _run_timer(self, timer: Any) -> None:
        handle = timer.handle
        try:
            if not handle.is_timer_ready():  # a cancelled timer (rcl's own check)
                return
            self._call_timer(handle)
        except Exception:  # noqa: B902  (InvalidHandle, TimerCancelledError: nothing to run)
            return
        if timer.callback is not None:
            timer.callback()

    def _run_subscription(self, subscription: Any) -> None:
        try:
            taken = subscription.handle.take_message(subscription.msg_type, subscription.raw)
        except Exception:  # noqa: B902  (InvalidHandle: destroyed by an earlier callback)
            return
        if taken is None:
            return
        if _WITH_INFO is not None and getattr(subscription, '_callback_type', None) is _WITH_INFO:
            subscription.callback(*taken)
        else:  # the message alone (Humble: always; it has no CallbackType)
            subscription.callback(taken[0])

    def _run_guard_condition(self, guard: Any) -> None:
        if guard is not self._guard and guard.callback is not None:  # ours only wakes
            guard.callback()

    def _run_client(self, client: Any) -> None:
        try:
            header, response = client.handle.take_response(client.srv_type.Response)
        except Exception:  # noqa: B902  (InvalidHandle: destroyed by an earlier callback)
            return
        if header is None:
            return
        try:
            future = client.get_pending_request(header.request_id.sequence_number)
        except KeyError:  # the request was given up
            return
        future.set_result(response)

    def _run_service(self, service: Any) -> None:
        try:
            request, header = service.handle.service_take_request(service.srv_type.Request)
        except Exception:  # noqa: B902  (InvalidHandle: destroyed by an earlier callback)
            return
        if header is None:
            return
        response = service.callback(request, service.srv_type.Response())
        service.send_response(response, header)


def _call_timer(handle: Any) -> Any:
    """Mark the timer's period as used (``call_timer_with_info`` from Kilted on)."""
    call = getattr(handle, 'call_timer_with_info', None)
    return call() if call is not None else handle.call_timer()


def _with_info() -> Any:
    try:
        from rclpy.subscription import Subscription
        return Subscription.CallbackType.WithMessageInfo
    except (ImportError, AttributeError):  # before Iron: no message info
        return None


_WITH_INFO = _with_info()
_RUN: Dict[str, Callable[[LeanExecutor, Any], None]] = {
    'timer': LeanExecutor._run_timer,
    'subscription': LeanExecutor._run_subscription,
    'guard_condition': LeanExecutor._run_guard_condition,
    'client': LeanExecutor._run_client,
    'service': LeanExecutor._run_service,
}


#: What ``LeanExecutor`` calls of rclpy's implementation beyond its public API.
_NEEDED = ('WaitSet',)


def spinner_executor(node: Any, lean: bool) -> Any:
    """
    Return the executor a spinner uses for ``node``: lean if asked and this rclpy allows.

    Otherwise rclpy's ``SingleThreadedExecutor``; a lean one asked for and
    not possible is logged as a warning with the reason.
    """
    from rclpy.executors import SingleThreadedExecutor

    if lean:
        try:
            from rclpy.impl.implementation_singleton import rclpy_implementation
            missing = [name for name in _NEEDED if not hasattr(rclpy_implementation, name)]
            if not missing:
                return LeanExecutor(context=node.context)
            reason = f'rclpy has no {", ".join(missing)}'
        except ImportError as error:
            reason = str(error)
        node.get_logger().warning(f"spinning with rclpy's SingleThreadedExecutor: {reason}")
    return SingleThreadedExecutor(context=node.context)
