"""
Drive the arm through ros2_control with mock hardware: the IK node commands a controller.

    ros2 launch twobone_ik_ros control.launch.py            # joint_trajectory_controller
    ros2 launch twobone_ik_ros control.launch.py output:=forward_command rviz:=true
    ros2 launch twobone_ik_ros control.launch.py output:=follow_joint_trajectory  # the action

Starts controller_manager's ``ros2_control_node`` with ``config/controllers.yaml``
(or ``controllers_file``; with ``description_file``, the arm's joints in it),
the spawners of ``joint_state_broadcaster`` and of the controller the output
commands, and ``twobone_ik.launch.py`` with the same arguments (defaults
here: ``output:=joint_trajectory``, ``ros2_control:=true``,
``robot_state_publisher:=true``, and ``controller`` the output's controller
in config/controllers.yaml), whose robot_state_publisher publishes the
URDF with its ``<ros2_control>`` block (mock_components/GenericSystem).

controller_manager reads the URDF from the ``robot_description`` topic
(Jazzy and later); on Humble it is also passed as the parameter that
release reads.  Needs ros2_control and ros2_controllers
(``ros-$ROS_DISTRO-ros2-control ros-$ROS_DISTRO-ros2-controllers``).
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
from launch.actions import IncludeLaunchDescription, OpaqueFunction
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from twobone_ik_ros.bringup.control_config import (
    CONTROL_DEFAULTS, controller_joints, DEFAULT_CONTROLLERS, resolve_control)
from twobone_ik_ros.bringup.launch_config import (
    ARGUMENT_NAMES, check_packages, declare_arguments, launch_values, own_session, temporary_file)
import yaml

PACKAGE = 'twobone_ik_ros'


def _joints_file(joints):
    """Write the package's controllers' joints as the arm's: a parameters file, removed at exit."""
    sections = {f'/**/{controller}': {'ros__parameters': {'joints': list(joints)}}
                for controller in set(DEFAULT_CONTROLLERS.values())}
    return temporary_file(yaml.safe_dump(sections), 'twobone_ik_controllers_', '.yaml')


def _launch_setup(context):
    control = resolve_control(launch_values(context), os.environ.get('ROS_DISTRO', ''))
    check_packages(control.packages)
    share = get_package_share_directory(PACKAGE)
    manager = control.controller_manager
    controllers_file = LaunchConfiguration('controllers_file').perform(context)
    parameters = [controllers_file or os.path.join(share, 'config', 'controllers.yaml')]
    joints = controller_joints(control.launch)
    if joints is not None and not controllers_file:  # the package's controllers, your joints
        parameters.append(_joints_file(joints))
    if control.description_parameter:
        parameters.append({'robot_description': ParameterValue(
            control.launch.robot_description, value_type=str)})
    session = own_session()  # a Ctrl-C reaches ros2_control_node once
    actions = [Node(
        package='controller_manager', executable='ros2_control_node',
        namespace=control.launch.namespace, output='screen',
        parameters=control.launch.with_clock(parameters), **session,
        ros_arguments=control.launch.in_enclave('controller_manager'),
    )]
    actions += [Node(
        package='controller_manager', executable='spawner', namespace=control.launch.namespace,
        output='screen', arguments=[controller, '--controller-manager', manager],
        parameters=control.launch.with_clock([]),
        ros_arguments=control.launch.in_enclave(f'spawner_{controller}'),
    ) for controller in control.spawn]
    actions.append(IncludeLaunchDescription(
        PythonLaunchDescriptionSource(os.path.join(share, 'launch', 'twobone_ik.launch.py')),
        launch_arguments=[(name, control.controller if name == 'controller'
                           else LaunchConfiguration(name)) for name in ARGUMENT_NAMES],
    ))
    return actions


def generate_launch_description():
    """Declare the arguments (controller defaults), then start the arm and the IK node."""
    return LaunchDescription(declare_arguments(CONTROL_DEFAULTS)
                             + [OpaqueFunction(function=_launch_setup)])
