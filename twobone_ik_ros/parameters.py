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
The node's parameters: one table of specs, and validation as a pure function.

The table is the single source of the names, defaults, descriptions and
ranges: the node declares from it, ``config/twobone_ik.yaml`` and the README
list it, and the tests compare all three.  ``validate`` turns raw parameter
values into an ``IKConfig`` or raises ``ValueError`` naming the bad value; the
node calls it at start-up and for every runtime change, so both paths refuse
exactly the same things.  Nothing here imports ROS except ``descriptor``.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
import math
from typing import Any, Dict, List, Mapping, Optional, Tuple

from twobone_ik_ros.solver import (
    ElbowPreference, JointLimits, LINK_LENGTH_RANGE, TwoBoneIK, UnreachablePolicy)

DEFAULT_R1 = 1.0
DEFAULT_R2 = 0.7
DEFAULT_JOINT_NAMES = ('shoulder_joint', 'elbow_joint')
DEFAULT_LIMITS = (-math.pi, math.pi)


@dataclass(frozen=True)
class ParameterSpec:
    """Declaration data for one parameter (type as the ROS type name)."""

    name: str
    default: Any
    kind: str  # 'double', 'string', 'string_array', 'double_array'
    description: str
    constraints: str
    choices: Tuple[str, ...] = ()


PARAMETERS: Tuple[ParameterSpec, ...] = (
    ParameterSpec('r1', DEFAULT_R1, 'double',
                  'Length of link 1, shoulder to elbow, in metres.',
                  f'> 0, within [{LINK_LENGTH_RANGE[0]:g}, {LINK_LENGTH_RANGE[1]:g}]; '
                  'integers are accepted as doubles'),
    ParameterSpec('r2', DEFAULT_R2, 'double',
                  'Length of link 2, elbow to tip, in metres.',
                  f'> 0, within [{LINK_LENGTH_RANGE[0]:g}, {LINK_LENGTH_RANGE[1]:g}]; '
                  'integers are accepted as doubles'),
    ParameterSpec('elbow', ElbowPreference.UP.value, 'string',
                  'Elbow branch: up (counter-clockwise of the base-to-target ray, '
                  'theta2 <= 0), down (its mirror) or closest (nearest the last solution).',
                  'one of up, down, closest', tuple(e.value for e in ElbowPreference)),
    ParameterSpec('unreachable', UnreachablePolicy.CLAMP.value, 'string',
                  'Out-of-reach targets: clamp to the nearest reachable point on the '
                  'base-to-target ray, or reject them.',
                  'one of clamp, reject', tuple(p.value for p in UnreachablePolicy)),
    ParameterSpec('base_frame', 'base_link', 'string',
                  'Frame of the shoulder; the arm moves in its XY plane. Targets with an '
                  'empty frame_id are taken to be in it.',
                  'a non-empty tf2 frame id without a leading slash'),
    ParameterSpec('joint_names', list(DEFAULT_JOINT_NAMES), 'string_array',
                  'Names of the shoulder and elbow joints in the published JointState.',
                  'two distinct non-empty names'),
    ParameterSpec('shoulder_limits', list(DEFAULT_LIMITS), 'double_array',
                  'Allowed [min, max] of theta1 in radians.',
                  'two numbers, -pi <= min <= max <= pi'),
    ParameterSpec('elbow_limits', list(DEFAULT_LIMITS), 'double_array',
                  'Allowed [min, max] of theta2 in radians.',
                  'two numbers, -pi <= min <= max <= pi'),
)

PARAMETER_NAMES = tuple(spec.name for spec in PARAMETERS)
DEFAULTS: Dict[str, Any] = {spec.name: spec.default for spec in PARAMETERS}


@dataclass(frozen=True)
class IKConfig:
    """A validated node configuration and the solver built from it."""

    r1: float
    r2: float
    elbow: ElbowPreference
    unreachable: UnreachablePolicy
    base_frame: str
    joint_names: Tuple[str, str]
    shoulder_limits: JointLimits
    elbow_limits: JointLimits
    solver: TwoBoneIK

    def as_parameters(self) -> Dict[str, Any]:
        """Values as a ROS user would type them (for diagnostics and logs)."""
        return {
            'r1': self.r1, 'r2': self.r2, 'elbow': self.elbow.value,
            'unreachable': self.unreachable.value, 'base_frame': self.base_frame,
            'joint_names': list(self.joint_names),
            'shoulder_limits': [self.shoulder_limits.lower, self.shoulder_limits.upper],
            'elbow_limits': [self.elbow_limits.lower, self.elbow_limits.upper],
        }


