"""
A move or a path as one JointTrajectory: the transport of joint_trajectory_controller's outputs.

``joint_trajectory`` and ``follow_joint_trajectory`` send the same
trajectories (``TrajectorySender``), on the controller's topic or as the
action's goals: a ``Delivery`` each (``joint_trajectory.TrajectoryTopic``,
``follow_joint_trajectory.TrajectoryGoals``).  A planned motion is sent at
its knots and stamped with its start, ``START_DELAY_NS`` ahead, so that the
controller continues the move under way where the plan does; a trajectory
that took the node too long to make is planned again from a later start
(``start``).  Before the arm's state is known a move is one point timed by
the velocity limit (``point``), and a path keeps its own timing
(``own_timing``).  On the topic the messages are written as bytes
(``trajectory_wire``); a goal carries the message itself.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from array import array
from typing import Any, Callable, Optional, Protocol, Tuple

import numpy as np
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.motion.feedback import Move
from twobone_ik_ros.motion.joint_paths import move_time, PathPlan
from twobone_ik_ros.motion.limit_check import at_rest, LimitRefusal, way_in
from twobone_ik_ros.motion.planning import ArmState, Samples, Timed
from twobone_ik_ros.outputs.commands import duration, joint_trajectory
from twobone_ik_ros.outputs.controller import AnyTimed, Carrier
from twobone_ik_ros.outputs.trajectory_wire import TrajectoryWriter

#: How far ahead a trajectory starts (its stamp): a DDS hop and a controller
#: period, so that the controller has it before it begins.
START_DELAY_NS = 20_000_000
#: A trajectory made later than this before its start is planned again from
#: a later one (``start``), at most ``PLAN_ATTEMPTS`` times.
LATE_MARGIN_NS = 5_000_000
PLAN_ATTEMPTS = 3


class Delivery(Protocol):
    """Where a trajectory goes: the controller's topic, or its action."""

    #: the controller answers each trajectory (an action)
    answers: bool
    #: the trajectories go as bytes (on a topic; a goal carries the message itself)
    as_bytes: bool

    @property
    def busy(self) -> bool:
        """Tell whether the trajectory delivered last is still being taken (``Transport``)."""

    def ready(self) -> bool:
        """Tell whether something takes the trajectories (a graph query: not per target)."""

    def deliver(self, trajectory: Any, config: IKConfig) -> None:
        """Hand one trajectory (bytes if ``as_bytes`` and usable) to the controller there."""

    def poll(self) -> None:
        """Do what waits for the node's timer (``Transport.poll``)."""

    def track(self, move: Optional[Move]) -> None:
        """Follow ``move``, the trajectory just delivered, further (the action's answers)."""

    def destroy(self) -> None:
        """Take the delivery's entity off the graph."""


