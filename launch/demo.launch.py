"""
The arm following the demo target source: twobone_ik.launch.py plus target_publisher.

    ros2 launch twobone_ik_ros demo.launch.py pattern:=figure_eight rviz:=true

Every argument of twobone_ik.launch.py is accepted and passed on (RViz on by
default here); ``pattern`` and ``rate`` configure the target source, which
publishes on the same target topic, sized to the arm and in its frame as
twobone_ik.launch.py resolves them.  If the IK node exits, the included
launch shuts everything down, the source too.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare
from twobone_ik_ros.bringup.actions import Computed, declare, pass_on
from twobone_ik_ros.bringup.launch_config import arm_length, enclave, frame, namespace
from twobone_ik_ros.tools.target_patterns import PATTERNS


def generate_launch_description():
    """Declare the demo's arguments, start the arm, then the target source."""
    return LaunchDescription([
        *declare(
            defaults={'rviz': 'true'},
            descriptions={'rviz': "Start RViz looking at the arm's plane, with a grid in the "
                                  "tool's plane (the demo shows the arm)."}),
        DeclareLaunchArgument('pattern', default_value='figure_eight', choices=list(PATTERNS),
                              description='Target pattern of the demo source.'),
        DeclareLaunchArgument('rate', default_value='20.0',
                              description='Targets per second from the demo source.'),
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(PathJoinSubstitution(
                [FindPackageShare('twobone_ik_ros'), 'launch', 'twobone_ik.launch.py'])),
            launch_arguments=pass_on()),
        Node(
            package='twobone_ik_ros', executable='target_publisher', name='target_publisher',
            namespace=Computed(namespace), output='screen',
            parameters=[{
                'pattern': LaunchConfiguration('pattern'),
                'rate': ParameterValue(LaunchConfiguration('rate'), value_type=float),
                'r1': ParameterValue(Computed(arm_length, 'r1'), value_type=float),
                'r2': ParameterValue(Computed(arm_length, 'r2'), value_type=float),
                'frame_id': ParameterValue(Computed(frame), value_type=str),
                'use_sim_time': LaunchConfiguration('use_sim_time')}],
            remappings=[('target', LaunchConfiguration('target_topic'))],
            ros_arguments=['--enclave', Computed(enclave, 'target_publisher')]),
    ])
