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
Launch the IK node, robot_state_publisher with a matching URDF, and RViz.

    ros2 launch twobone_ik_ros twobone_ik.launch.py r1:=1.2 r2:=0.8 rviz:=true

Arguments (``ros2 launch twobone_ik_ros twobone_ik.launch.py --show-args``):
r1, r2, elbow, unreachable, base_frame, namespace, target_topic, rviz,
robot_state_publisher, params_file; see twobone_ik_ros/launch_config.py.
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from twobone_ik_ros.launch_config import (
    LAUNCH_ARGUMENTS, node_parameters, read_parameter_file, robot_description)

PACKAGE = 'twobone_ik_ros'


def _namespaced(namespace, name):
    """Resolve a topic name the way the namespaced node will."""
    if name.startswith('/'):
        return name
    namespace = namespace.strip('/')
    return f'/{namespace}/{name}' if namespace else f'/{name}'


def _launch_setup(context):
    values = {arg.name: LaunchConfiguration(arg.name).perform(context)
              for arg in LAUNCH_ARGUMENTS}
    namespace = values['namespace']
    params_file = values['params_file']
    # the launch arguments override the file: they are listed after it
    ik_parameters = ([params_file] if params_file else []) + [node_parameters(values)]
    actions = [Node(
        package=PACKAGE, executable='twobone_ik_node', name='twobone_ik',
        namespace=namespace, output='screen', parameters=ik_parameters,
        remappings=[('target', values['target_topic'])],
    )]
    if values['robot_state_publisher'] == 'true':
        urdf = robot_description(values, read_parameter_file(params_file))
        actions.append(Node(
            package='robot_state_publisher', executable='robot_state_publisher',
            namespace=namespace, output='screen',
            parameters=[{'robot_description': ParameterValue(urdf, value_type=str)}],
        ))
    if values['rviz'] == 'true':
        config = os.path.join(get_package_share_directory(PACKAGE), 'rviz', 'twobone_ik.rviz')
        # the .rviz file names the un-namespaced topics; point them at this arm
        topics = {'/target': values['target_topic'], '/markers': 'markers',
                  '/robot_description': 'robot_description'}
        actions.append(Node(
            package='rviz2', executable='rviz2', name='rviz2', output='screen',
            arguments=['-d', config],
            remappings=[(old, _namespaced(namespace, new)) for old, new in topics.items()
                        if _namespaced(namespace, new) != old],
        ))
    return actions


def generate_launch_description():
    """Declare the arguments, then build the nodes from their values."""
    return LaunchDescription(
        [DeclareLaunchArgument(arg.name, default_value=arg.default,
                               description=arg.description, **_choices(arg))
         for arg in LAUNCH_ARGUMENTS]
        + [OpaqueFunction(function=_launch_setup)])


def _choices(arg):
    return {'choices': list(arg.choices)} if arg.choices else {}
