"""
The solver for one target: the method of ``solver.py`` as scalar arithmetic.

``compile_solve`` returns the hot path as a closure over one configuration's
constants (see its docstring for why a closure); ``TwoBoneIK.solve`` is that
closure.  ``batch`` does the same IEEE operations in the same order on
arrays, and the tests hold the two to equal elbows and reached points.
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
from typing import Any, Optional, Tuple, Union

from twobone_ik_ros.ik.vocabulary import (
    Branch, ElbowPreference, H_TINY, IKResult, new_result, Reason, REJECTED, SolveFunction,
    SolverConstants, Status, TINY_RADIUS)

_PI = math.pi
_TWO_PI = 2.0 * math.pi
_SOLVED, _CLAMPED, _NO_REASON = Status.SOLVED, Status.CLAMPED, Reason.NONE
_UP, _DOWN = Branch.UP, Branch.DOWN


def compile_solve(c: SolverConstants) -> SolveFunction:
    """
    Build the hot path as a closure over this configuration's constants.

    A closure reads its constants as cell variables, several times faster
    in CPython than attribute look-ups on ``self``; the scalar benchmark
    measures the result.  What a configuration decides once is decided
    here: the branch of a fixed preference, how limits are checked.  The
    common cases stay inline (a target within reach, one beyond it that is
    clamped); the rare ones are a call (``prepare_outside``), whose steps
    are the same IEEE operations, so results do not depend on the way.
    """
    l2, d2, k, r = c.l2, c.d2, c.k, c.r
    h_min = c.h_min
    fixed_sign = c.sign
    closest = c.elbow is ElbowPreference.CLOSEST
    limited = c.limited
    lo1, hi1 = c.shoulder_limits.lower, c.shoulder_limits.upper
    lo2, hi2 = c.elbow_limits.lower, c.elbow_limits.upper
    # limits beyond +-pi admit an angle through another representation
    turns = c.shoulder_limits.multi_turn or c.elbow_limits.multi_turn
    admits1, admits2 = c.shoulder_limits.admits, c.elbow_limits.admits
    in_interval = limited and not turns
    # a finite target beyond reach, clamped: prepare_outside's steps, inline
    clamp_far = c.clamp and l2 >= H_TINY
    outer, inf = c.arm.outer_radius, math.inf
    prepare = prepare_outside
    sqrt, atan2, new, result = math.sqrt, math.atan2, new_result, IKResult
    solved, clamped, no_reason, too_far = _SOLVED, _CLAMPED, _NO_REASON, Reason.TOO_FAR
    up, down = _UP, _DOWN
    fixed_branch = down if fixed_sign < 0.0 else up
    joint_limits = REJECTED[Reason.JOINT_LIMITS]
    pi, minus_pi = _PI, -_PI  # -pi in the loop would negate (a new float) every time
    # an elbow whose joint position is not theta2 (an arm read from its URDF)
    mapped, elbow_position, theta2_of = c.mapped, c.elbow_position, c.theta2_of

    def solve(x: float, y: float,
              previous: Optional[Tuple[float, float]] = None) -> IKResult:
        h = x * x + y * y
        if h_min <= h <= l2:  # False for NaN, which prepare() rejects
            rx = x  # one store each: four at once would build and unpack a tuple
            ry = y
            status = solved
            reason = no_reason
        elif clamp_far and l2 < h < inf:
            s = outer / sqrt(h)
            x, y, h = x * s, y * s, l2
            rx, ry, status, reason = x, y, clamped, too_far
        else:
            prepared = prepare(c, x, y, h)
            if prepared.__class__ is result:
                return prepared  # type: ignore[return-value]
            x, y, h, rx, ry, status, reason = prepared  # type: ignore[misc]
        q = sqrt((l2 - h) * (h - d2))
        scale = 0.5 / h
        zr = (h + k) * scale
        c2 = h - r
        if closest and previous is not None:
            # choosing needs both branches' angles; the chosen one's are
            # recomputed below, which measured cheaper than passing them out
            if mapped:  # previous holds joint positions: compare the solver's angles
                previous = (previous[0], theta2_of(previous[1]))
            sign = _closest_sign(x, y, zr, q * scale, q, c2, previous)
            branch = up if sign > 0.0 else down
        else:
            sign, branch = fixed_sign, fixed_branch
        qs = q * sign
        switched = False
        while True:  # the preferred branch, then the other if the limits refuse it
            zi = qs * scale
            ex = x * zr - y * zi
            ey = y * zr + x * zi
            # atan2 returns -pi for a first argument of -0.0 or one so small
            # that pi minus it rounds to pi; the conventions want +pi there.
            theta1 = atan2(ey, ex)
            if theta1 == minus_pi:
                theta1 = pi
            theta2 = atan2(-qs, c2)
            if theta2 == minus_pi:
                theta2 = pi
            if mapped:
                theta2 = elbow_position(theta2)
            if in_interval:
                if lo1 <= theta1 <= hi1 and lo2 <= theta2 <= hi2:
                    break
            elif not limited or admits1(theta1) and admits2(theta2):
                break
            if switched:
                return joint_limits
            qs, sign, switched = -qs, -sign, True
            branch = up if sign > 0.0 else down
        return new(result, (theta1, theta2, (ex, ey), (rx, ry), status, reason, branch,
                            switched))

    return solve


def prepare_outside(c: SolverConstants, x: float, y: float,
                    h: float) -> Union[IKResult, Tuple[Any, ...]]:
    """
    Handle a target off the fast path: non-finite, out of reach, at the base.

    Returns a rejected result, or the point to solve for instead with its
    squared norm, the point to report as reached, the status and reason.
    A clamped point is put on the boundary (``h`` exactly ``L^2`` or
    ``D^2``); its direction is ``(x, y) / sqrt(h)`` unless ``h`` overflowed
    or underflowed, when it is found without squaring.
    """
    if not (math.isfinite(x) and math.isfinite(y)):
        return REJECTED[Reason.NON_FINITE]
    if h > c.l2:
        reason, radius, h_on_boundary = Reason.TOO_FAR, c.arm.outer_radius, c.l2
    elif c.d2 > 0.0:
        reason, radius, h_on_boundary = Reason.TOO_CLOSE, c.arm.inner_radius, c.d2
    else:
        # r1 == r2 and the target is (all but) the shoulder: reachable with
        # the arm folded.  Solve for a stand-in point on the same ray, far
        # enough from zero for the arithmetic, and report the target itself.
        ux, uy = _direction(x, y)
        return (TINY_RADIUS * ux, TINY_RADIUS * uy, H_TINY, x, y, _SOLVED, _NO_REASON)
    if not c.clamp:
        return REJECTED[reason]
    if H_TINY <= h < math.inf:
        scale = radius / math.sqrt(h)
        cx, cy = x * scale, y * scale
    else:
        ux, uy = _direction(x, y)
        cx, cy = radius * ux, radius * uy
    return (cx, cy, h_on_boundary, cx, cy, _CLAMPED, reason)

# ------------------------------------------------------------------ batch


def _direction(x: float, y: float) -> Tuple[float, float]:
    """Return the unit vector along (x, y), free of overflow and underflow; +x for 0."""
    m = max(abs(x), abs(y))
    if m == 0.0:
        return 1.0, 0.0
    sx, sy = x / m, y / m
    n = math.hypot(sx, sy)
    return sx / n, sy / n


def _closest_sign(x: float, y: float, zr: float, zi: float, q: float, c2: float,
                  previous: Tuple[float, float]) -> float:
    """+1.0 (up) or -1.0 (down), whichever is nearer ``previous`` in L-inf."""
    p1, p2 = previous
    if not (math.isfinite(p1) and math.isfinite(p2)):
        return 1.0
    xr, yi, yr, xi = x * zr, y * zi, y * zr, x * zi
    up = joint_distance(math.atan2(yr + xi, xr - yi), math.atan2(0.0 - q, c2), p1, p2)
    down = joint_distance(math.atan2(yr - xi, xr + yi), math.atan2(q, c2), p1, p2)
    return -1.0 if down < up else 1.0


def joint_distance(t1: float, t2: float, p1: float, p2: float) -> float:
    """
    Return the larger wrapped difference of two joint pairs: what ``closest`` minimises.

    Wrapped, unlike ``motion.angles.apart`` (how far a joint travels): the
    solver's angles are in (-pi, pi], and a branch at +pi is next to an arm at -pi.
    """
    return max(abs(math.remainder(t1 - p1, _TWO_PI)), abs(math.remainder(t2 - p2, _TWO_PI)))
