# Copyright 2026 The twobone_ik_ros Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""
The arm following the demo target source: twobone_ik.launch.py plus target_publisher.

    ros2 launch twobone_ik_ros demo.launch.py pattern:=figure_eight rviz:=true

Every argument of twobone_ik.launch.py is accepted and passed on; pattern and
rate configure the target source, which publishes on the same target topic.
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from twobone_ik_ros.launch_config import LAUNCH_ARGUMENTS
from twobone_ik_ros.target_patterns import PATTERNS

PACKAGE = 'twobone_ik_ros'
DEMO_DEFAULTS = {'rviz': 'true'}


def generate_launch_description():
    """Declare the arm's arguments and the source's, start both."""
    arguments = [
        DeclareLaunchArgument(
            arg.name, default_value=DEMO_DEFAULTS.get(arg.name, arg.default),
            description=arg.description, **({'choices': list(arg.choices)} if arg.choices else {}))
        for arg in LAUNCH_ARGUMENTS]
    arguments += [
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
    source = Node(
        package=PACKAGE, executable='target_publisher', name='target_publisher',
        namespace=LaunchConfiguration('namespace'), output='screen',
        parameters=[{
            'pattern': LaunchConfiguration('pattern'),
            'rate': ParameterValue(LaunchConfiguration('rate'), value_type=float),
            'r1': ParameterValue(LaunchConfiguration('r1'), value_type=float),
            'r2': ParameterValue(LaunchConfiguration('r2'), value_type=float),
            'frame_id': LaunchConfiguration('base_frame'),
        }],
        remappings=[('target', LaunchConfiguration('target_topic'))])
    return LaunchDescription(arguments + [arm, source])
