"""
The arm's state as the node knows it, and the moves planned from it (pure, no ROS).

A move starts from the node's last move evaluated now while the arm follows
it (measured within ``TRACKING_WINDOW_S`` of travel of where that move has
it, now or at the measurement's stamp): the measured sample is a DDS hop and
up to a controller period older than the command, and a node that was not
scheduled can read a target before the states that came meanwhile.
Otherwise it starts from what the arm measurably does: its position, its
velocity (the joint states', else from its last two positions,
``MeasuredVelocity``), no acceleration.  A stale measurement gives way to the
last move.  ``JointReader`` takes the arm's two joints out of a joint state:
by name, in any order, a non-finite value refused.  Times are nanoseconds
of the ROS clock.  Why, with what it prevents: doc/motion.md.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import math
from typing import Callable, List, Optional, Sequence, Tuple

from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.motion.limit_check import LimitRefusal
from twobone_ik_ros.motion.planning import (
    ArmState, HoldStill, MotionSequence, Planner, Timed, Unplanned)

#: What ``ArmTracker.move`` asks of a move before it takes it: raise
#: ``LimitRefusal`` to refuse it (``outputs``: the one check, ``limit_check``).
Check = Callable[[Timed], None]

#: How far (in seconds of travel at the velocity limit) the measured arm may
#: be from the node's move and still be taken to follow it.
TRACKING_WINDOW_S = 0.1
#: Two positions further apart than this many times the velocity limit allows
#: over their stamps are a jump (a reset, an arm put somewhere), not a motion.
JUMP_FACTOR = 2.0
_NS = 1e9
_AT_REST = (0.0, 0.0)


class MeasuredVelocity:
    """The arm's velocity from its last two measured positions, over their stamps."""

    def __init__(self) -> None:
        """Know nothing yet: at rest."""
        self._last: Optional[Tuple[Angles, int]] = None

    def forget(self) -> None:
        """Start again from the next position."""
        self._last = None

    def estimate(self, position: Angles, stamp_ns: Optional[int], limit: float) -> Angles:
        """
        Return the velocity the step from the last position to ``position`` gives; remember it.

        At rest for the first position, for the same position again (an arm
        measured still), for a stamp that is not later than the last one
        (none, the same, a clock that jumped back), and for a step faster than
        ``JUMP_FACTOR`` times the velocity ``limit``: no arm within its
        limits moves so; the arm jumped (it was put there), and stands there.
        """
        last, self._last = self._last, (position, stamp_ns or 0)
        if last is None or not stamp_ns or stamp_ns <= last[1] or position == last[0]:
            return _AT_REST
        seconds = (stamp_ns - last[1]) / _NS
        velocity = ((position[0] - last[0][0]) / seconds, (position[1] - last[0][1]) / seconds)
        if max(abs(velocity[0]), abs(velocity[1])) > JUMP_FACTOR * limit:
            return _AT_REST
        return velocity


