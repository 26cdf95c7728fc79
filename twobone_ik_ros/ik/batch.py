"""
The solver for N targets at once: the method of ``solver.py`` on arrays.

Every step of ``ik.scalar`` has a row-wise counterpart here, doing the same
IEEE operations in the same order, so elbows and reached points agree with
the scalar solver to the last bit (angles to numpy's ``arctan2``, which is not
libm's); ``test_solver*.py`` holds the two in step.  Work is done in
cache-sized blocks of rows, with no Python code per target.
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
from typing import Any, Dict, NamedTuple, Optional, Tuple

import numpy as np
import numpy.typing as npt

from twobone_ik_ros.ik.geometry import JointLimits
from twobone_ik_ros.ik.vocabulary import (
    BatchResult, Branch, ElbowPreference, FloatArray, H_TINY, Reason, SolverConstants, Status,
    TINY_RADIUS)

_PI = math.pi
_TWO_PI = 2.0 * math.pi
_SOLVED, _NO_REASON = Status.SOLVED, Reason.NONE
_NONE, _UP, _DOWN = Branch.NONE, Branch.UP, Branch.DOWN

# Rows per block in solve_batch: small enough that a block's nine rows of
# temporaries (about 1 MiB) stay in a core's L2 cache, large enough that the
# forty-odd numpy calls per block cost little next to their work.  The
# fastest of 4096 ... 65536 rows when measured (2 MiB L2 per two cores).
BATCH_BLOCK = 16384


class _Scratch(NamedTuple):
    """Per-block work rows of solve_batch (views into one reused array)."""

    h: FloatArray       # x^2 + y^2 of the target
    q: FloatArray       # the signed perpendicular coefficient
    scale: FloatArray   # 0.5 / h
    zr: FloatArray      # (h + r1^2 - r2^2) * scale: elbow along p
    zi: FloatArray      # q * scale: elbow along p turned a quarter
    c2: FloatArray      # h - r1^2 - r2^2; first the clipped h while clamping
    t: FloatArray       # temporary


def solve_batch(c: SolverConstants, points: npt.ArrayLike,
                previous: Optional[npt.ArrayLike] = None,
                out: Optional[BatchResult] = None) -> BatchResult:
    """
    Solve N targets at once; same semantics and arithmetic as ``solve``.

    ``points`` has shape (N, 2).  ``previous`` (for ``closest``) is one
    ``(theta1, theta2)`` pair for all rows or an (N, 2) array.  ``out``, a
    result from ``new_batch_result(N)`` (or an earlier call), is filled
    in place instead of allocating: a loop that solves batch after batch
    then touches no fresh memory.  The work is vectorised and done in
    cache-sized blocks of rows; no Python code runs per target.
    """
    pts = np.asarray(points, dtype=np.float64)
    if pts.ndim != 2 or pts.shape[1] != 2:
        raise ValueError(f'points must have shape (N, 2), got {pts.shape}')
    n = pts.shape[0]
    prev = None
    if previous is not None and c.elbow is ElbowPreference.CLOSEST:
        prev = np.broadcast_to(np.asarray(previous, dtype=np.float64), (n, 2))
    if out is None:
        out = new_batch_result(n)
    else:
        _check_batch_result(out, n, pts)
        out.status.fill(_SOLVED)
        out.reason.fill(_NO_REASON)
        out.branch_switched.fill(False)
    out.branch.fill(_UP if c.sign > 0.0 else _DOWN)
    block = max(1, min(n, BATCH_BLOCK))
    work = np.empty((len(_Scratch._fields), block))
    squares = np.empty((block, 2))
    # Overflow and NaN in the first products are expected and handled.
    with np.errstate(all='ignore'):
        for start in range(0, n, BATCH_BLOCK):
            rows = slice(start, min(start + BATCH_BLOCK, n))
            size = rows.stop - rows.start
            _solve_block(c, pts[rows], None if prev is None else prev[rows],
                         _batch_rows(out, rows), _Scratch(*work[:, :size]), squares[:size])
    return out


def _solve_block(c: SolverConstants, pts: FloatArray, prev: Optional[FloatArray], out: BatchResult,
                 s: _Scratch, squares: FloatArray) -> None:
    """
    Fill ``out`` (a block of rows of the caller's result): one block of solve_batch.

    The reached columns of ``out`` hold the point solved for (the target,
    or where clamping moved it), so no separate copy of it is made; only
    a stand-in point at the shoulder is replaced by the target at the end.
    """
    np.multiply(pts, pts, out=squares)
    np.add(squares[:, 0], squares[:, 1], out=s.h)
    x, y = pts[:, 0], pts[:, 1]
    rx, ry = out.reached[:, 0], out.reached[:, 1]
    # min/max propagate NaN, so these tests also catch non-finite rows
    low, high = s.h.min(), s.h.max()
    special = not (low >= c.h_min and high <= c.l2)
    rare = special and not (low >= H_TINY and high < math.inf)
    stand_in = None
    h = s.h
    if not special or rare:
        np.copyto(rx, x)
        np.copyto(ry, y)
        x, y = rx, ry
    if rare:
        stand_in = _prepare_rare_rows(c, rx, ry, h, out.status, out.reason)
    if special:
        h = _clamp_rows(c, x, y, rx, ry, s, out.status, out.reason)
    np.subtract(c.l2, h, out=s.q)
    np.subtract(h, c.d2, out=s.t)
    np.multiply(s.q, s.t, out=s.q)
    np.sqrt(s.q, out=s.q)
    np.divide(0.5, h, out=s.scale)
    np.add(h, c.k, out=s.zr)
    np.multiply(s.zr, s.scale, out=s.zr)
    np.subtract(h, c.r, out=s.c2)
    np.multiply(s.q, s.scale, out=s.zi)
    # the branch is the sign of q (and so of zi); multiplying by -1 is exact
    if prev is not None:
        sign = _closest_signs(c, rx, ry, s, prev)
        np.multiply(s.q, sign, out=s.q)
        np.multiply(s.zi, sign, out=s.zi)
        np.copyto(out.branch, np.where(sign > 0.0, np.int8(_UP), np.int8(_DOWN)))
    elif c.sign < 0.0:
        np.negative(s.q, out=s.q)
        np.negative(s.zi, out=s.zi)
    _branch_rows(rx, ry, s.zr, s.zi, s.q, s.c2, s.t,
                 out.elbow[:, 0], out.elbow[:, 1], out.theta1, out.theta2)
    if c.mapped:
        _elbow_positions(c, out.theta2)
    if c.limited:
        _apply_limits(c, rx, ry, s, out)
    # rows are rejected only as non-finite (rare), unreachable under the
    # reject policy, or outside joint limits
    if rare or (special and not c.clamp) or c.limited:
        rejected = out.status == Status.REJECTED
        for array in (out.theta1, out.theta2, out.elbow, out.reached):
            array[rejected] = 0.0
        out.branch[rejected] = _NONE
    if stand_in is not None:  # the target itself, unless the row was rejected after all
        stand_in &= out.status != Status.REJECTED
        out.reached[stand_in] = pts[stand_in]


def _clamp_rows(c: SolverConstants, x: FloatArray, y: FloatArray, rx: FloatArray, ry: FloatArray,
                s: _Scratch, status: npt.NDArray[np.int8],
                reason: npt.NDArray[np.int8]) -> FloatArray:
    """
    Row-wise twin of the clamping in ``_prepare_outside``, without masks.

    ``(rx, ry) = p * clip(|p|, |D|, L) / |p|`` leaves a reachable row
    exactly as it was (d / d is 1.0) and scales an unreachable one as the
    scalar path does; ``clip(h, D^2, L^2)`` puts it exactly on the
    boundary.  Rows must be finite with a normal ``h`` (see
    ``_prepare_rare_rows``).  Returns the clipped ``h`` (in ``s.c2``, free
    until the caller fills it).
    """
    far = np.greater(s.h, c.l2)
    near = np.less(s.h, c.h_min)
    np.copyto(reason, np.int8(Reason.TOO_FAR), where=far)
    np.copyto(reason, np.int8(Reason.TOO_CLOSE), where=near)
    np.logical_or(far, near, out=far)
    np.copyto(status, np.int8(Status.CLAMPED if c.clamp else Status.REJECTED), where=far)
    np.sqrt(s.h, out=s.t)
    np.clip(s.t, c.arm.inner_radius, c.arm.outer_radius, out=s.scale)
    np.divide(s.scale, s.t, out=s.scale)
    np.multiply(x, s.scale, out=rx)
    np.multiply(y, s.scale, out=ry)
    return np.clip(s.h, c.d2, c.l2, out=s.c2)


def _prepare_rare_rows(c: SolverConstants, x: FloatArray, y: FloatArray, h: FloatArray,
                       status: npt.NDArray[np.int8],
                       reason: npt.NDArray[np.int8]) -> Optional[npt.NDArray[np.bool_]]:
    """
    Row-wise twin of the rest of ``_prepare_outside``: the rare rows.

    Non-finite rows are rejected (and given a harmless point), rows whose
    ``h`` overflowed or underflowed are moved onto the boundary along a
    direction found without squaring.  Returns the rows solved through a
    stand-in point at the shoulder (r1 == r2), whose reached point is the
    target itself, or None.
    """
    finite = np.isfinite(x) & np.isfinite(y)
    bad = ~finite
    reason[bad], status[bad] = Reason.NON_FINITE, Status.REJECTED
    x[bad], y[bad], h[bad] = c.arm.outer_radius, 0.0, c.l2
    huge = finite & (h == math.inf)
    tiny = finite & (h < H_TINY)
    stand_in = tiny if c.d2 == 0.0 else None
    edges = [(huge, c.arm.outer_radius, c.l2, Reason.TOO_FAR)]
    if stand_in is None:
        edges.append((tiny, c.arm.inner_radius, c.d2, Reason.TOO_CLOSE))
    else:
        edges.append((tiny, TINY_RADIUS, H_TINY, Reason.NONE))
    for rows, radius, h_on_boundary, why in edges:
        if rows.any():
            ux, uy = _directions(x[rows], y[rows])
            x[rows], y[rows], h[rows] = radius * ux, radius * uy, h_on_boundary
            if why is not Reason.NONE:
                reason[rows] = why
                status[rows] = Status.CLAMPED if c.clamp else Status.REJECTED
    return stand_in


def _closest_signs(c: SolverConstants, x: FloatArray, y: FloatArray, s: _Scratch,
                   prev: FloatArray) -> FloatArray:
    """Per-row twin of ``_closest_sign``; ``s.q`` and ``s.zi`` are still unsigned."""
    xr, yi, yr, xi = x * s.zr, y * s.zi, y * s.zr, x * s.zi
    up1, up2 = np.arctan2(yr + xi, xr - yi), np.arctan2(0.0 - s.q, s.c2)
    down1, down2 = np.arctan2(yr - xi, xr + yi), np.arctan2(s.q, s.c2)
    p1, p2 = prev[:, 0], prev[:, 1]
    if c.mapped:  # joint positions: compared as the solver's angles, as ``solve`` does
        p2 = c.elbow_direction * p2 + c.elbow_offset
    d_up = np.maximum(_wrapped_abs(up1 - p1), _wrapped_abs(up2 - p2))
    d_down = np.maximum(_wrapped_abs(down1 - p1), _wrapped_abs(down2 - p2))
    usable = np.isfinite(p1) & np.isfinite(p2)
    return np.where(usable & (d_down < d_up), -1.0, 1.0)


def _apply_limits(c: SolverConstants, x: FloatArray, y: FloatArray, s: _Scratch,
                  out: BatchResult) -> None:
    """Per-row twin of the joint-limit retry in ``solve``."""
    outside = ~_within_limits(c, out.theta1, out.theta2)
    outside &= out.status != Status.REJECTED
    if not outside.any():
        return
    ex, ey, theta1, theta2, scratch = (np.empty(np.count_nonzero(outside)) for _ in range(5))
    q = -s.q[outside]
    _branch_rows(x[outside], y[outside], s.zr[outside], -s.zi[outside], q, s.c2[outside],
                 scratch, ex, ey, theta1, theta2)
    if c.mapped:
        _elbow_positions(c, theta2)
    fits = _within_limits(c, theta1, theta2)
    switched = np.zeros_like(outside)
    switched[outside] = fits
    out.elbow[switched, 0], out.elbow[switched, 1] = ex[fits], ey[fits]
    out.theta1[switched], out.theta2[switched] = theta1[fits], theta2[fits]
    out.branch[switched] = -out.branch[switched]
    out.branch_switched[switched] = True
    refused = outside & ~switched
    out.reason[refused], out.status[refused] = Reason.JOINT_LIMITS, Status.REJECTED


def _within_limits(c: SolverConstants, theta1: FloatArray,
                   theta2: FloatArray) -> npt.NDArray[np.bool_]:
    """Per-row twin of the limit test in ``solve`` (``JointLimits.admits`` beyond +-pi)."""
    return _admitted(c.shoulder_limits, theta1) & _admitted(c.elbow_limits, theta2)


def _admitted(limits: JointLimits, theta: FloatArray) -> npt.NDArray[np.bool_]:
    if not limits.multi_turn:
        return (theta >= limits.lower) & (theta <= limits.upper)
    admitted = np.zeros(theta.shape, np.bool_)
    for offset in limits.offsets:
        shifted = theta + offset
        admitted |= (shifted >= limits.lower) & (shifted <= limits.upper)
    return admitted


def new_batch_result(n: int) -> BatchResult:
    """
    Allocate a BatchResult for ``n`` rows, to pass to ``solve_batch(out=...)``.

    The (n, 2) arrays are column-major: each coordinate is contiguous, which
    the arithmetic (and most plotting) reads fastest; indexing is unchanged.
    """
    return BatchResult(
        np.empty(n), np.empty(n), np.empty((n, 2), order='F'), np.empty((n, 2), order='F'),
        np.zeros(n, np.int8), np.zeros(n, np.int8), np.empty(n, np.int8),
        np.zeros(n, np.bool_))


def _check_batch_result(out: BatchResult, n: int, points: FloatArray) -> None:
    """Refuse an ``out`` that cannot hold ``n`` rows or overlaps the input, naming the field."""
    if not isinstance(out, BatchResult):
        raise TypeError(f'out must be a BatchResult, got {type(out).__name__}')
    templates: Dict[str, npt.NDArray[Any]] = new_batch_result(0)._asdict()
    for name, array in out._asdict().items():
        template = templates[name]
        shape = (n,) + template.shape[1:]
        if not (isinstance(array, np.ndarray) and array.shape == shape
                and array.dtype == template.dtype and array.flags.writeable):
            raise ValueError(
                f'out.{name} must be a writeable {template.dtype} array of shape {shape}')
        # the input is read after some outputs are written
        if np.may_share_memory(array, points):
            raise ValueError(f'out.{name} overlaps the points being solved')


def _batch_rows(out: BatchResult, rows: slice) -> BatchResult:
    return BatchResult._make(array[rows] for array in out)


def _branch_rows(x: FloatArray, y: FloatArray, zr: FloatArray, zi: FloatArray,
                 qs: FloatArray, c2: FloatArray, t: FloatArray, ex: FloatArray,
                 ey: FloatArray, theta1: FloatArray, theta2: FloatArray) -> None:
    """Array twin of the branch arithmetic in ``solve`` for a signed q."""
    np.multiply(x, zr, out=ex)
    np.multiply(y, zi, out=t)
    np.subtract(ex, t, out=ex)
    np.multiply(y, zr, out=ey)
    np.multiply(x, zi, out=t)
    np.add(ey, t, out=ey)
    np.arctan2(ey, ex, out=theta1)
    np.subtract(0.0, qs, out=t)  # +0.0 where q is 0: a folded arm gets +pi, not -pi to fix
    np.arctan2(t, c2, out=theta2)
    _replace_minus_pi(theta1)
    _replace_minus_pi(theta2)


def _elbow_positions(c: SolverConstants, theta2: FloatArray) -> None:
    """Array twin of ``vocabulary.joint_position``: each theta2 becomes the elbow's position."""
    np.subtract(theta2, c.elbow_offset, out=theta2)
    np.multiply(theta2, c.elbow_direction, out=theta2)
    theta2 -= np.where(theta2 > _PI, _TWO_PI, 0.0)
    theta2 += np.where(theta2 <= -_PI, _TWO_PI, 0.0)


def _replace_minus_pi(theta: FloatArray) -> None:
    """Array twin of the scalar ``-pi -> pi`` correction after atan2."""
    if theta.size and theta.min() == -_PI:
        np.copyto(theta, _PI, where=theta == -_PI)


def _directions(x: FloatArray, y: FloatArray) -> Tuple[FloatArray, FloatArray]:
    """Array twin of ``_direction``."""
    m = np.maximum(np.abs(x), np.abs(y))
    zero = m == 0.0
    m[zero] = 1.0
    sx, sy = x / m, y / m
    sx[zero] = 1.0
    n = np.hypot(sx, sy)
    return sx / n, sy / n


def _wrapped_abs(delta: FloatArray) -> FloatArray:
    """
    Return ``|math.remainder(delta, 2 pi)|`` row-wise, to the last bit.

    ``fmod`` is exact, and so is ``2 pi - a`` for ``a`` in (pi, 2 pi]
    (Sterbenz); shifting by pi before a floored remainder would round, and
    a tie between the branches (a folded arm, theta2 = +-pi) could then be
    broken differently from ``_closest_sign``.
    """
    a = np.abs(np.fmod(delta, _TWO_PI))
    return np.where(a > _PI, _TWO_PI - a, a)
