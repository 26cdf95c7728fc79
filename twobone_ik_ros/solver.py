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
Analytic inverse kinematics of a planar two-link arm, without trigonometry.

This module has no ROS dependency: numpy and the standard library only, so
scripts, notebooks and benchmarks can use it as they use any other library.

Conventions
-----------
The arm lies in the XY plane of its base frame with the shoulder at the
origin; a z coordinate, where a caller has one, plays no part.  ``theta1`` is
the angle of link 1 from +x, counter-clockwise positive; ``theta2`` is the
angle of link 2 relative to link 1.  Forward kinematics::

    elbow = r1 * (cos t1, sin t1)
    tip   = elbow + r2 * (cos(t1 + t2), sin(t1 + t2))

Both angles are wrapped to (-pi, pi].  ``up`` puts the elbow counter-clockwise
of the ray from the base to the target (so theta2 <= 0), ``down`` is its
mirror image (theta2 >= 0).  On the workspace boundary the two coincide:
theta2 is 0 with the arm stretched and pi with it folded.

Derivation
----------
The elbow ``e`` lies on two circles: ``|e| = r1`` around the shoulder and
``|e - p| = r2`` around the target ``p``.  Subtracting the expanded second
equation from the first removes the quadratic term and leaves a linear one::

    e . p = (h + r1^2 - r2^2) / 2,        h = p . p

so the component of ``e`` along ``p`` is fixed.  The perpendicular component
follows from ``|e| = r1``.  Writing ``e = (w p + q p_perp) / (2 h)`` with
``w = h + r1^2 - r2^2`` and ``p_perp = (-p_y, p_x)`` (``p`` turned a quarter
counter-clockwise, so ``|p_perp|^2 = h``) and substituting into ``|e|^2 = r1^2``
gives ``w^2 + q^2 = 4 r1^2 h``.  Instead of evaluating ``4 r1^2 h - w^2``, whose
two terms cancel catastrophically near both workspace boundaries, we factor it
exactly::

    q^2 = 4 r1^2 h - w^2 = (L^2 - h) (h - D^2),   L = r1 + r2,  D = r1 - r2

Each factor is a difference of two close numbers only where it is meant to be
zero, and is then computed exactly (Sterbenz), so a target on the boundary
gets ``q = 0`` exactly and a target beyond it a negative product: the
reachability test and the square root share one expression.  ``+q`` is the
``up`` elbow, ``-q`` the ``down`` one.  One division (``0.5 / h``) scales the
elbow, one square root gives ``q``; nothing else is irrational.

The elbow is evaluated as a rotation-and-scale of ``p``: with
``zr = w / 2h`` and ``zi = q / 2h`` (the one division), ``e = (x zr - y zi,
y zr + x zi)``, the complex product ``p (zr + i zi)`` written out.  ``solve``
and ``solve_batch`` do these same IEEE operations in the same order, so their
elbows agree to the last bit.

The angles come last, from two ``atan2`` calls that need no normalisation:
``theta1`` is the direction of ``e`` and ``theta2`` the direction of link 2
seen from link 1, whose cosine and sine are proportional to
``h - r1^2 - r2^2`` and ``-q`` (the dot and cross products of the two links,
both divided by ``r1 r2 / 2``).

Unreachable targets are either rejected or moved to the nearest reachable
point on the base-to-target ray (``|p|`` clamped to ``[|D|, L]``).  The clamped
point is put on the boundary with ``h`` set to ``L^2`` (or ``D^2``) exactly, so
``q = 0`` and the elbow lands on its circle of radius r1 to the last bit,
instead of the stretched arm one gets by clipping ``q^2`` at zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
import math
from typing import Any, Callable, Dict, NamedTuple, Optional, Tuple, Type, TypeVar, Union

import numpy as np
import numpy.typing as npt

__all__ = [
    'ArmGeometry',
    'BatchResult',
    'Branch',
    'ElbowPreference',
    'IKResult',
    'JointLimits',
    'LINK_LENGTH_RANGE',
    'Reason',
    'Status',
    'TwoBoneIK',
    'UnreachablePolicy',
    'forward',
    'new_batch_result',
    'wrap_angle',
]

#: Link lengths outside this range are refused: inside it every intermediate
#: product (up to the fourth power of a length) stays a normal double.
LINK_LENGTH_RANGE = (1e-50, 1e50)

