"""
Drive the arm through ros2_control with mock hardware: the IK node commands a controller.

    ros2 launch twobone_ik_ros control.launch.py            # joint_trajectory_controller
    ros2 launch twobone_ik_ros control.launch.py output:=forward_command rviz:=true
    ros2 launch twobone_ik_ros control.launch.py output:=follow_joint_trajectory  # the action

Starts controller_manager's ``ros2_control_node`` with ``config/controllers.yaml``
(or ``controllers_file``; with ``description_file``, the arm's joints in it),
the spawners of ``joint_state_broadcaster`` and of the controller the output
commands, and ``twobone_ik.launch.py`` with the same arguments (the defaults
declared here first win: a controller output, the URDF's ``<ros2_control>``
block, robot_state_publisher, whose URDF controller_manager reads from the
``robot_description`` topic; on Humble also as the parameter that release
reads).  Needs ros2_control and ros2_controllers.
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
from launch.actions import (
    DeclareLaunchArgument, IncludeLaunchDescription, OpaqueFunction, SetLaunchConfiguration)
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from twobone_ik_ros.bringup.control_config import (
    controller_joints, controllers_joints_file, resolve_control)
from twobone_ik_ros.bringup.launch_config import (
    BOOLEAN, check_packages, launch_file, launch_values, OWN_SESSION, parameter_choices,
    parameter_help)

PACKAGE = 'twobone_ik_ros'


def generate_launch_description():
    """Declare this launch's defaults, check them, then start the arm and the IK node."""
    return LaunchDescription([
        DeclareLaunchArgument('output', default_value='joint_trajectory',
                              description=parameter_help('output'),
                              choices=parameter_choices('output')),
        DeclareLaunchArgument(
            'ros2_control', default_value='true', choices=list(BOOLEAN),
            description="Add the mock hardware's <ros2_control> block to the URDF "
            'controller_manager reads (the arm of r1 and r2; a description_file brings its '
            'own).'),
        DeclareLaunchArgument(
            'robot_state_publisher', default_value='true', choices=['auto', *BOOLEAN],
            description='Start robot_state_publisher: controller_manager reads the URDF it '
            'publishes.'),
        OpaqueFunction(function=check),
        OpaqueFunction(function=controller_manager),
        OpaqueFunction(function=spawners),
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(launch_file('twobone_ik.launch.py'))),
    ])


def check(context):
    """Refuse an arm that cannot be driven before anything starts; name the controller."""
    control = resolve_control(launch_values(context), os.environ.get('ROS_DISTRO', ''))
    check_packages(control.packages)
    return [SetLaunchConfiguration('controller', control.controller)]


def controller_manager(context):
    """Start ros2_control_node with the controllers file (the package's: your arm's joints)."""
    values = launch_values(context)
    control = resolve_control(values, os.environ.get('ROS_DISTRO', ''))
    given = values['controllers_file']
    parameters = [given or os.path.join(get_package_share_directory(PACKAGE), 'config',
                                        'controllers.yaml')]
    joints = controller_joints(control.launch)
    if joints is not None and not given:  # the package's controllers, your joints
        parameters.append(controllers_joints_file(joints))
    if control.description_parameter:
        parameters.append({'robot_description': ParameterValue(
            control.launch.robot_description, value_type=str)})
    return [Node(
        package='controller_manager', executable='ros2_control_node',
        namespace=control.launch.namespace, output='screen', **OWN_SESSION,
        parameters=control.launch.with_clock(parameters),
        ros_arguments=control.launch.in_enclave('controller_manager'))]


def spawners(context):
    """Spawn joint_state_broadcaster and the controller the output commands."""
    control = resolve_control(launch_values(context), os.environ.get('ROS_DISTRO', ''))
    return [Node(
        package='controller_manager', executable='spawner', namespace=control.launch.namespace,
        output='screen',
        arguments=[controller, '--controller-manager', control.controller_manager],
        parameters=control.launch.with_clock([]),
        ros_arguments=control.launch.in_enclave(f'spawner_{controller}'),
    ) for controller in control.spawn]
