"""
The arm's joint_states as a controller output reads them: as they come, or held while a move runs.

A controller output plans each move from the arm's state, read off the
joint_states its broadcaster publishes (best effort, so any publisher's
QoS is met; ``ros.endpoints.subscription``).  A joint state every cycle
(100 Hz and more) is a wake of the node's thread each, and a wake costs
more than a state's work (doc/performance.md).  While a move is under way
nothing needs each one: ``hold`` keeps the subscription from the node's
executor (``ros.holding``: any executor) until the move is due, so the
states wait in its reader (its depth, the newest kept), and they are read
when the node wakes for something else, first thing (``read_waiting``: a
target, a path, the stream's cycle, the node's timer, the action's
answer), and all again from the move's end on, when the arm's arrival is
watched state by state.  A state an executor still hands over after the
hold began (rclpy's EventsExecutor had it queued) waits with them.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from collections import deque
from typing import Any, Callable, Deque, Optional, Sequence, Tuple

from rclpy.node import Node
from rclpy.serialization import deserialize_message
from sensor_msgs.msg import JointState
from twobone_ik_ros.ros.clock import node_time_ns
from twobone_ik_ros.ros.endpoints import subscription
from twobone_ik_ros.ros.executor import take
from twobone_ik_ros.ros.wire import JointStateReader

#: What hears each joint state: when it was read (the node's clock, ns), its stamp (ns),
#: names, positions and velocities.
Heard = Callable[[int, int, Sequence[str], Sequence[float], Sequence[float]], None]


class JointStateInput:
    """The ``joint_states`` subscription of a controller output, held back while a move runs."""

    def __init__(self, node: Node, heard: Heard) -> None:
        """Subscribe to ``joint_states``; ``heard`` takes each state, oldest first."""
        self._node = node
        self._heard = heard
        self._joints = JointStateReader()
        self._held = False  # the states wait while a move runs (``hold``)
        self._due_timer: Any = None  # ends the hold when the move is due, while it holds
        self._due_ns = 0  # when the move held for is due (the node's clock)
        self._subscription = subscription(node, 'joint_states', self._arrived, raw=True)
        #: states an executor handed over while held: their bytes, unread, the newest kept
        self._waiting: Deque[bytes] = deque(maxlen=self._subscription.qos_profile.depth)
        #: keeps the subscription from the node's executor (``ros.holding``; None: no such node)
        self._hold_back: Optional[Callable[[Any, bool], None]] = getattr(node, 'hold_back', None)

    def hold(self, due_ns: int, now_ns: int) -> None:
        """
        Leave the joint states waiting until the move just sent is due, at ``due_ns``.

        Both times are the node's clock's, ``now_ns`` when the move was planned.

        A retarget that makes the move due later leaves the timer as it is,
        and the timer, when it fires before the move is due, sets itself
        again (``_on_due``): resetting a timer wakes the executor for nothing
        (rcl triggers the timer's guard condition), and retargets would
        each reset it: a second wake per target.
        """
        node = self._node
        period = due_ns - now_ns
        if period <= 0:
            self.release()
            return
        if not self._held:
            self._held = True
            if self._hold_back is not None:
                self._hold_back(self._subscription, True)
        self._due_ns = due_ns
        timer = self._due_timer
        if timer is None:
            self._due_timer = node.create_timer(period / 1e9, self._on_due)
        elif period < (timer.time_until_next_call() or 0):
            self._set_due_timer(period)

    def _set_due_timer(self, period_ns: int) -> None:
        """Make the due timer fire ``period_ns`` from now."""
        timer = self._due_timer
        timer.timer_period_ns = period_ns
        timer.reset()

    def _on_due(self) -> None:
        """End the hold if the move is due; else fire again when it is (a retarget put it off)."""
        now = self._node.get_clock().now().nanoseconds
        if now < self._due_ns:
            self._set_due_timer(self._due_ns - now)
            return
        self.release()

    def release(self) -> None:
        """
        Read the states that waited, and take each as it comes again (the move is due).

        The timer goes with the hold (destroyed, not cancelled); a retarget
        while the hold lasts sets it again only to bring it sooner (``hold``).
        """
        if self._due_timer is not None:
            self._node.destroy_timer(self._due_timer)
            self._due_timer = None
        if not self._held:
            return
        self.read_waiting()
        self._held = False
        if self._hold_back is not None:
            self._hold_back(self._subscription, False)

    def read_waiting(self) -> None:
        """
        Read the joint states waiting in the subscription, oldest first.

        Those held back while a move runs (``hold``), and those the executor
        has not served yet: a node that was not scheduled for a while (a
        loaded host) finds a target and the arm's states waiting together,
        and the executor may serve the target first; planned from the state
        before the wait, a retarget after half a second's stall started its
        trajectory where the arm had been (5.1 times the velocity limit,
        ``test_late_node``).
        """
        waiting = self._waiting
        now = node_time_ns(self._node) if waiting else 0  # the clock read once for all read now
        while waiting:
            self._on_joint_state(waiting.popleft(), now)
        subscription_ = self._subscription
        raw = take(subscription_)
        while raw is not None:
            now = now or node_time_ns(self._node)
            self._on_joint_state(raw, now)
            raw = take(subscription_)

    def _arrived(self, raw: bytes) -> None:
        """Take a state an executor served: read it, or, held, leave it waiting."""
        if self._held:
            self._waiting.append(raw)
        else:
            self._on_joint_state(raw, node_time_ns(self._node))

    def _on_joint_state(self, raw: bytes, now_ns: int) -> None:
        """
        Hand one joint state, read at ``now_ns``, to ``heard``.

        Read from the bytes (``ros.wire.JointStateReader``: a broadcaster's
        100 Hz or more, without a message object each); what it leaves to
        rclpy and rclpy cannot read either is not a joint state.
        """
        joints: Optional[Tuple[Any, ...]] = self._joints.read(raw)
        if joints is None:
            try:
                msg = deserialize_message(raw, JointState)
            except Exception:  # noqa: B902  (rclpy's error types differ by distro)
                return
            joints = (msg.header.stamp.sec, msg.header.stamp.nanosec, msg.name, msg.position,
                      msg.velocity)
        sec, nanosec, names, position, velocity = joints
        self._heard(now_ns, sec * 1_000_000_000 + nanosec, names, position, velocity)

    def destroy(self) -> None:
        """End the hold; take the subscription off the graph."""
        self.release()
        self._node.destroy_subscription(self._subscription)
