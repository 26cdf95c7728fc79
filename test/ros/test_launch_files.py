"""
What the launch files compute, without launching: the arguments' table and ``plan_launch``.

``plan_launch`` is what the launch files' check runs before they start
anything, and what their ``Computed`` values read; here it is called
directly with the argument strings a user types, so every rule of
precedence and every refusal is checked in milliseconds.  That the launch
files declare the table and use it is checked with launch installed, and by
running them (``test_launch.py``).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math
import os
import xml.etree.ElementTree as ElementTree

from helpers import ROOT
import pytest
from twobone_ik_ros.bringup import launch_config
from twobone_ik_ros.bringup.arguments import ARGUMENT_NAMES, ARGUMENTS, defaults, NODE_ARGUMENTS
from twobone_ik_ros.bringup.launch_config import (
    check_packages, LaunchError, plan_launch, read_parameter_file)
from twobone_ik_ros.model.config import validate
from twobone_ik_ros.model.dependencies import LIBRARIES, refusal
from twobone_ik_ros.model.interface import Output
from twobone_ik_ros.model.parameter_table import DEFAULTS, PARAMETERS, SPECS
from twobone_ik_ros.model.urdf import arm_urdf
from urdf_arms import park, park_xacro, planar_z
import yaml


def default_values():
    """Return every launch argument's default, as twobone_ik.launch.py declares it."""
    return defaults()


def path(*parts):
    return os.path.join(ROOT, *parts)


def values(**given):
    return dict(default_values(), **given)


def node_values(given):
    """Return the parameters the IK node gets from the launch after params_file."""
    with open(launch_config.node_parameters_file(given), encoding='utf-8') as stream:
        return yaml.safe_load(stream)['/**']['ros__parameters']


def test_launch_arguments_are_the_ones_users_type():
    assert ARGUMENT_NAMES == (
        'r1', 'r2', 'elbow', 'unreachable', 'base_frame', 'tip_link', 'frame_prefix', 'output',
        'namespace', 'target_topic', 'params_file', 'controller', 'robot_state_publisher',
        'rviz', 'use_sim_time', 'ros2_control', 'description_file', 'description_args',
        'controllers_file', 'parent_frame', 'base_x', 'base_y', 'base_yaw', 'enclave')
    for name in NODE_ARGUMENTS:  # derived from the parameter table
        arg = ARGUMENTS[ARGUMENT_NAMES.index(name)]
        assert arg.default == '' and arg.description.startswith(SPECS[name].description)
        assert arg.choices == (('',) + SPECS[name].choices if SPECS[name].choices else ())
    assert all(arg.default in arg.choices for arg in ARGUMENTS if arg.choices)


@pytest.mark.ros_launch
def test_computed_runs_its_function_on_the_launch_values():
    from launch import LaunchContext
    from twobone_ik_ros.bringup.actions import Computed, declare, pass_on
    context = LaunchContext()
    context.launch_configurations.update(namespace='/left/', enclave='/arm')
    assert Computed(launch_config.namespace).perform(context) == 'left'
    assert Computed(launch_config.enclave, 'rviz2').perform(context) == '/arm/rviz2'
    assert 'Computed(enclave, rviz2)' in Computed(launch_config.enclave, 'rviz2').describe()
    assert [name for name, _ in pass_on()] == list(ARGUMENT_NAMES)
    assert dict(pass_on(controller='c'))['controller'] == 'c'
    with pytest.raises(ValueError, match='not launch arguments'):
        declare(defaults={'r3': '1'})


@pytest.mark.ros_launch
@pytest.mark.parametrize('launch_file, own', [
    ('twobone_ik.launch.py', {}),
    ('control.launch.py', {'output': 'joint_trajectory', 'ros2_control': 'true',
                           'robot_state_publisher': 'true'}),
    ('demo.launch.py', {'rviz': 'true'})])
