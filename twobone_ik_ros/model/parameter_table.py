"""
The node's parameters: one row each.

``PARAMETERS`` is the table: a row names a parameter, its ROS type and
default, the check its values pass (``checks``: which also says its range or
choices), a one-line summary, the full description, what a change at
runtime does, and whether it is a launch argument.  Everything else comes
from the table or is tested against it: the node's declarations
(``node.declarations``), ``config.validate``, the launch arguments
(``bringup.launch_config``), and the files ``bringup.generated`` writes
(``config/twobone_ik.yaml``, the XML launch file, README's table).  Adding a
parameter is one row here and its field in ``config.IKConfig``.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import array
from dataclasses import dataclass
from enum import Enum
import inspect
import math
from typing import Any, Dict, Optional, Tuple

from twobone_ik_ros.model.checks import (
    AnglePair, Check, FrameId, InRange, Length, NamePair, NodeName, OneOf)
from twobone_ik_ros.model.interface import Output
from twobone_ik_ros.solver import (
    ElbowPreference, LINK_LENGTH_RANGE, TwoBoneIK, UnreachablePolicy)


class Runtime(Enum):
    """What a change of a parameter at runtime does besides taking effect."""

    #: robot_state_publisher gets the new URDF (``node.robot_model``)
    MODEL = "robot_state_publisher's model follows"
    #: the move under way is re-planned within the new limits (``OutputSwitch``)
    LIMITS = 'a move under way is brought within them'
    #: the old output's publisher (or action client) gives way to the new one's
    OUTPUT = "the old output's topic gives way to the new one's"
    #: the arm is read again from ``robot_description`` (``tip_link`` set), and a move under
    #: way brought within its limits
    DESCRIPTION = ('the arm is read again from `robot_description`; a move under way is brought '
                   'within its limits')


@dataclass(frozen=True)
class ParameterSpec:
    """One parameter: everything the node, the launch files and the docs say of it."""

    name: str
    #: the ROS type: 'double', 'string', 'string_array' or 'double_array'
    kind: str
    default: Any
    check: Check
    #: one line: README's table and config/twobone_ik.yaml's comment
    summary: str
    #: the declared description (``ros2 param describe``)
    description: str
    runtime: Tuple[Runtime, ...] = ()
    #: also an argument of twobone_ik.launch.py (empty there: the file's, else the default)
    launch: bool = False

    @property
    def constraints(self) -> str:
        """Return the rule its values follow."""
        return self.check.constraints

    @property
    def choices(self) -> Tuple[str, ...]:
        """Return the values a string may take (empty: any the rule allows)."""
        return self.check.choices

    @property
    def limits(self) -> Optional[Tuple[float, float]]:
        """Return (from, to) of a double, declared as its FloatingPointRange."""
        return self.check.limits


_LENGTH = Length(f'> 0, within [{LINK_LENGTH_RANGE[0]:g}, {LINK_LENGTH_RANGE[1]:g}]; '
                 'integers are accepted and stored as doubles')
_LIMITS = AnglePair('two numbers, -4 pi <= min <= max <= 4 pi (two turns each way)')
_MODEL = (Runtime.MODEL,)
_MOTION = (Runtime.LIMITS,)

PARAMETERS: Tuple[ParameterSpec, ...] = (
    ParameterSpec(
        'r1', 'double', 1.0, _LENGTH, 'link 1 (shoulder to elbow), metres',
        'Length of link 1, shoulder to elbow, in metres.', _MODEL, launch=True),
    ParameterSpec(
        'r2', 'double', 0.7, _LENGTH, 'link 2 (elbow to tip), metres',
        'Length of link 2, elbow to tip, in metres.', _MODEL, launch=True),
    ParameterSpec(
        'elbow', 'string', ElbowPreference.UP.value, OneOf.of(ElbowPreference),
        '`up`, `down` or `closest` (the branch nearer the arm)',
        'Elbow branch: up (counter-clockwise of the base-to-target ray, theta2 <= 0), down '
        '(its mirror) or closest (nearest the last solution).', launch=True),
    ParameterSpec(
        'unreachable', 'string', UnreachablePolicy.CLAMP.value, OneOf.of(UnreachablePolicy),
        '`clamp` a target beyond reach onto the base→target ray, or `reject` it',
        'Out-of-reach targets: clamp to the nearest reachable point on the base-to-target '
        'ray, or reject them.', launch=True),
    ParameterSpec(
        'base_frame', 'string', 'base_link',
        FrameId('a non-empty tf2 frame id without a leading slash'),
        'frame of the shoulder; targets with an empty frame are in it',
        'Frame of the shoulder (root link of the URDF); the arm moves in its XY plane. '
        'Targets with an empty frame_id are taken to be in it. With tip_link, the link where '
        'the chain to the tip starts.', _MODEL + (Runtime.DESCRIPTION,), launch=True),
    ParameterSpec(
        'tip_link', 'string', '', FrameId('empty, or a link of robot_description', empty=True),
        'the link that reaches the target: the arm is read from `robot_description` (empty: '
        "the node's own arm, from r1 and r2)",
        'Link of robot_description that must reach the target (empty: the arm is the one r1, '
        'r2, joint_names and the limits describe). Set, the node reads the chain from '
        'base_frame to it from robot_description (std_msgs/String, transient local): two '
        'revolute or continuous joints with parallel axes; their names, the link lengths, '
        'the plane, the position limits and the velocity limits come from the file '
        '(shoulder_limits, elbow_limits and max_joint_velocity, set to other than their '
        'defaults, narrow them).', (Runtime.DESCRIPTION,), launch=True),
    ParameterSpec(
        'frame_prefix', 'string', '',
        FrameId("empty, or a tf2 frame id prefix such as 'left/'", empty=True),
        "prefix of every TF frame of this arm, as robot_state_publisher's",
        'Prefix of every TF frame of this arm (base_frame, link1, link2, tool0), as '
        "robot_state_publisher's frame_prefix: 'left/' for a second arm.", _MODEL,
        launch=True),
    ParameterSpec(
        'joint_names', 'string_array', ['shoulder_joint', 'elbow_joint'],
        NamePair('two distinct non-empty names'), "the joints' names",
        'Names of the shoulder and elbow joints in the published JointState.', _MODEL),
    ParameterSpec(
        'shoulder_limits', 'double_array', [-math.pi, math.pi], _LIMITS,
        '[min, max] of θ1, within [−4π, 4π]; beyond ±π a multi-turn joint',
        'Allowed [min, max] of theta1 in radians; beyond +-pi for a multi-turn joint, which '
        'gets the angle within them nearest its current position.', _MODEL + _MOTION),
    ParameterSpec(
        'elbow_limits', 'double_array', [-math.pi, math.pi], _LIMITS,
        '[min, max] of θ2, the same',
        'Allowed [min, max] of theta2 in radians (as shoulder_limits).', _MODEL + _MOTION),
    ParameterSpec(
        'joint_state_rate', 'double', 10.0, InRange.of(0.0, 1000.0, 'rate'),
        'Hz at which `joint_states` repeats the last solution (0: off)',
        'Rate in Hz at which the current solution is published again on joint_states while '
        'no new one goes out (as joint_state_publisher does), so that robot_state_publisher '
        'ends on the last solution however fast targets came; 0 turns it off.'),
    ParameterSpec(
        'transform_timeout', 'double', 0.2, InRange.of(0.0, 10.0, 'timeout'),
        'seconds a target in another frame may wait for its transform',
        "Seconds a target in another frame may wait for its transform (at the target's "
        'stamp, or the latest for a zero stamp) before it is rejected as unknown_frame; the '
        'node keeps serving other targets meanwhile. Those in the first 2 s after the first '
        'such target wait up to 2 s (10 s while nothing joining their frame to the base frame '
        'has come), while the tf2 listener the node starts only then discovers the '
        "transforms' publishers."),
    ParameterSpec(
        'robot_state_publisher', 'string', 'robot_state_publisher',
        NodeName('empty or a node name'),
        'node whose `robot_description` follows runtime changes (empty: none)',
        'Name of the robot_state_publisher node (relative names are resolved in this '
        "node's namespace) whose robot_description is updated when the arm changes at "
        'runtime; empty turns it off.'),
    ParameterSpec(
        'output', 'string', Output.JOINT_STATES.value, OneOf.of(Output),
        ', '.join(f'`{output.value}`' for output in list(Output)[:-1])
        + f' or `{list(Output)[-1].value}`',
        'Where solutions go: joint_states (for display with robot_state_publisher), '
        'forward_command (Float64MultiArray on commands, for forward_command_controller), '
        'joint_trajectory (JointTrajectory on joint_trajectory, for '
        'joint_trajectory_controller) or follow_joint_trajectory (FollowJointTrajectory goals '
        'to the follow_joint_trajectory action of joint_trajectory_controller). The '
        "controller outputs read the arm's measured joint_states instead of publishing them.",
        (Runtime.OUTPUT,), launch=True),
    ParameterSpec(
        'max_joint_velocity', 'double', 1.0, InRange.of(1e-3, 100.0, 'velocity'),
        'rad/s, each joint, in a controller move or path',
        'Fastest joint speed in rad/s of a controller move (and the URDF joint velocity '
        'limit); a path without timestamps is timed for it.', _MODEL + _MOTION),
    ParameterSpec(
        'max_joint_acceleration', 'double', 5.0, InRange.of(1e-3, 1000.0, 'acceleration'),
        'rad/s², each joint',
        'Largest joint acceleration in rad/s^2 of a controller move.', _MOTION),
    ParameterSpec(
        'max_joint_jerk', 'double', 0.0, InRange.of(0.0, 100000.0, 'jerk'),
        'rad/s³, each joint (0: not limited)',
        'Largest joint jerk in rad/s^3 of a controller move; 0: not limited '
        '(acceleration-limited moves).', _MOTION),
    ParameterSpec(
        'min_move_time', 'double', 0.1, InRange.of(1e-3, 60.0, 'time'),
        's, the shortest controller move',
        'Shortest duration in seconds of a controller move, however small the move.',
        _MOTION),
    ParameterSpec(
        'command_rate', 'double', 100.0, InRange.of(1.0, 1000.0, 'rate'),
        "Hz of `forward_command`'s stream: the controller's `update_rate`",
        'Rate in Hz at which forward_command streams the positions of a move until the arm '
        'arrives, each for one controller cycle: the update_rate of the controller.'),
    ParameterSpec(
        'goal_tolerance', 'double', 0.001, InRange.of(1e-9, 1.0, 'tolerance'),
        "rad, each joint: the measured arm this close to a move's end has reached it",
        "Radians (each joint) within which the measured arm has reached a move's end (then "
        '"reached" is published).'),
    ParameterSpec(
        'goal_time_tolerance', 'double', 1.0, InRange.of(0.0, 3600.0, 'time'),
        "s after a move's planned end by which it must be reached (0: the controller's own, "
        'for goals)',
        "Seconds after a move's planned end by which the arm must have reached it, else the "
        'move failed (timed_out).'),
    ParameterSpec(
        'arm_state_timeout', 'double', 0.5, InRange.of(0.01, 3600.0, 'time'),
        "s without `joint_states` after which the arm's state is stale",
        "Seconds without joint_states after which the arm's state is stale: the node warns "
        'and plans from its own last command until they come back.'),
)

SPECS: Dict[str, ParameterSpec] = {spec.name: spec for spec in PARAMETERS}
PARAMETER_NAMES = tuple(SPECS)
DEFAULTS: Dict[str, Any] = {spec.name: spec.default for spec in PARAMETERS}
#: Parameters that change the robot model (and so robot_state_publisher's URDF).
MODEL_PARAMETERS = tuple(spec.name for spec in PARAMETERS if Runtime.MODEL in spec.runtime)
#: Parameters that choose the chain read from robot_description.
DESCRIPTION_PARAMETERS = tuple(spec.name for spec in PARAMETERS
                               if Runtime.DESCRIPTION in spec.runtime)
#: The parameters ``TwoBoneIK`` takes (and judges) itself, by its arguments' names.
SOLVER_PARAMETERS = tuple(name for name in inspect.signature(TwoBoneIK).parameters
                          if name in SPECS)


def as_double(name: str, value: Any) -> Any:
    """
    Return ``value`` as a float (floats) when ``name`` is a double (array) given as integers.

    ``r1:=2`` on a command line, in a launch file or in ``ros2 param set``
    arrives as an INTEGER; the node stores it as the double 2.0, so ``ros2
    param get`` and every reader see the declared type.  Anything else is
    returned unchanged, for ``validate`` to judge.
    """
    spec = SPECS.get(name)
    if spec is None:
        return value
    if spec.kind == 'double' and _integer(value):
        return float(value)
    # rclpy holds an INTEGER_ARRAY as a list or as an array.array of typecode 'q'
    if (spec.kind == 'double_array' and isinstance(value, (list, tuple, array.array))
            and len(value) and all(_integer(item) for item in value)):
        return [float(item) for item in value]
    return value


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
