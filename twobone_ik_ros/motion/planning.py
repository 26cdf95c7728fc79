"""
One move of the arm within velocity, acceleration and jerk limits, by ruckig (pure, no ROS).

Ruckig plans, from any state, the time-optimal motion to a state at rest
within per-joint limits, and stretches the faster joint so both arrive
together; MoveIt uses it for the same job (doc/design.md).  Without a jerk
limit (``max_joint_jerk`` 0) the profiles are acceleration-limited.  Each
joint's motion is a polynomial of degree 3 at most between the knots, where
some joint's jerk switches; joint_trajectory_controller joins two points
that carry positions, velocities and accelerations with the quintic that
matches them, which for a cubic is that cubic, so points at the knots make
the controller follow the plan exactly.  ruckig is imported by the first
``Planner.plan``: a display runs without it.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import bisect
import math
from typing import Any, List, NamedTuple, Optional, Protocol, Sequence, Tuple

from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.motion.samples import joined, Row, Samples

_NS = 1_000_000_000
#: Knots closer than this are one point: over a shorter interval the
#: controller's polynomial magnifies ruckig's rounding (measured: 22 times
#: the acceleration limit between knots 1 us apart), and no controller
#: samples that finely.
MIN_KNOT_SPACING_S = 1e-4
#: Without a jerk limit, the moves that lead into a path ramp their
#: acceleration over this long (``Planner.continuous``): a path's points carry
#: accelerations, which a profile whose acceleration steps cannot give.
RAMP_S = 0.02
_AT_REST = (0.0, 0.0)
#: How long a ``HoldStill`` lasts: one point after its first, for a controller.
HOLD_S = 1e-3


class Limits(NamedTuple):
    """The same limits for both joints; ``jerk`` is ``math.inf`` when not limited."""

    velocity: float
    acceleration: float
    jerk: float

    @classmethod
    def of(cls, velocity: float, acceleration: float, jerk: float) -> 'Limits':
        """Return limits from parameter values (a jerk of 0 means not limited)."""
        return cls(velocity, acceleration, jerk if jerk > 0.0 else math.inf)


class ArmState(NamedTuple):
    """Where the joints are and how they move: rad, rad/s, rad/s^2."""

    position: Angles
    velocity: Angles = _AT_REST
    acceleration: Angles = _AT_REST


class Timed(Protocol):
    """What the node runs an arm along: a move (``Motion``) or a path (``path_timing``)."""

    @property
    def duration(self) -> float:
        """Return its seconds."""

    @property
    def goal(self) -> Angles:
        """Return where it ends, at rest."""

    @property
    def needs_accelerations(self) -> bool:
        """
        Tell whether the controller follows the points only with their accelerations.

        Quintics; else they go without, and it interpolates cubics, which is
        what a profile whose acceleration steps at the points needs.
        """

    def at(self, seconds: float) -> ArmState:
        """Return the state ``seconds`` after the start (the end, at rest, after it)."""

    def points(self) -> Samples:
        """Return the points a controller interpolates exactly (see the module docstring)."""


#: The least and greatest position of each joint over a motion: ((low1, low2), (high1, high2)).
Extrema = Tuple[Angles, Angles]


def extrema_of(motion: Timed) -> Optional[Extrema]:
    """Return a motion's extreme positions where it knows them in closed form (else None)."""
    known = getattr(motion, 'extrema', None)
    return known() if known is not None else None


