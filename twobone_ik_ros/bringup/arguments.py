"""
The launch arguments of twobone_ik.launch.py: one table, plain data.

Every launch file declares these from here (``bringup.actions.declare``),
each with its own defaults written in the file; the XML front end and
README's table are generated from it.  The node's parameters among them
take their description and choices from the node's parameter table, and an
empty value means "not given": the params_file's value, else the node's
default.
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
from typing import Dict, Tuple

from twobone_ik_ros.model.interface import Output
from twobone_ik_ros.model.parameter_table import DEFAULTS, PARAMETERS, SPECS

BOOLEAN = ('true', 'false')


@dataclass(frozen=True)
class LaunchArgument:
    """One launch argument: what ``DeclareLaunchArgument`` gets."""

    name: str
    default: str
    description: str
    choices: Tuple[str, ...] = ()


def _node_parameter(name: str) -> LaunchArgument:
    """Return the argument of node parameter ``name``: its table's text, empty by default."""
    spec = SPECS[name]
    if name == 'frame_prefix':
        fallback = "from params_file, else '<namespace>/' when a namespace is given, else none"
    else:
        fallback = f'from params_file, else {DEFAULTS[name]!r}'
    return LaunchArgument(name, '', f'{spec.description} Empty: {fallback}.',
                          ('', *spec.choices) if spec.choices else ())


#: the node parameters that are also launch arguments (the parameter table's ``launch``)
NODE_ARGUMENTS = tuple(spec.name for spec in PARAMETERS if spec.launch)

#: the controllers the outputs command, for the ``controller`` argument's text
_CONTROLLERS = ' or '.join(dict.fromkeys(o.controller for o in Output if o.controller))

#: twobone_ik.launch.py's arguments, in ``ros2 launch --show-args`` order
ARGUMENTS: Tuple[LaunchArgument, ...] = (
    *(_node_parameter(name) for name in NODE_ARGUMENTS),
    LaunchArgument('namespace', '', 'Namespace of the IK node and robot_state_publisher.'),
    LaunchArgument(
        'target_topic', 'target',
        'Topic the IK node takes targets from (relative names are namespaced); '
        "RViz's Publish Point tool is remapped to it."),
    LaunchArgument(
        'params_file', '',
        'YAML parameter file for the IK node, for example config/twobone_ik.yaml in the share '
        'folder that ros2 pkg prefix --share twobone_ik_ros prints. Its values apply unless the '
        'same argument is given here.'),
    LaunchArgument(
        'controller', '',
        'Name of the controller a controller output commands: the node publishes on '
        '<controller>/commands (forward_command) or <controller>/joint_trajectory '
        '(joint_trajectory), or sends goals to <controller>/follow_joint_trajectory '
        '(follow_joint_trajectory), in the namespace (so /<controller>/... without one). Empty: '
        'no remapping, the node uses commands, joint_trajectory or follow_joint_trajectory '
        f'(control.launch.py passes {_CONTROLLERS}).'),
    LaunchArgument(
        'robot_state_publisher', 'auto',
        "Start robot_state_publisher with the arm's URDF (false when the arm's own bringup "
        'already runs one). auto: true for output joint_states (with tip_link, when '
        'description_file is given) and with ros2_control true (a controller_manager reads the '
        "URDF it publishes), false for the controller outputs otherwise, whose arm's bringup "
        'runs one.', ('auto', *BOOLEAN)),
    LaunchArgument(
        'rviz', 'false',
        "Start RViz looking at the arm's plane: down on the base frame's XY for the arm r1 and "
        'r2 describe, along the shoulder axis for one from description_file, with a grid in the '
        "tool's plane.", BOOLEAN),
    LaunchArgument(
        'use_sim_time', 'false',
        "Run every node started here on the /clock topic's time (a simulator's: Gazebo, Isaac "
        'Sim, Webots) instead of the system clock; it overrides a use_sim_time in params_file.',
        BOOLEAN),
    LaunchArgument(
        'ros2_control', 'false',
        'Add a <ros2_control> block (mock_components/GenericSystem, position interfaces) to the '
        'URDF robot_state_publisher publishes, for a controller_manager to read '
        "(control.launch.py sets it). With description_file, the file's own block is used.",
        BOOLEAN),
    LaunchArgument(
        'description_file', '',
        "Your arm's URDF or xacro file (expanded with xacro): robot_state_publisher publishes "
        'it, and the IK node reads the chain from base_frame to tip_link (which it needs) from '
        'it. Empty: the arm r1 and r2 describe.'),
    LaunchArgument(
        'description_args', '',
        "xacro arguments for description_file, as on xacro's command line: "
        "'name:=value other:=value'."),
    LaunchArgument(
        'controllers_file', '',
        "ros2_control controllers file for control.launch.py. Empty: the package's "
        "config/controllers.yaml, its joints the arm's."),
    LaunchArgument(
        'parent_frame', '',
        'If given, tf2_ros static_transform_publisher places the arm (its prefixed base_frame) '
        'in this frame at base_x, base_y, base_yaw.'),
    LaunchArgument('base_x', '0.0', 'x of the arm base in parent_frame, metres.'),
    LaunchArgument('base_y', '0.0', 'y of the arm base in parent_frame, metres.'),
    LaunchArgument('base_yaw', '0.0', 'Rotation of the arm base about z in parent_frame, rad.'),
    LaunchArgument(
        'enclave', '',
        'SROS2: run each node started here in the enclave <enclave>/<node name> (--enclave), '
        'with the keystore and strategy of ROS_SECURITY_* in the environment '
        "(doc/security.md). Empty: rcl's root enclave /, as without --enclave."),
)
ARGUMENT_NAMES = tuple(argument.name for argument in ARGUMENTS)


def defaults() -> Dict[str, str]:
    """Return twobone_ik.launch.py's default of every argument."""
    return {argument.name: argument.default for argument in ARGUMENTS}
