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
rclpy's order: waitables, timers, subscriptions, guard conditions, clients,
services.  An entity that a callback of the same wake destroyed is not
served (rclpy's executor reads the node's lists afresh as it goes).  The
futures it completes name it as their executor, so their done callbacks
run at once, in this thread, and an exception in one leaves ``spin_once``
as it leaves rclpy's.  Only a destroyed entity's ``InvalidHandle`` is
passed over, as rclpy does; any other error of a take is raised.  Callback
groups are not consulted: one thread runs one callback at a time, which
every group allows.  A subscription the node holds back (``ros.holding``)
is not among its entities: its messages wait in its reader until its owner
takes them (``take``), which any executor allows.

It serves the rclpy releases a lane of the suite runs
(``executor_choice``); where the node has a callback it does not serve (a
coroutine, a timer callback that takes rclpy's ``TimerInfo``:
``rclpy_releases.unserved_callback``), rclpy's ``SingleThreadedExecutor``
spins the node instead, said once in the log.

What an entity costs, on either executor: every wake-up adds the handle of
each subscription, timer, client, service and QoS event handler to the wait
set and looks at each one afterwards, ready or not.  So the node's parts
create an entity only while it serves (the description's subscription, the
tf2 listener, robot_state_publisher's client, a mode's publishers),
share one timer where one will do, destroy a timer that stopped rather than
cancel it, and leave out rclpy's default QoS event handlers
(``qos_events``).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from contextlib import ExitStack
import inspect
import threading
from typing import Any, Callable, Dict, List, Optional, Tuple

from twobone_ik_ros.ros.rclpy_releases import (
    call_timer, INVALID, KINDS, LISTS, timer_passed, unserved_callback, WITH_INFO)
from twobone_ik_ros.ros.wait_set import gather

#: how long rclpy's executor waits at most when a spinner drives it, here or in
#: ``process.Spinner`` (its ``spin_once()`` without a timeout ignores a wake while
#: nothing is ready: a stop would wait for the next message or timer)
RCLPY_WAIT_S = 0.1