# Below this squared distance the target is treated as the shoulder itself for
# an arm with r1 == r2 (the only arm that can reach it); chosen so that the
# squared length of any accepted arm times it stays far from underflow.
_H_TINY = 2.0 ** -600
_TINY_RADIUS = 2.0 ** -300  # sqrt(_H_TINY)
_PI = math.pi
_TWO_PI = 2.0 * math.pi

FloatArray = npt.NDArray[np.float64]
_E = TypeVar('_E', bound=Enum)


class Status(IntEnum):
    """What the solver did with a target."""

    SOLVED = 0
    CLAMPED = 1
    REJECTED = 2


class Reason(IntEnum):
    """Why a target was clamped or rejected (``NONE`` when it was solved)."""

    NONE = 0
    TOO_FAR = 1
    TOO_CLOSE = 2
    NON_FINITE = 3
    JOINT_LIMITS = 4

    @property
    def label(self) -> str:
        """Lower-case name used in logs, diagnostics and documentation."""
        return self.name.lower()


class Branch(IntEnum):
    """Which of the two elbow positions a result uses."""

    NONE = 0
    UP = 1
    DOWN = -1


class ElbowPreference(str, Enum):
    """Which branch to prefer; ``CLOSEST`` follows the previous solution."""

    UP = 'up'
    DOWN = 'down'
    CLOSEST = 'closest'


class UnreachablePolicy(str, Enum):
    """What to do with a target outside the annulus the arm can reach."""

    CLAMP = 'clamp'
    REJECT = 'reject'


def wrap_angle(angle: float) -> float:
    """Wrap an angle to (-pi, pi], the interval every output angle lies in."""
    wrapped = math.remainder(angle, _TWO_PI)
    return _PI if wrapped == -_PI else wrapped


def forward(r1: float, r2: float, theta1: float,
            theta2: float) -> Tuple[Tuple[float, float], Tuple[float, float]]:
    """Return ``(elbow, tip)`` for the given joint angles (the FK above)."""
    elbow = (r1 * math.cos(theta1), r1 * math.sin(theta1))
    phi = theta1 + theta2
    return elbow, (elbow[0] + r2 * math.cos(phi), elbow[1] + r2 * math.sin(phi))


def _check_length(name: str, value: float) -> float:
    low, high = LINK_LENGTH_RANGE
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f'{name} must be a number of metres, got {value!r}')
    value = float(value)
    if not math.isfinite(value) or value <= 0.0:
        raise ValueError(f'{name} must be a finite length > 0 m, got {value!r}')
    if not low <= value <= high:
        raise ValueError(f'{name} must lie in [{low:g}, {high:g}] m, got {value!r}')
    return value


@dataclass(frozen=True)
class ArmGeometry:
    """The two link lengths, validated once so that solving never has to."""

    r1: float
    r2: float

    def __post_init__(self) -> None:
        """Refuse lengths the solver cannot honour, naming the value."""
        object.__setattr__(self, 'r1', _check_length('r1', self.r1))
        object.__setattr__(self, 'r2', _check_length('r2', self.r2))

    @property
    def outer_radius(self) -> float:
        """Reach with the arm stretched: r1 + r2."""
        return self.r1 + self.r2

    @property
    def inner_radius(self) -> float:
        """Reach with the arm folded: |r1 - r2| (0 when the links are equal)."""
        return abs(self.r1 - self.r2)


@dataclass(frozen=True)
class JointLimits:
    """Closed interval ``[lower, upper]`` of one joint, inside [-pi, pi]."""

    lower: float = -_PI
    upper: float = _PI

    def __post_init__(self) -> None:
        """Refuse limits that are not an ordered sub-interval of [-pi, pi]."""
        lower, upper = float(self.lower), float(self.upper)
        if not (math.isfinite(lower) and math.isfinite(upper)):
            raise ValueError(f'joint limits must be finite, got [{lower!r}, {upper!r}]')
        if lower > upper:
            raise ValueError(f'joint limits need lower <= upper, got [{lower!r}, {upper!r}]')
        # Angles are reported in (-pi, pi]; a limit beyond +-pi would admit an
        # angle only as its 2*pi alias, which the conventions never produce.
        if lower < -_PI or upper > _PI:
            raise ValueError(
                f'joint limits must lie within [-pi, pi] rad, got [{lower!r}, {upper!r}]')
        object.__setattr__(self, 'lower', lower)
        object.__setattr__(self, 'upper', upper)

    @property
    def is_full_circle(self) -> bool:
        """Tell whether the interval admits every angle the solver can produce."""
        return self.lower <= -_PI and self.upper >= _PI


