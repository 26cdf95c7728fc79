"""
A path's timing within the joints' limits, for a controller to follow (pure: numpy, scipy, toppra).

Each part of a path (continuous within the limits, ``joint_paths.plan_path``)
becomes a piecewise polynomial in time through its poses, at rest at both
ends (``time_poses``): without usable stamps, toppra's time-optimal timing of
its geometry, sampled every ``SAMPLE_S`` and joined by quintics (what
joint_trajectory_controller does between points that carry all three); with
stamps, the C2 cubic spline through the poses at the stamps.  toppra holds
its limits at its grid points only and stamps may ask for anything, so the
polynomials are checked exactly (``splines.spline_peaks``) and stretched by
the smallest factor that keeps every limit (``retimed`` for stamps).
``run_path`` joins the parts with ``planning`` moves from the arm's state and
checks the result (``limit_check``), falling back to monotone cubics between
samples clipped to the limits.  ``load_path_timing`` imports toppra when a
controller output comes into force.  Why and the figures: doc/motion.md.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import functools
import math
from typing import Any, List, NamedTuple, Optional, Sequence

import numpy as np
import numpy.typing as npt

from twobone_ik_ros.motion.angles import Angles, apart
from twobone_ik_ros.motion.bounds import Bounds
from twobone_ik_ros.motion.limit_check import check_motion, LimitRefusal, start_position
from twobone_ik_ros.motion.planning import (
    ArmState, Limits, MotionSequence, Planner, Timed, Unplanned)
from twobone_ik_ros.motion.samples import Samples
from twobone_ik_ros.motion.splines import (
    clamped_spline, quintics, spline_peaks, stretch_within, stretched)

#: toppra's trajectory is sampled this often for the quintics (and the
#: controller's points): 10 ms did no better on the test paths, with twice the points.
SAMPLE_S = 0.02
#: toppra's grid: this many points per pose, within the bounds below.  Its
#: constraints hold at the grid points; between them a random walk's curvature
#: made its accelerations 1.49x the limit at 10 per pose, 1.29x at 40.
GRID_PER_POSE = 20
MIN_GRID_POINTS = 100
#: Its cost grows with the grid (about 50 ms at 2000 points; a path of 10 000
#: poses would take seconds at 200 000); the exact stretch makes up for a
#: coarse grid's optimism.
MAX_GRID_POINTS = 2000
#: Poses closer than this (rad, largest joint) are one pose: a spline
#: through two poses at one place has no direction there.
SAME_POSE = 1e-9
#: How near (rad, rad/s) the arm must be to the first pose, at rest, to start
#: the path without a move there first.
ON_POSE = 1e-6
#: The shortest step between two poses timed by the velocity limit (``_by_velocity``).
MIN_STEP_S = 1e-6
#: A stretch closer to 1 than this is rounding, not a retiming.
RETIME_TOLERANCE = 1e-9
_NS = 1_000_000_000


@functools.lru_cache(maxsize=None)
def load_path_timing() -> None:
    """Import what timing a path needs (toppra, scipy's splines) and quiet toppra, once."""
    import scipy.interpolate  # noqa: F401
    import toppra
    toppra.setup_logging('WARNING')


class TimedPath(NamedTuple):
    """One part of a path timed within the limits (``time_poses``), from rest to rest."""

    spline: Any
    #: the first and last poses, exactly (the spline's values there may differ by rounding)
    start: Angles
    goal: Angles
    #: the factor the path's own timing was stretched by (1.0: kept)
    stretch: float
    #: whether the timing was the poses' stamps (else toppra's)
    stamped: bool
    #: False for the monotone cubics of ``monotone_cubics``: their points go without accelerations
    needs_accelerations: bool = True

    @property
    def retimed(self) -> bool:
        """Tell whether stamped poses asked for more than the limits allow."""
        return self.stamped and self.stretch > 1.0 + RETIME_TOLERANCE

    @property
    def duration(self) -> float:
        """Return the seconds from its first pose to its last."""
        return float(self.spline.x[-1])

    def at(self, seconds: float) -> ArmState:
        """Return the state ``seconds`` after the start; the last pose, at rest, after the end."""
        if seconds >= self.duration:
            return ArmState(self.goal)
        spline = self.spline
        p, v, a = spline(seconds), spline(seconds, 1), spline(seconds, 2)
        return ArmState((float(p[0]), float(p[1])), (float(v[0]), float(v[1])),
                        (float(a[0]), float(a[1])))

    def points(self) -> Samples:
        """Return the controller's points: the spline at its knots, ending on the goal at rest."""
        knots = self.spline.x
        positions = self.spline(knots)
        velocities = self.spline(knots, 1)
        accelerations = self.spline(knots, 2)
        velocities[-1] = 0.0  # clamped: at rest, but for rounding
        positions[-1] = self.goal
        return Samples(np.round(knots * _NS).astype(np.int64), positions, velocities,
                       accelerations)

    def start_acceleration(self) -> Angles:
        """Return the acceleration it starts with (at rest, but setting off)."""
        a = self.spline(0.0, 2)
        return (float(a[0]), float(a[1]))

    def end_acceleration(self) -> Angles:
        """Return the acceleration it ends with (at rest, but braking)."""
        a = self.spline(self.duration, 2)
        return (float(a[0]), float(a[1]))


class PathMotion(MotionSequence):
    """
    A path's parts timed within the limits, with the moves before and between them.

    The moves (``planning``) take the arm to the first part, and from the
    end of each part to the start of the next; the whole is one motion, as
    ``Motion`` is: its state at any time and the points a controller needs.
    """

    def __init__(self, pieces: Sequence[Timed], parts: Sequence[TimedPath]) -> None:
        """Run ``pieces`` (the moves and ``parts``, in order) one after the other."""
        super().__init__(pieces)
        self.parts = len(parts)
        self.stretch = max(part.stretch for part in parts)
        self.retimed = any(part.retimed for part in parts)


def time_poses(positions: npt.ArrayLike, offsets_s: Optional[npt.ArrayLike],
               limits: Limits) -> TimedPath:
    """
    Return ``positions`` ((N, 2) rad) timed within ``limits``, from rest to rest.

    ``offsets_s`` are the poses' requested times from the first (strictly
    increasing), or None for the time-optimal timing.  This is the part that
    takes time (toppra: tens of milliseconds; its import, a second): the
    caller does it before it reads the arm's state for ``start_path``.
    """
    pts = np.asarray(positions, dtype=np.float64)
    offsets = None if offsets_s is None else np.asarray(offsets_s, dtype=np.float64)
    keep = _distinct(pts)
    pts = pts[keep]
    if offsets is not None:
        offsets = offsets[keep]
    start: Angles = (float(pts[0, 0]), float(pts[0, 1]))
    goal: Angles = (float(pts[-1, 0]), float(pts[-1, 1]))
    if pts.shape[0] == 1:
        return TimedPath(_still(pts[0]), start, goal, 1.0, False)
    if offsets is None:
        try:
            spline = _optimal(pts, limits)
        except Unplanned:  # toppra found no timing: the monotone cubics', by the limits
            return _by_velocity(pts, start, goal, limits)
    else:
        spline = clamped_spline(offsets - offsets[0], pts)
    stretch = stretch_within(spline, limits)
    if stretch > 1.0 + RETIME_TOLERANCE:
        spline = stretched(spline, stretch)
    else:
        stretch = 1.0
    return TimedPath(spline, start, goal, stretch, offsets is not None)


def start_path(parts: Sequence[TimedPath], start: Optional[ArmState],
               planner: Planner) -> PathMotion:
    """
    Return ``parts`` run one after the other from ``start``, joined by moves.

    A move to the first part first unless the arm is there at rest
    (``start`` None: it is taken to be there), and one from each part's end
    to the next part's start (``Unplanned`` when one cannot be).  The
    moves' acceleration is continuous (``Planner.continuous``): each leaves
    as the part before ends and arrives as the part after starts, so the
    point where two meet has one acceleration, as points that carry
    accelerations need.
    """
    pieces: List[Timed] = []
    here = start
    for part in parts:
        if here is not None and not _at_rest_on(here, part.start):
            pieces.append(planner.continuous().plan(here, part.start,
                                                    part.start_acceleration()))
        pieces.append(part)
        here = ArmState(part.goal, (0.0, 0.0), part.end_acceleration())
    return PathMotion(pieces, parts)


def start_monotone_path(parts: Sequence[TimedPath], start: Optional[ArmState],
                        planner: Planner, lower: Angles, upper: Angles) -> PathMotion:
    """
    Return ``parts`` as monotone cubics (``monotone_cubics``) within bounds, joined from rest.

    The fallback for a path whose timing leaves the joint limits (a spline
    that overshoots between poses near a limit): each cubic stays between
    its two points, each move goes from rest to rest, and the points carry
    no accelerations (the cubics' acceleration steps at each point, so a
    jerk limit does not hold there).  None as ``start_path``.
    """
    pieces: List[Timed] = []
    cubics = [monotone_cubics(part, lower, upper, planner.limits) for part in parts]
    here = start
    for part in cubics:
        if here is not None and not _at_rest_on(here, part.start):
            pieces.append(planner.plan(here, part.start))
        pieces.append(part)
        here = ArmState(part.goal)
    return PathMotion(pieces, cubics)


def run_path(parts: Sequence[TimedPath], start: Optional[ArmState], planner: Planner,
             bounds: Bounds) -> PathMotion:
    """
    Return ``parts`` run from ``start`` within ``bounds``.

    The smooth timing (``start_path``) unless it, or the controller's curve
    through its points, leaves the bounds (a spline that overshoots between
    poses near a limit); then the monotone one, which cannot
    (``start_monotone_path``).  ``LimitRefusal`` if that is refused too,
    ``Unplanned`` when a move cannot be planned.
    """
    motion = start_path(parts, start, planner)
    points = motion.points()
    try:
        check_motion(points, motion.needs_accelerations, bounds, start_position(points))
        return motion
    except LimitRefusal:
        pass
    inner = bounds.narrowed()  # samples clipped onto a limit would meet the controller's rounding
    fallback = start_monotone_path(parts, start, planner, inner.lower, inner.upper)
    points = fallback.points()
    check_motion(points, fallback.needs_accelerations, bounds, start_position(points))
    return fallback


def monotone_cubics(part: TimedPath, lower: Angles, upper: Angles, limits: Limits) -> TimedPath:
    """
    Return ``part`` as the monotone cubics (PCHIP) through its knots, within [lower, upper].

    The positions at the spline's knots, clipped to the bounds, are joined by
    Fritsch-Carlson cubics (scipy's ``PchipInterpolator`` slopes: zero at a
    local extreme, else their weighted harmonic mean), at rest at both ends:
    each cubic is monotone between its two points, so it stays within them.
    Its velocity and acceleration peaks are exact; a timing that exceeds
    them is stretched as ``time_poses`` does (not the jerk: the cubics'
    acceleration steps at the points).
    """
    from scipy.interpolate import CubicHermiteSpline, PchipInterpolator
    knots = np.asarray(part.spline.x, dtype=np.float64)
    positions = np.clip(part.spline(knots), lower, upper)
    positions[0], positions[-1] = part.start, part.goal
    if knots.shape[0] > 2:
        slopes = PchipInterpolator(knots, positions, axis=0).derivative()(knots)
    else:
        slopes = np.zeros_like(positions)
    slopes[0] = slopes[-1] = 0.0  # at rest; a zero slope keeps an end's cubic monotone
    spline = CubicHermiteSpline(knots, positions, slopes, axis=0)
    velocity, acceleration, _ = spline_peaks(spline)
    stretch = float(max(1.0, velocity / limits.velocity,
                        math.sqrt(acceleration / limits.acceleration)))
    if stretch > 1.0 + RETIME_TOLERANCE:
        spline = stretched(spline, stretch)
    else:
        stretch = 1.0
    return TimedPath(spline, part.start, part.goal, part.stretch * stretch, part.stamped,
                     needs_accelerations=False)


def _still(pose: npt.NDArray[np.float64]) -> Any:
    """Return a spline that stays on ``pose`` (a path of one distinct pose)."""
    return clamped_spline(np.array([0.0, SAMPLE_S]), np.stack((pose, pose)))


def _optimal(pts: npt.NDArray[np.float64], limits: Limits) -> Any:
    """
    Return toppra's time-optimal timing of the path as quintics between samples every ``SAMPLE_S``.

    The geometry is toppra's spline through the poses over their cumulative
    largest-joint distance; the first and last positions are the poses
    themselves, so the arm ends exactly on the last, at rest.
    """
    trajectory = _toppra_trajectory(pts, limits)
    end = float(trajectory.duration)
    times = np.arange(0.0, end, SAMPLE_S)
    if times.size > 1 and end - times[-1] < SAMPLE_S / 2:
        times = times[:-1]
    times = np.append(times, end)
    positions = np.asarray(trajectory(times), dtype=np.float64)
    velocities = np.asarray(trajectory(times, 1), dtype=np.float64)
    accelerations = np.asarray(trajectory(times, 2), dtype=np.float64)
    positions[0], positions[-1] = pts[0], pts[-1]
    velocities[0] = velocities[-1] = 0.0
    return quintics(times, positions, velocities, accelerations)


def _toppra_trajectory(pts: npt.NDArray[np.float64], limits: Limits) -> Any:
    load_path_timing()
    import toppra
    from toppra import algorithm, constraint
    steps = np.abs(np.diff(pts, axis=0)).max(axis=1)
    along = np.concatenate(([0.0], np.cumsum(steps)))
    path = toppra.SplineInterpolator(along, pts)
    velocity = np.array([[-limits.velocity, limits.velocity]] * 2)
    acceleration = np.array([[-limits.acceleration, limits.acceleration]] * 2)
    try:
        solver = algorithm.TOPPRA(
            [constraint.JointVelocityConstraint(velocity),
             constraint.JointAccelerationConstraint(acceleration)],
            path, parametrizer='ParametrizeSpline',
            gridpt_min_nb_points=min(MAX_GRID_POINTS,
                                     max(MIN_GRID_POINTS, GRID_PER_POSE * len(pts))))
        trajectory = solver.compute_trajectory(0.0, 0.0)
    except Exception as error:  # noqa: B902  (a library's own failure, whatever its type)
        raise Unplanned('toppra', str(error)) from None
    if trajectory is None:  # a path toppra calls uncontrollable (poses nanometres apart)
        raise Unplanned('toppra', 'no parameterisation of the path')
    return trajectory


def _by_velocity(pts: npt.NDArray[np.float64], start: Angles, goal: Angles,
                 limits: Limits) -> TimedPath:
    """
    Return the poses timed without toppra: monotone cubics, each step by the velocity limit.

    For a path toppra cannot parameterise (poses nanometres apart): each
    step takes its largest joint change over the velocity limit, then
    ``monotone_cubics`` joins the poses, at rest at both ends, and stretches the
    timing into the limits.
    """
    steps = np.abs(np.diff(pts, axis=0)).max(axis=1) / limits.velocity
    times = np.concatenate(([0.0], np.cumsum(np.maximum(steps, MIN_STEP_S))))
    rough = TimedPath(clamped_spline(times, pts), start, goal, 1.0, False)
    outside = (-math.inf, -math.inf)
    return monotone_cubics(rough, outside, (math.inf, math.inf), limits)._replace(stretch=1.0)


def _distinct(pts: npt.NDArray[np.float64]) -> npt.NDArray[np.intp]:
    """Return the indices of the poses that differ from the pose before (the first always)."""
    moved = np.abs(np.diff(pts, axis=0)).max(axis=1) > SAME_POSE
    keep = np.flatnonzero(np.concatenate(([True], moved)))
    keep[-1] = pts.shape[0] - 1  # end exactly on the last pose
    return keep


def _at_rest_on(state: ArmState, pose: Angles) -> bool:
    return max(apart(state.position, pose), abs(state.velocity[0]),
               abs(state.velocity[1])) <= ON_POSE
