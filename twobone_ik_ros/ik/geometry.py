"""
The arm the solver works on: its two links, its joints' limits, its forward kinematics.

Pure Python (math), no arithmetic of the solver: ``ArmGeometry`` (the link
lengths, validated once), ``JointLimits`` (one joint's interval, multi-turn
joints included), the angles' wrapping, and the forward kinematics every
check of a solution uses.  Each type carries the checks that make it valid,
so that nothing later checks again.
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
import math
from typing import Optional, Tuple

#: Link lengths outside this range are refused: inside it every intermediate
#: product (up to the fourth power of a length) stays a normal double.
LINK_LENGTH_RANGE = (1e-50, 1e50)

_PI = math.pi
_TWO_PI = 2.0 * math.pi


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
        """
        Tell whether some representation of ``angle`` (in (-pi, pi]) lies within the limits.

        Within [-pi, pi] limits, the angle itself: limits from -pi take +pi only
        where they reach it (a fully folded elbow is +pi, as ``nearest`` keeps it).
        """
        lower, upper = self.lower, self.upper
        if not self.multi_turn:
            return lower <= angle <= upper
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
