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
What the launch files are made of, tested without ``launch`` installed.

``ros2 launch`` itself cannot run here; these tests pin down everything the
launch files take from the package: the argument table (and that both the
Python and the XML file declare exactly it), the typed node parameters, the
generated URDF, the parameter file and the RViz configuration.
"""

import ast
import math
import os
import xml.etree.ElementTree as ElementTree

import pytest
from twobone_ik_ros.launch_config import (
    LAUNCH_ARGUMENTS, node_parameters, read_parameter_file, robot_description)
from twobone_ik_ros.parameters import DEFAULTS, PARAMETERS
from twobone_ik_ros.urdf import arm_urdf
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARGUMENTS = {arg.name: arg for arg in LAUNCH_ARGUMENTS}
DEFAULT_VALUES = {arg.name: arg.default for arg in LAUNCH_ARGUMENTS}


def path(*parts):
    return os.path.join(ROOT, *parts)


def test_launch_arguments_are_the_ones_users_type():
    assert list(ARGUMENTS) == ['r1', 'r2', 'elbow', 'unreachable', 'base_frame', 'namespace',
                               'target_topic', 'rviz', 'robot_state_publisher', 'params_file']
    assert ARGUMENTS['elbow'].choices == ('up', 'down', 'closest')
    assert ARGUMENTS['unreachable'].choices == ('clamp', 'reject')
    assert ARGUMENTS['rviz'].choices == ARGUMENTS['robot_state_publisher'].choices \
        == ('true', 'false')
    assert all(arg.default in arg.choices for arg in LAUNCH_ARGUMENTS if arg.choices)
    assert all(arg.description for arg in LAUNCH_ARGUMENTS)


def test_launch_defaults_match_the_node_defaults():
    typed = node_parameters(DEFAULT_VALUES)
    for name, value in typed.items():
        assert value == DEFAULTS[name]


@pytest.mark.parametrize('text, value', [('1', 1.0), ('2.5', 2.5), ('1e-3', 1e-3)])
def test_integer_and_float_lengths_arrive_as_doubles(text, value):
    typed = node_parameters(dict(DEFAULT_VALUES, r1=text))
    assert typed['r1'] == value and isinstance(typed['r1'], float)


def test_a_length_that_is_not_a_number_is_refused_by_name():
    with pytest.raises(ValueError, match='r2'):
        node_parameters(dict(DEFAULT_VALUES, r2='long'))


def python_launch_calls(filename):
    return ast.parse(open(path('launch', filename)).read())


def test_python_launch_file_declares_every_argument_from_the_table():
    tree = python_launch_calls('twobone_ik.launch.py')
    source = ast.unparse(tree)
    assert 'DeclareLaunchArgument(arg.name, default_value=arg.default' in source
    assert 'for arg in LAUNCH_ARGUMENTS' in source
    assert 'ParameterValue(urdf, value_type=str)' in source
    assert "executable='twobone_ik_node'" in source and "name='twobone_ik'" in source
    assert 'rclpy' not in source  # a launch file starts nodes, it is not one


def test_xml_launch_file_declares_the_same_arguments_and_defaults():
    root = ElementTree.parse(path('launch', 'twobone_ik.launch.xml')).getroot()
    declared = {arg.get('name'): arg.get('default') for arg in root.findall('arg')}
    assert declared == DEFAULT_VALUES
    include = root.find('include')
    assert include.get('file').endswith('/launch/twobone_ik.launch.py')
    assert {arg.get('name') for arg in include.findall('arg')} == set(DEFAULT_VALUES)


def test_demo_launch_file_forwards_every_arm_argument():
    source = ast.unparse(python_launch_calls('demo.launch.py'))
    assert 'for arg in LAUNCH_ARGUMENTS' in source and 'IncludeLaunchDescription' in source
    assert "executable='target_publisher'" in source


def links_and_joints(urdf_text):
    robot = ElementTree.fromstring(urdf_text)
    links = {link.get('name') for link in robot.findall('link')}
    joints = {joint.get('name'): joint for joint in robot.findall('joint')}
    return robot, links, joints


def test_urdf_has_the_arm_lengths_names_and_limits():
    urdf = arm_urdf(1.25, 0.5, ('hip', 'knee'), (-1.0, 2.0), (-3.0, 0.0), 'arm_base')
    _, links, joints = links_and_joints(urdf)
    assert links == {'arm_base', 'link1', 'link2', 'tool0'}
    assert set(joints) == {'hip', 'knee', 'tool0_joint'}
    hip, knee, tool = joints['hip'], joints['knee'], joints['tool0_joint']
    assert hip.get('type') == knee.get('type') == 'revolute' and tool.get('type') == 'fixed'
    assert hip.find('parent').get('link') == 'arm_base'
    assert [float(v) for v in knee.find('origin').get('xyz').split()] == [1.25, 0.0, 0.0]
    assert [float(v) for v in tool.find('origin').get('xyz').split()] == [0.5, 0.0, 0.0]
    assert hip.find('axis').get('xyz') == knee.find('axis').get('xyz') == '0 0 1'
    limit = knee.find('limit')
    assert (float(limit.get('lower')), float(limit.get('upper'))) == (-3.0, 0.0)


def test_robot_description_follows_launch_arguments_and_parameter_file(tmp_path):
    params = tmp_path / 'params.yaml'
    params.write_text(yaml.safe_dump({'/**': {'ros__parameters': {
        'joint_names': ['j1', 'j2'], 'elbow_limits': [-1.0, 1.0]}}}))
    values = dict(DEFAULT_VALUES, r1='2', r2='0.5', base_frame='world')
    urdf = robot_description(values, read_parameter_file(str(params)))
    _, links, joints = links_and_joints(urdf)
    assert 'world' in links and {'j1', 'j2'} <= set(joints)
    assert float(joints['j2'].find('origin').get('xyz').split()[0]) == 2.0
    assert float(joints['j2'].find('limit').get('upper')) == 1.0


def test_installed_default_urdf_is_the_generated_one():
    assert open(path('urdf', 'twobone_arm.urdf')).read() == arm_urdf()


def test_parameter_file_lists_every_parameter_at_its_default():
    parameters = read_parameter_file(path('config', 'twobone_ik.yaml'))
    assert set(parameters) == {spec.name for spec in PARAMETERS}
    for spec in PARAMETERS:
        value = parameters[spec.name]
        if isinstance(spec.default, list):
            assert value == pytest.approx(spec.default) if spec.kind == 'double_array' \
                else value == spec.default
        else:
            assert value == spec.default


def test_rviz_config_shows_the_arm_and_sends_clicks_to_the_target_topic():
    config = yaml.safe_load(open(path('rviz', 'twobone_ik.rviz')))
    manager = config['Visualization Manager']
    assert manager['Global Options']['Fixed Frame'] == 'base_link'
    displays = {d['Class']: d for d in manager['Displays']}
    model = displays['rviz_default_plugins/RobotModel']
    assert model['Description Topic']['Value'] == '/robot_description'
    assert model['Description Topic']['Durability Policy'] == 'Transient Local'
    assert displays['rviz_default_plugins/MarkerArray']['Topic']['Value'] == '/markers'
    tools = {t['Class']: t for t in manager['Tools']}
    assert tools['rviz_default_plugins/PublishPoint']['Topic']['Value'] == '/target'


def test_every_installed_data_file_exists():
    for folder, pattern in (('launch', '.launch.'), ('config', '.yaml'), ('rviz', '.rviz'),
                            ('urdf', '.urdf')):
        assert any(pattern in name for name in os.listdir(path(folder))), folder
    assert math.isfinite(float(DEFAULT_VALUES['r1']))