class Motion:
    """A planned move: its state at any time, and the points a controller needs."""

    def __init__(self, trajectory: Any, start: ArmState, goal: Angles,
                 needs_accelerations: bool) -> None:
        """Wrap ruckig's ``trajectory`` from ``start`` to ``goal`` (at rest)."""
        self._trajectory = trajectory
        self.start = start
        self.goal = goal
        self.duration: float = trajectory.duration
        #: jerk-limited: the acceleration is continuous, one value at each point
        self.needs_accelerations = needs_accelerations
        self._points: Optional[Samples] = None  # made by the first ``points`` (checked, sent)

    def extrema(self) -> Extrema:
        """Return each joint's least and greatest position over the move (ruckig's)."""
        first, second = self._trajectory.position_extrema
        return (first.min, second.min), (first.max, second.max)

    def at(self, seconds: float) -> ArmState:
        """Return the state ``seconds`` after the start; the goal, at rest, from the end on."""
        if seconds >= self.duration:
            return ArmState(self.goal)
        position, velocity, acceleration = self._trajectory.at_time(max(seconds, 0.0))
        return ArmState((position[0], position[1]), (velocity[0], velocity[1]),
                        (acceleration[0], acceleration[1]))

    def knots(self) -> List[float]:
        """
        Return the times in (0, duration] where some joint's profile changes phase.

        Ruckig gives each joint a profile of phases (a braking part first when
        the start exceeds a limit); between two of these times every joint is
        one polynomial.  Of two knots closer than ``MIN_KNOT_SPACING_S`` the
        later stays: between them is ruckig's rounding.  (Plain floats: for a
        dozen values numpy's per-call cost is most of the time.)
        """
        end = self.duration
        times = {end}
        for profile in self._trajectory.profiles[0]:
            t = 0.0
            for phases in (profile.brake.t, profile.accel.t, profile.t):
                for phase in phases:
                    t += phase
                    if MIN_KNOT_SPACING_S <= t < end:
                        times.add(t)
        knots: List[float] = []
        for t in sorted(times, reverse=True):
            if not knots or knots[-1] - t >= MIN_KNOT_SPACING_S:
                knots.append(t)
        knots.reverse()
        return knots

    def samples(self, seconds: Sequence[float]) -> Samples:
        """Return the motion at ``seconds`` (the last at or past the end: the goal, at rest)."""
        at_time, end, goal = self._trajectory.at_time, self.duration, self.goal
        rows: List[Row] = []
        for t in seconds:  # ``at`` unrolled: a move's points are most of its cost
            if t >= end:
                rows.append((goal[0], goal[1], 0.0, 0.0, 0.0, 0.0))
            else:
                p, v, a = at_time(t if t > 0.0 else 0.0)
                rows.append((p[0], p[1], v[0], v[1], a[0], a[1]))
        return Samples.of_rows([round(t * _NS) for t in seconds], rows)

    def points(self) -> Samples:
        """Return the controller's points: the start, the motion at every knot, the goal (once)."""
        if self._points is None:
            self._points = self.samples([0.0, *self.knots()])
        return self._points


class MotionSequence:
    """
    Timed motions run one after the other as one (a stop, then a move; a path's pieces).

    Where two meet they share a point, given once, as the later one's first.
    """

    def __init__(self, pieces: Sequence[Timed]) -> None:
        """Run ``pieces`` in order, each from where and how the one before ends."""
        self.pieces = list(pieces)
        self._starts = [0.0]
        for piece in self.pieces:
            self._starts.append(self._starts[-1] + piece.duration)
        self.duration: float = self._starts[-1]
        self.needs_accelerations = all(piece.needs_accelerations for piece in self.pieces)
        self._points: Optional[Samples] = None

    @property
    def goal(self) -> Angles:
        """Return where the last piece ends."""
        return self.pieces[-1].goal

    def extrema(self) -> Optional[Extrema]:
        """Return the pieces' extreme positions together (None where one piece has none)."""
        found = [extrema_of(piece) for piece in self.pieces]
        if any(one is None for one in found):
            return None
        lows, highs = zip(*found)  # type: ignore[misc]
        return ((min(low[0] for low in lows), min(low[1] for low in lows)),
                (max(high[0] for high in highs), max(high[1] for high in highs)))

    def at(self, seconds: float) -> ArmState:
        """Return the state ``seconds`` after the start; the last piece's end after the end."""
        index = max(0, min(bisect.bisect_right(self._starts, seconds) - 1, len(self.pieces) - 1))
        return self.pieces[index].at(seconds - self._starts[index])

    def points(self) -> Samples:
        """
        Return the controller's points: each piece's, one after the other.

        Where two pieces meet the point is the later piece's first: a move's
        last point says "at rest", not the acceleration it arrives with.
        Made once (checked, then sent).
        """
        if self._points is None:
            last = len(self.pieces) - 1
            self._points = joined([(piece.points(), round(begin * _NS), index == last)
                                   for index, (piece, begin) in enumerate(
                                       zip(self.pieces, self._starts))])
        return self._points


class HoldStill:
    """
    The arm held where it is, at rest: the one motion that needs no planner.

    What a motion under way becomes when new limits leave nothing else to
    plan (``ArmTracker.replan_within``): its velocity steps to zero, its position
    stays, and so it goes no further out.  Two points, ``HOLD_S`` apart.
    """

    def __init__(self, position: Angles) -> None:
        """Hold ``position``."""
        self.goal = position
        self.duration = HOLD_S
        self.needs_accelerations = False

    def at(self, seconds: float) -> ArmState:
        """Return the position, at rest, whenever."""
        return ArmState(self.goal)

    def extrema(self) -> Extrema:
        """Return the position as both extremes."""
        return self.goal, self.goal

    def points(self) -> Samples:
        """Return the position twice, at rest."""
        row = (self.goal[0], self.goal[1], 0.0, 0.0, 0.0, 0.0)
        return Samples.of_rows([0, round(HOLD_S * _NS)], [row, row])


