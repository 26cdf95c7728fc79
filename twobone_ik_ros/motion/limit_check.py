"""
The one check of what the node commands: within the joints' limits, between the points too.

Every command leaves the node through ``outputs``, which asks this module
first (pure: numpy, no ROS): a position must lie within the limits, and a
motion's points and what the controller makes between them too.
joint_trajectory_controller joins two points by the polynomial that matches
what they carry (a line, a cubic, a quintic); a polynomial lies within the
hull of its Bernstein coefficients, which settles nearly every segment at
once, and the rest are halved until known to a billionth of the segment.
A joint held outside its limits (limits changed at runtime) may be commanded
back, never further out (``Bounds.around``; ``bounds.Envelope`` for a
stream).  Extremes inside a segment get ``ROUNDING`` of slack for the float
rounding of a polynomial whose extreme is the limit itself.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.motion.bounds import Bounds
from twobone_ik_ros.motion.planning import ArmState, extrema_of, Timed
from twobone_ik_ros.motion.samples import Samples

#: Rad past a limit that an extreme between two points may show from rounding alone.
ROUNDING = 1e-12
_NS = 1e9
#: How far inside the limits a planned motion's extreme positions (closed form,
#: ``planning.extrema_of``) must lie for its points and curve to need no check: the
#: controller's curve through them is the planner's own polynomials but where knots
#: closer than ``MIN_KNOT_SPACING_S`` were merged, which moves it by 5e-8 rad at most
#: (an acceleration step of 5 rad/s^2 over 1e-4 s); twenty times that.
CLEARANCE = 1e-6


class Excursion(NamedTuple):
    """The worst place a command goes past a limit."""

    joint: int  # 0 the shoulder, 1 the elbow
    position: float
    limit: float
    seconds: float  # from the start of the motion (0 for a position)

    @property
    def distance(self) -> float:
        """Return how far past the limit, rad."""
        return abs(self.position - self.limit)

    def describe(self, names: Tuple[str, str]) -> str:
        """Say it in words, with the joint's name."""
        when = f' at {self.seconds:.3g} s' if self.seconds else ''
        return (f'{names[self.joint]} to {self.position:.6g} rad, {self.distance:.3g} rad past '
                f'its limit {self.limit:.6g}{when}')


class LimitRefusal(Exception):
    """A command refused because it would leave the joint limits (``excursion`` says where)."""

    def __init__(self, excursion: Excursion) -> None:
        """Carry ``excursion``."""
        super().__init__(excursion)
        self.excursion = excursion


def position_excursion(position: Angles, bounds: Bounds) -> Optional[Excursion]:
    """Return how ``position`` leaves ``bounds``, or None when it is within them (exactly)."""
    for joint in (0, 1):
        value = position[joint]
        if value < bounds.lower[joint]:
            return Excursion(joint, value, bounds.lower[joint], 0.0)
        if value > bounds.upper[joint]:
            return Excursion(joint, value, bounds.upper[joint], 0.0)
    return None


def motion_excursion(points: Samples, accelerations: bool, bounds: Bounds,
                     velocities: bool = True,
                     start: Optional[Angles] = None) -> Optional[Excursion]:
    """
    Return the worst excursion of ``points`` as a controller follows them, or None.

    ``velocities`` and ``accelerations`` say what the points carry, and so
    which polynomial joins two of them (see the module docstring).  ``start``
    is where the arm is as the motion begins (None: within the limits): a
    joint outside them there is held to ``bounds.around(start)`` up to its
    first point inside, to ``bounds`` from that point on.  A move's few
    points are checked in plain floats (``_few_excursion``: numpy's cost per
    call is most of the time for them), a path's many on arrays; both do the
    same operations in the same order, so they find the same excursion.
    """
    if len(points) <= FEW:
        return _few_excursion(points, accelerations, bounds, velocities, start)
    return _many_excursion(points, accelerations, bounds, velocities, start)


def _many_excursion(points: Samples, accelerations: bool, bounds: Bounds, velocities: bool,
                    start: Optional[Angles]) -> Optional[Excursion]:
    """Return what ``motion_excursion`` does, for many points, on arrays."""
    seconds = points.times_ns / _NS
    worst: Optional[Excursion] = None
    for joint in (0, 1):
        p = points.positions[:, joint]
        lower, upper = _held(p, bounds, joint, start)
        if (np.any(p < lower) or np.any(p > upper)) if np.ndim(lower) else \
                (p.min() < lower or p.max() > upper):  # a point itself
            past = np.maximum(lower - p, p - upper)
            index = int(np.argmax(past))
            if past[index] > 0.0:
                limit = _at(lower, index) if p[index] < _at(lower, index) else _at(upper, index)
                worst = _worse(worst, Excursion(joint, float(p[index]), limit,
                                                float(seconds[index])))
        if not velocities or p.shape[0] < 2:
            continue  # straight lines between points within the bounds stay within them
        v = points.velocities[:, joint]
        a = points.accelerations[:, joint] if accelerations else None
        hull = _bernstein(seconds, p, v, a)
        # a segment is held to the bounds of its first point, the entry's segment widened
        low_end = lower[:-1] if np.ndim(lower) else lower
        high_end = upper[:-1] if np.ndim(upper) else upper
        suspect = np.flatnonzero((hull.min(axis=0) < low_end) | (hull.max(axis=0) > high_end))
        for found in suspect:
            segment = int(found)
            low, high, at = _extremes(hull[:, segment].tolist(), float(seconds[segment]),
                                      float(seconds[segment + 1] - seconds[segment]))
            if low < _at(low_end, segment) - ROUNDING:
                worst = _worse(worst, Excursion(joint, low, _at(low_end, segment), at[0]))
            if high > _at(high_end, segment) + ROUNDING:
                worst = _worse(worst, Excursion(joint, high, _at(high_end, segment), at[1]))
    return worst