def test_each_launch_file_declares_every_argument_with_its_own_defaults(launch_file, own):
    declared = launch_config.launch_arguments(launch_file)
    assert [arg.name for arg in declared][:len(ARGUMENTS)] == list(ARGUMENT_NAMES)
    assert {arg.name: arg.default for arg in declared[:len(ARGUMENTS)]} == dict(defaults(), **own)
    assert launch_config.defaults_of(launch_file) == own
    if not own:
        assert declared == ARGUMENTS


def test_xml_front_end_declares_exactly_the_table():
    root = ElementTree.parse(path('launch', 'twobone_ik.launch.xml')).getroot()
    declared = [(arg.get('name'), arg.get('default'), arg.get('description'),
                 tuple(choice.get('value') for choice in arg.findall('choice')))
                for arg in root.findall('arg')]
    assert declared == [(a.name, a.default, a.description, a.choices)
                        for a in ARGUMENTS]
    include = root.find('include')
    assert include.get('file').endswith('/launch/twobone_ik.launch.py')
    assert [(a.get('name'), a.get('value')) for a in include.findall('arg')] == \
        [(name, f'$(var {name})') for name in ARGUMENT_NAMES]


def test_with_nothing_given_the_node_defaults_apply():
    resolved = plan_launch(values(robot_state_publisher='false'))
    assert resolved.config.as_parameters() == validate(DEFAULTS).as_parameters()
    assert resolved.packages == (('twobone_ik_ros', ''),)


@pytest.mark.parametrize('text, value', [('1', 1.0), ('2.5', 2.5), ('1e-3', 1e-3)])
def test_integer_and_float_lengths_arrive_as_doubles(text, value):
    resolved = node_values(values(r1=text))
    assert resolved['r1'] == value and isinstance(resolved['r1'], float)


def write(tmp_path, document):
    params = tmp_path / 'params.yaml'
    params.write_text(yaml.safe_dump(document))
    return str(params)


def test_file_values_apply_unless_the_argument_is_given(tmp_path):
    params = write(tmp_path, {'/**': {'ros__parameters': {
        'r1': 1.5, 'elbow': 'down', 'base_frame': 'world', 'joint_names': ['j1', 'j2'],
        'elbow_limits': [-1.0, 1.0]}}})
    given = values(params_file=params, elbow='up', r2='2')
    arm_launch = plan_launch(given)
    resolved = node_values(given)
    assert (resolved['r1'], resolved['r2'], resolved['elbow'], resolved['base_frame']) == \
        (1.5, 2.0, 'up', 'world')
    assert launch_config.params_file(given) == params  # first, for what the table lacks
    assert arm_launch.robot_description == arm_urdf(1.5, 2.0, ('j1', 'j2'), (-math.pi, math.pi),
                                                    (-1.0, 1.0), 'world')


def test_the_node_sections_of_a_file_win_over_the_wildcard(tmp_path):
    params = write(tmp_path, {'/**': {'ros__parameters': {'r1': 1.5, 'r2': 0.2}},
                              '/arm/twobone_ik': {'ros__parameters': {'r1': 3.0}}})
    resolved = node_values(values(params_file=params, namespace='arm'))
    assert (resolved['r1'], resolved['r2']) == (3.0, 0.2)


def test_a_namespace_prefixes_the_frames_unless_a_prefix_is_given(tmp_path):
    assert plan_launch(values(namespace='/left')).config.frame == 'left/base_link'
    assert plan_launch(
        values(namespace='left', frame_prefix='l_')).config.frame == 'l_base_link'
    params = write(tmp_path, {'/**': {'ros__parameters': {'frame_prefix': ''}}})
    assert plan_launch(values(namespace='left', params_file=params)).config.frame == 'base_link'


@pytest.mark.parametrize('given, message', [
    ({'r1': '-1'}, 'invalid parameters: r1 must be a finite length > 0 m'),
    ({'r2': 'long'}, 'launch argument r2 must be a number'),
    ({'base_frame': '/map'}, 'invalid parameters: base_frame must be a tf2 frame id'),
    ({'parent_frame': 'world', 'base_x': 'left'}, 'launch argument base_x must be a number'),
])
def test_invalid_values_are_refused_with_the_node_message(given, message):
    with pytest.raises(LaunchError, match=message):
        plan_launch(values(**given))