class IKResult(NamedTuple):
    """
    One solved (or refused) target.

    ``theta1``, ``theta2``, ``elbow`` and ``reached`` are None exactly when the
    status is ``REJECTED``: a refused target has no angles rather than
    made-up ones.  ``reached`` is where the tip goes: the target itself when
    solved, the nearest reachable point when clamped.
    """

    theta1: Optional[float]
    theta2: Optional[float]
    elbow: Optional[Tuple[float, float]]
    reached: Optional[Tuple[float, float]]
    status: Status
    reason: Reason
    branch: Branch
    branch_switched: bool = False


SolveFunction = Callable[[float, float, Optional[Tuple[float, float]]], IKResult]


class BatchResult(NamedTuple):
    """
    Results for N targets as arrays; row i describes target i.

    Rejected rows hold 0.0 in every float array (never NaN) and ``Branch.NONE``;
    read ``status`` before using a row.  ``status``, ``reason`` and ``branch``
    hold the integer values of the enums of the same names.  ``elbow`` and
    ``reached`` have shape (N, 2) and are column-major when the solver
    allocates them (see ``new_batch_result``).
    """

    theta1: FloatArray
    theta2: FloatArray
    elbow: FloatArray
    reached: FloatArray
    status: npt.NDArray[np.int8]
    reason: npt.NDArray[np.int8]
    branch: npt.NDArray[np.int8]
    branch_switched: npt.NDArray[np.bool_]


def _rejected(reason: Reason) -> IKResult:
    return IKResult(None, None, None, None, Status.REJECTED, reason, Branch.NONE, False)


_REJECTED: Dict[Reason, IKResult] = {
    reason: _rejected(reason) for reason in Reason if reason is not Reason.NONE}
_new_result = tuple.__new__
_SOLVED, _CLAMPED = Status.SOLVED, Status.CLAMPED
_NONE, _UP, _DOWN = Branch.NONE, Branch.UP, Branch.DOWN
_NO_REASON = Reason.NONE

# Rows per block in solve_batch: small enough that a block's nine rows of
# temporaries (about 1 MiB) stay in a core's L2 cache, large enough that the
# forty-odd numpy calls per block cost little next to their work.  The
# fastest of 4096 ... 65536 rows when measured (2 MiB L2 per two cores).
_BATCH_BLOCK = 16384


