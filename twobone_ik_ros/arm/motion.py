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
Moves and paths in joint space: timing, multi-turn angles, branch continuity.

Pure numpy, no ROS, like the solver: the node turns messages into these
calls and their results into messages (``commands``).

``move_time`` times a move by the velocity limit alone:
``max(min_move_time, largest joint change / max_joint_velocity)``, for the
first move of a path and for a target before the arm's state is known
(controller moves are otherwise planned within all the limits, ``planning``).
A *path* is solved in one call of the batch solver on one elbow branch (the
one nearest the arm for ``closest``), so it never flips inside; a flip the
joint limits force is counted.  Its angles are made continuous: each
multi-turn joint takes, pose after pose, the representation within its
limits nearest the previous one.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Optional, Tuple

import numpy as np
import numpy.typing as npt

from twobone_ik_ros.ik.vocabulary import (
    Branch, ElbowPreference, FloatArray, JointLimits, Reason, Status)
from twobone_ik_ros.solver import TwoBoneIK

#: Time between two path points timed by the velocity limit, at the least, so
#: that repeated poses still get strictly increasing times (as
#: joint_trajectory_controller requires).
MIN_POINT_SPACING_S = 1e-3
#: Without a known joint position a move is timed as if each joint turned
#: this far: the largest change between two angles in (-pi, pi].
UNKNOWN_START_DISTANCE = math.pi
_NS = 1_000_000_000

Angles = Tuple[float, float]


def move_time(start: Optional[Angles], goal: Angles, max_joint_velocity: float,
              min_move_time: float) -> float:
    """Return the seconds a move from ``start`` to ``goal`` takes (``start`` None: unknown)."""
    if start is None:
        distance = UNKNOWN_START_DISTANCE
    else:
        distance = max(abs(goal[0] - start[0]), abs(goal[1] - start[1]))
    return max(min_move_time, distance / max_joint_velocity)


def nearest_angles(solver: TwoBoneIK, theta1: float, theta2: float,
                   reference: Optional[Angles]) -> Angles:
    """Return each angle as the representation within its limits nearest ``reference``."""
    near1, near2 = reference or (None, None)
    return (solver.shoulder_limits.nearest(theta1, near1),
            solver.elbow_limits.nearest(theta2, near2))


class PathPlan(NamedTuple):
    """
    A path solved, made continuous and timed; or why it was refused.

    ``positions`` is (N, 2) (theta1, theta2 per pose), ``times_ns`` the
    strictly increasing nanoseconds from now at which each pose is reached;
    ``stamped`` tells whether they are the poses' stamps (else the velocity
    limit's).
    ``rejected`` is '' for a plan to follow, else the reason label (with
    ``rejected_index`` the first pose that has it).
    """

    positions: FloatArray
    times_ns: npt.NDArray[np.int64]
    branch: Branch
    clamped: int
    flips: int
    unwound: int
    rejected: str
    rejected_index: int
    stamped: bool = False


def plan_path(solver: TwoBoneIK, points: npt.ArrayLike, stamps_ns: Optional[npt.ArrayLike],
              reference: Optional[Angles], max_joint_velocity: float,
              min_move_time: float) -> PathPlan:
    """
    Solve, unwrap and time a path of (N, 2) points in the base frame.

    ``reference`` is the arm's current position (None if unknown), used to
    choose the branch (``closest``), the start of multi-turn joints and the
    time of the first move.  ``stamps_ns`` times the poses when they strictly
    increase (the first pose is reached after the move to it); otherwise each
    segment takes its largest joint change over ``max_joint_velocity``.
    """
    pts = np.asarray(points, dtype=np.float64)
    n = pts.shape[0]
    empty = np.empty((0, 2))
    if n == 0:
        return PathPlan(empty, np.empty(0, np.int64), Branch.NONE, 0, 0, 0, 'empty', 0)
    branch = _branch_for(solver, pts[0], reference)
    fixed = solver if solver.elbow.value == branch.name.lower() else _with_elbow(solver, branch)
    batch = fixed.solve_batch(pts)
    rejected = np.flatnonzero(batch.status == Status.REJECTED)
    if rejected.size:
        first = int(rejected[0])
        return PathPlan(empty, np.empty(0, np.int64), branch, 0, 0, 0,
                        Reason(int(batch.reason[first])).label, first)
    positions = np.empty((n, 2))
    unwound = 0
    for joint, (angles, limits) in enumerate(((batch.theta1, solver.shoulder_limits),
                                              (batch.theta2, solver.elbow_limits))):
        start = None if reference is None else reference[joint]
        unwound += _continuous(angles, limits, start, positions[:, joint])
    flips = int(np.count_nonzero(batch.branch[1:] != batch.branch[:-1]))
    flips += int(batch.branch[0] != branch)
    first_move = move_time(reference, (positions[0, 0], positions[0, 1]),
                           max_joint_velocity, min_move_time)
    stamps = None if stamps_ns is None else np.asarray(stamps_ns, dtype=np.int64)
    stamped = stamps is not None and n > 1 and bool(np.all(np.diff(stamps) > 0))
    times_ns = _times_ns(positions, stamps if stamped else None, first_move, max_joint_velocity)
    return PathPlan(positions, times_ns, branch,
                    int(np.count_nonzero(batch.status == Status.CLAMPED)), flips, unwound, '', -1,
                    stamped)