@pytest.mark.parametrize('missing', ['ruckig', 'toppra', 'control_msgs.action'])
def test_an_output_whose_library_is_missing_is_refused_with_the_nodes_line(missing):
    """The node's one line (``model.dependencies``), before anything starts; the display runs."""
    def importable(module):
        return module != missing
    output = 'follow_joint_trajectory'
    library = next(row for row in LIBRARIES if row.module == missing)
    with pytest.raises(LaunchError) as refused:
        plan_launch(values(output=output), importable=importable)
    assert str(refused.value) == refusal(Output(output), library)
    assert library.install in str(refused.value) and '\n' not in str(refused.value)
    assert plan_launch(values(), importable=importable).config.output is Output.JOINT_STATES


def test_a_file_value_is_validated_like_an_argument(tmp_path):
    params = write(tmp_path, {'/**': {'ros__parameters': {'elbow_limits': [-13.0, 13.0]}}})
    with pytest.raises(LaunchError, match='elbow_limits'):
        plan_launch(values(params_file=params))


@pytest.mark.parametrize('content, message', [
    (None, 'cannot be read'), ('r1: [unclosed', 'is not valid YAML'),
    ('just text', 'is not a ROS 2 parameter file')])
def test_a_bad_params_file_is_refused_naming_the_path(tmp_path, content, message):
    params = tmp_path / 'bad.yaml'
    if content is not None:
        params.write_text(content)
    with pytest.raises(LaunchError, match=f"params_file '{params}' {message}"):
        plan_launch(values(params_file=str(params)))


@pytest.mark.parametrize('given,expected', [('false', False), ('true', True)])
def test_the_launchs_use_sim_time_is_not_overridden_by_the_params_file(
        tmp_path, given, expected):
    params = tmp_path / 'p.yaml'
    params.write_text(yaml.safe_dump({'/**': {'ros__parameters': {'use_sim_time': not expected}}}))
    given_values = values(use_sim_time=given, params_file=str(params))
    # the launch files give each node USE_SIM_TIME last: the file's value is not in what
    # the IK node gets after it, so the launch's wins
    assert launch_config.params_file(given_values) == str(params)
    resolved = yaml.safe_load(open(launch_config.node_parameters_file(given_values)))
    assert 'use_sim_time' not in resolved['/**']['ros__parameters']


def test_the_ik_node_gets_params_file_then_every_resolved_value(tmp_path):
    params = tmp_path / 'p.yaml'
    params.write_text(yaml.safe_dump({'twobone_ik': {'ros__parameters': {'r1': 3.0}}}))
    given = values(params_file=str(params), r2='0.5')
    resolved = yaml.safe_load(open(launch_config.node_parameters_file(given)))
    assert resolved == {'/**': {'ros__parameters': plan_launch(given).config.as_parameters()}}
    assert resolved['/**']['ros__parameters']['r1'] == 3.0
    assert resolved['/**']['ros__parameters']['r2'] == 0.5
    # no params_file: a file of no values keeps the node's parameter list as it was
    nothing = launch_config.params_file(values())
    assert read_parameter_file(nothing) == {}


def test_the_packages_to_start_come_with_the_argument_that_turns_them_off():
    resolved = plan_launch(values(rviz='true', parent_frame='world', base_yaw='1.5'))
    assert resolved.packages == (('twobone_ik_ros', ''),
                                 ('robot_state_publisher', 'robot_state_publisher:=false'),
                                 ('rviz2', 'rviz:=false'), ('tf2_ros', "parent_frame:=''"))
    assert resolved.base_pose == ('world', 0.0, 0.0, 1.5)

    def find(package):
        if package == 'rviz2':
            raise KeyError(package)
        return '/opt/ros'
    with pytest.raises(LaunchError, match="package 'rviz2' not found; install it, or pass "
                                          'rviz:=false'):
        check_packages(resolved.packages, find)