class Unplanned(Exception):
    """
    A move ruckig did not plan: ``reason`` is a label for the counters, the text says more.

    ``refused_input`` (a state it cannot read, such as a non-finite value),
    its result's name when it names one, or ``unnamed_result`` for a result
    its Python binding has no name for (ruckig 0.x raises ``ValueError('-101
    is not a valid Result')`` for a move longer than its duration bound).
    """

    def __init__(self, reason: str, text: str) -> None:
        """Carry ``reason`` and ``text``."""
        super().__init__(f'{reason}: {text}')
        self.reason = reason


class Planner:
    """Plans moves for one set of limits; ruckig's objects are made once (at the first plan)."""

    def __init__(self, limits: Limits, min_duration: float = 0.0) -> None:
        """Hold ``limits`` and the shortest move, in seconds (``min_move_time``)."""
        self.limits = limits
        self.min_duration = min_duration
        self._ruckig: Any = None
        self._input: Any = None
        self._stop: Any = None
        self._continuous: Optional[Planner] = None

    def _start(self) -> None:
        """Import ruckig and make its planner and inputs (a move, a stop), once."""
        from ruckig import ControlInterface, InputParameter, Ruckig
        limits = self.limits
        inputs = []
        for _ in range(2):
            given = InputParameter(2)
            given.max_velocity = [limits.velocity] * 2
            given.max_acceleration = [limits.acceleration] * 2
            given.max_jerk = [limits.jerk] * 2
            given.target_velocity = [0.0, 0.0]
            given.target_acceleration = [0.0, 0.0]
            inputs.append(given)
        self._input, self._stop = inputs
        if self.min_duration > 0.0:
            self._input.minimum_duration = self.min_duration
        self._stop.control_interface = ControlInterface.Velocity
        self._ruckig = Ruckig(2)

    def continuous(self) -> 'Planner':
        """
        Return a planner of moves with a continuous acceleration: this or a jerk-limited twin.

        Without a jerk limit the twin's jerk ramps the acceleration limit in
        ``RAMP_S``: the move before a path, whose points carry accelerations.
        """
        if math.isfinite(self.limits.jerk):
            return self
        if self._continuous is None:
            limits = self.limits._replace(jerk=self.limits.acceleration / RAMP_S)
            self._continuous = Planner(limits, self.min_duration)
        return self._continuous

    def plan(self, start: ArmState, goal: Angles,
             arrival_acceleration: Angles = _AT_REST) -> Motion:
        """
        Return the move from ``start`` to ``goal`` (at rest), both joints arriving together.

        ``Unplanned`` when ruckig does not plan it; the caller counts it.
        Ruckig's time-synchronised motion is time-optimal for the slower joint
        under these limits.  ``arrival_acceleration`` (jerk-limited planners
        only): the move ends still but already accelerating so, as a path starts.
        """
        if self._ruckig is None:
            self._start()
        given = self._input
        # a path's start can ask for its limit and a rounding more, which ruckig refuses
        most = self.limits.acceleration
        given.target_acceleration = [min(max(a, -most), most) for a in arrival_acceleration]
        given.target_position = list(goal)
        return self._calculate(given, start, goal)

    def stop(self, start: ArmState) -> Motion:
        """
        Return the quickest stop from ``start`` within the limits, both joints still together.

        A joint's stop is monotone: it goes no further than braking at the
        limits takes it, the least distance the arm can stop in.  Its goal
        is where it comes to rest.  ``Unplanned`` as ``plan``.
        """
        if self._ruckig is None:
            self._start()
        return self._calculate(self._stop, start, None)

    def _calculate(self, given: Any, start: ArmState, goal: Optional[Angles]) -> Motion:
        """Run ruckig on ``given`` from ``start``, to ``goal`` (None: where the motion ends)."""
        from ruckig import Result, RuckigError, Trajectory
        given.current_position = list(start.position)
        given.current_velocity = list(start.velocity)
        given.current_acceleration = list(start.acceleration)
        trajectory = Trajectory(2)
        try:
            result = self._ruckig.calculate(given, trajectory)
        except RuckigError as error:  # raised for input it rejects (NaN, inf)
            raise Unplanned('refused_input', str(error)) from None
        except ValueError as error:  # a result the binding has no name for
            raise Unplanned('unnamed_result', str(error)) from None
        if result not in (Result.Working, Result.Finished):
            raise Unplanned(str(result.name), 'ruckig found no motion')
        if goal is None:
            end = trajectory.at_time(trajectory.duration)[0]
            goal = (float(end[0]), float(end[1]))
        return Motion(trajectory, start, goal, math.isfinite(self.limits.jerk))
