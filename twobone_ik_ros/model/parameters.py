"""
The node's parameters: one table of specs, and validation as a pure function.

``PARAMETERS`` is the single source of the names, types, defaults, choices and
descriptions.  The node declares from it; the launch arguments
(``bringup.launch_config``), ``config/twobone_ik.yaml``, the XML launch file, the
URDF defaults and the README are derived from it or tested against it.
``validate`` turns raw values into an ``IKConfig`` or raises ``ValueError``
naming the bad value; the node calls it at start-up and for every runtime
change, and the launch files call it before they start anything, so all three
refuse exactly the same things with the same message.  Nothing here imports
ROS (the node's declarations are ``node.declarations``).  Its length is the
table itself (one spec, with its description, per parameter) and the one
validation all three users share: one idea that must not be split.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
import math
from typing import Any, Dict, List, Mapping, Optional, Tuple

from twobone_ik_ros.ik.vocabulary import enum_value
from twobone_ik_ros.solver import (
    ElbowPreference, LINK_LENGTH_RANGE, TwoBoneIK, UnreachablePolicy)

#: Ranges of the numeric parameters that are not link lengths.
JOINT_STATE_RATE_RANGE = (0.0, 1000.0)
TRANSFORM_TIMEOUT_RANGE = (0.0, 10.0)
MAX_JOINT_VELOCITY_RANGE = (1e-3, 100.0)
MIN_MOVE_TIME_RANGE = (1e-3, 60.0)
MAX_JOINT_ACCELERATION_RANGE = (1e-3, 1000.0)
MAX_JOINT_JERK_RANGE = (0.0, 100000.0)
COMMAND_RATE_RANGE = (1.0, 1000.0)
GOAL_TOLERANCE_RANGE = (1e-9, 1.0)
GOAL_TIME_TOLERANCE_RANGE = (0.0, 3600.0)
ARM_STATE_TIMEOUT_RANGE = (0.01, 3600.0)


class Output(str, Enum):
    """Where the solutions go: a display, or one of ros2_controllers' command topics."""

    #: ``joint_states`` (sensor_msgs/JointState), for robot_state_publisher
    JOINT_STATES = 'joint_states'
    #: ``commands`` (std_msgs/Float64MultiArray), for forward_command_controller
    FORWARD_COMMAND = 'forward_command'
    #: ``joint_trajectory`` (trajectory_msgs/JointTrajectory), for joint_trajectory_controller
    JOINT_TRAJECTORY = 'joint_trajectory'
    #: ``follow_joint_trajectory`` (control_msgs/action/FollowJointTrajectory goals), for
    #: joint_trajectory_controller's action server
    FOLLOW_JOINT_TRAJECTORY = 'follow_joint_trajectory'

    @property
    def topic(self) -> str:
        """Return the node's (relative) topic or action name: the value itself but for one."""
        return 'commands' if self is Output.FORWARD_COMMAND else self.value

    @property
    def sends_trajectories(self) -> bool:
        """Tell whether each move goes to the controller whole, as one trajectory."""
        return self in (Output.JOINT_TRAJECTORY, Output.FOLLOW_JOINT_TRAJECTORY)

    @property
    def drives_controller(self) -> bool:
        """Tell whether this output commands a controller (and reads the arm's joint_states)."""
        return self is not Output.JOINT_STATES


@dataclass(frozen=True)
class ParameterSpec:
    """Declaration data for one parameter (``kind`` is the ROS type name)."""

    name: str
    default: Any
    kind: str  # 'double', 'string', 'string_array', 'double_array'
    description: str
    constraints: str
    choices: Tuple[str, ...] = ()
    #: (from, to) of a double, declared as its FloatingPointRange
    limits: Optional[Tuple[float, float]] = None


def _choices(kind: Any) -> Tuple[str, ...]:
    return tuple(member.value for member in kind)


_LIMITS = 'two numbers, -4 pi <= min <= max <= 4 pi (two turns each way)'
_LENGTH = (f'> 0, within [{LINK_LENGTH_RANGE[0]:g}, {LINK_LENGTH_RANGE[1]:g}]; '
           'integers are accepted and stored as doubles')