def _branch_for(solver: TwoBoneIK, first: FloatArray, reference: Optional[Angles]) -> Branch:
    """Return the branch of the whole path: the preference, or for closest the first pose's."""
    if solver.elbow is ElbowPreference.DOWN:
        return Branch.DOWN
    if solver.elbow is ElbowPreference.UP or reference is None:
        return Branch.UP
    result = solver.solve(float(first[0]), float(first[1]), reference)
    return Branch.DOWN if result.branch is Branch.DOWN else Branch.UP


def _with_elbow(solver: TwoBoneIK, branch: Branch) -> TwoBoneIK:
    shoulder, elbow = solver.shoulder_limits, solver.elbow_limits
    return TwoBoneIK(solver.r1, solver.r2, elbow=branch.name.lower(),
                     unreachable=solver.unreachable,
                     shoulder_limits=(shoulder.lower, shoulder.upper),
                     elbow_limits=(elbow.lower, elbow.upper))


def _continuous(angles: FloatArray, limits: JointLimits, start: Optional[float],
                out: FloatArray) -> int:
    """
    Fill ``out`` with ``angles`` made continuous within ``limits``; return the unwindings.

    Within [-pi, pi] limits the angles are kept as they are.  For a
    multi-turn joint each angle becomes ``angle + 2 pi k`` nearest the one
    before (the first nearest ``start``); where that leaves the limits, the
    representation within them nearest the one before is taken instead: the
    joint unwinds, and that is counted.
    """
    if not limits.multi_turn:
        out[:] = angles
        return 0
    two_pi = 2.0 * math.pi
    first = limits.nearest(float(angles[0]), start)
    steps = np.remainder(np.diff(angles) + math.pi, two_pi) - math.pi
    track = first + np.concatenate(([0.0], np.cumsum(steps)))
    np.add(angles, two_pi * np.round((track - angles) / two_pi), out=out)
    if np.all((out >= limits.lower) & (out <= limits.upper)):
        return 0
    unwound = 0  # rare: go pose by pose from where the limits are left
    out[0] = first
    for i in range(1, out.shape[0]):
        out[i] = limits.nearest(float(angles[i]), float(out[i - 1]))
        unwound += abs(out[i] - out[i - 1]) > math.pi
    return unwound


def _times_ns(positions: FloatArray, stamps: Optional[npt.NDArray[np.int64]], first_move: float,
              max_joint_velocity: float) -> npt.NDArray[np.int64]:
    """Return strictly increasing times from now in ns, one per pose (``stamps``: usable)."""
    n = positions.shape[0]
    if stamps is not None:
        times = np.round(first_move * _NS) + (stamps - stamps[0])
    else:
        steps = np.abs(np.diff(positions, axis=0)).max(axis=1) / max_joint_velocity
        np.maximum(steps, MIN_POINT_SPACING_S, out=steps)
        times = np.round((first_move + np.concatenate(([0.0], np.cumsum(steps)))) * _NS)
    times = times.astype(np.int64)
    times[0] = max(times[0], 1)
    # rounding must not make two points equal: t[i] >= t[i-1] + 1 ns
    ramp = np.arange(n, dtype=np.int64)
    return np.maximum.accumulate(times - ramp) + ramp
