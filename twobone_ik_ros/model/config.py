"""
The node's configuration: the parameters' values validated into an ``IKConfig``.

``validate`` turns raw values into an ``IKConfig`` or raises ``ValueError``
naming the bad value, the first in the table's order (``parameter_table``);
the node calls it at start-up and for every runtime change, and the launch
files before they start anything, so all three refuse the same things with
the same message.  The solver's own arguments (link lengths, elbow,
unreachable, joint limits) are judged by ``TwoBoneIK`` itself.  With
``tip_link`` set the arm is read from the robot's description, its limits
narrowed, never widened, by the parameters.  Nothing here imports ROS.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Dict, List, Mapping, Optional, Tuple

from twobone_ik_ros.ik.geometry import JointLimits, MAX_JOINT_ANGLE
from twobone_ik_ros.model.interface import Output
from twobone_ik_ros.model.parameter_table import (
    DEFAULTS, PARAMETER_NAMES, PARAMETERS, SOLVER_PARAMETERS)
from twobone_ik_ros.model.planar_arm import PlanarArm
from twobone_ik_ros.model.urdf_chain import DescriptionError, Limit, read_chain
from twobone_ik_ros.solver import ElbowPreference, TwoBoneIK, UnreachablePolicy


#: Which limit holds, for the diagnostics: the file's, a parameter's narrower one, the default.
FROM_FILE, FROM_PARAMETER, FROM_DEFAULT = 'urdf', 'parameter', 'default'


@dataclass(frozen=True)
class IKConfig:
    """
    A validated node configuration: a field per parameter, the solver's in ``solver``.

    The solver holds the arm, the preferences and the limits (read them
    through it, or the properties below); the rest is what only the node uses.
    """

    solver: TwoBoneIK
    base_frame: str
    tip_link: str
    frame_prefix: str
    #: the joints' names: the parameter's, or the description's with ``tip_link``
    joint_names: Tuple[str, str]
    joint_state_rate: float
    transform_timeout: float
    robot_state_publisher: str
    output: Output
    #: rad/s: the parameter's, or the smaller of the two joints' with ``tip_link`` (``arm_limits``)
    max_joint_velocity: float
    max_joint_acceleration: float
    max_joint_jerk: float
    min_move_time: float
    command_rate: float
    goal_tolerance: float
    goal_time_tolerance: float
    arm_state_timeout: float
    #: the arm in its base frame: the node's own, or the description's chain
    arm: PlanarArm
    #: the parameters' values as given (what ``as_parameters`` returns)
    values: Tuple[Tuple[str, Any], ...]
    #: why no target can be solved ('' when the arm is usable): no description yet, or one
    #: the node cannot use
    problem: str = ''
    #: each joint's limits and which holds (diagnostics), for an arm read from its description
    limit_sources: str = ''

    @property
    def r1(self) -> float:
        """Length of link 1, metres."""
        return self.solver.r1

    @property
    def r2(self) -> float:
        """Length of link 2, metres."""
        return self.solver.r2

    @property
    def elbow(self) -> ElbowPreference:
        """Return the elbow branch preferred."""
        return self.solver.elbow

    @property
    def unreachable(self) -> UnreachablePolicy:
        """Return what happens to a target beyond reach."""
        return self.solver.unreachable

    @property
    def shoulder_limits(self) -> JointLimits:
        """Return theta1's limits."""
        return self.solver.shoulder_limits

    @property
    def elbow_limits(self) -> JointLimits:
        """Return theta2's limits."""
        return self.solver.elbow_limits

    @property
    def frame(self) -> str:
        """Return the TF frame of the shoulder: ``frame_prefix + base_frame``."""
        return self.frame_prefix + self.base_frame

    def as_parameters(self) -> Dict[str, Any]:
        """Values as a ROS user would type them (for diagnostics, logs, the launch files)."""
        return dict(self.values)

    def keeping_arm_of(self, previous: 'IKConfig') -> 'IKConfig':
        """Return this configuration with ``previous``'s arm (this one's cannot be used)."""
        return replace(self, solver=previous.solver, joint_names=previous.joint_names,
                       max_joint_velocity=previous.max_joint_velocity, arm=previous.arm,
                       limit_sources=previous.limit_sources)


