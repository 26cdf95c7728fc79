"""
Drive the arm through ros2_control with mock hardware: the IK node commands a controller.

    ros2 launch twobone_ik_ros control.launch.py            # joint_trajectory_controller
    ros2 launch twobone_ik_ros control.launch.py output:=forward_command rviz:=true
    ros2 launch twobone_ik_ros control.launch.py output:=follow_joint_trajectory  # the action

Starts controller_manager's ``ros2_control_node`` with ``config/controllers.yaml``
(or ``controllers_file``; with ``description_file``, the arm's joints in it),
the spawners of ``joint_state_broadcaster`` and of the controller the output
commands, and ``twobone_ik.launch.py`` with every argument passed on: the
URDF's ``<ros2_control>`` block, robot_state_publisher (controller_manager
reads the URDF it publishes on ``robot_description``; on Humble also as the
parameter that release reads).  Needs ros2_control and ros2_controllers.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from launch import LaunchDescription
from launch.actions import IncludeLaunchDescription, OpaqueFunction
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare
from twobone_ik_ros.bringup.actions import Computed, declare, pass_on
from twobone_ik_ros.bringup.control_config import (
    controller, controller_manager, controller_overrides, controllers_file, planned_control,
    spawned, spawner_enclave)
from twobone_ik_ros.bringup.launch_config import (
    check_packages, enclave, launch_values, namespace, OWN_SESSION)

#: every node's last parameter: the launch's clock
USE_SIM_TIME = {'use_sim_time': LaunchConfiguration('use_sim_time')}


def generate_launch_description():
    """Declare this launch's arguments, check them, then start the arm and the IK node."""
    return LaunchDescription([
        *declare(
            defaults={'output': 'joint_trajectory', 'ros2_control': 'true',
                      'robot_state_publisher': 'true'},
            descriptions={
                'ros2_control': "Add the mock hardware's <ros2_control> block to the URDF "
                'controller_manager reads (the arm of r1 and r2; a description_file brings '
                'its own).',
                'robot_state_publisher': 'Start robot_state_publisher: controller_manager '
                'reads the URDF it publishes.'}),
        OpaqueFunction(function=check),
        Node(
            package='controller_manager', executable='ros2_control_node',
            namespace=Computed(namespace), output='screen', **OWN_SESSION,
            parameters=[Computed(controllers_file), Computed(controller_overrides),
                        USE_SIM_TIME],
            ros_arguments=['--enclave', Computed(enclave, 'controller_manager')]),
        Node(
            package='controller_manager', executable='spawner', namespace=Computed(namespace),
            output='screen', parameters=[USE_SIM_TIME],
            arguments=['joint_state_broadcaster',
                       '--controller-manager', Computed(controller_manager)],
            ros_arguments=['--enclave', Computed(enclave, 'spawner_joint_state_broadcaster')]),
        Node(  # the controller the output commands
            package='controller_manager', executable='spawner', namespace=Computed(namespace),
            output='screen', parameters=[USE_SIM_TIME],
            arguments=[Computed(spawned), '--controller-manager', Computed(controller_manager)],
            ros_arguments=['--enclave', Computed(spawner_enclave)]),
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(PathJoinSubstitution(
                [FindPackageShare('twobone_ik_ros'), 'launch', 'twobone_ik.launch.py'])),
            launch_arguments=pass_on(controller=Computed(controller))),
    ])


def check(context):
    """Refuse an arm that cannot be driven before anything starts."""
    check_packages(planned_control(launch_values(context)).packages)
