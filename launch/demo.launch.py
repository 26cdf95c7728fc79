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
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription, OpaqueFunction
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from twobone_ik_ros.bringup.launch_config import BOOLEAN, launch_file, resolved
from twobone_ik_ros.tools.target_patterns import PATTERNS

PACKAGE = 'twobone_ik_ros'


def generate_launch_description():
    """Declare the demo's arguments, start the arm, then the target source."""
    return LaunchDescription([
        DeclareLaunchArgument(
            'rviz', default_value='true', choices=list(BOOLEAN),
            description="Start RViz looking at the arm's plane, with a grid in the tool's "
            'plane (the demo shows the arm).'),
        DeclareLaunchArgument('pattern', default_value='figure_eight', choices=list(PATTERNS),
                              description='Target pattern of the demo source.'),
        DeclareLaunchArgument('rate', default_value='20.0',
                              description='Targets per second from the demo source.'),
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(launch_file('twobone_ik.launch.py'))),
        OpaqueFunction(function=target_source),
    ])


def target_source(context):
    """Start the target source for the arm as the arm's launch file resolves it."""
    launch = resolved(context)
    return [Node(
        package=PACKAGE, executable='target_publisher', name='target_publisher',
        namespace=launch.namespace, output='screen',
        parameters=launch.with_clock([{
            'pattern': LaunchConfiguration('pattern').perform(context),
            'rate': float(LaunchConfiguration('rate').perform(context)),
            'r1': launch.config.r1, 'r2': launch.config.r2, 'frame_id': launch.config.frame,
        }]),
        remappings=[('target', launch.target_topic)],
        ros_arguments=launch.in_enclave('target_publisher'))]