class LeanExecutor:
    """Spin one node with a wait set that is rebuilt only when the node's entities change."""

    def __init__(self, *, context: Any = None) -> None:
        """Serve nodes of ``context`` (rclpy's default context when None)."""
        from rclpy.guard_condition import GuardCondition
        from rclpy.utilities import get_default_context

        self._timer_passed: Tuple[Any, ...] = timer_passed(INVALID)
        self._context = get_default_context() if context is None else context
        # wakes a wait: a stop, or the node's entities changed
        self._guard = GuardCondition(None, None, context=self._context)
        self._node: Any = None
        self._lock = threading.Lock()
        self._changed = True
        self._is_shutdown = False
        self._wait_set: Any = None
        #: every handle gathered, with the wait set's method that adds it
        self._additions: List[Tuple[Callable[[Any], None], Any]] = []
        self._kinds: List[Tuple[str, Dict[int, Any], Callable[[LeanExecutor, Any], None]]] = []
        self._waitables: List[Any] = []
        self._held = ExitStack()  # the handles of the entities in the wait set (``_gather``)
        self._pending: List[Any] = []  # coroutines of waitables that awaited (none do today)
        self._raised: Optional[BaseException] = None  # a done callback's, raised after the wake
        #: rclpy's executor, once the node has a callback this one does not serve
        self._delegate: Any = None
        self._call_timer: Callable[[Any], Any] = call_timer
        self._context.on_shutdown(self.wake)  # a wait returns when the context goes

    @property
    def context(self) -> Any:
        """Return the context whose entities this executor waits on."""
        return self._context

    @property
    def delegate(self) -> Any:
        """Return rclpy's executor that spins the node instead, if one does (else None)."""
        return self._delegate

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
        if node.executor is self:
            node.executor = None
        self.wake()

    def get_nodes(self) -> List[Any]:
        """Return the node served, in a list (rclpy's Executor interface)."""
        return [] if self._node is None else [self._node]

    def wake(self) -> None:
        """Make the wait return, and gather the node's entities again before the next one."""
        self._changed = True
        if self._delegate is not None:
            self._delegate.wake()
        if not self._is_shutdown:
            try:
                self._guard.trigger()
            except Exception:  # noqa: B902  (the context is gone: so is the wait)
                pass

    def create_task(self, callback: Callable[..., Any], *args: Any) -> None:
        """
        Run ``callback(*args)`` now: a done callback of a future this executor completed.

        Its exception is raised when the wake's work is done, out of
        ``spin_once``, as rclpy's executor raises a task's; the other done
        callbacks of the future still run.
        """
        try:
            result = callback(*args)
            if inspect.iscoroutine(result):
                self._execute(result)
        except Exception as error:  # noqa: B902  (handed on, as rclpy does)
            if self._raised is None:
                self._raised = error

    def shutdown(self, timeout_sec: Optional[float] = None) -> bool:
        """Stop serving; the caller has left ``spin_once`` (``process.Spinner`` joins first)."""
        if not self._is_shutdown:
            self._is_shutdown = True
            node = self._node
            if node is not None:
                self.remove_node(node)
            if self._delegate is not None:
                self._delegate.shutdown()
            self._wait_set = None
            self._held.close()
            self._guard.destroy()
        return True

    # ---------------------------------------------------------------- spinning

    def spin_once(self, timeout_sec: Optional[float] = None) -> None:
        """
        Wait for work (at most ``timeout_sec``; None: until some comes), then do it all.

        The caller checks that the context is still up (``process.Spinner``):
        rclpy's ``ExternalShutdownException`` is not raised here.  Once rclpy's
        executor spins the node instead, it waits at most ``RCLPY_WAIT_S``
        (so that a stop is seen) and does one callback, as its ``spin_once`` does.
        """
        if self._is_shutdown:
            return
        if self._changed:
            self._gather()
        if self._delegate is not None:
            wait = RCLPY_WAIT_S if timeout_sec is None else min(timeout_sec, RCLPY_WAIT_S)
            self._delegate.spin_once(timeout_sec=wait)
            return
        wait_set = self._wait_set
        wait_set.clear_entities()
        for add, handle in self._additions:
            add(handle)
        for waitable in self._waitables:
            waitable.add_to_wait_set(wait_set)
        wait_set.wait(-1 if timeout_sec is None else int(timeout_sec * 1e9))
        if self._is_shutdown:
            return
        for waitable in self._waitables:  # first, as rclpy serves them
            if self._changed and not self._still(waitable, 'waitables'):
                continue
            if waitable.is_ready(wait_set):
                self._run_waitable(waitable)
        for kind, table, run in self._kinds:
            ready = wait_set.get_ready_entities(kind)
            for pointer in ready:
                entity = table.get(pointer)
                # a callback of this wake may have destroyed it (``wake`` says so)
                if entity is not None and (not self._changed or self._still(entity, LISTS[kind])):
                    run(self, entity)
        if self._pending:
            pending, self._pending = self._pending, []
            for coroutine in pending:
                self._execute(coroutine)
        if self._raised is not None:
            error, self._raised = self._raised, None
            raise error

    def _still(self, entity: Any, kind_list: str) -> bool:
        """Tell whether the node still has ``entity`` (a callback may have destroyed it)."""
        node = self._node
        return node is not None and entity in getattr(node, kind_list)

    def _gather(self) -> None:
        """
        Gather the node's entities into a new wait set (``wait_set.gather``).

        The handles held so far are let go first: a destroyed entity's goes
        for good now (every destroy asks for a gathering, ``wake``), or at
        ``shutdown``.  That matters when the context is shut down from
        another thread, which destroys the node's entities.  A node with a
        callback this executor does not serve is handed to rclpy's executor
        here, for good (``_step_aside``).
        """
        with self._lock:
            node = self._node
            self._changed = False
        if node is not None:
            reason = unserved_callback(node)
            if reason is not None:
                self._step_aside(node, reason)
        self._held.close()  # let the previous handles go: destroyed ones now go for good
        held = self._held = ExitStack()
        if self._delegate is not None:
            return
        gathered = gather(node, self._guard, self._context, held)
        self._additions, entities = gathered.additions, gathered.entities
        self._kinds = [(kind, entities[kind], _RUN[kind]) for kind in KINDS if entities[kind]]
        self._wait_set, self._waitables = gathered.wait_set, gathered.waitables

    def _step_aside(self, node: Any, reason: str) -> None:
        """Hand ``node`` to rclpy's ``SingleThreadedExecutor``, and say so once."""
        from rclpy.executors import SingleThreadedExecutor

        node.get_logger().warning(f"spinning with rclpy's SingleThreadedExecutor: {reason}")
        with self._lock:
            self._node = None
        self._delegate = SingleThreadedExecutor(context=self._context)
        self._delegate.add_node(node)  # the node now wakes that executor
        self._wait_set, self._waitables, self._additions, self._kinds = None, [], [], []

    def _execute(self, coroutine: Any) -> None:
        """Run a waitable's ``execute`` coroutine; one that awaits goes on at the next wait."""
        try:
            coroutine.send(None)
        except StopIteration:
            return
        self._pending.append(coroutine)

    # ---------------------------------------------------------------- each kind

    def _run_waitable(self, waitable: Any) -> None:
        try:
            data = waitable.take_data()
        except INVALID:  # destroyed by an earlier callback
            return
        for future in waitable._futures:  # their done callbacks come here (``create_task``)
            future._set_executor(self)
        self._execute(waitable.execute(data))

    def _run_timer(self, timer: Any) -> None:
        handle = timer.handle
        try:
            if not handle.is_timer_ready():  # a cancelled timer (rcl's own check)
                return
            self._call_timer(handle)
        except self._timer_passed:  # destroyed, or cancelled: nothing to run
            return
        if timer.callback is not None:
            timer.callback()

    def _run_subscription(self, subscription: Any) -> None:
        taken = _taken(subscription)
        if taken is None:
            return
        if WITH_INFO is not None and getattr(subscription, '_callback_type', None) is WITH_INFO:
            subscription.callback(*taken)
        else:  # the message alone (Humble: always; it has no CallbackType)
            subscription.callback(taken[0])

    def _run_guard_condition(self, guard: Any) -> None:
        if guard is not self._guard and guard.callback is not None:  # ours only wakes
            guard.callback()

    def _run_client(self, client: Any) -> None:
        try:
            header, response = client.handle.take_response(client.srv_type.Response)
        except INVALID:  # destroyed
            return
        if header is None:
            return
        try:
            future = client.get_pending_request(header.request_id.sequence_number)
        except KeyError:  # the request was given up
            return
        future._set_executor(self)  # its done callbacks come here (``create_task``)
        future.set_result(response)

    def _run_service(self, service: Any) -> None:
        try:
            request, header = service.handle.service_take_request(service.srv_type.Request)
        except INVALID:  # destroyed
            return
        if header is None:
            return
        response = service.callback(request, service.srv_type.Response())
        service.send_response(response, header)


def take(subscription: Any) -> Any:
    """
    Return the next message waiting for ``subscription`` (bytes if it is raw), or None.

    What an executor does for a ready subscription, for one whose owner
    reads it itself (``holding.HoldingNode.hold_back``); None too once it is destroyed.
    """
    taken = _taken(subscription)
    return None if taken is None else taken[0]


def _taken(subscription: Any) -> Any:
    """Return rclpy's take of ``subscription``: (message, info), or None (none, or destroyed)."""
    try:
        return subscription.handle.take_message(subscription.msg_type, subscription.raw)
    except INVALID:
        return None


_RUN: Dict[str, Callable[[LeanExecutor, Any], None]] = {
    'timer': LeanExecutor._run_timer,
    'subscription': LeanExecutor._run_subscription,
    'guard_condition': LeanExecutor._run_guard_condition,
    'client': LeanExecutor._run_client,
    'service': LeanExecutor._run_service,
}