class ArmTracker:
    """The last move the node commanded, the arm's last measurement, and new moves."""

    def __init__(self, planner: Planner) -> None:
        """Plan with ``planner`` (replaced by ``configure`` when the limits change)."""
        self.planner = planner
        self.motion: Optional[Timed] = None
        self.started_ns = 0
        self._before: Tuple[Optional[Timed], int] = (None, 0)
        self.measured: Optional[Angles] = None
        self.measured_velocity: Optional[Angles] = None
        self._measured_ns = 0  # the measurement's stamp (0: none)
        self._velocity = MeasuredVelocity()  # where the joint states carry none
        self._velocity_estimated = False  # the last measured velocity is ``_velocity``'s
        self._last_heard: Optional[Angles] = None  # kept when the measurement goes stale
        #: moves planned as a stop and a move from rest (``move``)
        self.braked = 0

    def configure(self, planner: Planner) -> None:
        """Plan the next moves with ``planner``; the move under way stays."""
        self.planner = planner

    def forget(self) -> None:
        """Drop the measurement and the move (another arm, or another output)."""
        self.motion, self.measured, self.measured_velocity = None, None, None
        self._last_heard = None
        self._velocity.forget()

    def forget_measurement(self) -> None:
        """Drop the measurement (stale): moves start from the commands until the next one."""
        self.measured, self.measured_velocity = None, None
        self._velocity.forget()

    def drop_move(self) -> None:
        """Forget the move (a path, timed on its own, drives the arm now)."""
        self.motion = None

    def run(self, motion: Timed, started_ns: int) -> None:
        """Record ``motion`` (a move or a timed path) as the one under way from ``started_ns``."""
        self._before = (self.motion, self.started_ns)
        self.motion, self.started_ns = motion, started_ns

    def delay(self, late_ns: int) -> None:
        """
        Shift the move under way ``late_ns`` later (earlier if negative).

        A stream that could not command some cycles (the node was late) did
        not move the arm through them; its next command continues the move
        one period on from the last, never the part the arm missed.
        """
        self.started_ns += late_ns

    def undo(self) -> None:
        """Forget the motion ``run`` recorded last (not sent): the one before is under way."""
        self.motion, self.started_ns = self._before

    def measure(self, position: Angles, velocity: Optional[Angles],
                stamp_ns: Optional[int] = None) -> None:
        """
        Record a measured joint state stamped ``stamp_ns`` (``velocity`` None: it carries none).

        Without a velocity, the positions over their stamps give one
        (``MeasuredVelocity``).
        """
        estimate = self._velocity.estimate(position, stamp_ns, self.planner.limits.velocity)
        self.measured = self._last_heard = position
        self._measured_ns = stamp_ns or 0
        self._velocity_estimated = velocity is None
        self.measured_velocity = velocity if velocity is not None else estimate

    @property
    def known(self) -> bool:
        """Tell whether moves can be planned: the arm was heard, or a move was planned."""
        return self._last_heard is not None or self.motion is not None

    def commanded(self, now_ns: int) -> Optional[ArmState]:
        """Return the last move's state at ``now_ns`` (None without a move)."""
        if self.motion is None:
            return None
        return self.motion.at((now_ns - self.started_ns) / _NS)

    def _follows(self, measured: Angles, commanded: Angles, now_ns: int) -> bool:
        """Tell whether the arm ``measured`` follows the moves: near them now, or at its stamp."""
        window = TRACKING_WINDOW_S * self.planner.limits.velocity
        if _within(measured, commanded, window):
            return True
        stamp_ns = self._measured_ns
        if not stamp_ns or stamp_ns >= now_ns:
            return False
        then = self._commanded_when(stamp_ns)
        return then is not None and _within(measured, then, window)

    def _commanded_when(self, stamp_ns: int) -> Optional[Angles]:
        """Return where the node's moves had the arm at ``stamp_ns`` (None without a move)."""
        motion, started_ns = self.motion, self.started_ns
        if stamp_ns < started_ns and self._before[0] is not None:
            motion, started_ns = self._before  # the move this one took over from
        if motion is None:
            return None
        return motion.at((stamp_ns - started_ns) / _NS).position

    def moving(self, now_ns: int) -> bool:
        """Tell whether the last move is still under way at ``now_ns``."""
        return self.motion is not None and now_ns - self.started_ns < self.motion.duration * _NS

    def state(self, now_ns: int) -> Optional[ArmState]:
        """Return where the next move starts (see the module docstring); None if unknown."""
        commanded = self.commanded(now_ns)
        measured = self.measured
        follows = commanded is not None and (
            measured is None or self._follows(measured, commanded.position, now_ns))
        if follows and self.moving(now_ns):
            return commanded
        if measured is None:
            if commanded is None and self._last_heard is not None:
                return ArmState(self._last_heard)
            return commanded
        if follows and self._velocity_estimated:
            # at the end of the move the node planned: at rest (the last two positions are
            # its last step, not a velocity it still has)
            return ArmState(measured)
        return ArmState(measured, self.measured_velocity or _AT_REST)

    def move(self, goal: Angles, now_ns: int, check: Check) -> Optional[Timed]:
        """
        Plan, check and record the move to ``goal`` starting at ``now_ns``; None: no state.

        The time-optimal move first.  From a moving state it may pass a limit
        before it turns (ruckig overshoots to arrive sooner), where stopping
        first would not: then the quickest stop within the limits followed by
        the move from rest (a ``MotionSequence``, ``braked`` counts them).  A stop goes
        no further than braking at the limits does, so when the move under
        way keeps the limits, so does its stop.  ``LimitRefusal`` (the first
        plan's) when neither passes ``check``; ``Unplanned`` from the planner.
        """
        start = self.state(now_ns)
        if start is None:
            return None
        motion: Timed = self.planner.plan(start, goal)
        try:
            check(motion)
        except LimitRefusal as refusal:
            if start.velocity == (0.0, 0.0) and start.acceleration == (0.0, 0.0):
                raise
            stop = self.planner.stop(start)
            motion = MotionSequence((stop, self.planner.plan(ArmState(stop.goal), goal)))
            try:
                check(motion)
            except LimitRefusal:
                raise refusal from None
            self.braked += 1
        self.run(motion, now_ns)
        return motion

    def replan_within(self, now_ns: int, goal: Optional[Angles],
                      inside: Callable[[Angles], Angles], check: Check) -> Optional[Timed]:
        """
        Re-plan the motion under way at ``now_ns`` within new limits; None if it is over.

        ``goal`` is where the move was going, held inside the new limits
        (None for a path: the arm stops); ``inside`` holds a position inside
        them; ``check`` is theirs.  The first of these that is planned and
        passes it is recorded and returned: the move from the arm's state; the
        quickest stop, then a move from rest to the goal (or back inside from
        where it stopped); a move from rest where the arm is, which steps the
        velocity to zero but cannot leave the limits (each joint moves
        monotonically toward a goal inside them); the arm held where it is
        (``HoldStill``), when ruckig plans none of these (a state it cannot brake
        from under the new limits, a move longer than it can time).
        """
        start = self.state(now_ns)
        if start is None or not self.moving(now_ns):
            return None
        planner = self.planner

        def direct() -> Timed:
            assert goal is not None
            return planner.plan(start, goal)

        def stop_then_go() -> Timed:
            stop = planner.stop(start)
            after = goal if goal is not None else inside(stop.goal)
            return stop if after == stop.goal else MotionSequence(
                (stop, planner.plan(ArmState(stop.goal), after)))

        def from_rest() -> Timed:
            return planner.plan(ArmState(start.position),
                                goal if goal is not None else inside(start.position))

        for plan in (direct, stop_then_go, from_rest) if goal is not None else (
                stop_then_go, from_rest):
            try:
                motion = plan()
                check(motion)
            except (Unplanned, LimitRefusal):
                continue
            self.run(motion, now_ns)
            return motion
        still = HoldStill(start.position)
        self.run(still, now_ns)
        return still