def validate(values: Mapping[str, Any]) -> IKConfig:
    """
    Check a complete set of parameter values and build the configuration.

    Raises ValueError with a message that names the parameter and the value.
    Combinations are checked too (the solver refuses what it cannot honour).
    """
    missing = [name for name in PARAMETER_NAMES if name not in values]
    if missing:
        raise ValueError(f'missing parameters: {", ".join(missing)}')
    r1 = _number('r1', values['r1'])
    r2 = _number('r2', values['r2'])
    base_frame = values['base_frame']
    if not isinstance(base_frame, str) or not base_frame.strip():
        raise ValueError(f'base_frame must be a non-empty frame id, got {base_frame!r}')
    if base_frame.startswith('/') or any(c.isspace() for c in base_frame):
        raise ValueError(
            f'base_frame must be a tf2 frame id (no leading slash, no spaces), got {base_frame!r}')
    joint_names = _joint_names(values['joint_names'])
    shoulder = _pair('shoulder_limits', values['shoulder_limits'])
    elbow_limits = _pair('elbow_limits', values['elbow_limits'])
    solver = TwoBoneIK(r1, r2, elbow=values['elbow'], unreachable=values['unreachable'],
                       shoulder_limits=shoulder, elbow_limits=elbow_limits)
    return IKConfig(r1=solver.r1, r2=solver.r2, elbow=solver.elbow,
                    unreachable=solver.unreachable,
                    base_frame=base_frame, joint_names=joint_names,
                    shoulder_limits=solver.shoulder_limits, elbow_limits=solver.elbow_limits,
                    solver=solver)


def validate_change(current: Mapping[str, Any], changes: Mapping[str, Any]) -> IKConfig:
    """Validate ``current`` with ``changes`` applied (a runtime ``param set``)."""
    merged = dict(current)
    merged.update(changes)
    return validate(merged)


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f'{name} must be a number, got {value!r}')
    return float(value)


def _as_list(value: Any) -> Optional[List[Any]]:
    """Items of a list, tuple or array.array (rclpy's double arrays); else None."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, array)):
        return None
    return list(value)


def _pair(name: str, value: Any) -> Optional[Tuple[float, float]]:
    items = _as_list(value)
    if items is None or len(items) != 2:
        raise ValueError(f'{name} must be two numbers [min, max], got {value!r}')
    return (_number(name, items[0]), _number(name, items[1]))


def _joint_names(value: Any) -> Tuple[str, str]:
    names = _as_list(value)
    if (names is None or len(names) != 2
            or not all(isinstance(n, str) and n.strip() for n in names)):
        raise ValueError(f'joint_names must be two non-empty names, got {value!r}')
    if names[0] == names[1]:
        raise ValueError(f'joint_names must be distinct, got {value!r}')
    return (names[0], names[1])


def descriptor(spec: ParameterSpec) -> Any:
    """
    Build the rcl_interfaces ParameterDescriptor for ``spec`` (imports ROS lazily).

    Every parameter is declared with dynamic typing, so that whatever a user
    sends reaches ``validate``: ``r1:=1`` (an INTEGER) is accepted as a double,
    and a value of the wrong type is refused with a reason that names the
    parameter, which rclpy's own type check does not say.
    """
    from rcl_interfaces.msg import FloatingPointRange, ParameterDescriptor

    text = f'{spec.description} Constraints: {spec.constraints}.'
    if spec.kind == 'double':
        return ParameterDescriptor(
            description=text, additional_constraints=spec.constraints, dynamic_typing=True,
            floating_point_range=[FloatingPointRange(
                from_value=LINK_LENGTH_RANGE[0], to_value=LINK_LENGTH_RANGE[1], step=0.0)])
    return ParameterDescriptor(description=text, additional_constraints=spec.constraints,
                               dynamic_typing=True)