class TwoBoneIK:
    """
    A configured solver: arm, branch preference, reach policy, joint limits.

    Everything that can be checked is checked here, once, so that the hot
    path (``solve``) is arithmetic only.  Instances are immutable; build a new
    one to change the configuration.

    ``solve(x, y, previous=None)`` solves the target ``(x, y)`` in the base
    frame and never raises for any float input; ``previous`` is the last
    ``(theta1, theta2)`` of the arm, read only by the ``closest`` preference.
    It is an instance attribute compiled per configuration (see ``_compile``).

    >>> ik = TwoBoneIK(1.0, 0.5)
    >>> r = ik.solve(1.2, 0.3)
    >>> r.status.name, r.branch.name
    ('SOLVED', 'UP')
    """

    def __init__(self, r1: float, r2: float,
                 elbow: Union[ElbowPreference, str] = ElbowPreference.UP,
                 unreachable: Union[UnreachablePolicy, str] = UnreachablePolicy.CLAMP,
                 shoulder_limits: Optional[Tuple[float, float]] = None,
                 elbow_limits: Optional[Tuple[float, float]] = None) -> None:
        """Validate and precompute; raises ValueError naming any bad value."""
        self.arm = ArmGeometry(r1, r2)
        self.elbow = _enum_value(ElbowPreference, elbow, 'elbow')
        self.unreachable = _enum_value(UnreachablePolicy, unreachable, 'unreachable')
        self.shoulder_limits = _limits('shoulder_limits', shoulder_limits)
        self.elbow_limits = _limits('elbow_limits', elbow_limits)
        r1, r2 = self.arm.r1, self.arm.r2
        self._limited = not (self.shoulder_limits.is_full_circle
                             and self.elbow_limits.is_full_circle)
        self._clamp = self.unreachable is UnreachablePolicy.CLAMP
        self._l2 = (r1 + r2) * (r1 + r2)  # L^2
        self._d2 = (r1 - r2) * (r1 - r2)  # D^2
        self._k = (r1 - r2) * (r1 + r2)   # r1^2 - r2^2, w = h + k
        self._r = r1 * r1 + r2 * r2       # h - r, the cosine term of theta2
        self._h_min = max(self._d2, _H_TINY)
        self._sign = -1.0 if self.elbow is ElbowPreference.DOWN else 1.0
        self.solve: SolveFunction = self._compile()

    @property
    def r1(self) -> float:
        """Length of link 1 (shoulder to elbow), metres."""
        return self.arm.r1

    @property
    def r2(self) -> float:
        """Length of link 2 (elbow to tip), metres."""
        return self.arm.r2

    # ----------------------------------------------------------------- scalar

    def _compile(self) -> SolveFunction:
        """
        Build the hot path as a closure over this configuration's constants.

        A closure reads its constants as cell variables, several times faster
        in CPython than attribute look-ups on ``self``; the scalar benchmark
        measures the result.  Branches that a configuration can never take
        (limits that admit every angle, a fixed preference) cost one test.
        """
        l2, d2, k, r = self._l2, self._d2, self._k, self._r
        h_min = self._h_min
        fixed_sign = self._sign
        closest = self.elbow is ElbowPreference.CLOSEST
        limited = self._limited
        lo1, hi1 = self.shoulder_limits.lower, self.shoulder_limits.upper
        lo2, hi2 = self.elbow_limits.lower, self.elbow_limits.upper
        prepare = self._prepare_outside
        sqrt, atan2, new, result = math.sqrt, math.atan2, _new_result, IKResult
        solved, no_reason, up, down = _SOLVED, _NO_REASON, _UP, _DOWN
        joint_limits = _REJECTED[Reason.JOINT_LIMITS]
        pi = _PI

        def solve(x: float, y: float,
                  previous: Optional[Tuple[float, float]] = None) -> IKResult:
            h = x * x + y * y
            if h_min <= h <= l2:  # False for NaN, which prepare() rejects
                rx, ry, status, reason = x, y, solved, no_reason
            else:
                prepared = prepare(x, y, h)
                if prepared.__class__ is result:
                    return prepared  # type: ignore[return-value]
                x, y, h, rx, ry, status, reason = prepared  # type: ignore[misc]
            q = sqrt((l2 - h) * (h - d2))
            scale = 0.5 / h
            zr = (h + k) * scale
            c2 = h - r
            sign = fixed_sign
            if closest and previous is not None:
                # choosing needs both branches' angles; the chosen one's are
                # recomputed below, which measured cheaper than passing them out
                sign = _closest_sign(x, y, zr, q * scale, q, c2, previous)
            qs = q * sign
            switched = False
            while True:  # the preferred branch, then the other if limits refuse it
                zi = qs * scale
                ex = x * zr - y * zi
                ey = y * zr + x * zi
                # atan2 returns -pi for a first argument of -0.0 or one so small
                # that pi minus it rounds to pi; the conventions want +pi there.
                theta1 = atan2(ey, ex)
                if theta1 == -pi:
                    theta1 = pi
                theta2 = atan2(-qs, c2)
                if theta2 == -pi:
                    theta2 = pi
                if not limited or (lo1 <= theta1 <= hi1 and lo2 <= theta2 <= hi2):
                    break
                if switched:
                    return joint_limits
                qs, sign, switched = -qs, -sign, True
            return new(result, (theta1, theta2, (ex, ey), (rx, ry), status,
                                reason, up if sign > 0.0 else down, switched))

        return solve

    def _prepare_outside(self, x: float, y: float, h: float) -> Union[IKResult, Tuple[Any, ...]]:
        """
        Handle a target off the fast path: non-finite, out of reach, at the base.

        Returns a rejected result, or the point to solve for instead with its
        squared norm, the point to report as reached, the status and reason.
        A clamped point is put on the boundary (``h`` exactly ``L^2`` or
        ``D^2``); its direction is ``(x, y) / sqrt(h)`` unless ``h`` overflowed
        or underflowed, when it is found without squaring.
        """
        if not (math.isfinite(x) and math.isfinite(y)):
            return _REJECTED[Reason.NON_FINITE]
        if h > self._l2:
            reason, radius, h_on_boundary = Reason.TOO_FAR, self.arm.outer_radius, self._l2
        elif self._d2 > 0.0:
            reason, radius, h_on_boundary = Reason.TOO_CLOSE, self.arm.inner_radius, self._d2
        else:
            # r1 == r2 and the target is (all but) the shoulder: reachable with
            # the arm folded.  Solve for a stand-in point on the same ray, far
            # enough from zero for the arithmetic, and report the target itself.
            ux, uy = _direction(x, y)
            return (_TINY_RADIUS * ux, _TINY_RADIUS * uy, _H_TINY, x, y, _SOLVED, _NO_REASON)
        if not self._clamp:
            return _REJECTED[reason]
        if _H_TINY <= h < math.inf:
            scale = radius / math.sqrt(h)
            cx, cy = x * scale, y * scale
        else:
            ux, uy = _direction(x, y)
            cx, cy = radius * ux, radius * uy
        return (cx, cy, h_on_boundary, cx, cy, _CLAMPED, reason)

    # ------------------------------------------------------------------ batch

    def solve_batch(self, points: npt.ArrayLike,
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
        if previous is not None and self.elbow is ElbowPreference.CLOSEST:
            prev = np.broadcast_to(np.asarray(previous, dtype=np.float64), (n, 2))
        if out is None:
            out = new_batch_result(n)
        else:
            _check_batch_result(out, n, pts)
            out.status.fill(_SOLVED)
            out.reason.fill(_NO_REASON)
            out.branch_switched.fill(False)
        out.branch.fill(_UP if self._sign > 0.0 else _DOWN)
        block = max(1, min(n, _BATCH_BLOCK))
        work = np.empty((len(_Scratch._fields), block))
        squares = np.empty((block, 2))
        # Overflow and NaN in the first products are expected and handled.
        with np.errstate(all='ignore'):
            for start in range(0, n, _BATCH_BLOCK):
                rows = slice(start, min(start + _BATCH_BLOCK, n))
                size = rows.stop - rows.start
                self._solve_block(pts[rows], None if prev is None else prev[rows],
                                  _batch_rows(out, rows), _Scratch(*work[:, :size]),
                                  squares[:size])
        return out

    def _solve_block(self, pts: FloatArray, prev: Optional[FloatArray], out: BatchResult,
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
        special = not (low >= self._h_min and high <= self._l2)
        rare = special and not (low >= _H_TINY and high < math.inf)
        stand_in = None
        h = s.h
        if not special or rare:
            np.copyto(rx, x)
            np.copyto(ry, y)
            x, y = rx, ry
        if rare:
            stand_in = self._prepare_rare_rows(rx, ry, h, out.status, out.reason)
        if special:
            h = self._clamp_rows(x, y, rx, ry, s, out.status, out.reason)
        np.subtract(self._l2, h, out=s.q)
        np.subtract(h, self._d2, out=s.t)
        np.multiply(s.q, s.t, out=s.q)
        np.sqrt(s.q, out=s.q)
        np.divide(0.5, h, out=s.scale)
        np.add(h, self._k, out=s.zr)
        np.multiply(s.zr, s.scale, out=s.zr)
        np.subtract(h, self._r, out=s.c2)
        np.multiply(s.q, s.scale, out=s.zi)
        # the branch is the sign of q (and so of zi); multiplying by -1 is exact
        if prev is not None:
            sign = self._closest_signs(rx, ry, s, prev)
            np.multiply(s.q, sign, out=s.q)
            np.multiply(s.zi, sign, out=s.zi)
            np.copyto(out.branch, np.where(sign > 0.0, np.int8(_UP), np.int8(_DOWN)))
        elif self._sign < 0.0:
            np.negative(s.q, out=s.q)
            np.negative(s.zi, out=s.zi)
        _branch_rows(rx, ry, s.zr, s.zi, s.q, s.c2, s.t,
                     out.elbow[:, 0], out.elbow[:, 1], out.theta1, out.theta2)
        if self._limited:
            self._apply_limits(rx, ry, s, out)
        # rows are rejected only as non-finite (rare), unreachable under the
        # reject policy, or outside joint limits
        if rare or (special and not self._clamp) or self._limited:
            rejected = out.status == Status.REJECTED
            for array in (out.theta1, out.theta2, out.elbow, out.reached):
                array[rejected] = 0.0
            out.branch[rejected] = _NONE
        if stand_in is not None:
            out.reached[stand_in] = pts[stand_in]

    def _clamp_rows(self, x: FloatArray, y: FloatArray, rx: FloatArray, ry: FloatArray,
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
        far = np.greater(s.h, self._l2).view(np.int8)
        near = np.less(s.h, self._h_min).view(np.int8)
        np.add(reason, far, out=reason)  # Reason.TOO_FAR == 1
        np.add(reason, near, out=reason)
        np.add(reason, near, out=reason)  # Reason.TOO_CLOSE == 2
        np.bitwise_or(far, near, out=far)
        np.add(status, far, out=status)  # Status.CLAMPED == 1
        if not self._clamp:
            np.add(status, far, out=status)  # Status.REJECTED == 2
        np.sqrt(s.h, out=s.t)
        np.clip(s.t, self.arm.inner_radius, self.arm.outer_radius, out=s.scale)
        np.divide(s.scale, s.t, out=s.scale)
        np.multiply(x, s.scale, out=rx)
        np.multiply(y, s.scale, out=ry)
        return np.clip(s.h, self._d2, self._l2, out=s.c2)

    def _prepare_rare_rows(self, x: FloatArray, y: FloatArray, h: FloatArray,
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
        x[bad], y[bad], h[bad] = self.arm.outer_radius, 0.0, self._l2
        huge = finite & (h == math.inf)
        tiny = finite & (h < _H_TINY)
        stand_in = tiny if self._d2 == 0.0 else None
        edges = [(huge, self.arm.outer_radius, self._l2, Reason.TOO_FAR)]
        if stand_in is None:
            edges.append((tiny, self.arm.inner_radius, self._d2, Reason.TOO_CLOSE))
        else:
            edges.append((tiny, _TINY_RADIUS, _H_TINY, Reason.NONE))
        for rows, radius, h_on_boundary, why in edges:
            if rows.any():
                ux, uy = _directions(x[rows], y[rows])
                x[rows], y[rows], h[rows] = radius * ux, radius * uy, h_on_boundary
                if why is not Reason.NONE:
                    reason[rows] = why
                    status[rows] = Status.CLAMPED if self._clamp else Status.REJECTED
        return stand_in

    def _closest_signs(self, x: FloatArray, y: FloatArray, s: _Scratch,
                       prev: FloatArray) -> FloatArray:
        """Per-row twin of ``_closest_sign``; ``s.q`` and ``s.zi`` are still unsigned."""
        xr, yi, yr, xi = x * s.zr, y * s.zi, y * s.zr, x * s.zi
        up1, up2 = np.arctan2(yr + xi, xr - yi), np.arctan2(0.0 - s.q, s.c2)
        down1, down2 = np.arctan2(yr - xi, xr + yi), np.arctan2(s.q, s.c2)
        p1, p2 = prev[:, 0], prev[:, 1]
        d_up = np.maximum(_wrapped_abs(up1 - p1), _wrapped_abs(up2 - p2))
        d_down = np.maximum(_wrapped_abs(down1 - p1), _wrapped_abs(down2 - p2))
        usable = np.isfinite(p1) & np.isfinite(p2)
        return np.where(usable & (d_down < d_up), -1.0, 1.0)

    def _apply_limits(self, x: FloatArray, y: FloatArray, s: _Scratch, out: BatchResult) -> None:
        """Per-row twin of the joint-limit retry in ``solve``."""
        outside = ~self._within_limits(out.theta1, out.theta2)
        outside &= out.status != Status.REJECTED
        if not outside.any():
            return
        ex, ey, theta1, theta2, scratch = (np.empty(np.count_nonzero(outside)) for _ in range(5))
        q = -s.q[outside]
        _branch_rows(x[outside], y[outside], s.zr[outside], -s.zi[outside], q, s.c2[outside],
                     scratch, ex, ey, theta1, theta2)
        fits = self._within_limits(theta1, theta2)
        switched = np.zeros_like(outside)
        switched[outside] = fits
        out.elbow[switched, 0], out.elbow[switched, 1] = ex[fits], ey[fits]
        out.theta1[switched], out.theta2[switched] = theta1[fits], theta2[fits]
        out.branch[switched] = -out.branch[switched]
        out.branch_switched[switched] = True
        refused = outside & ~switched
        out.reason[refused], out.status[refused] = Reason.JOINT_LIMITS, Status.REJECTED

    def _within_limits(self, theta1: FloatArray, theta2: FloatArray) -> npt.NDArray[np.bool_]:
        s, e = self.shoulder_limits, self.elbow_limits
        return ((theta1 >= s.lower) & (theta1 <= s.upper)
                & (theta2 >= e.lower) & (theta2 <= e.upper))


class _Scratch(NamedTuple):
    """Per-block work rows of solve_batch (views into one reused array)."""

    h: FloatArray       # x^2 + y^2 of the target
    q: FloatArray       # the signed perpendicular coefficient
    scale: FloatArray   # 0.5 / h
    zr: FloatArray      # (h + r1^2 - r2^2) * scale: elbow along p
    zi: FloatArray      # q * scale: elbow along p turned a quarter
    c2: FloatArray      # h - r1^2 - r2^2; first the clipped h while clamping
    t: FloatArray       # temporary


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


def _replace_minus_pi(theta: FloatArray) -> None:
    """Array twin of the scalar ``-pi -> pi`` correction after atan2."""
    if theta.size and theta.min() == -_PI:
        np.copyto(theta, _PI, where=theta == -_PI)


def _enum_value(kind: Type[_E], value: object, name: str) -> _E:
    try:
        return kind(value)
    except ValueError:
        choices = ', '.join(repr(member.value) for member in kind)
        raise ValueError(f'{name} must be one of {choices}, got {value!r}') from None


def _limits(name: str, value: Optional[Tuple[float, float]]) -> JointLimits:
    if value is None:
        return JointLimits()
    try:
        lower, upper = value
    except (TypeError, ValueError):
        raise ValueError(f'{name} must be two numbers [min, max], got {value!r}') from None
    try:
        return JointLimits(float(lower), float(upper))
    except (TypeError, ValueError) as error:
        raise ValueError(f'{name}: {error}') from None


def _direction(x: float, y: float) -> Tuple[float, float]:
    """Return the unit vector along (x, y), free of overflow and underflow; +x for 0."""
    m = max(abs(x), abs(y))
    if m == 0.0:
        return 1.0, 0.0
    sx, sy = x / m, y / m
    n = math.hypot(sx, sy)
    return sx / n, sy / n


def _directions(x: FloatArray, y: FloatArray) -> Tuple[FloatArray, FloatArray]:
    """Array twin of ``_direction``."""
    m = np.maximum(np.abs(x), np.abs(y))
    zero = m == 0.0
    m[zero] = 1.0
    sx, sy = x / m, y / m
    sx[zero] = 1.0
    n = np.hypot(sx, sy)
    return sx / n, sy / n


def _closest_sign(x: float, y: float, zr: float, zi: float, q: float, c2: float,
                  previous: Tuple[float, float]) -> float:
    """+1.0 (up) or -1.0 (down), whichever is nearer ``previous`` in L-inf."""
    p1, p2 = previous
    if not (math.isfinite(p1) and math.isfinite(p2)):
        return 1.0
    xr, yi, yr, xi = x * zr, y * zi, y * zr, x * zi
    up = _joint_distance(math.atan2(yr + xi, xr - yi), math.atan2(0.0 - q, c2), p1, p2)
    down = _joint_distance(math.atan2(yr - xi, xr + yi), math.atan2(q, c2), p1, p2)
    return -1.0 if down < up else 1.0


def _joint_distance(t1: float, t2: float, p1: float, p2: float) -> float:
    return max(abs(math.remainder(t1 - p1, _TWO_PI)), abs(math.remainder(t2 - p2, _TWO_PI)))


def _wrapped_abs(delta: FloatArray) -> FloatArray:
    return np.abs(np.remainder(delta + _PI, _TWO_PI) - _PI)
