"""
Launch the IK node, robot_state_publisher with the same arm, and RViz on request.

    ros2 launch twobone_ik_ros twobone_ik.launch.py r1:=1.2 r2:=0.8 rviz:=true

The arguments (``bringup/arguments.py``) come first; then ``check`` resolves
them with ``params_file``, validates them with the node's own validator and
looks up every package to start: a wrong value or a missing package stops
the launch with a message and a non-zero exit before anything starts.  Then
one ``Node`` per process; ``Computed(f)`` is ``launch_config.f`` run on the
arguments' values.  If the IK node exits, the launch shuts down: quietly
after a clean exit, with an error and a non-zero exit after any other.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from launch import LaunchDescription
from launch.actions import EmitEvent, OpaqueFunction
from launch.conditions import IfCondition
from launch.events import Shutdown
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from twobone_ik_ros.bringup.actions import Computed, declare
from twobone_ik_ros.bringup.launch_config import (
    check_packages, CONTROLLER_TOPICS, enclave, frame, frame_prefix, launch_values,
    LaunchError, namespace, node_parameters_file, OWN_SESSION, params_file, planned, remapped,
    robot_description, rviz_config, rviz_topic, RVIZ_TOPICS, starts)

#: every node's last parameter: the launch's clock wins over a params_file's
USE_SIM_TIME = {'use_sim_time': LaunchConfiguration('use_sim_time')}


def generate_launch_description():
    """Declare the arguments, check them all, then start the nodes."""
    return LaunchDescription([
        *declare(),
        OpaqueFunction(function=check),
        Node(
            package='twobone_ik_ros', executable='twobone_ik_node', name='twobone_ik',
            namespace=Computed(namespace), output='screen', on_exit=_shut_down_with_the_node,
            parameters=[Computed(params_file), Computed(node_parameters_file), USE_SIM_TIME],
            remappings=[('target', LaunchConfiguration('target_topic')),
                        *((name, Computed(remapped, name)) for name in CONTROLLER_TOPICS)],
            ros_arguments=['--enclave', Computed(enclave, 'twobone_ik')]),
        Node(
            condition=IfCondition(Computed(starts, 'robot_state_publisher')),
            package='robot_state_publisher', executable='robot_state_publisher',
            name='robot_state_publisher', namespace=Computed(namespace), output='screen',
            **OWN_SESSION,
            parameters=[{
                'robot_description': ParameterValue(Computed(robot_description), value_type=str),
                'frame_prefix': ParameterValue(Computed(frame_prefix), value_type=str),
            }, USE_SIM_TIME],
            ros_arguments=['--enclave', Computed(enclave, 'robot_state_publisher')]),
        Node(  # the arm's base frame placed in parent_frame
            condition=IfCondition(Computed(starts, 'tf2_ros')),
            package='tf2_ros', executable='static_transform_publisher', name='base_placement',
            namespace=Computed(namespace), output='screen', **OWN_SESSION,
            arguments=['--x', LaunchConfiguration('base_x'),
                       '--y', LaunchConfiguration('base_y'),
                       '--yaw', LaunchConfiguration('base_yaw'),
                       '--frame-id', LaunchConfiguration('parent_frame'),
                       '--child-frame-id', Computed(frame)],
            parameters=[USE_SIM_TIME],
            ros_arguments=['--enclave', Computed(enclave, 'base_placement')]),
        Node(  # looking at the arm's plane, its topics this arm's; -f: the fixed frame
            condition=IfCondition(LaunchConfiguration('rviz')),
            package='rviz2', executable='rviz2', name='rviz2', namespace=Computed(namespace),
            output='screen',
            arguments=['-d', Computed(rviz_config), '-f', Computed(frame)],
            remappings=[(topic, Computed(rviz_topic, topic)) for topic in RVIZ_TOPICS],
            parameters=[USE_SIM_TIME],
            ros_arguments=['--enclave', Computed(enclave, 'rviz2')]),
    ])


def check(context):
    """Refuse a wrong argument, parameter file or missing package before anything starts."""
    check_packages(planned(launch_values(context)).packages)


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