def _within(a: Tuple[float, float], b: Tuple[float, float], distance: float) -> bool:
    return abs(a[0] - b[0]) <= distance and abs(a[1] - b[1]) <= distance


class JointReader:
    """The arm's (theta1, theta2) and their velocities in a JointState's arrays."""

    def __init__(self) -> None:
        """Read nothing until ``name`` names the joints."""
        self._joints: Tuple[str, str] = ('', '')
        self._names: Optional[List[str]] = None  # the names the index was found for
        self._index: Optional[Tuple[int, int]] = None

    def name(self, joints: Tuple[str, str]) -> None:
        """Read the joints ``joints`` from now on."""
        self._joints, self._names, self._index = joints, None, None

    def read(self, names: Sequence[str], position: Sequence[float],
             velocity: Sequence[float]) -> Optional[Tuple[Angles, Optional[Angles]]]:
        """
        Return (positions, velocities or None) of the two joints; None if not there or not finite.

        The joints' indices are looked up once per list of names (a
        broadcaster sends the same one every time).
        """
        if names != self._names:
            self._names = list(names)
            try:
                self._index = (self._names.index(self._joints[0]),
                               self._names.index(self._joints[1]))
            except ValueError:
                self._index = None
        index = self._index
        if index is None:
            return None
        last = max(index)
        if len(position) <= last:
            return None
        angles = (position[index[0]], position[index[1]])
        if not (math.isfinite(angles[0]) and math.isfinite(angles[1])):
            return None
        speed: Optional[Angles] = None
        if len(velocity) > last:
            speed = (velocity[index[0]], velocity[index[1]])
            if not (math.isfinite(speed[0]) and math.isfinite(speed[1])):
                speed = None  # joint_state_broadcaster's NaN: no such interface
        return angles, speed
