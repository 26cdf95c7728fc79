"""
A move or a path as one JointTrajectory, for joint_trajectory_controller.

The ``joint_trajectory`` and ``follow_joint_trajectory`` outputs send the
same trajectories (``TrajectoryOutput``, their common base), on the
controller's topic or as the action's goals (``_deliver``, each mode's
own).  A planned motion is sent at its knots and stamped with its start,
``START_DELAY_NS`` ahead, so that the controller continues the move under
way where the plan does; a trajectory
that took the node too long to make is planned again from a later start
(``timed``).  Before the arm's state is known a move is one point timed by
the velocity limit (``point``), and a path keeps its own timing (``plan``).
On the topic the messages are written as bytes (``trajectory_wire``); a
goal carries the message itself.
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
from typing import Any, Callable, Optional, Tuple

import numpy as np
import numpy.typing as npt
from rclpy.node import Node
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.motion.joint_paths import Angles, move_time, PathPlan
from twobone_ik_ros.motion.limit_check import LimitRefusal, way_in
from twobone_ik_ros.motion.planning import ArmState, Samples, Timed
from twobone_ik_ros.motion.tracking import ArmTracker
from twobone_ik_ros.outputs.base import Parts
from twobone_ik_ros.outputs.commands import duration, joint_trajectory
from twobone_ik_ros.outputs.controller import AnyTimed, ControllerOutput
from twobone_ik_ros.outputs.trajectory_wire import TrajectoryWriter

#: How far ahead a trajectory starts (its stamp): a DDS hop and a controller
#: period, so that the controller has it before it begins.
START_DELAY_NS = 20_000_000
#: A trajectory made later than this before its start is planned again from
#: a later one (``timed``), at most ``PLAN_ATTEMPTS`` times.
LATE_MARGIN_NS = 5_000_000
PLAN_ATTEMPTS = 3


def _nowhere(message: Any) -> None:
    raise RuntimeError('TrajectorySender.configure was not called')


#: What an output checks every trajectory's points with before they go (the
#: points, whether they carry accelerations, where the arm is as they begin or
#: None); it raises ``LimitRefusal`` to refuse them.
Check = Callable[[Samples, bool, Optional[Angles]], None]


class TrajectorySender:
    """Trajectories for the tracker's motions, handed to ``emit`` (a topic or the action)."""

    def __init__(self, node: Node, tracker: ArmTracker) -> None:
        """Send nothing until ``configure``; ``tracker`` holds (and undoes) the motions."""
        self._node = node
        self._tracker = tracker
        self._names: Tuple[str, str] = ('', '')
        self._writer: Optional[TrajectoryWriter] = None
        self._as_bytes = False
        self._emit: Callable[[Any], None] = _nowhere
        self._check: Check = lambda points, accelerations, start: None
        self._point = JointTrajectory()
        self._point.points = [JointTrajectoryPoint()]
        self._point.points[0].positions = array('d', (0.0, 0.0))

    def configure(self, names: Tuple[str, str], emit: Callable[[Any], None],
                  as_bytes: bool, check: Check) -> None:
        """
        Name the joints; ``emit`` takes each trajectory (bytes if ``as_bytes`` and usable).

        ``check`` sees every trajectory's points before it goes, and refuses
        one by raising (``limit_check``): nothing is emitted then.
        """
        self._check = check
        if names != self._names:
            self._names = names
            self._point.joint_names = list(names)
            writer = TrajectoryWriter(names)
            self._writer = writer if writer.usable else None
        self._emit = emit
        self._as_bytes = as_bytes

    @staticmethod
    def due(motion: Timed) -> float:
        """Return the seconds from now to the end of ``motion`` just sent (its lead included)."""
        return START_DELAY_NS / 1e9 + motion.duration

    def timed(self, plan: Callable[[int], Optional[AnyTimed]]) -> Optional[AnyTimed]:
        """
        Send ``plan(begin)`` as a trajectory stamped ``begin``, ``START_DELAY_NS`` ahead.

        Planned again from a later start when making the message took the
        node past ``begin - LATE_MARGIN_NS`` (a collector pass, a busy
        machine): the controller jumps a trajectory whose start has passed to
        where it should be by then.  ``plan`` checks the motion
        (``limit_check``, raising to refuse it) and records it in the tracker;
        a motion not sent is undone there.  None when ``plan`` is.

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
            motion = plan(begin)
            if motion is None:
                return None
            points = motion.points()  # checked by ``plan``, which refuses by raising
            if lead and before is not None and not self._lead_within(before, points, lead):
                self._tracker.undo()
                lead = 0
                continue
            message = self._message(points, motion.needs_accelerations, begin)
            attempts += 1
            if not lead or clock.now().nanoseconds <= begin - LATE_MARGIN_NS or \
                    attempts == PLAN_ATTEMPTS:
                break
            self._tracker.undo()
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
        writer = self._writer if self._as_bytes else None
        if writer is not None:
            return writer.write(points.positions, points.times_ns, points.velocities,
                                accelerations, start_ns)
        msg = joint_trajectory(self._names, points.positions, points.times_ns,
                               points.velocities, accelerations)
        msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(start_ns, 1_000_000_000)
        return msg

    def point(self, goal: Angles, start: Optional[Angles], config: IKConfig) -> float:
        """
        Send ``goal`` as one point, timed by the velocity limit; return its seconds.

        Only before the arm's state is known (no joint_states yet): nothing to
        plan from.  The controller interpolates from where the arm is.
        """
        point = self._point.points[0]
        self._check(at_rest(np.zeros(1, np.int64), np.array([goal])), False, None)
        point.positions[0], point.positions[1] = goal
        seconds = move_time(start, goal, config.max_joint_velocity, config.min_move_time)
        point.time_from_start = duration(round(seconds * 1e9))
        self._emit(self._point)
        return seconds

    def plan(self, plan: PathPlan) -> None:
        """Send a path at its own timing (no arm state to time it from), starting now."""
        # positions only: straight lines, which stay between two points as cubics at rest do
        self._check(at_rest(plan.times_ns, plan.positions), False, None)
        writer = self._writer if self._as_bytes else None
        self._emit(writer.write(plan.positions, plan.times_ns) if writer is not None
                   else joint_trajectory(self._names, plan.positions, plan.times_ns))


def at_rest(times_ns: npt.NDArray[np.int64], positions: npt.NDArray[np.float64]) -> Samples:
    """Return ``positions`` as points at rest: how the check takes points without velocities."""
    still = np.zeros_like(positions)
    return Samples(times_ns, positions, still, still)


class TrajectoryOutput(ControllerOutput):
    """The outputs that send each motion whole, as one JointTrajectory stamped with its start."""

    #: trajectories go as bytes (on a topic); a goal carries the message itself
    _as_bytes = True

    def _connect(self, parts: Parts) -> None:
        self._trajectories = TrajectorySender(self._node, self._tracker)

    def _deliver(self, message: Any) -> None:
        """Hand one trajectory to the controller."""
        raise NotImplementedError

    def _emit(self, message: Any) -> None:
        """
        Deliver a trajectory.

        Nothing listening since the last ``poll``: asked again (a controller
        that has just come up), which costs a graph query only then.
        """
        if not self._listened:
            self._listened = self._listening()
        self._deliver(message)

    def _take(self, config: IKConfig) -> bool:
        changed = super()._take(config)
        self._trajectories.configure(config.joint_names, self._emit, as_bytes=self._as_bytes,
                                     check=self._check)
        return changed

    def _launch(self, plan: Callable[[int], Optional[AnyTimed]]) -> Optional[AnyTimed]:
        """Send the motion planned from ``START_DELAY_NS`` ahead, stamped with its start."""
        return self._trajectories.timed(plan)

    def _due(self, motion: Timed) -> float:
        return self._trajectories.due(motion)

    def _point(self, theta1: float, theta2: float, goal: Angles,
               start: Optional[Angles]) -> float:
        return self._trajectories.point(goal, start, self._config)

    def _send_at_own_timing(self, plan: PathPlan) -> None:
        self._trajectories.plan(plan)