def validate(values: Mapping[str, Any], description: Optional[str] = None) -> IKConfig:
    """
    Check a complete set of parameter values and build the configuration.

    Raises ValueError with a message that names the parameter and the value,
    the first bad one in the table's order.  Combinations are checked too
    (the solver refuses what it cannot honour).  With ``tip_link`` set, the
    arm is read from ``description`` (robot_description's text): without
    one, or from one the node cannot use, the configuration is valid but its
    ``problem`` says why no target can be solved (and its arm is the
    parameters', which nothing uses then).
    """
    missing = [name for name in PARAMETER_NAMES if name not in values]
    if missing:
        raise ValueError(f'missing parameters: {", ".join(missing)}')
    checked = {spec.name: spec.check(spec.name, values[spec.name]) for spec in PARAMETERS}
    given = tuple((spec.name, _as_parameter(checked[spec.name])) for spec in PARAMETERS)
    solver = TwoBoneIK(**{name: checked.pop(name) for name in SOLVER_PARAMETERS})
    own = IKConfig(solver=solver, arm=PlanarArm.in_xy(solver.r1, solver.r2,
                                                      checked['joint_names']),
                   values=given, **checked)
    if not own.tip_link:
        return own
    if description is None:
        return replace(own, problem=f'no robot_description yet (tip_link {own.tip_link!r})')
    try:
        arm = PlanarArm.from_chain(read_chain(description, own.base_frame, own.tip_link))
    except DescriptionError as error:
        return replace(own, problem=str(error))
    return _from_description(own, arm, dict(given))


def _from_description(own: IKConfig, arm: PlanarArm, given: Dict[str, Any]) -> IKConfig:
    """Return ``own`` with the arm of the description, its limits narrowed by the parameters."""
    assert arm.limits is not None
    names = arm.joint_names
    bounds, velocities, sources = [], [], []
    for index, (name, limit) in enumerate(zip(names, arm.limits)):
        parameter = ('shoulder_limits', 'elbow_limits')[index]
        bound, bound_source = _position_limits(name, limit, parameter, given[parameter])
        velocity, velocity_source = _velocity_limit(limit, given['max_joint_velocity'])
        bounds.append(bound)
        velocities.append(velocity)
        sources.append(f'{name} [{bound[0]:.9g}, {bound[1]:.9g}] rad ({bound_source}), '
                       f'{velocity:.9g} rad/s ({velocity_source})')
    solver = own.solver
    try:
        solver = TwoBoneIK(arm.r1, arm.r2, solver.elbow, solver.unreachable, bounds[0],
                           bounds[1], arm.offset, arm.direction)
    except ValueError as error:  # lengths beyond the solver's range: the file's numbers
        return replace(own, problem=f'the arm of robot_description cannot be solved: {error}')
    return replace(own, solver=solver, joint_names=names, arm=arm,
                   max_joint_velocity=min(velocities), limit_sources='; '.join(sources))


def _position_limits(joint: str, limit: Limit, parameter: str,
                     value: List[float]) -> Tuple[Tuple[float, float], str]:
    """
    Return a joint's [lower, upper] and which holds: the file's, narrowed by a set parameter.

    A continuous joint has none in the file: the parameter's (by default one
    turn, (-pi, pi]).  A limit beyond the solver's two turns each way is
    held to them.  A parameter at its default is not set: it narrows nothing.
    """
    lower, upper = value
    narrowing = list(value) != DEFAULTS[parameter]
    if limit.lower is None or limit.upper is None:
        return (lower, upper), FROM_PARAMETER if narrowing else FROM_DEFAULT + ' (continuous)'
    file_lower = max(limit.lower, -MAX_JOINT_ANGLE)
    file_upper = min(limit.upper, MAX_JOINT_ANGLE)
    if not narrowing:
        return (file_lower, file_upper), FROM_FILE
    held = (max(lower, file_lower), min(upper, file_upper))
    if held[0] > held[1]:
        raise ValueError(
            f"{parameter} [{lower:g}, {upper:g}] leaves nothing of joint {joint!r}'s limits "
            f'[{limit.lower:g}, {limit.upper:g}] in robot_description')
    return held, FROM_PARAMETER if held != (file_lower, file_upper) else FROM_FILE


def _velocity_limit(limit: Limit, parameter: float) -> Tuple[float, str]:
    """Return a joint's velocity limit and which holds: the file's, or a set parameter's less."""
    narrowing = parameter != DEFAULTS['max_joint_velocity']
    if limit.velocity is None:
        return parameter, FROM_PARAMETER if narrowing else FROM_DEFAULT
    if narrowing and parameter < limit.velocity:
        return parameter, FROM_PARAMETER
    return limit.velocity, FROM_FILE


def validate_change(current: Mapping[str, Any], changes: Mapping[str, Any],
                    description: Optional[str] = None) -> IKConfig:
    """Validate ``current`` with ``changes`` applied (a runtime ``param set``)."""
    merged = dict(current)
    merged.update(changes)
    return validate(merged, description)


def _as_parameter(value: Any) -> Any:
    """Return a configuration's value as a parameter's (an enum's value, a list)."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, JointLimits):
        return [value.lower, value.upper]
    if isinstance(value, tuple):
        return list(value)
    return value
