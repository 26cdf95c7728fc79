"""
Moves and paths in joint space: timing, multi-turn angles, branch continuity (pure numpy).

``move_time`` times a move by the velocity limit alone, for a target before
the arm's state is known (controller moves are otherwise planned within all
the limits, ``planning``).  A path is solved in one call of the batch solver
on one elbow branch and made continuous within the joint limits: from pose
to pose each joint goes the short way round, and a multi-turn joint keeps
turning as far as its limits let it.  Where that cannot go on (a joint would
pass its limit, the limits force the other branch, a pose no branch fits)
the path is refused or split into parts as ``unreachable`` says
(``plan_path``): a joint is never unwound silently (doc/motion.md).
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
from typing import List, NamedTuple, Optional, Tuple

import numpy as np
import numpy.typing as npt

from twobone_ik_ros.ik.geometry import JointLimits
from twobone_ik_ros.ik.vocabulary import (
    Branch, ElbowPreference, FloatArray, Reason, Status, UnreachablePolicy)
from twobone_ik_ros.motion.angles import Angles, apart
from twobone_ik_ros.motion.bounds import MARGIN
from twobone_ik_ros.solver import TwoBoneIK

#: Time between two path points timed by the velocity limit, at the least, so
#: that repeated poses still get strictly increasing times (as
#: joint_trajectory_controller requires).
MIN_POINT_SPACING_S = 1e-3
#: Without a known joint position a move is timed as if each joint turned
#: this far: the largest change between two angles in (-pi, pi].
UNKNOWN_START_DISTANCE = math.pi
_NS = 1_000_000_000


def move_time(start: Optional[Angles], goal: Angles, max_joint_velocity: float,
              min_move_time: float) -> float:
    """Return the seconds a move from ``start`` to ``goal`` takes (``start`` None: unknown)."""
    if start is None:
        distance = UNKNOWN_START_DISTANCE
    else:
        distance = apart(goal, start)
    return max(min_move_time, distance / max_joint_velocity)


def nearest_angles(solver: TwoBoneIK, theta1: float, theta2: float,
                   reference: Optional[Angles]) -> Angles:
    """Return each angle as the representation within its limits nearest ``reference``."""
    near1, near2 = reference or (None, None)
    return (solver.shoulder_limits.nearest(theta1, near1),
            solver.elbow_limits.nearest(theta2, near2))


#: The reasons a path cannot go on within the joint limits, with the text its
#: warning gives (the rest are the solver's, ``diagnostics.REJECTION_TEXT``).
BREAK_TEXT = {
    'wrap': 'a joint would pass its limit going the short way round to it',
    'flip': 'the joint limits force the other elbow branch from it on',
    Reason.JOINT_LIMITS.label: 'neither elbow branch fits the joint limits',
}
#: A path that would split into more parts than this is refused (``too_many_parts``):
#: each part is timed on its own, and a path broken that often is not one to follow.
MAX_PARTS = 64
#: How far (rad) an angle may lie past a limit and be on it: the rounding of
#: ``angle + 2 pi k`` and of the solver's angles at +-pi.
ON_LIMIT_RAD = 1e-12
#: A move joining two parts of a path played back at its own timing: one point every
#: so often, along the straight line in joint space (within the limits, a box).
JOIN_POINT_SPACING_S = 0.02


class Split(NamedTuple):
    """Where a path breaks: the first pose concerned, why (``BREAK_TEXT``), the joint (wrap)."""

    pose: int
    reason: str
    joint: int = -1


class PathPlan(NamedTuple):
    """
    A path solved, made continuous within the limits and timed; or why it was refused.

    ``positions`` is (M, 2) (theta1, theta2) and ``times_ns`` their strictly
    increasing nanoseconds from now at the path's own timing: its poses' stamps
    when they strictly increase (``stamped``), else the velocity limit.  A path
    the limits break into ``parts`` (index ranges of ``positions``, each
    continuous within the limits) has the points of a straight move between
    two parts in between them, timed by the velocity limit, so that a display
    or a controller following the points alone stays within the limits.
    ``splits`` says where and why each part after the first begins,
    ``skipped`` how many poses outside the limits were left out.
    ``rejected`` is '' for a plan to follow, else the reason label (with
    ``rejected_index`` the first pose that has it).
    """

    positions: FloatArray
    times_ns: npt.NDArray[np.int64]
    branch: Branch
    clamped: int
    rejected: str
    rejected_index: int
    stamped: bool = False
    parts: Tuple[Tuple[int, int], ...] = ()
    splits: Tuple[Split, ...] = ()
    skipped: int = 0

    @property
    def flips(self) -> int:
        """Return how many elbow flips the joint limits forced (each a split)."""
        return sum(split.reason == 'flip' for split in self.splits)


def _refused(reason: str, index: int, branch: Branch = Branch.NONE) -> PathPlan:
    return PathPlan(np.empty((0, 2)), np.empty(0, np.int64), branch, 0, reason, index)


def plan_path(solver: TwoBoneIK, points: npt.ArrayLike, stamps_ns: Optional[npt.ArrayLike],
              reference: Optional[Angles], max_joint_velocity: float,
              min_move_time: float) -> PathPlan:
    """
    Solve a path of (N, 2) points in the base frame; make it continuous within the limits; time it.

    ``reference`` is the arm's current position (None if unknown): the branch
    for ``closest``, the start of the joints' turns and the time of the first
    move.  A pose out of reach under ``reject``, or with a non-finite
    coordinate, refuses the path.  Where the path cannot go on within the
    joint limits (a joint that would pass a limit going the short way to the
    next pose, a flip to the other branch that the limits force, poses no
    branch fits), ``unreachable`` decides as for a target: ``reject``
    refuses the path at the first pose concerned, ``clamp`` splits it there
    into parts (``_parts``), the poses outside the limits left out.
    """
    pts = np.asarray(points, dtype=np.float64)
    n = pts.shape[0]
    if n == 0:
        return _refused('empty', 0)
    branch = _branch_for(solver, pts[0], reference)
    fixed = solver if solver.elbow.value == branch.name.lower() else _with_elbow(solver, branch)
    batch = fixed.solve_batch(pts)
    refused = batch.status == Status.REJECTED
    outside = refused & (batch.reason == Reason.JOINT_LIMITS)
    hard = np.flatnonzero(refused & ~outside)
    if hard.size:  # out of reach under reject, or not a number: the path is not followable
        return _refused(Reason(int(batch.reason[hard[0]])).label, int(hard[0]), branch)
    kept = np.flatnonzero(~outside)
    if not kept.size:
        return _refused(Reason.JOINT_LIMITS.label, 0, branch)
    angles = np.column_stack((batch.theta1[kept], batch.theta2[kept]))
    clamp = solver.unreachable is UnreachablePolicy.CLAMP
    parts, splits, positions = _parts(solver, kept, angles, batch.branch[kept], reference,
                                      MAX_PARTS if clamp else 1)
    first_outside = int(np.flatnonzero(outside)[0]) if kept.size < n else n
    if not clamp and (splits or first_outside < n):
        if first_outside < (splits[0].pose if splits else n):
            return _refused(Reason.JOINT_LIMITS.label, first_outside, branch)
        return _refused(splits[0].reason, splits[0].pose, branch)
    if len(splits) >= MAX_PARTS:
        return _refused('too_many_parts', splits[-1].pose, branch)
    stamps = None if stamps_ns is None else np.asarray(stamps_ns, dtype=np.int64)
    stamped = stamps is not None and n > 1 and bool(np.all(np.diff(stamps) > 0))
    timed_positions, times_ns, own_parts = _own_timing(
        positions, parts, stamps[kept] if stamped and stamps is not None else None,
        reference, max_joint_velocity, min_move_time)
    return PathPlan(timed_positions, times_ns, branch,
                    int(np.count_nonzero(batch.status[kept] == Status.CLAMPED)), '', -1,
                    stamped, own_parts, tuple(splits), n - kept.size)


def _parts(solver: TwoBoneIK, kept: npt.NDArray[np.intp], angles: FloatArray,
           branches: npt.NDArray[np.int8], reference: Optional[Angles],
           max_parts: int) -> Tuple[List[Tuple[int, int]], List[Split], FloatArray]:
    """
    Return the path's parts (ranges of the kept poses), the splits and the joints' angles.

    ``kept`` are the indices of the poses some branch fits, ``angles`` their
    principal angles.  A part runs as long as each joint can go from pose to
    pose the short way (``remainder(step, 2 pi)``) within its limits, the
    branch stays the same and no pose was left out.  Each part starts each
    joint at the representation within its limits (``angle + 2 pi k``) that
    runs longest, the one nearest the arm (or the end of the part before)
    among equals: a multi-turn joint goes round as far as its limits let it.
    Stops at the split that would begin part ``max_parts + 1`` (a path to be refused).
    """
    limits = (solver.shoulder_limits, solver.elbow_limits)
    m = angles.shape[0]
    positions = np.empty_like(angles)
    parts: List[Tuple[int, int]] = []
    splits: List[Split] = []
    previous: Tuple[Optional[float], Optional[float]] = reference or (None, None)
    gaps = np.flatnonzero(np.diff(kept) > 1) + 1  # a part ends where poses were left out
    branches = _settled(branches, angles[:, 1])
    flips = np.flatnonzero(branches[1:] != branches[:-1]) + 1
    begin = 0
    while begin < m:
        end, why, joint = m, '', -1
        for index in (gaps, flips):
            later = index[index > begin]
            if later.size and later[0] < end:
                end, why = int(later[0]), 'joint_limits' if index is gaps else 'flip'
        for j in (0, 1):
            run = _longest_run(angles[begin:end, j], limits[j], previous[j])
            positions[begin:begin + run.shape[0], j] = run
            if begin + run.shape[0] < end:
                end, why, joint = begin + run.shape[0], 'wrap', j
        parts.append((begin, end))
        if end < m:
            first = int(kept[end - 1]) + 1 if why == 'joint_limits' else int(kept[end])
            splits.append(Split(first, why, joint))
            if len(splits) >= max_parts:
                break
        previous = (float(positions[end - 1, 0]), float(positions[end - 1, 1]))
        begin = end
    return parts, splits, positions


def _longest_run(angles: FloatArray, limits: JointLimits,
                 near: Optional[float]) -> FloatArray:
    """
    Return the angles from the first on, made continuous within ``limits``, as far as they go.

    Each step is the short way round (at most pi); an exact half turn is as
    short either way, and goes the way that runs further within the limits.
    The track starts at the representation of the first angle that goes
    furthest before leaving the limits (nearest ``near`` among equals) and
    ends before the first pose it cannot reach so.  The values are the angles
    themselves plus whole turns (exact for the turns a joint can make), not
    a running sum.
    """
    steps = np.remainder(np.diff(angles) + math.pi, 2.0 * math.pi) - math.pi
    halves = np.flatnonzero(np.abs(np.abs(steps) - math.pi) <= ON_LIMIT_RAD)
    best: Optional[FloatArray] = None
    best_key: Tuple[int, float] = (-1, 0.0)
    for offset in limits.offsets:
        start = float(_onto(np.array([float(angles[0]) + offset]), limits)[0])
        if not limits.lower <= start <= limits.upper:
            continue
        chosen = steps
        run = _run(angles, start, chosen, limits)
        for half in halves:  # each half turn the other way round, where that runs further
            other = chosen.copy()
            other[half] = -math.copysign(math.pi, float(chosen[half]))
            longer = _run(angles, start, other, limits)
            if longer.shape[0] > run.shape[0]:
                chosen, run = other, longer
        key = (run.shape[0], -abs(start - (start if near is None else near)))
        if key > best_key:
            best, best_key = run, key
    assert best is not None  # the solver admitted the first angle: some offset holds it
    return best


def _run(angles: FloatArray, start: float, steps: FloatArray,
         limits: JointLimits) -> FloatArray:
    """Return the angles from ``start`` on, step by step, up to the first outside ``limits``."""
    track = start + np.concatenate(([0.0], np.cumsum(steps)))
    turns = np.round((track - angles) / (2.0 * math.pi))
    run = _onto(angles + (2.0 * math.pi) * turns, limits)
    outside = np.flatnonzero((run < limits.lower) | (run > limits.upper))
    return run[:int(outside[0])] if outside.size else run


def _onto(run: FloatArray, limits: JointLimits) -> FloatArray:
    """
    Return ``run`` with values on a limit, or past it by ``ON_LIMIT_RAD`` at most, just inside.

    ``angle + 2 pi k`` of an angle on the limit (the solver's pi, or -pi
    plus one rounding) can land a rounding past it: a pose on the limit is
    within it.  It is put ``limit_check.MARGIN`` inside, where a controller's
    curve ending on it cannot round past the limit.
    """
    upper = (run >= limits.upper - MARGIN) & (run <= limits.upper + ON_LIMIT_RAD)
    lower = (run <= limits.lower + MARGIN) & (run >= limits.lower - ON_LIMIT_RAD)
    if limits.upper - limits.lower <= 2.0 * MARGIN:
        return np.where(upper | lower, 0.5 * (limits.lower + limits.upper), run)
    return np.where(upper, limits.upper - MARGIN, np.where(lower, limits.lower + MARGIN, run))


def _settled(branches: npt.NDArray[np.int8], theta2: FloatArray) -> npt.NDArray[np.int8]:
    """
    Return the poses' branches, those on both branches given their neighbours'.

    At full reach (theta2 0) and fully folded (theta2 +-pi) the two elbow
    branches are one pose: its branch is the one of the pose before (the
    first of the path's, the one after), so that it splits nothing.
    """
    both = (np.abs(theta2) <= ON_LIMIT_RAD) | (np.abs(np.abs(theta2) - math.pi) <= ON_LIMIT_RAD)
    if not both.any() or both.all():
        return branches
    index = np.arange(branches.shape[0])
    last_sure = np.maximum.accumulate(np.where(both, -1, index))
    last_sure[last_sure < 0] = int(np.argmax(~both))
    settled: npt.NDArray[np.int8] = branches[last_sure]  # (numpy 1.x's stubs say Any)
    return settled


def _own_timing(positions: FloatArray, parts: List[Tuple[int, int]],
                stamps: Optional[npt.NDArray[np.int64]], reference: Optional[Angles],
                max_joint_velocity: float, min_move_time: float
                ) -> Tuple[FloatArray, npt.NDArray[np.int64], Tuple[Tuple[int, int], ...]]:
    """
    Return the path at its own timing: its parts' poses and the moves joining them, in ns.

    Each part keeps its stamps' spacing (``stamps``) or takes each step's
    largest joint change over the velocity limit; the first pose comes after
    the move to it (``move_time`` from ``reference``), each later part after
    the straight move from the end of the one before.  Also the parts'
    ranges in the returned arrays.
    """
    rows: List[FloatArray] = []
    times: List[npt.NDArray[np.float64]] = []
    ranges: List[Tuple[int, int]] = []
    clock = 0.0  # seconds
    count = 0
    here = reference
    for begin, end in parts:
        part = positions[begin:end]
        first = (float(part[0, 0]), float(part[0, 1]))
        move = move_time(here, first, max_joint_velocity, min_move_time)
        if ranges:  # a straight move from the part before, a point every JOIN_POINT_SPACING_S
            steps = max(1, math.ceil(move / JOIN_POINT_SPACING_S))
            fractions = np.arange(1, steps) / steps
            assert here is not None
            rows.append(np.asarray(here, dtype=np.float64)
                        + np.outer(fractions, np.subtract(first, here)))
            times.append(clock + fractions * move)
            count += steps - 1
        clock += move
        if stamps is not None:
            offsets = (stamps[begin:end] - stamps[begin]) / 1e9
        else:
            spans = np.abs(np.diff(part, axis=0)).max(axis=1) / max_joint_velocity
            offsets = np.concatenate(([0.0], np.cumsum(np.maximum(spans, MIN_POINT_SPACING_S))))
        rows.append(part)
        times.append(clock + offsets)
        ranges.append((count, count + (end - begin)))
        count += end - begin
        clock += float(offsets[-1])
        here = (float(part[-1, 0]), float(part[-1, 1]))
    times_ns = np.round(np.concatenate(times) * _NS).astype(np.int64)
    times_ns[0] = max(times_ns[0], 1)
    # rounding must not make two points equal: t[i] >= t[i-1] + 1 ns
    ramp = np.arange(times_ns.shape[0], dtype=np.int64)
    return (np.concatenate(rows), np.maximum.accumulate(times_ns - ramp) + ramp,
            tuple(ranges))


def _branch_for(solver: TwoBoneIK, first: FloatArray, reference: Optional[Angles]) -> Branch:
    """Return the branch of the whole path: the preference, or for closest the first pose's."""
    if solver.elbow is ElbowPreference.DOWN:
        return Branch.DOWN
    if solver.elbow is ElbowPreference.UP or reference is None:
        return Branch.UP
    result = solver.solve(float(first[0]), float(first[1]), reference)
    return Branch.DOWN if result.branch is Branch.DOWN else Branch.UP


def _with_elbow(solver: TwoBoneIK, branch: Branch) -> TwoBoneIK:
    return solver.with_elbow(branch.name.lower())