#: Up to this many points (a move's: its knots) are checked in plain floats.
FEW = 32


def _few_excursion(points: Samples, accelerations: bool, bounds: Bounds, velocities: bool,
                   start: Optional[Angles]) -> Optional[Excursion]:
    """Return what ``motion_excursion`` does, for a few points, without numpy's per-call cost."""
    times, rows = points.rows()
    seconds = [t / _NS for t in times]
    count = len(seconds)
    speeds = velocities and count > 1
    pulls = accelerations and speeds
    worst: Optional[Excursion] = None
    for joint in (0, 1):
        p = [row[joint] for row in rows]
        lower, upper = bounds.lower[joint], bounds.upper[joint]
        lows, highs = [lower] * count, [upper] * count
        if start is not None and not lower <= start[joint] <= upper:
            entry = next((i for i, value in enumerate(p) if lower <= value <= upper), count)
            for i in range(entry):
                lows[i], highs[i] = min(lower, start[joint]), max(upper, start[joint])
        past = [max(lows[i] - p[i], p[i] - highs[i]) for i in range(count)]
        index = past.index(max(past))
        if past[index] > 0.0:
            limit = lows[index] if p[index] < lows[index] else highs[index]
            worst = _worse(worst, Excursion(joint, p[index], limit, seconds[index]))
        if not speeds:
            continue  # straight lines between points within the bounds stay within them
        v = [row[2 + joint] for row in rows]
        a = [row[4 + joint] for row in rows] if pulls else None
        for i in range(count - 1):
            h = seconds[i + 1] - seconds[i]
            p0, p1, v0, v1 = p[i], p[i + 1], v[i] * h, v[i + 1] * h
            if a is None:  # cubic
                hull = [p0, p0 + v0 / 3.0, p1 - v1 / 3.0, p1]
            else:
                a0, a1 = a[i] * h * h, a[i + 1] * h * h
                hull = [p0, p0 + v0 / 5.0, p0 + 2.0 * v0 / 5.0 + a0 / 20.0,
                        p1 - 2.0 * v1 / 5.0 + a1 / 20.0, p1 - v1 / 5.0, p1]
            if min(hull) >= lows[i] and max(hull) <= highs[i]:
                continue
            low, high, at = _extremes(hull, seconds[i], h)
            if low < lows[i] - ROUNDING:
                worst = _worse(worst, Excursion(joint, low, lows[i], at[0]))
            if high > highs[i] + ROUNDING:
                worst = _worse(worst, Excursion(joint, high, highs[i], at[1]))
    return worst


def _held(p: npt.NDArray[np.float64], bounds: Bounds, joint: int,
          start: Optional[Angles]) -> Tuple[Any, Any]:
    """
    Return the lower and upper bound of each point of ``joint`` (floats: the same for all).

    Widened to ``start`` up to the first point inside ``bounds`` (the entry),
    when the joint starts outside them; the bounds themselves otherwise.
    """
    lower, upper = bounds.lower[joint], bounds.upper[joint]
    if start is None or lower <= start[joint] <= upper:
        return lower, upper
    inside = (p >= lower) & (p <= upper)
    entry = int(np.argmax(inside)) if inside.any() else p.shape[0]
    low, high = np.full(p.shape, lower), np.full(p.shape, upper)
    low[:entry], high[:entry] = min(lower, start[joint]), max(upper, start[joint])
    return low, high


def _at(bound: Any, index: int) -> float:
    """Return ``bound`` at ``index``: an array's element, or the float itself."""
    return float(bound[index]) if np.ndim(bound) else float(bound)


