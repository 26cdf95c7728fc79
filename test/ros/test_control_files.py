"""
What drives a real arm but cannot run here: URDF <ros2_control>, controllers.yaml, control plan.

controller_manager needs rclcpp, which the PyPI wheels do not have, so these
files are checked for what controller_manager, the controllers and
mock_components read from them (their documented parameter names, Humble
through Rolling); ``test_launch.py`` runs control.launch.py for real up to
the point where it needs controller_manager.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import os
import xml.etree.ElementTree as ElementTree

from helpers import ROOT
import pytest
from twobone_ik_ros.bringup import control_config, launch_config
from twobone_ik_ros.bringup.arguments import defaults
from twobone_ik_ros.bringup.control_config import controller_joints, plan_control
from twobone_ik_ros.bringup.launch_config import LaunchError, plan_launch
from twobone_ik_ros.model.parameter_table import DEFAULTS
from twobone_ik_ros.model.urdf import arm_urdf
from urdf_arms import park
import yaml

JOINTS = DEFAULTS['joint_names']
#: control.launch.py's own defaults (test_launch_files checks the file declares them)
CONTROL = {'output': 'joint_trajectory', 'ros2_control': 'true', 'robot_state_publisher': 'true'}


def everything(module):
    """Take every library as installed: these tests are about the plan, not the machine."""
    return True


def values(**given):
    return dict(defaults(), **given)


def control_values(**given):
    """Return control.launch.py's argument values, with ``given`` over its defaults."""
    return values(**dict(CONTROL, **given))


def controllers():
    with open(os.path.join(ROOT, 'config', 'controllers.yaml')) as stream:
        return yaml.safe_load(stream)


def test_the_ros2_control_block_is_mock_hardware_with_position_interfaces_per_joint():
    root = ElementTree.fromstring(arm_urdf(shoulder_limits=(-6.0, 6.0), elbow_limits=(0.5, 2.0),
                                           ros2_control=True))
    block = root.find('ros2_control')
    assert block.get('type') == 'system'
    assert block.find('hardware/plugin').text == 'mock_components/GenericSystem'
    joints = {joint.get('name'): joint for joint in block.findall('joint')}
    assert list(joints) == JOINTS
    urdf_joints = {joint.get('name') for joint in root.findall('joint')}
    assert set(joints) <= urdf_joints  # controller_manager refuses joints not in the URDF
    for name, (lower, upper, start) in zip(JOINTS, ((-6.0, 6.0, 0.0), (0.5, 2.0, 0.5))):
        command = joints[name].find('command_interface')
        state = joints[name].find('state_interface')
        assert command.get('name') == 'position' and state.get('name') == 'position'
        params = {p.get('name'): float(p.text) for p in command.findall('param')}
        assert params == {'min': lower, 'max': upper}
        assert float(state.find('param[@name="initial_value"]').text) == start
    assert arm_urdf().find('ros2_control') == -1  # only on request


def test_controllers_yaml_defines_the_three_controllers_for_the_two_joints():
    document = controllers()
    manager = document['/**/controller_manager']['ros__parameters']
    assert manager['update_rate'] > 0
    assert {name: section['type'] for name, section in manager.items()
            if isinstance(section, dict)} == {
        'joint_state_broadcaster': 'joint_state_broadcaster/JointStateBroadcaster',
        'forward_position_controller': 'forward_command_controller/ForwardCommandController',
        'joint_trajectory_controller':
            'joint_trajectory_controller/JointTrajectoryController'}
    forward = document['/**/forward_position_controller']['ros__parameters']
    assert forward == {'joints': JOINTS, 'interface_name': 'position'}
    trajectory = document['/**/joint_trajectory_controller']['ros__parameters']
    # a replacing trajectory starts from the last command, under both releases' names
    assert trajectory == {'joints': JOINTS, 'command_interfaces': ['position'],
                          'state_interfaces': ['position'], 'open_loop_control': True,
                          'interpolate_from_desired_state': True}


@pytest.mark.parametrize('output, controller, remapped', [
    ('forward_command', '', ()),
    ('forward_command', 'forward_position_controller',
     (('commands', 'forward_position_controller/commands'),)),
    ('joint_trajectory', '', ()),
    ('joint_trajectory', 'arm_controller',
     (('joint_trajectory', 'arm_controller/joint_trajectory'),)),
    ('follow_joint_trajectory', '', ()),
    # the action, and its topics and services for an rcl that remaps no action names
    ('follow_joint_trajectory', 'arm_controller',
     (('follow_joint_trajectory', 'arm_controller/follow_joint_trajectory'),)
     + tuple((f'follow_joint_trajectory/_action/{name}',
              f'arm_controller/follow_joint_trajectory/_action/{name}')
             for name in ('send_goal', 'cancel_goal', 'get_result', 'feedback', 'status'))),
])
def test_a_controller_output_is_remapped_to_a_named_controller_and_starts_no_state_publisher(
        output, controller, remapped, monkeypatch):
    resolved = plan_launch(values(output=output, controller=controller), importable=everything)
    assert resolved.remappings == (('target', 'target'),) + remapped
    assert 'robot_state_publisher' not in {package for package, _ in resolved.packages}
    asked = plan_launch(values(output=output, robot_state_publisher='true'),
                        importable=everything)
    assert 'robot_state_publisher' in {package for package, _ in asked.packages}
    assert dict(resolved.remappings)['target'] == 'target'
    # what the IK node's Node gets: the controller's name, an identity remap for the rest
    monkeypatch.setattr(launch_config, 'check', lambda output, importable: None)
    given = values(output=output, controller=controller)
    assert {name: launch_config.remapped(given, name)
            for name in launch_config.CONTROLLER_TOPICS} == dict(
        {name: name for name in launch_config.CONTROLLER_TOPICS}, **dict(remapped))