PARAMETERS: Tuple[ParameterSpec, ...] = (
    ParameterSpec('r1', 1.0, 'double', 'Length of link 1, shoulder to elbow, in metres.',
                  _LENGTH, limits=LINK_LENGTH_RANGE),
    ParameterSpec('r2', 0.7, 'double', 'Length of link 2, elbow to tip, in metres.',
                  _LENGTH, limits=LINK_LENGTH_RANGE),
    ParameterSpec('elbow', ElbowPreference.UP.value, 'string',
                  'Elbow branch: up (counter-clockwise of the base-to-target ray, '
                  'theta2 <= 0), down (its mirror) or closest (nearest the last solution).',
                  'one of up, down, closest', _choices(ElbowPreference)),
    ParameterSpec('unreachable', UnreachablePolicy.CLAMP.value, 'string',
                  'Out-of-reach targets: clamp to the nearest reachable point on the '
                  'base-to-target ray, or reject them.',
                  'one of clamp, reject', _choices(UnreachablePolicy)),
    ParameterSpec('base_frame', 'base_link', 'string',
                  'Frame of the shoulder (root link of the URDF); the arm moves in its XY '
                  'plane. Targets with an empty frame_id are taken to be in it.',
                  'a non-empty tf2 frame id without a leading slash'),
    ParameterSpec('frame_prefix', '', 'string',
                  'Prefix of every TF frame of this arm (base_frame, link1, link2, tool0), '
                  "as robot_state_publisher's frame_prefix: 'left/' for a second arm.",
                  "empty, or a tf2 frame id prefix such as 'left/'"),
    ParameterSpec('joint_names', ['shoulder_joint', 'elbow_joint'], 'string_array',
                  'Names of the shoulder and elbow joints in the published JointState.',
                  'two distinct non-empty names'),
    ParameterSpec('shoulder_limits', [-math.pi, math.pi], 'double_array',
                  'Allowed [min, max] of theta1 in radians; beyond +-pi for a multi-turn '
                  'joint, which gets the angle within them nearest its current position.',
                  _LIMITS),
    ParameterSpec('elbow_limits', [-math.pi, math.pi], 'double_array',
                  'Allowed [min, max] of theta2 in radians (as shoulder_limits).',
                  _LIMITS),
    ParameterSpec('joint_state_rate', 10.0, 'double',
                  'Rate in Hz at which the current solution is published again on '
                  'joint_states while no new one goes out (as joint_state_publisher does), so '
                  'that robot_state_publisher '
                  'ends on the last solution however fast targets came; 0 turns it off.',
                  f'{JOINT_STATE_RATE_RANGE[0]:g} <= rate <= {JOINT_STATE_RATE_RANGE[1]:g}',
                  limits=JOINT_STATE_RATE_RANGE),
    ParameterSpec('transform_timeout', 0.2, 'double',
                  'Seconds a target in another frame may wait for its transform (at the '
                  "target's stamp, or the latest for a zero stamp) before it is rejected as "
                  'unknown_frame; the node keeps serving other targets meanwhile. Those in the '
                  'first 2 s after the first such target wait up to 2 s, while the tf2 '
                  'listener the node starts only then receives the transforms.',
                  f'{TRANSFORM_TIMEOUT_RANGE[0]:g} <= timeout <= {TRANSFORM_TIMEOUT_RANGE[1]:g}',
                  limits=TRANSFORM_TIMEOUT_RANGE),
    ParameterSpec('robot_state_publisher', 'robot_state_publisher', 'string',
                  'Name of the robot_state_publisher node (relative names are resolved in '
                  "this node's namespace) whose robot_description is updated when the arm "
                  'changes at runtime; empty turns it off.',
                  'empty or a node name'),
    ParameterSpec('output', Output.JOINT_STATES.value, 'string',
                  'Where solutions go: joint_states (for display with robot_state_publisher), '
                  'forward_command (Float64MultiArray on commands, for '
                  'forward_command_controller), joint_trajectory (JointTrajectory on '
                  'joint_trajectory, for joint_trajectory_controller) or '
                  'follow_joint_trajectory (FollowJointTrajectory goals to the '
                  'follow_joint_trajectory action of joint_trajectory_controller). The '
                  "controller outputs read the arm's measured joint_states instead of "
                  'publishing them.',
                  'one of joint_states, forward_command, joint_trajectory, '
                  'follow_joint_trajectory',
                  _choices(Output)),
    ParameterSpec('max_joint_velocity', 1.0, 'double',
                  'Fastest joint speed in rad/s of a controller move (and the URDF joint '
                  'velocity limit); a path without timestamps is timed for it.',
                  f'{MAX_JOINT_VELOCITY_RANGE[0]:g} <= velocity <= '
                  f'{MAX_JOINT_VELOCITY_RANGE[1]:g}', limits=MAX_JOINT_VELOCITY_RANGE),
    ParameterSpec('max_joint_acceleration', 5.0, 'double',
                  'Largest joint acceleration in rad/s^2 of a controller move.',
                  f'{MAX_JOINT_ACCELERATION_RANGE[0]:g} <= acceleration <= '
                  f'{MAX_JOINT_ACCELERATION_RANGE[1]:g}', limits=MAX_JOINT_ACCELERATION_RANGE),
    ParameterSpec('max_joint_jerk', 0.0, 'double',
                  'Largest joint jerk in rad/s^3 of a controller move; 0: not limited '
                  '(acceleration-limited moves).',
                  f'{MAX_JOINT_JERK_RANGE[0]:g} <= jerk <= {MAX_JOINT_JERK_RANGE[1]:g}',
                  limits=MAX_JOINT_JERK_RANGE),
    ParameterSpec('min_move_time', 0.1, 'double',
                  'Shortest duration in seconds of a controller move, however small the move.',
                  f'{MIN_MOVE_TIME_RANGE[0]:g} <= time <= {MIN_MOVE_TIME_RANGE[1]:g}',
                  limits=MIN_MOVE_TIME_RANGE),
    ParameterSpec('command_rate', 100.0, 'double',
                  'Rate in Hz at which forward_command streams the positions of a move '
                  'until the arm arrives, each for one controller cycle: the update_rate '
                  'of the controller.',
                  f'{COMMAND_RATE_RANGE[0]:g} <= rate <= {COMMAND_RATE_RANGE[1]:g}',
                  limits=COMMAND_RATE_RANGE),
    ParameterSpec('goal_tolerance', 0.001, 'double',
                  "Radians (each joint) within which the measured arm has reached a move's end "
                  '(then "reached" is published).',
                  f'{GOAL_TOLERANCE_RANGE[0]:g} <= tolerance <= {GOAL_TOLERANCE_RANGE[1]:g}',
                  limits=GOAL_TOLERANCE_RANGE),
    ParameterSpec('goal_time_tolerance', 1.0, 'double',
                  "Seconds after a move's planned end by which the arm must have reached it, "
                  'else the move failed (timed_out).',
                  f'{GOAL_TIME_TOLERANCE_RANGE[0]:g} <= time <= {GOAL_TIME_TOLERANCE_RANGE[1]:g}',
                  limits=GOAL_TIME_TOLERANCE_RANGE),
    ParameterSpec('arm_state_timeout', 0.5, 'double',
                  "Seconds without joint_states after which the arm's state is stale: the node "
                  'warns and plans from its own last command until they come back.',
                  f'{ARM_STATE_TIMEOUT_RANGE[0]:g} <= time <= {ARM_STATE_TIMEOUT_RANGE[1]:g}',
                  limits=ARM_STATE_TIMEOUT_RANGE),
)

