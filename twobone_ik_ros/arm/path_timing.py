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
A path's timing within the joints' limits, for a controller to follow.

Pure (numpy, scipy's splines, toppra; no ROS), like ``planning``.  A path
(its poses' joint angles, continuous, from ``motion.plan_path``) becomes a
*C2 cubic spline in time* through its poses, at rest at both ends:

- without usable stamps, the times come from toppra, the time-optimal
  parameterisation of the path's geometry (a spline through the poses over
  their chord length) within the velocity and acceleration limits, sampled
  every ``SAMPLE_S``;
- with stamps, the poses are due at the stamps' offsets.

The spline's peaks are exact (velocity is quadratic and acceleration linear
on each piece, jerk constant), so the limits are checked, not sampled: a
timing that exceeds one (toppra keeps its constraints at its grid points
only; stamps may ask for anything) is stretched uniformly by the smallest
factor that keeps all three (velocity scales by 1/k, acceleration 1/k^2,
jerk 1/k^3).  For stamps, that stretch is ``retimed``, which the node
counts and warns about.

A controller that interpolates between points carrying positions and
velocities with cubics (joint_trajectory_controller does; with
accelerations, quintics, which for a cubic are the same) reproduces each
piece exactly, so it keeps the limits the spline keeps.  One exception: a
clamped cubic spline starts and ends at rest but not at zero acceleration,
so with a jerk limit the acceleration steps there (inside, the jerk limit
holds).  When the arm is not
at rest on the first pose, a ``planning`` move takes it there first.