def test_joint_states_output_keeps_the_display_set_up():
    resolved = plan_launch(values())
    assert resolved.remappings == (('target', 'target'),)
    assert 'robot_state_publisher' in {package for package, _ in resolved.packages}
    assert '<ros2_control' not in resolved.robot_description
    assert '<ros2_control' in plan_launch(values(ros2_control='true')).robot_description


@pytest.mark.parametrize('output, spawned', [
    ('joint_trajectory', 'joint_trajectory_controller'),
    ('follow_joint_trajectory', 'joint_trajectory_controller'),
    ('forward_command', 'forward_position_controller')])
def test_control_launch_starts_the_broadcaster_and_the_commanded_controller(output, spawned):
    control = plan_control(control_values(output=output), 'jazzy', everything)
    assert control.spawn == ('joint_state_broadcaster', spawned)
    assert control.controller == spawned  # passed on: the node commands it
    topic = 'commands' if output == 'forward_command' else output
    assert (topic, f'{spawned}/{topic}') in control.launch.remappings
    assert control.controller_manager == '/controller_manager'
    assert control.packages[0][0] == 'controller_manager'
    assert '<ros2_control' in control.launch.robot_description
    assert not control.description_parameter
    assert plan_control(control_values(), 'humble').description_parameter
    namespaced = plan_control(control_values(namespace='left'), 'rolling')
    assert namespaced.controller_manager == '/left/controller_manager'


@pytest.mark.parametrize('output', ['forward_command', 'joint_trajectory',
                                    'follow_joint_trajectory'])
def test_control_launch_with_robot_state_publisher_auto_starts_it_for_controller_manager(
        output):
    """A controller_manager waits for robot_description: auto starts its publisher."""
    control = plan_control(control_values(output=output, robot_state_publisher='auto'),
                           'jazzy', everything)
    assert 'robot_state_publisher' in {package for package, _ in control.launch.packages}
    alone = plan_launch(values(output=output, robot_state_publisher='auto'),
                        importable=everything)  # the arm's own bringup runs one
    assert 'robot_state_publisher' not in {package for package, _ in alone.packages}


@pytest.mark.parametrize('given', [{'output': 'joint_states'}, {'ros2_control': 'false'},
                                   {'robot_state_publisher': 'false'}])
def test_control_launch_refuses_what_cannot_drive_the_arm(given):
    with pytest.raises(LaunchError):
        plan_control(control_values(**given), 'jazzy')


def test_control_launch_takes_a_descriptions_own_ros2_control_block_and_its_joints(tmp_path):
    urdf, arms = park()
    arm = arms['minus y axes, limited']
    path = tmp_path / 'park.urdf'
    path.write_text(urdf)
    given = {'description_file': str(path), 'tip_link': arm.tip, 'base_frame': arm.base}
    control = plan_control(control_values(**given), 'jazzy')
    assert control.launch.robot_description.count('<ros2_control') == 1  # the file's, not ours
    assert controller_joints(control.launch) == arm.joints
    with open(control_config.controller_overrides(control_values(**given))) as stream:
        overrides = yaml.safe_load(stream)
    assert {section: body['ros__parameters']['joints'] for section, body in overrides.items()} \
        == {'/**/forward_position_controller': list(arm.joints),
            '/**/joint_trajectory_controller': list(arm.joints)}
    path.write_text(urdf.split('  <ros2_control')[0] + '</robot>\n')
    with pytest.raises(LaunchError, match='has no <ros2_control> block'):
        plan_control(control_values(**given), 'jazzy')


def test_controller_manager_gets_no_override_but_on_humble_the_description(monkeypatch):
    """Humble's controller_manager reads robot_description as a parameter; later ones do not."""
    def overrides():
        with open(control_config.controller_overrides(control_values())) as stream:
            return yaml.safe_load(stream)
    monkeypatch.setenv('ROS_DISTRO', 'jazzy')
    assert overrides() == {'/**': {'ros__parameters': {}}}
    monkeypatch.setenv('ROS_DISTRO', 'humble')
    description = overrides()['/**/controller_manager']['ros__parameters']['robot_description']
    assert description == plan_control(control_values(), 'humble').launch.robot_description


def test_the_spawners_take_the_controller_and_its_enclave(monkeypatch):
    given = control_values(output='forward_command', enclave='/arm', namespace='left')
    assert control_config.controller(given) == 'forward_position_controller'
    assert control_config.spawned(given) == 'forward_position_controller'
    assert control_config.controller_manager(given) == '/left/controller_manager'
    assert control_config.spawner_enclave(given) == '/arm/spawner_forward_position_controller'
    assert launch_config.enclave(control_values(), 'twobone_ik') == '/'  # rcl's default
