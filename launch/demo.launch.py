"""
The arm following the demo target source: twobone_ik.launch.py plus target_publisher.

    ros2 launch twobone_ik_ros demo.launch.py pattern:=figure_eight rviz:=true

Every argument of twobone_ik.launch.py is accepted and passed on; pattern and
rate configure the target source, which publishes on the same target topic,
sized to the arm and in its frame as twobone_ik.launch.py resolves them.  If
the IK node exits, the included launch shuts everything down, the source too.
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
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription, OpaqueFunction
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from twobone_ik_ros.bringup.launch_config import (
    declare_arguments, DEMO_DEFAULTS, LAUNCH_ARGUMENTS, launch_values, resolve_launch)
from twobone_ik_ros.tools.target_patterns import PATTERNS

PACKAGE = 'twobone_ik_ros'


def _source(context):
    """Start the target source for the arm as the arm's launch file resolves it."""
    resolved = resolve_launch(launch_values(context))
    return [Node(
        package=PACKAGE, executable='target_publisher', name='target_publisher',
        namespace=resolved.namespace, output='screen',
        parameters=resolved.with_clock([{
            'pattern': LaunchConfiguration('pattern').perform(context),
            'rate': float(LaunchConfiguration('rate').perform(context)),
            'r1': resolved.config.r1,
            'r2': resolved.config.r2,
            'frame_id': resolved.config.frame,
        }]),
        remappings=[('target', resolved.target_topic)],
        ros_arguments=resolved.in_enclave('target_publisher'))]


def generate_launch_description():
    """Declare the arm's arguments and the source's, start both."""
    arguments = declare_arguments(DEMO_DEFAULTS) + [
        DeclareLaunchArgument('pattern', default_value='figure_eight', choices=list(PATTERNS),
                              description='Target pattern of the demo source.'),
        DeclareLaunchArgument('rate', default_value='20.0',
                              description='Targets per second from the demo source.'),
    ]
    arm = IncludeLaunchDescription(
        PythonLaunchDescriptionSource(os.path.join(
            get_package_share_directory(PACKAGE), 'launch', 'twobone_ik.launch.py')),
        launch_arguments={arg.name: LaunchConfiguration(arg.name)
                          for arg in LAUNCH_ARGUMENTS}.items())
    return LaunchDescription(arguments + [arm, OpaqueFunction(function=_source)])
