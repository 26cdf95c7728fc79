"""
The solver's vocabulary: enums, result types, the arm and its limits.

Pure Python and numpy types, no arithmetic of the solver: ``solver.py``
documents the method, ``ik.scalar`` and ``ik.batch`` implement it for one
target and for arrays of targets, and both build their results from here.
``SolverConstants`` is one configuration, validated and precomputed once.
Each type carries the checks that make it valid (joint limits, link
lengths, the enums' choices), so that nothing later checks again.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum
import math
from typing import Callable, Dict, NamedTuple, Optional, Tuple, Type, TypeVar, Union

import numpy as np
import numpy.typing as npt

#: Link lengths outside this range are refused: inside it every intermediate
#: product (up to the fourth power of a length) stays a normal double.
LINK_LENGTH_RANGE = (1e-50, 1e50)

# Below this squared distance the target is treated as the shoulder itself for
# an arm with r1 == r2 (the only arm that can reach it); chosen so that the
# squared length of any accepted arm times it stays far from underflow.
H_TINY = 2.0 ** -600
TINY_RADIUS = 2.0 ** -300  # sqrt(H_TINY)
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


def joint_position(theta2: float, offset: float, direction: float) -> float:
    """
    Return ``direction * (theta2 - offset)`` wrapped to (-pi, pi].

    Both angles lie in (-pi, pi], so the difference lies within (-2 pi, 2 pi)
    (2 pi after rounding at most) and one exact subtraction of 2 pi wraps it
    (Sterbenz): the same value ``math.remainder`` gives, and the arrays'
    twin in ``ik.batch`` does the same operations.
    """
    position = direction * (theta2 - offset)
    if position > _PI:
        position -= _TWO_PI
    elif position <= -_PI:
        position += _TWO_PI
    return position


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
        """Reach with the arm folded: ``|r1 - r2|`` (0 when the links are equal)."""
        return abs(self.r1 - self.r2)


#: Joint limits may reach this far from zero (two turns each way): enough for
#: multi-turn joints, small enough that every representation is few offsets.
MAX_JOINT_ANGLE = 4.0 * _PI


@dataclass(frozen=True)
class JointLimits:
    """
    Closed interval ``[lower, upper]`` of one joint, within +-``MAX_JOINT_ANGLE``.

    The solver works with angles in (-pi, pi]; a joint whose limits reach
    beyond +-pi (a multi-turn joint) holds an angle as any representation
    ``angle + 2 pi k`` that lies within them.  ``admits`` says whether one
    does, ``nearest`` picks the one nearest a reference (the arm's current
    position), so a joint never unwinds a turn it need not.  For limits within
    [-pi, pi] both reduce to ``lower <= angle <= upper`` and the angle itself.
    """

    lower: float = -_PI
    upper: float = _PI
    #: every ``2 pi k`` for which ``[lower, upper] - 2 pi k`` meets [-pi, pi], 0 first
    offsets: Tuple[float, ...] = field(init=False, repr=False, compare=False, default=())

    def __post_init__(self) -> None:
        """Refuse limits that are not an ordered interval within +-MAX_JOINT_ANGLE."""
        lower, upper = float(self.lower), float(self.upper)
        if not (math.isfinite(lower) and math.isfinite(upper)):
            raise ValueError(f'joint limits must be finite, got [{lower!r}, {upper!r}]')
        if lower > upper:
            raise ValueError(f'joint limits need lower <= upper, got [{lower!r}, {upper!r}]')
        if lower < -MAX_JOINT_ANGLE or upper > MAX_JOINT_ANGLE:
            raise ValueError(
                f'joint limits must lie within [-4 pi, 4 pi] rad (two turns each way), '
                f'got [{lower!r}, {upper!r}]')
        object.__setattr__(self, 'lower', lower)
        object.__setattr__(self, 'upper', upper)
        first = math.ceil((lower - _PI) / _TWO_PI)
        last = math.floor((upper + _PI) / _TWO_PI)
        object.__setattr__(self, 'offsets', tuple(
            _TWO_PI * k for k in sorted(range(first, last + 1), key=abs)))

    @property
    def multi_turn(self) -> bool:
        """Tell whether a limit lies beyond +-pi, so angles may need another representation."""
        return self.lower < -_PI or self.upper > _PI

    @property
    def is_full_circle(self) -> bool:
        """Tell whether the interval admits every angle the solver can produce."""
        return self.upper - self.lower >= _TWO_PI

    def admits(self, angle: float) -> bool:
        """Tell whether some representation of ``angle`` (in (-pi, pi]) lies within the limits."""
        lower, upper = self.lower, self.upper
        return any(lower <= angle + offset <= upper
                   for offset in self.offsets)

    def nearest(self, angle: float, reference: Optional[float]) -> float:
        """
        Return the representation of ``angle`` within the limits nearest ``reference``.

        ``angle`` is one the limits admit; without a reference the one nearest
        ``angle`` itself.  Within [-pi, pi] limits that is ``angle``.
        """
        if not self.multi_turn:
            return angle
        target = angle if reference is None or not math.isfinite(reference) else reference
        best, best_distance = angle, math.inf
        for offset in self.offsets:
            candidate = angle + offset
            if self.lower <= candidate <= self.upper and abs(candidate - target) < best_distance:
                best, best_distance = candidate, abs(candidate - target)
        return best


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


REJECTED: Dict[Reason, IKResult] = {
    reason: _rejected(reason) for reason in Reason if reason is not Reason.NONE}
#: builds an IKResult without NamedTuple's argument handling (the hot path's)
new_result = tuple.__new__


@dataclass(frozen=True)
class SolverConstants:
    """One validated configuration and the constants its arithmetic needs."""

    arm: ArmGeometry
    elbow: ElbowPreference
    unreachable: UnreachablePolicy
    shoulder_limits: JointLimits
    elbow_limits: JointLimits
    limited: bool  # a limit excludes some angle the solver can produce
    clamp: bool    # unreachable targets are clamped (else rejected)
    l2: float      # L^2 = (r1 + r2)^2
    d2: float      # D^2 = (r1 - r2)^2
    k: float       # r1^2 - r2^2, so w = h + k
    r: float       # r1^2 + r2^2, so h - r is the cosine term of theta2
    h_min: float   # the smallest h solved directly
    sign: float    # +1.0 for the up branch, -1.0 for down
    #: the elbow joint's position is ``elbow_direction * (theta2 - elbow_offset)``, wrapped
    elbow_offset: float = 0.0
    elbow_direction: float = 1.0
    mapped: bool = False  # the elbow's map is not the identity

    @classmethod
    def build(cls, r1: float, r2: float, elbow: Union[ElbowPreference, str],
              unreachable: Union[UnreachablePolicy, str],
              shoulder_limits: Optional[Tuple[float, float]],
              elbow_limits: Optional[Tuple[float, float]], elbow_offset: float = 0.0,
              elbow_direction: float = 1.0) -> 'SolverConstants':
        """Validate every value (ValueError naming it) and precompute."""
        arm = ArmGeometry(r1, r2)
        preference = enum_value(ElbowPreference, elbow, 'elbow')
        policy = enum_value(UnreachablePolicy, unreachable, 'unreachable')
        shoulder = joint_limits('shoulder_limits', shoulder_limits)
        elbow_range = joint_limits('elbow_limits', elbow_limits)
        if isinstance(elbow_offset, bool) or not isinstance(elbow_offset, (int, float)) \
                or not math.isfinite(elbow_offset):
            raise ValueError(f'elbow_offset must be a finite angle, got {elbow_offset!r}')
        if elbow_direction not in (1.0, -1.0) or isinstance(elbow_direction, bool):
            raise ValueError(f'elbow_direction must be 1.0 or -1.0, got {elbow_direction!r}')
        offset = wrap_angle(float(elbow_offset))
        r1, r2 = arm.r1, arm.r2
        d2 = (r1 - r2) * (r1 - r2)
        return cls(arm=arm, elbow=preference, unreachable=policy, shoulder_limits=shoulder,
                   elbow_limits=elbow_range,
                   limited=not (shoulder.is_full_circle and elbow_range.is_full_circle),
                   clamp=policy is UnreachablePolicy.CLAMP, l2=(r1 + r2) * (r1 + r2), d2=d2,
                   k=(r1 - r2) * (r1 + r2), r=r1 * r1 + r2 * r2, h_min=max(d2, H_TINY),
                   sign=-1.0 if preference is ElbowPreference.DOWN else 1.0,
                   elbow_offset=offset, elbow_direction=float(elbow_direction),
                   mapped=offset != 0.0 or elbow_direction != 1.0)

    def elbow_position(self, theta2: float) -> float:
        """Return the elbow joint's position for the solver's theta2 (in (-pi, pi])."""
        return joint_position(theta2, self.elbow_offset, self.elbow_direction)

    def theta2_of(self, position: float) -> float:
        """Return the solver's theta2 for the elbow joint's position (any representation)."""
        return self.elbow_direction * position + self.elbow_offset


def enum_value(kind: Type[_E], value: object, name: str) -> _E:
    try:
        return kind(value)
    except ValueError:
        choices = ', '.join(repr(member.value) for member in kind)
        raise ValueError(f'{name} must be one of {choices}, got {value!r}') from None


def joint_limits(name: str, value: Optional[Tuple[float, float]]) -> JointLimits:
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
