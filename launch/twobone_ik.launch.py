"""
Launch the IK node, robot_state_publisher with the same arm, and RViz on request.

    ros2 launch twobone_ik_ros twobone_ik.launch.py r1:=1.2 r2:=0.8 rviz:=true

The arguments come first; then ``check`` resolves them with ``params_file``
and validates them with the node's own validator, and looks up every
package to start: a wrong value or a missing package stops the launch with
a message and a non-zero exit before anything starts.  Then what starts,
one function each.  If the IK node exits, the launch shuts down: quietly
after a clean exit, with an error and a non-zero exit after any other.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, EmitEvent, OpaqueFunction
from launch.events import Shutdown
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from twobone_ik_ros.bringup.launch_config import (
    arm_rviz_config, BOOLEAN, check_packages, CONTROLLER_HELP, LaunchError, namespaced,
    OWN_SESSION, parameter_choices, parameter_help, resolved)

PACKAGE = 'twobone_ik_ros'


def generate_launch_description():
    """Declare the arguments, check them all, then start the nodes."""
    return LaunchDescription([
        # the node's parameters: empty means params_file's value, else the node's default
        DeclareLaunchArgument('r1', default_value='', description=parameter_help('r1')),
        DeclareLaunchArgument('r2', default_value='', description=parameter_help('r2')),
        DeclareLaunchArgument('elbow', default_value='', description=parameter_help('elbow'),
                              choices=parameter_choices('elbow')),
        DeclareLaunchArgument('unreachable', default_value='',
                              description=parameter_help('unreachable'),
                              choices=parameter_choices('unreachable')),
        DeclareLaunchArgument('base_frame', default_value='',
                              description=parameter_help('base_frame')),
        DeclareLaunchArgument('tip_link', default_value='',
                              description=parameter_help('tip_link')),
        DeclareLaunchArgument('frame_prefix', default_value='',
                              description=parameter_help('frame_prefix')),
        DeclareLaunchArgument('output', default_value='', description=parameter_help('output'),
                              choices=parameter_choices('output')),
        DeclareLaunchArgument(
            'namespace', default_value='',
            description='Namespace of the IK node and robot_state_publisher.'),
        DeclareLaunchArgument(
            'target_topic', default_value='target',
            description='Topic the IK node takes targets from (relative names are '
            "namespaced); RViz's Publish Point tool is remapped to it."),
        DeclareLaunchArgument(
            'params_file', default_value='',
            description='YAML parameter file for the IK node, for example '
            'config/twobone_ik.yaml in the share folder that ros2 pkg prefix --share '
            'twobone_ik_ros prints. Its values apply unless the same argument is given here.'),
        DeclareLaunchArgument('controller', default_value='', description=CONTROLLER_HELP),
        DeclareLaunchArgument(
            'robot_state_publisher', default_value='auto', choices=['auto', *BOOLEAN],
            description="Start robot_state_publisher with the arm's URDF (false when the "
            "arm's own bringup already runs one). auto: true for output joint_states (with "
            'tip_link, when description_file is given) and with ros2_control true (a '
            'controller_manager reads the URDF it publishes), false for the controller '
            "outputs otherwise, whose arm's bringup runs one."),
        DeclareLaunchArgument(
            'rviz', default_value='false', choices=list(BOOLEAN),
            description="Start RViz looking at the arm's plane: down on the base frame's XY "
            'for the arm r1 and r2 describe, along the shoulder axis for one from '
            "description_file, with a grid in the tool's plane."),
        DeclareLaunchArgument(
            'use_sim_time', default_value='false', choices=list(BOOLEAN),
            description="Run every node started here on the /clock topic's time (a "
            "simulator's: Gazebo, Isaac Sim, Webots) instead of the system clock; it "
            'overrides a use_sim_time in params_file.'),
        DeclareLaunchArgument(
            'ros2_control', default_value='false', choices=list(BOOLEAN),
            description='Add a <ros2_control> block (mock_components/GenericSystem, '
            'position interfaces) to the URDF robot_state_publisher publishes, for a '
            'controller_manager to read (control.launch.py sets it). With '
            "description_file, the file's own block is used."),
        DeclareLaunchArgument(
            'description_file', default_value='',
            description="Your arm's URDF or xacro file (expanded with xacro): "
            'robot_state_publisher publishes it, and the IK node reads the chain from '
            'base_frame to tip_link (which it needs) from it. Empty: the arm r1 and r2 '
            'describe.'),
        DeclareLaunchArgument(
            'description_args', default_value='',
            description="xacro arguments for description_file, as on xacro's command line: "
            "'name:=value other:=value'."),
        DeclareLaunchArgument(
            'controllers_file', default_value='',
            description='ros2_control controllers file for control.launch.py. Empty: the '
            "package's config/controllers.yaml, its joints the arm's."),
        DeclareLaunchArgument(
            'parent_frame', default_value='',
            description='If given, tf2_ros static_transform_publisher places the arm (its '
            'prefixed base_frame) in this frame at base_x, base_y, base_yaw.'),
        DeclareLaunchArgument('base_x', default_value='0.0',
                              description='x of the arm base in parent_frame, metres.'),
        DeclareLaunchArgument('base_y', default_value='0.0',
                              description='y of the arm base in parent_frame, metres.'),
        DeclareLaunchArgument(
            'base_yaw', default_value='0.0',
            description='Rotation of the arm base about z in parent_frame, rad.'),
        DeclareLaunchArgument(
            'enclave', default_value='',
            description='SROS2: run each node started here in the enclave '
            '<enclave>/<node name> (--enclave), with the keystore and strategy of '
            'ROS_SECURITY_* in the environment (doc/security.md). Empty: no security '
            'arguments.'),
        OpaqueFunction(function=check),
        OpaqueFunction(function=ik_node),
        OpaqueFunction(function=robot_state_publisher),
        OpaqueFunction(function=base_placement),
        OpaqueFunction(function=rviz),
    ])


def check(context):
    """Refuse a wrong argument, parameter file or missing package before anything starts."""
    check_packages(resolved(context).packages)


def ik_node(context):
    """Start the IK node with the resolved parameters (params_file first) and remappings."""
    launch = resolved(context)
    return [Node(
        package=PACKAGE, executable='twobone_ik_node', name='twobone_ik',
        namespace=launch.namespace, output='screen',
        parameters=launch.with_clock(launch.node_parameters),
        remappings=list(launch.remappings), on_exit=_shut_down_with_the_node,
        ros_arguments=launch.in_enclave('twobone_ik'))]


def robot_state_publisher(context):
    """Start robot_state_publisher with the arm's URDF (the one r1 and r2 make, or your file)."""
    launch = resolved(context)
    if not launch.starts('robot_state_publisher'):
        return []
    return [Node(
        package='robot_state_publisher', executable='robot_state_publisher',
        name='robot_state_publisher', namespace=launch.namespace, output='screen', **OWN_SESSION,
        ros_arguments=launch.in_enclave('robot_state_publisher'),
        parameters=launch.with_clock([{
            'robot_description': ParameterValue(launch.robot_description, value_type=str),
            'frame_prefix': launch.config.frame_prefix}]))]


