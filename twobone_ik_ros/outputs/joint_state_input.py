"""
The arm's joint_states as a controller output reads them: as they come, or held while a move runs.

A controller output plans each move from the arm's state, read off the
joint_states its broadcaster publishes (best effort, so any publisher's
QoS is met; ``ros.endpoints.subscription``).  A joint state every cycle
(100 Hz and more) is a wake of the node's thread each, and a wake costs
more than a state's work (doc/performance.md).  While a move is under way
nothing needs each one: ``hold`` leaves them waiting in the subscription's
reader (its depth, the newest kept) until the move is due, and they are
read when the node wakes for something else, first thing (``read_waiting``:
a target, a path, the stream's cycle, the node's timer, the action's
answer), and all again from the move's end on, when the arm's arrival is
watched state by state.  Only on the lean executor
(``LeanExecutor.hold_back``); on rclpy's each state wakes.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Tuple

from rclpy.node import Node
from rclpy.serialization import deserialize_message
from sensor_msgs.msg import JointState
from twobone_ik_ros.ros.endpoints import subscription
from twobone_ik_ros.ros.executor import take
from twobone_ik_ros.ros.wire import JointStateReader

#: What hears each joint state: its stamp (ns), names, positions and velocities.
Heard = Callable[[int, Sequence[str], Sequence[float], Sequence[float]], None]


class JointStateInput:
    """The ``joint_states`` subscription of a controller output, held back while a move runs."""

    def __init__(self, node: Node, heard: Heard) -> None:
        """Subscribe to ``joint_states``; ``heard`` takes each state, oldest first."""
        self._node = node
        self._heard = heard
        self._joints = JointStateReader()
        self._held = False  # the subscription is held back (``hold``)
        self._due_timer: Any = None  # ends the hold when the move is due, while it holds
        self._due_ns = 0  # when the move held for is due (the node's clock)
        self._subscription = subscription(node, 'joint_states', self._on_joint_state, raw=True)

    def hold(self, seconds: float) -> None:
        """
        Leave the joint states waiting until the move just sent is due, ``seconds`` on.

        A retarget that makes the move due later leaves the timer as it is,
        and the timer, when it fires before the move is due, sets itself
        again (``_on_due``): resetting a timer wakes the executor for nothing
        (rcl triggers the timer's guard condition), and retargets would
        each reset it: a second wake per target.
        """
        node = self._node
        hold_back = getattr(node.executor, 'hold_back', None)
        if hold_back is None or seconds <= 0.0:
            self.release()
            return
        self._held = hold_back(self._subscription, True)
        if not self._held:
            return
        period = max(round(seconds * 1e9), 1)
        self._due_ns = node.get_clock().now().nanoseconds + period
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
        hold_back = getattr(self._node.executor, 'hold_back', None)
        if hold_back is not None:
            hold_back(self._subscription, False)

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
        subscription_ = self._subscription
        raw = take(subscription_)
        while raw is not None:
            self._on_joint_state(raw)
            raw = take(subscription_)

    def _on_joint_state(self, raw: bytes) -> None:
        """
        Hand one joint state to ``heard``.

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
        self._heard(sec * 1_000_000_000 + nanosec, names, position, velocity)

    def destroy(self) -> None:
        """End the hold; take the subscription off the graph."""
        self.release()
        self._node.destroy_subscription(self._subscription)