def test_installed_default_urdf_is_the_generated_one():
    assert open(path('urdf', 'twobone_arm.urdf')).read() == arm_urdf()


def test_parameter_file_lists_every_parameter_at_its_default():
    parameters = read_parameter_file(path('config', 'twobone_ik.yaml'))
    assert set(parameters) == {spec.name for spec in PARAMETERS}
    for spec in PARAMETERS:
        value = parameters[spec.name]
        if spec.kind == 'double_array':
            assert value == pytest.approx(spec.default, abs=1e-15)
        else:
            assert value == spec.default and type(value) is type(spec.default)


def test_rviz_config_shows_the_arm_and_late_displays_get_the_markers():
    config = yaml.safe_load(open(path('rviz', 'twobone_ik.rviz')))
    manager = config['Visualization Manager']
    displays = {d['Class']: d for d in manager['Displays']}
    model = displays['rviz_default_plugins/RobotModel']
    assert model['Description Topic']['Value'] == '/robot_description'
    assert model['Description Topic']['Durability Policy'] == 'Transient Local'
    markers = displays['rviz_default_plugins/MarkerArray']['Topic']
    assert markers['Value'] == '/markers' and markers['Durability Policy'] == 'Transient Local'
    tools = {t['Class']: t for t in manager['Tools']}
    assert tools['rviz_default_plugins/PublishPoint']['Topic']['Value'] == '/target'


def _arm_file(tmp_path, text, name='arm.urdf'):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_description_file_is_the_arm_robot_state_publisher_publishes(tmp_path):
    xacro_file = _arm_file(tmp_path, park_xacro(), 'park.urdf.xacro')
    text, arms = park('0.5')
    arm = arms['mounted in a larger tree']
    resolved = plan_launch(values(description_file=xacro_file, description_args='shift:=0.5',
                                  tip_link=arm.tip, base_frame=arm.base))
    assert resolved.from_file and not resolved.config.problem
    assert resolved.config.joint_names == arm.joints
    assert 'robot_state_publisher' in dict(resolved.packages)  # auto: the display's
    assert '<joint name="a0_park" type="fixed">' in resolved.robot_description
    assert 'xyz="0.5 0.0 0"' in resolved.robot_description  # the argument reached xacro
    assert resolved.config.as_parameters()['tip_link'] == arm.tip


@pytest.mark.parametrize('given, message', [
    ({'description_args': 'shift:=1'}, 'description_args needs description_file'),
    ({'description_file': 'x', 'tip_link': 'a'}, "description_file 'x' does not expand"),
    ({'description_file': '{arm}', 'description_args': 'shift'}, 'name:=value words'),
    ({'description_file': '{arm}'}, 'description_file needs tip_link'),
    ({'description_file': '{arm}', 'tip_link': 'hand'}, "has no link 'hand'"),
    ({'tip_link': 'tool0', 'robot_state_publisher': 'true'}, 'needs description_file'),
])
def test_a_description_the_node_could_not_use_is_refused_before_anything_starts(
        tmp_path, given, message):
    arm = _arm_file(tmp_path, planar_z().urdf)
    given = {key: value.format(arm=arm) for key, value in given.items()}
    with pytest.raises(LaunchError, match=message):
        plan_launch(values(**given))


def test_tip_link_without_a_file_reads_the_description_of_your_bringup():
    resolved = plan_launch(values(tip_link='tool0'))
    assert resolved.config.problem.startswith('no robot_description yet')  # until it comes
    assert 'robot_state_publisher' not in dict(resolved.packages)


def test_a_launchs_nodes_share_one_plan_until_a_file_changes(tmp_path):
    params = write(tmp_path, {'/**': {'ros__parameters': {'r1': 1.5}}})
    given = values(params_file=params)
    first = launch_config.planned(given)
    assert launch_config.planned(dict(given)) is first  # xacro and the file read once
    assert first.config.r1 == 1.5
    write(tmp_path, {'/**': {'ros__parameters': {'r1': 1.25}}})  # another size: another plan
    assert launch_config.planned(given).config.r1 == 1.25
