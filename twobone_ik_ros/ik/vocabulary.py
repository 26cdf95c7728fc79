"""
The solver's vocabulary: enums, result types and one configuration.

Pure Python and numpy types, no arithmetic of the solver: ``solver.py``
documents the method, ``ik.scalar`` and ``ik.batch`` implement it for one
target and for arrays of targets, and both build their results from here.
``SolverConstants`` is one configuration, validated and precomputed once,
of the arm and its limits (``geometry``).
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

from dataclasses import dataclass
from enum import Enum, IntEnum
import math
from typing import Callable, Dict, NamedTuple, Optional, Tuple, Type, TypeVar, Union

import numpy as np
import numpy.typing as npt

from twobone_ik_ros.ik.geometry import (
    ArmGeometry, joint_limits, joint_position, JointLimits, wrap_angle)

# Below this squared distance the target is treated as the shoulder itself for
# an arm with r1 == r2 (the only arm that can reach it); chosen so that the
# squared length of any accepted arm times it stays far from underflow.
H_TINY = 2.0 ** -600
TINY_RADIUS = 2.0 ** -300  # sqrt(H_TINY)

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
