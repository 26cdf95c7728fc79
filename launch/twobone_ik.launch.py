"""
Launch the IK node, robot_state_publisher with the same arm, and RViz on request.

    ros2 launch twobone_ik_ros twobone_ik.launch.py r1:=1.2 r2:=0.8 rviz:=true

``--show-args`` lists the arguments (the table is
``twobone_ik_ros.bringup.launch_config.LAUNCH_ARGUMENTS``).  Before anything starts,
the arguments and ``params_file`` are resolved and validated with the node's
own validator, and the packages to start are looked up: a wrong value or a
missing package stops the launch with a message and a non-zero exit, and no
process is left behind.  If the IK node exits while the launch is running,
the launch shuts down: quietly after a clean exit (Ctrl-C reaches the node
too), with an error and a non-zero exit after any other.
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
from launch.actions import EmitEvent, OpaqueFunction
from launch.events import Shutdown
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from twobone_ik_ros.bringup.launch_config import (
    check_packages, declare_arguments, launch_values, LaunchError, own_session, resolve_launch,
    temporary_file)
from twobone_ik_ros.bringup.rviz_config import plane_view, rviz_config
import yaml

PACKAGE = 'twobone_ik_ros'


def _namespaced(namespace, name):
    """Resolve a topic name the way the namespaced node will."""
    if name.startswith('/'):
        return name
    return f'/{namespace}/{name}' if namespace else f'/{name}'


def _shut_down_with_the_node(event, context):
    """
    End the launch with the IK node: quietly after a clean exit, as failed after any other.

    A Ctrl-C reaches every process of the terminal's group at once, so the
    node can end (cleanly, code 0) before the launch has seen the signal:
    that is a stop, not a failure.  Any other code fails the launch with it.
    """
    if context.is_shutdown:
        return None
    if event.returncode == 0:
        return [EmitEvent(event=Shutdown(reason=f'{event.process_name} ended'))]
    raise LaunchError(f'{event.process_name} exited with code {event.returncode}; '
                      'shutting down the launch')


def _arm_rviz_config(template, view):
    """Write the package's RViz configuration set to ``view``: a file removed at exit."""
    with open(template, encoding='utf-8') as stream:
        configuration = rviz_config(yaml.safe_load(stream), view)
    return temporary_file(yaml.safe_dump(configuration, sort_keys=False), 'twobone_ik_', '.rviz')


def _launch_setup(context):
    resolved = resolve_launch(launch_values(context))
    check_packages(resolved.packages)
    config, namespace = resolved.config, resolved.namespace
    actions = [Node(
        package=PACKAGE, executable='twobone_ik_node', name='twobone_ik',
        namespace=namespace, output='screen',
        parameters=resolved.with_clock(resolved.node_parameters),
        remappings=list(resolved.remappings), on_exit=_shut_down_with_the_node,
        ros_arguments=resolved.in_enclave('twobone_ik'),
    )]
    session = own_session()  # the C++ nodes: a Ctrl-C reaches them once
    if any(package == 'robot_state_publisher' for package, _ in resolved.packages):
        actions.append(Node(
            package='robot_state_publisher', executable='robot_state_publisher',
            name='robot_state_publisher', namespace=namespace, output='screen', **session,
            ros_arguments=resolved.in_enclave('robot_state_publisher'),
            parameters=resolved.with_clock([{
                'robot_description': ParameterValue(resolved.robot_description, value_type=str),
                'frame_prefix': config.frame_prefix,
            }]),
        ))
    if resolved.base_pose is not None:
        parent, x, y, yaw = resolved.base_pose
        actions.append(Node(
            package='tf2_ros', executable='static_transform_publisher',
            name='base_placement', namespace=namespace, output='screen', **session,
            ros_arguments=resolved.in_enclave('base_placement'),
            parameters=resolved.with_clock([]),
            arguments=['--x', repr(x), '--y', repr(y), '--yaw', repr(yaw),
                       '--frame-id', parent, '--child-frame-id', config.frame],
        ))
    if any(package == 'rviz2' for package, _ in resolved.packages):
        rviz_config = os.path.join(get_package_share_directory(PACKAGE), 'rviz',
                                   'twobone_ik.rviz')
        if config.arm.from_description:  # looking at its plane, not at the base's XY
            rviz_config = _arm_rviz_config(rviz_config, plane_view(config.arm,
                                                                   config.frame_prefix))
        # the .rviz file names the un-namespaced topics; point them at this arm
        topics = {'/target': resolved.target_topic, '/markers': 'markers',
                  '/robot_description': 'robot_description'}
        # -f: the fixed frame, which RViz also stamps Publish Point clicks with
        actions.append(Node(
            package='rviz2', executable='rviz2', name='rviz2', namespace=namespace,
            output='screen', arguments=['-d', rviz_config, '-f', config.frame],
            ros_arguments=resolved.in_enclave('rviz2'),
            parameters=resolved.with_clock([]),
            remappings=[(old, _namespaced(namespace, new)) for old, new in topics.items()
                        if _namespaced(namespace, new) != old],
        ))
    return actions


def generate_launch_description():
    """Declare the arguments, then build the nodes from their resolved values."""
    return LaunchDescription(declare_arguments() + [OpaqueFunction(function=_launch_setup)])