class TrajectorySender:
    """The tracker's motions as trajectories, handed to a ``Delivery``: a transport."""

    def __init__(self, carrier: Carrier, delivery: Delivery) -> None:
        """Send nothing until ``configure``; the carrier's tracker holds and undoes the motions."""
        self._node = carrier.node
        self._tracker = carrier.tracker
        self._check = carrier.check
        self._delivery = delivery
        self.answers = delivery.answers
        self.listened = False
        self._config: Optional[IKConfig] = None
        self._names: Tuple[str, str] = ('', '')
        self._writer: Optional[TrajectoryWriter] = None
        self._lead_ns = START_DELAY_NS  # the last trajectory's (``start``)
        self._point = JointTrajectory()
        self._point.points = [JointTrajectoryPoint()]
        self._point.points[0].positions = array('d', (0.0, 0.0))

    @property
    def busy(self) -> bool:
        """Tell whether the trajectory delivered last is still being taken (``Transport``)."""
        return self._delivery.busy

    def listen(self) -> None:
        """Ask the graph whether the delivery has a taker."""
        self.listened = self._delivery.ready()

    def poll(self) -> None:
        """Let the delivery do what waits for the node's timer."""
        self._delivery.poll()

    def configure(self, config: IKConfig) -> None:
        """Name the joints (the messages), take the tolerances and limits."""
        self._config = config
        names = config.joint_names
        if names != self._names:
            self._names = names
            self._point.joint_names = list(names)
            writer = TrajectoryWriter(names)
            self._writer = writer if writer.usable and self._delivery.as_bytes else None

    def _emit(self, message: Any) -> None:
        """
        Deliver a trajectory, if something takes it.

        Nothing listening since the last ``listen``: asked again (a controller
        that has just come up), which costs a graph query only then.  Still
        nothing: the move counts as sent to no controller (``arrival``), and
        nothing is sent (a volatile topic keeps nothing for a later subscriber).
        """
        if not self.listened:
            self.listen()
            if not self.listened:
                return
        config = self._config
        assert config is not None
        self._delivery.deliver(message, config)

    def due(self, motion: Timed) -> float:
        """Return the seconds from now to the end of ``motion`` just sent (its lead included)."""
        return self._lead_ns / 1e9 + motion.duration

    def start(self, motion_from: Callable[[int], Optional[AnyTimed]]) -> Optional[AnyTimed]:
        """
        Send ``motion_from(begin)`` as a trajectory stamped ``begin``, ``START_DELAY_NS`` ahead.

        Planned again from a later start when making the message took the
        node past ``begin - LATE_MARGIN_NS`` (a collector pass, a busy
        machine): the controller jumps a trajectory whose start has passed to
        where it should be by then.  The later start leads by twice what the
        late attempt took: lateness delays the move, it does not jump it.
        ``motion_from`` checks the motion (``limit_check``, raising to refuse
        it) and records it in the tracker; a motion not sent is undone there.
        None when ``motion_from`` is.

        Until ``begin`` the controller interpolates from its own state to the
        first point (a cubic, or a quintic, when its state has velocities):
        that segment is checked too, from the state the node commands now.
        Should it leave the limits, the trajectory starts now instead
        (``begin`` without the lead): the controller then has no such segment
        and takes the checked motion where it is due.
        """
        clock = self._node.get_clock()
        lead = START_DELAY_NS
        attempts = 0
        while True:
            now = clock.now().nanoseconds
            before = self._tracker.state(now)  # the controller's, as far as the node knows
            begin = now + lead
            motion = motion_from(begin)
            if motion is None:
                return None
            points = motion.points()  # checked by ``motion_from``, which refuses by raising
            if lead and before is not None and not self._lead_within(before, points, lead):
                self._tracker.undo()
                lead = 0
                continue
            message = self._message(points, motion.needs_accelerations, begin)
            attempts += 1
            made = clock.now().nanoseconds
            if not lead or made <= begin - LATE_MARGIN_NS or attempts == PLAN_ATTEMPTS:
                break
            self._tracker.undo()
            # a host this slow is slow again: the next start leads by twice what this took
            lead = START_DELAY_NS + 2 * (made - now)
        self._lead_ns = lead
        self._emit(message)
        return motion

    def _lead_within(self, before: ArmState, points: Samples, lead_ns: int) -> bool:
        """Tell whether the controller's way from ``before`` to the first point keeps them."""
        lead = way_in(before, points, lead_ns)
        try:
            self._check(lead, False, before.position)  # a cubic: a state with velocities
            self._check(lead, True, before.position)  # a quintic: with accelerations too
        except LimitRefusal:
            return False
        return True

    def _message(self, points: Samples, accelerations_needed: bool, start_ns: int) -> Any:
        """Return the points as a message (bytes when they may be and can be)."""
        accelerations = points.accelerations if accelerations_needed else None
        writer = self._writer
        if writer is not None:
            return writer.write(points.positions, points.times_ns, points.velocities,
                                accelerations, start_ns)
        msg = joint_trajectory(self._names, points.positions, points.times_ns,
                               points.velocities, accelerations)
        msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(start_ns, 1_000_000_000)
        return msg

    def point(self, theta1: float, theta2: float, goal: Angles,
              start: Optional[Angles]) -> float:
        """
        Send ``goal`` as one point, timed by the velocity limit; return its seconds.

        Only before the arm's state is known (no joint_states yet): nothing to
        plan from.  The controller interpolates from where the arm is.
        """
        config = self._config
        assert config is not None
        point = self._point.points[0]
        self._check(at_rest(np.zeros(1, np.int64), np.array([goal])), False, None)
        point.positions[0], point.positions[1] = goal
        seconds = move_time(start, goal, config.max_joint_velocity, config.min_move_time)
        point.time_from_start = duration(round(seconds * 1e9))
        self._emit(self._point)
        return seconds

    def own_timing(self, path: PathPlan) -> None:
        """Send a path at its own timing (no arm state to time it from), starting now."""
        # positions only: straight lines, which stay between two points as cubics at rest do
        self._check(at_rest(path.times_ns, path.positions), False, None)
        writer = self._writer
        self._emit(writer.write(path.positions, path.times_ns) if writer is not None
                   else joint_trajectory(self._names, path.positions, path.times_ns))

    def stop(self) -> None:
        """Nothing to stop: the controller has each trajectory whole."""

    def track(self, move: Optional[Move]) -> None:
        """Hand ``move`` to the delivery (an action follows its goal's answers)."""
        self._delivery.track(move)

    def destroy(self) -> None:
        """Take the delivery's entity off the graph."""
        self._delivery.destroy()