toppra is imported by ``load_path_timing``, which the node calls when it
drives a controller (it loads scipy and matplotlib: over a second on a cold
start), not with the package: a display node does without it.
"""

from __future__ import annotations

import functools
import math
from typing import Any, NamedTuple, Optional, Tuple

import numpy as np
import numpy.typing as npt

from twobone_ik_ros.arm.planning import Angles, ArmState, Limits, Motion, Planner, Samples

#: toppra's trajectory is sampled this often for the spline: finer follows
#: toppra more closely but rings more where its acceleration switches.
SAMPLE_S = 0.02
#: toppra's grid: twice the poses, within these bounds.  Its cost grows with
#: the grid (a path of 10 000 poses would take seconds at 20 000 points); the
#: exact stretch makes up for a coarse grid's optimism.
MAX_GRID_POINTS = 1000
#: Poses closer than this (rad, largest joint) are one pose: a spline
#: through two poses at one place has no direction there.
SAME_POSE = 1e-9
#: How near (rad, rad/s) the arm must be to the first pose, at rest, to start
#: the path without a move there first.
ON_POSE = 1e-6
#: A stretch closer to 1 than this is rounding, not a retiming.
RETIME_TOLERANCE = 1e-9
_NS = 1_000_000_000


@functools.lru_cache(maxsize=None)
def load_path_timing() -> None:
    """Import what timing a path needs (toppra, scipy's splines) and quiet toppra, once."""
    import scipy.interpolate  # noqa: F401
    import toppra
    toppra.setup_logging('WARNING')


class PathMotion:
    """A path timed within the limits (after a move to its start, if any), as ``Motion`` is."""

    def __init__(self, approach: Optional[Motion], path: TimedPath) -> None:
        """Join ``approach`` (None: the arm is at the start) and ``path``."""
        self._approach = approach
        self._spline = spline = path.spline
        self._offset = 0.0 if approach is None else approach.duration
        self.stretch = path.stretch
        self.retimed = path.retimed
        self.goal = path.goal
        self.duration: float = self._offset + float(spline.x[-1])

    def at(self, seconds: float) -> ArmState:
        """Return the state ``seconds`` after the start; the last pose, at rest, after the end."""
        if seconds >= self.duration:
            return ArmState(self.goal)
        if self._approach is not None and seconds < self._offset:
            return self._approach.at(seconds)
        t = seconds - self._offset
        p, v, a = self._spline(t), self._spline(t, 1), self._spline(t, 2)
        return ArmState((float(p[0]), float(p[1])), (float(v[0]), float(v[1])),
                        (float(a[0]), float(a[1])))

    def points(self) -> Samples:
        """Return the controller's points: the approach's, then the spline at its knots."""
        knots = self._spline.x
        times = knots + self._offset
        positions = self._spline(knots)
        velocities = self._spline(knots, 1)
        accelerations = self._spline(knots, 2)
        velocities[-1] = 0.0  # clamped: at rest, but for rounding
        positions[-1] = self.goal
        times_ns = np.round(times * _NS).astype(np.int64)
        if self._approach is None:
            return Samples(times_ns, positions, velocities, accelerations)
        first = self._approach.points()
        # the approach ends where the spline starts: its last point is the spline's first
        return Samples(*(np.concatenate((a[:-1], b)) for a, b in zip(
            first, (times_ns, positions, velocities, accelerations))))


class TimedPath(NamedTuple):
    """The poses timed within the limits (the slow part, ``time_poses``); where they run."""

    spline: Any
    #: the first and last poses, exactly (the spline's values there may differ by rounding)
    start: Angles
    goal: Angles
    #: the factor the path's own timing was stretched by (1.0: kept)
    stretch: float
    #: whether the timing was the poses' stamps (else toppra's)
    stamped: bool

    @property
    def retimed(self) -> bool:
        """Tell whether stamped poses asked for more than the limits allow."""
        return self.stamped and self.stretch > 1.0


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
        times, through = _optimal_samples(pts, limits)
    else:
        times, through = offsets - offsets[0], pts
    spline = _spline(times, through)
    stretch = _stretch(spline, limits)
    if stretch > 1.0 + RETIME_TOLERANCE:
        spline = _spline(times * stretch, through)
    else:
        stretch = 1.0
    return TimedPath(spline, start, goal, stretch, offsets is not None)


def start_path(path: TimedPath, start: Optional[ArmState],
               planner: Planner) -> Optional[PathMotion]:
    """
    Return ``path`` run from ``start``: a move to its first pose first unless there at rest.

    ``start`` None: the arm is taken to be there.  None when the move cannot
    be planned.
    """
    approach = None
    if start is not None and not _at_rest_on(start, path.start):
        approach = planner.plan(start, path.start)
        if approach is None:
            return None
    return PathMotion(approach, path)


def spline_peaks(spline: Any) -> npt.NDArray[np.float64]:
    """
    Return the largest |velocity|, |acceleration| and |jerk| of a cubic spline, exactly.

    On each piece ``p(t) = c0 t^3 + c1 t^2 + c2 t + c3``: velocity peaks at
    the piece's ends or at ``t = -c1 / (3 c0)``, acceleration at the ends,
    jerk is ``6 c0``.
    """
    c = spline.c  # (4, pieces, joints)
    h = np.diff(spline.x)[:, None]
    c0, c1, c2 = c[0], c[1], c[2]
    velocity_ends = np.maximum(np.abs(c2), np.abs(3.0 * c0 * h * h + 2.0 * c1 * h + c2))
    with np.errstate(divide='ignore', invalid='ignore'):
        vertex = -c1 / (3.0 * c0)
    inside = np.isfinite(vertex) & (vertex > 0.0) & (vertex < h)
    vertex = np.where(inside, vertex, 0.0)
    velocity_vertex = np.abs(3.0 * c0 * vertex * vertex + 2.0 * c1 * vertex + c2)
    velocity = max(float(velocity_ends.max()), float(velocity_vertex.max()))
    acceleration = float(np.maximum(np.abs(2.0 * c1), np.abs(6.0 * c0 * h + 2.0 * c1)).max())
    return np.array([velocity, acceleration, float(np.abs(6.0 * c0).max())])


def _stretch(spline: Any, limits: Limits) -> float:
    """Return the smallest uniform time stretch (>= 1) that keeps all three limits."""
    velocity, acceleration, jerk = (float(peak) for peak in spline_peaks(spline))
    return float(max(1.0, velocity / limits.velocity,
                     math.sqrt(acceleration / limits.acceleration),
                     (jerk / limits.jerk) ** (1.0 / 3.0)))


def _spline(times: npt.NDArray[np.float64], pts: npt.NDArray[np.float64]) -> Any:
    """Return the C2 cubic spline through ``pts`` at ``times``, at rest at both ends."""
    from scipy.interpolate import CubicSpline
    return CubicSpline(times, pts, axis=0, bc_type='clamped')


def _still(pose: npt.NDArray[np.float64]) -> Any:
    """Return a spline that stays on ``pose`` (a path of one distinct pose)."""
    return _spline(np.array([0.0, SAMPLE_S]), np.stack((pose, pose)))


def _optimal_samples(pts: npt.NDArray[np.float64],
                     limits: Limits) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """
    Return toppra's time-optimal timing of the path: times every ``SAMPLE_S``, positions.

    The geometry is toppra's spline through the poses over their cumulative
    largest-joint distance; the first and last positions are the poses
    themselves, so the arm ends exactly on the last.
    """
    trajectory = _toppra_trajectory(pts, limits)
    end = float(trajectory.duration)
    times = np.arange(0.0, end, SAMPLE_S)
    if times.size > 1 and end - times[-1] < SAMPLE_S / 2:
        times = times[:-1]
    times = np.append(times, end)
    positions = np.asarray(trajectory(times), dtype=np.float64)
    positions[0], positions[-1] = pts[0], pts[-1]
    return times, positions


def _toppra_trajectory(pts: npt.NDArray[np.float64], limits: Limits) -> Any:
    load_path_timing()
    import toppra
    from toppra import algorithm, constraint
    steps = np.abs(np.diff(pts, axis=0)).max(axis=1)
    along = np.concatenate(([0.0], np.cumsum(steps)))
    path = toppra.SplineInterpolator(along, pts)
    velocity = np.array([[-limits.velocity, limits.velocity]] * 2)
    acceleration = np.array([[-limits.acceleration, limits.acceleration]] * 2)
    solver = algorithm.TOPPRA(
        [constraint.JointVelocityConstraint(velocity),
         constraint.JointAccelerationConstraint(acceleration)],
        path, parametrizer='ParametrizeSpline',
        gridpt_min_nb_points=min(MAX_GRID_POINTS, max(100, 2 * len(pts))))
    trajectory = solver.compute_trajectory(0.0, 0.0)
    if trajectory is None:
        raise RuntimeError('toppra found no parameterisation of the path')
    return trajectory


def _distinct(pts: npt.NDArray[np.float64]) -> npt.NDArray[np.intp]:
    """Return the indices of the poses that differ from the pose before (the first always)."""
    moved = np.abs(np.diff(pts, axis=0)).max(axis=1) > SAME_POSE
    keep = np.flatnonzero(np.concatenate(([True], moved)))
    keep[-1] = pts.shape[0] - 1  # end exactly on the last pose
    return keep


def _at_rest_on(state: ArmState, pose: Angles) -> bool:
    return max(abs(state.position[0] - pose[0]), abs(state.position[1] - pose[1]),
               abs(state.velocity[0]), abs(state.velocity[1])) <= ON_POSE