SPECS: Dict[str, ParameterSpec] = {spec.name: spec for spec in PARAMETERS}
PARAMETER_NAMES = tuple(SPECS)
DEFAULTS: Dict[str, Any] = {spec.name: spec.default for spec in PARAMETERS}
#: Parameters that change the robot model (and so robot_state_publisher's URDF).
MODEL_PARAMETERS = ('r1', 'r2', 'base_frame', 'frame_prefix', 'joint_names', 'shoulder_limits',
                    'elbow_limits', 'max_joint_velocity')


@dataclass(frozen=True)
class IKConfig:
    """
    A validated node configuration.

    The solver holds the arm, the preferences and the limits (read them
    through it, or the properties below); the rest is what only the node uses.
    """

    solver: TwoBoneIK
    base_frame: str
    frame_prefix: str
    joint_names: Tuple[str, str]
    joint_state_rate: float
    transform_timeout: float
    robot_state_publisher: str
    output: Output
    max_joint_velocity: float
    max_joint_acceleration: float
    max_joint_jerk: float
    min_move_time: float
    command_rate: float
    goal_tolerance: float
    goal_time_tolerance: float
    arm_state_timeout: float

    @property
    def r1(self) -> float:
        """Length of link 1, metres."""
        return self.solver.r1

    @property
    def r2(self) -> float:
        """Length of link 2, metres."""
        return self.solver.r2

    @property
    def frame(self) -> str:
        """Return the TF frame of the shoulder: ``frame_prefix + base_frame``."""
        return self.frame_prefix + self.base_frame

    def as_parameters(self) -> Dict[str, Any]:
        """Values as a ROS user would type them (for diagnostics, logs, the launch files)."""
        solver = self.solver
        return {
            'r1': solver.r1, 'r2': solver.r2, 'elbow': solver.elbow.value,
            'unreachable': solver.unreachable.value, 'base_frame': self.base_frame,
            'frame_prefix': self.frame_prefix, 'joint_names': list(self.joint_names),
            'shoulder_limits': [solver.shoulder_limits.lower, solver.shoulder_limits.upper],
            'elbow_limits': [solver.elbow_limits.lower, solver.elbow_limits.upper],
            'joint_state_rate': self.joint_state_rate,
            'transform_timeout': self.transform_timeout,
            'robot_state_publisher': self.robot_state_publisher,
            'output': self.output.value,
            'max_joint_velocity': self.max_joint_velocity,
            'max_joint_acceleration': self.max_joint_acceleration,
            'max_joint_jerk': self.max_joint_jerk,
            'min_move_time': self.min_move_time,
            'command_rate': self.command_rate,
            'goal_tolerance': self.goal_tolerance,
            'goal_time_tolerance': self.goal_time_tolerance,
            'arm_state_timeout': self.arm_state_timeout,
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
    base_frame = _frame_id('base_frame', values['base_frame'])
    prefix = values['frame_prefix']
    if prefix != '':
        prefix = _frame_id('frame_prefix', prefix)
    rate = _in_range('joint_state_rate', values['joint_state_rate'], JOINT_STATE_RATE_RANGE)
    timeout = _in_range('transform_timeout', values['transform_timeout'],
                        TRANSFORM_TIMEOUT_RANGE)
    rsp = values['robot_state_publisher']
    if not isinstance(rsp, str) or any(c.isspace() for c in rsp):
        raise ValueError(f'robot_state_publisher must be a node name or empty, got {rsp!r}')
    solver = TwoBoneIK(_number('r1', values['r1']), _number('r2', values['r2']),
                       elbow=values['elbow'], unreachable=values['unreachable'],
                       shoulder_limits=_pair('shoulder_limits', values['shoulder_limits']),
                       elbow_limits=_pair('elbow_limits', values['elbow_limits']))
    return IKConfig(
        solver=solver, base_frame=base_frame, frame_prefix=prefix,
        joint_names=_joint_names(values['joint_names']), joint_state_rate=rate,
        transform_timeout=timeout, robot_state_publisher=rsp,
        output=enum_value(Output, values['output'], 'output'),
        max_joint_velocity=_in_range('max_joint_velocity', values['max_joint_velocity'],
                                     MAX_JOINT_VELOCITY_RANGE),
        max_joint_acceleration=_in_range('max_joint_acceleration',
                                         values['max_joint_acceleration'],
                                         MAX_JOINT_ACCELERATION_RANGE),
        max_joint_jerk=_in_range('max_joint_jerk', values['max_joint_jerk'],
                                 MAX_JOINT_JERK_RANGE),
        min_move_time=_in_range('min_move_time', values['min_move_time'], MIN_MOVE_TIME_RANGE),
        command_rate=_in_range('command_rate', values['command_rate'], COMMAND_RATE_RANGE),
        goal_tolerance=_in_range('goal_tolerance', values['goal_tolerance'],
                                 GOAL_TOLERANCE_RANGE),
        goal_time_tolerance=_in_range('goal_time_tolerance', values['goal_time_tolerance'],
                                      GOAL_TIME_TOLERANCE_RANGE),
        arm_state_timeout=_in_range('arm_state_timeout', values['arm_state_timeout'],
                                    ARM_STATE_TIMEOUT_RANGE))


def validate_change(current: Mapping[str, Any], changes: Mapping[str, Any]) -> IKConfig:
    """Validate ``current`` with ``changes`` applied (a runtime ``param set``)."""
    merged = dict(current)
    merged.update(changes)
    return validate(merged)


def as_double(name: str, value: Any) -> Any:
    """
    Return ``value`` as a float when ``name`` is a double parameter given as an integer.

    ``r1:=2`` on a command line, in a launch file or in ``ros2 param set``
    arrives as an INTEGER; the node stores it as the double 2.0, so ``ros2
    param get`` and every reader see the declared type.  Anything else is
    returned unchanged, for ``validate`` to judge.
    """
    spec = SPECS.get(name)
    if (spec is not None and spec.kind == 'double' and isinstance(value, int)
            and not isinstance(value, bool)):
        return float(value)
    return value


def _frame_id(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f'{name} must be a non-empty frame id, got {value!r}')
    if value.startswith('/') or any(c.isspace() for c in value):
        raise ValueError(
            f'{name} must be a tf2 frame id (no leading slash, no spaces), got {value!r}')
    return value


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f'{name} must be a number, got {value!r}')
    return float(value)


def _in_range(name: str, value: Any, limits: Tuple[float, float]) -> float:
    number = _number(name, value)
    if not limits[0] <= number <= limits[1]:
        raise ValueError(f'{name} must lie in [{limits[0]:g}, {limits[1]:g}], got {number!r}')
    return number


def _as_list(value: Any) -> Optional[List[Any]]:
    """Items of a list, tuple or array.array (rclpy's double arrays); else None."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, array)):
        return None
    return list(value)


def _pair(name: str, value: Any) -> Tuple[float, float]:
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