def check_planned(motion: Timed, bounds: Bounds) -> None:
    """
    Raise ``LimitRefusal`` if a motion planned from the arm's state leaves ``bounds``.

    A motion whose extreme positions lie ``CLEARANCE`` inside the bounds
    cannot leave them (its first point, the arm's state, among them); any
    other is checked point by point and segment by segment
    (``check_motion``, from its first point).
    """
    found = extrema_of(motion)
    if found is not None:
        (low1, low2), (high1, high2) = found
        lower, upper = bounds.lower, bounds.upper
        if (low1 >= lower[0] + CLEARANCE and low2 >= lower[1] + CLEARANCE
                and high1 <= upper[0] - CLEARANCE and high2 <= upper[1] - CLEARANCE):
            return
    points = motion.points()
    check_motion(points, motion.needs_accelerations, bounds, start_position(points))


def check_motion(points: Samples, accelerations: bool, bounds: Bounds,
                 start: Optional[Angles]) -> None:
    """
    Raise ``LimitRefusal`` if ``points``, or the controller's curve through them, leave ``bounds``.

    ``start`` is where the arm is as they begin (``motion_excursion``): the
    first point for a motion planned from the arm's state (``start_position``), None
    for points sent without one (a single point, a path at its own timing).
    """
    excursion = motion_excursion(points, accelerations, bounds, start=start)
    if excursion is not None:
        raise LimitRefusal(excursion)


def controller_approach(before: ArmState, points: Samples, lead_ns: int) -> Samples:
    """
    Return the controller's way to a trajectory's first point: from ``before``, ``lead_ns`` long.

    joint_trajectory_controller interpolates from its own state, as it takes
    the trajectory, to the first point at the trajectory's start: these two
    points, checked like any others (a cubic when its state has velocities,
    a quintic when it has accelerations too).
    """
    (p1, p2), (v1, v2), (a1, a2) = before
    return Samples.of_rows([0, lead_ns], [(p1, p2, v1, v2, a1, a2), points.first()])


def at_rest(times_ns: npt.NDArray[np.int64], positions: npt.NDArray[np.float64]) -> Samples:
    """Return ``positions`` as points at rest: how the check takes points without velocities."""
    still = np.zeros_like(positions)
    return Samples(times_ns, positions, still, still)


def start_position(points: Samples) -> Angles:
    """Return the first position of ``points``: where a motion planned from the arm starts."""
    row = points.first()
    return (float(row[0]), float(row[1]))


def _worse(one: Optional[Excursion], other: Excursion) -> Excursion:
    return other if one is None or other.distance > one.distance else one


def _bernstein(seconds: npt.NDArray[np.float64], p: npt.NDArray[np.float64],
               v: npt.NDArray[np.float64],
               a: Optional[npt.NDArray[np.float64]]) -> npt.NDArray[np.float64]:
    """Return each segment's Bernstein coefficients (rows), whose hull holds the segment."""
    h = np.diff(seconds)
    p0, p1, v0, v1 = p[:-1], p[1:], v[:-1] * h, v[1:] * h
    if a is None:  # cubic
        return np.stack((p0, p0 + v0 / 3.0, p1 - v1 / 3.0, p1))
    a0, a1 = a[:-1] * h * h, a[1:] * h * h
    return np.stack((p0, p0 + v0 / 5.0, p0 + 2.0 * v0 / 5.0 + a0 / 20.0,
                     p1 - 2.0 * v1 / 5.0 + a1 / 20.0, p1 - v1 / 5.0, p1))


def _extremes(hull: Sequence[float], start: float,
              duration: float) -> Tuple[float, float, Tuple[float, float]]:
    """
    Return the least and greatest value of a segment and when (s from the first point).

    ``hull`` holds its Bernstein coefficients: the polynomial on [0, 1],
    ``duration`` long.  Found by halving (de Casteljau) only the pieces
    whose hull could still hold a more extreme value, to ``_RESOLUTION`` of
    the segment: no root finding, which meets nearly degenerate polynomials
    (a cubic that is a quadratic to rounding) at every move's knots.
    """
    high, at_high = _greatest(list(hull))
    low, at_low = _greatest([-c for c in hull])
    return -low, high, (start + at_low * duration, start + at_high * duration)


#: Pieces of a segment shorter than this (a fraction of it) are not halved further.
_RESOLUTION = 1e-9


def _greatest(coefficients: List[float]) -> Tuple[float, float]:
    """Return the greatest value of a Bernstein polynomial on [0, 1] and where it is."""
    best = max((coefficients[0], 0.0), (coefficients[-1], 1.0))
    pieces = [(coefficients, 0.0, 1.0)]
    while pieces:
        c, begin, end = pieces.pop()
        if max(c) <= best[0]:
            continue  # nothing in this piece beats what was found
        middle = 0.5 * (begin + end)
        if end - begin < _RESOLUTION:
            best = max(best, (max(c), middle))
            continue
        left, right = [c[0]], [c[-1]]
        row = c
        while len(row) > 1:  # de Casteljau at one half
            row = [0.5 * (a + b) for a, b in zip(row, row[1:])]
            left.append(row[0])
            right.append(row[-1])
        best = max(best, (row[0], middle))
        pieces += [(left, begin, middle), (right[::-1], middle, end)]
    return best