def base_placement(context):
    """Place the arm's base frame in parent_frame (a static transform), if one is given."""
    launch = resolved(context)
    if launch.base_pose is None:
        return []
    parent, x, y, yaw = launch.base_pose
    return [Node(
        package='tf2_ros', executable='static_transform_publisher', name='base_placement',
        namespace=launch.namespace, output='screen', **OWN_SESSION,
        ros_arguments=launch.in_enclave('base_placement'), parameters=launch.with_clock([]),
        arguments=['--x', repr(x), '--y', repr(y), '--yaw', repr(yaw),
                   '--frame-id', parent, '--child-frame-id', launch.config.frame])]


def rviz(context):
    """Start RViz looking at the arm's plane, its topics pointed at this arm, if asked for."""
    launch = resolved(context)
    if not launch.starts('rviz2'):
        return []
    config = os.path.join(get_package_share_directory(PACKAGE), 'rviz', 'twobone_ik.rviz')
    if launch.config.arm.from_description:  # looking at its plane, not at the base's XY
        config = arm_rviz_config(config, launch.config)
    # the .rviz file names the un-namespaced topics; point them at this arm
    topics = [(old, namespaced(launch.namespace, new)) for old, new in (
        ('/target', launch.target_topic), ('/markers', 'markers'),
        ('/robot_description', 'robot_description'))]
    return [Node(
        package='rviz2', executable='rviz2', name='rviz2', namespace=launch.namespace,
        output='screen', ros_arguments=launch.in_enclave('rviz2'),
        # -f: the fixed frame, which RViz also stamps Publish Point clicks with
        arguments=['-d', config, '-f', launch.config.frame], parameters=launch.with_clock([]),
        remappings=[(old, new) for old, new in topics if new != old])]


def _shut_down_with_the_node(event, context):
    """
    End the launch with the IK node: quietly after a clean exit, as failed after any other.

    A Ctrl-C reaches every process of the terminal's group at once, so the
    node can end (code 0) before the launch has seen the signal: a stop, not
    a failure.
    """
    if context.is_shutdown:
        return None
    if event.returncode == 0:
        return [EmitEvent(event=Shutdown(reason=f'{event.process_name} ended'))]
    raise LaunchError(f'{event.process_name} exited with code {event.returncode}; '
                      'shutting down the launch')
