"""
``ros2 launch`` as a user types it: what the launch process itself does.

Each test runs the real command in a process of its own, with the package
built by colcon, the real robot_state_publisher and static_transform_publisher
(the tests that start them carry those parts' markers, ``test/parts.py``) and the rviz2 stand-in
(``test/stand_ins``) on the ament index, and
checks what only the launch process shows: its exit code, its messages, the
processes it leaves, the arguments it gives the nodes.  The running graph
under each launch file is checked in ``test_launch_graph.py``.  Every test
uses a namespace of its own, so no two can hear each other's nodes.
The numbers in the names are the items of the first-hour issue they prove.
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
import signal
import subprocess
import time

import pytest
from ros_harness import (
    assert_nothing_left, processes_mentioning, unique_name)
from twobone_ik_ros.bringup.arguments import ARGUMENTS
from twobone_ik_ros.bringup.launch_config import read_parameter_file
from twobone_ik_ros.model.config import validate, validate_change
from twobone_ik_ros.model.parameter_table import DEFAULTS
from twobone_ik_ros.model.urdf import arm_urdf
import yaml

pytestmark = [pytest.mark.ros, pytest.mark.ros_launch, pytest.mark.ros2cli]

NO_RSP = 'robot_state_publisher:=false'


def without_package(package):
    """Return the environment with ``package`` off the ament index (as if not installed)."""
    def provides(prefix):
        return os.path.exists(os.path.join(
            prefix, 'share', 'ament_index', 'resource_index', 'packages', package))
    return dict(os.environ, AMENT_PREFIX_PATH=os.pathsep.join(
        p for p in os.environ['AMENT_PREFIX_PATH'].split(os.pathsep) if not provides(p)))


def show_args(launches, launch_file):
    launch = launches(launch_file, '--show-args')
    assert launch.wait() == 0, launch.output()
    return launch.output()


def test_python_and_xml_files_show_the_same_arguments_choices_and_descriptions(launches):
    python = show_args(launches, 'twobone_ik.launch.py')
    xml = show_args(launches, 'twobone_ik.launch.xml')
    assert python == xml
    for arg in ARGUMENTS:
        assert f"'{arg.name}':" in python and arg.description in python
        if arg.choices:
            assert f'Valid choices are: {list(arg.choices)}' in python


def test_demo_launch_shows_the_arm_arguments_and_its_own(launches):
    output = show_args(launches, 'demo.launch.py')
    assert all(f"'{arg.name}':" in output for arg in ARGUMENTS)
    assert "'pattern':" in output and "'rate':" in output


@pytest.mark.parametrize('launch_file', ['twobone_ik.launch.py', 'twobone_ik.launch.xml',
                                         'demo.launch.py'])
@pytest.mark.parametrize('argument, value', [('r1', '-1'), ('elbow', 'sideways'),
                                             ('base_frame', '/map')])
def test_an_invalid_value_is_refused_before_anything_starts(launches, launch_file,
                                                            argument, value):
    namespace = unique_name('invalid')
    launch = launches(launch_file, f'{argument}:={value}', f'namespace:={namespace}', NO_RSP)
    code = launch.wait()
    assert code != 0
    output = launch.output()
    if argument == 'elbow':  # launch's own check of the declared choices comes first
        assert 'sideways' in output and 'elbow' in output
    else:
        with pytest.raises(ValueError) as expected:
            validate_change(DEFAULTS, {argument: float(value) if argument == 'r1' else value})
        assert f'invalid parameters: {expected.value}' in output  # the node's own message
    assert 'process started' not in output
    assert_nothing_left(namespace)


@pytest.mark.parametrize('launch_file', ['twobone_ik.launch.py', 'demo.launch.py'])
def test_when_the_ik_node_dies_the_launch_ends_non_zero_and_nothing_is_left(
        launches, probe, launch_file):
    namespace = unique_name('dies')
    launch = launches(launch_file, f'namespace:={namespace}', NO_RSP)
    watching = probe(namespace=f'/{namespace}')
    watching.wait_for_node()
    watching.close()  # before the kill: GraphClient says why
    [ik_node] = [pid for pid in processes_mentioning(f'__ns:=/{namespace}')
                 if pid in processes_mentioning('twobone_ik_node')]
    os.kill(ik_node, 9)
    assert launch.wait() != 0
    assert 'exited with code -9; shutting down the launch' in launch.output()
    assert_nothing_left(namespace)


@pytest.mark.parametrize('launch_file, arguments', [
    ('twobone_ik.launch.py', (NO_RSP,)), ('twobone_ik.launch.xml', (NO_RSP, 'rviz:=true')),
    ('demo.launch.py', (NO_RSP,)),
    pytest.param('twobone_ik.launch.py', ('robot_state_publisher:=true', 'parent_frame:=world'),
                 marks=[pytest.mark.robot_state_publisher, pytest.mark.tf2],
                 id='twobone_ik.launch.py-rsp'),
    pytest.param('control.launch.py', (), id='control.launch.py', marks=[
        pytest.mark.robot_state_publisher, pytest.mark.ros2_control])])
@pytest.mark.parametrize('how', ['ctrl-c', 'ctrl-c twice', 'kill -INT launch'])
def test_ctrl_c_ends_every_launch_quietly_with_code_zero(
        launches, probe, launch_file, arguments, how):
    """Ctrl-C signals the terminal's whole group: the nodes end with the launch, no error."""
    namespace = unique_name('ctrlc')
    launch = launches(launch_file, f'namespace:={namespace}', *arguments, group=True)
    watching = probe(namespace=f'/{namespace}')
    watching.wait_for_node()
    watching.close()
    if launch_file == 'control.launch.py':  # a user stops a running arm, not its spawners
        deadline = time.monotonic() + 60
        while (launch.output().count('process has finished cleanly') < 2
               and time.monotonic() < deadline):
            time.sleep(0.1)
    if how == 'kill -INT launch':
        code = launch.interrupt()
    else:
        os.killpg(launch.pid, signal.SIGINT)
        if how == 'ctrl-c twice':
            time.sleep(0.2)
            os.killpg(launch.pid, signal.SIGINT)
        code = launch.wait(timeout=30)
    output = launch.output()
    if how == 'ctrl-c twice' and code == -signal.SIGINT:
        # the second ctrl-c came once launch had ended every process cleanly and returned:
        # Python, finalizing, had set SIGINT back to its default (Humble on Cyclone DDS, whose
        # participants take a while to go), and the shell's "interrupted" is all that is left
        assert output.count('process has finished cleanly') == output.count(
            'process started'), output
        assert 'Traceback' not in output, output
    else:
        assert code == 0, output
    assert '[ERROR]' not in output, output
    assert_nothing_left(namespace)


@pytest.mark.parametrize('package, flags, argument', [
    ('rviz2', ['rviz:=true', NO_RSP], 'rviz:=false'),
    ('robot_state_publisher', ['robot_state_publisher:=true'], 'robot_state_publisher:=false'),
])
def test_a_missing_package_is_named_with_its_switch_and_nothing_starts(
        launches, package, flags, argument):
    namespace = unique_name('missing')
    launch = launches('twobone_ik.launch.py', *flags, f'namespace:={namespace}',
                      env=without_package(package))
    assert launch.wait() != 0
    output = launch.output()
    assert f"package '{package}' not found" in output and argument in output
    assert 'process started' not in output
    assert_nothing_left(namespace)


def test_rviz_fixed_frame_follows_base_frame(launches):
    namespace = unique_name('rviz')
    launch = launches('twobone_ik.launch.py', 'rviz:=true', 'base_frame:=world', NO_RSP,
                      f'namespace:={namespace}', 'frame_prefix:=arm/')
    deadline = time.monotonic() + 30
    while 'rviz2 stand-in: fixed frame' not in launch.output() and time.monotonic() < deadline:
        time.sleep(0.1)
    output = launch.output()
    assert '-f arm/world' in output
    # markers and clicks reach this arm's topics
    assert f'clicks go to /{namespace}/target' in output
    assert f'-r /markers:=/{namespace}/markers' in output


def test_rviz_looks_at_the_plane_of_an_upright_arm_read_from_its_description(
        launches, tmp_path):
    """An upright arm (RRBot): RViz gets a view and a grid on its plane, not the base's XY."""
    from urdf_arms import rrbot
    arm = rrbot(1.0)
    description = tmp_path / 'rrbot.urdf'
    description.write_text(arm.urdf)
    namespace = unique_name('rviz')
    launch = launches('twobone_ik.launch.py', 'rviz:=true', NO_RSP, f'namespace:={namespace}',
                      f'description_file:={description}', f'tip_link:={arm.tip}',
                      f'base_frame:={arm.base}')
    deadline = time.monotonic() + 30
    while 'rviz2 stand-in: fixed frame' not in launch.output() and time.monotonic() < deadline:
        time.sleep(0.1)
    output = launch.output()
    written = output.split('rviz2 stand-in argv: -d ', 1)[1].split()[0]
    assert written.endswith('.rviz') and 'share/twobone_ik_ros' not in written
    with open(written, encoding='utf-8') as stream:
        manager = yaml.safe_load(stream)['Visualization Manager']
    [grid] = [d for d in manager['Displays'] if d['Class'] == 'rviz_default_plugins/Grid']
    assert (grid['Reference Frame'], grid['Plane']) == (f'{namespace}/link1', 'XZ'), grid
    view = manager['Views']['Current']
    assert view['Class'] == 'rviz_default_plugins/Orbit'
    assert (view['Pitch'], view['Yaw']) == pytest.approx((0.0, math.pi / 2))
    launch.stop()
    assert not os.path.exists(written)  # removed with the launch


def write_params(tmp_path, parameters, section='/**'):
    path = tmp_path / 'params.yaml'
    path.write_text(yaml.safe_dump({section: {'ros__parameters': parameters}}))
    return str(path)


@pytest.mark.robot_state_publisher
@pytest.mark.parametrize('launch_file', ['twobone_ik.launch.py', 'twobone_ik.launch.xml'])
def test_params_file_values_apply_unless_given_as_arguments(launches, probe, tmp_path,
                                                            launch_file):
    namespace = unique_name('params')
    params = write_params(tmp_path, {'r1': 1.5, 'elbow': 'down', 'unreachable': 'reject',
                                     'base_frame': 'world', 'r2': 0.5,
                                     'joint_names': ['hip', 'knee']})
    launches(launch_file, f'params_file:={params}', 'r2:=1', f'namespace:={namespace}')
    client = probe(namespace=f'/{namespace}')
    client.wait_for_node()
    values = client.get_values('r1', 'r2', 'elbow', 'unreachable', 'base_frame', 'frame_prefix')
    assert values == {'r1': 1.5, 'r2': 1.0, 'elbow': 'down', 'unreachable': 'reject',
                      'base_frame': 'world', 'frame_prefix': f'{namespace}/'}
    # robot_state_publisher got the URDF of the same resolved arm
    rsp = f'/{namespace}/robot_state_publisher'
    urdf = client.get_values('robot_description', node_name=rsp)['robot_description']
    assert urdf == arm_urdf(1.5, 1.0, ('hip', 'knee'), base_frame='world')


@pytest.mark.parametrize('section', [
    '/**/twobone_ik:', '/{ns}/*:', '{ns}:\n  twobone_ik:', '/*/twobone_ik:', '"**":'])
def test_a_section_applies_as_rcl_matches_it_and_an_argument_wins(launches, probe, tmp_path,
                                                                  section):
    """ros2_control's form (``/**/name``) among others; ``ros2 param get`` shows what runs."""
    namespace = unique_name('sections')
    header = section.format(ns=namespace)
    indent = '  ' * (header.count('\n') + 1)
    params = tmp_path / 'params.yaml'
    params.write_text(f'{header}\n{indent}ros__parameters:\n{indent}  r1: 2.0\n'
                      f'{indent}  elbow: down\n'
                      'twobone_ik:\n  ros__parameters:\n    r2: 3.0\n')  # not /<ns>/twobone_ik
    assert read_parameter_file(str(params), 'twobone_ik', namespace) == {
        'r1': 2.0, 'elbow': 'down'}
    launches('twobone_ik.launch.py', f'params_file:={params}', f'namespace:={namespace}',
             NO_RSP, 'elbow:=closest')
    client = probe(namespace=f'/{namespace}')
    client.wait_for_node()
    values = client.get_values('r1', 'r2', 'elbow')
    assert values == {'r1': 2.0, 'r2': DEFAULTS['r2'], 'elbow': 'closest'}
    if section.startswith('/**'):
        shown = subprocess.run(['ros2', 'param', 'get', '--no-daemon', '--spin-time', '10',
                                f'/{namespace}/twobone_ik', 'r1'],
                               capture_output=True, text=True, timeout=60)
        assert shown.stdout.strip() == 'Double value is: 2.0', shown


@pytest.mark.parametrize('rsp', ['true', 'false'])
def test_a_missing_params_file_is_refused_naming_the_path(launches, tmp_path, rsp):
    namespace = unique_name('nofile')
    missing = str(tmp_path / 'no_such.yaml')
    launch = launches('twobone_ik.launch.py', f'params_file:={missing}',
                      f'robot_state_publisher:={rsp}', f'namespace:={namespace}')
    assert launch.wait() != 0
    assert f"params_file '{missing}' cannot be read" in launch.output()
    assert 'process started' not in launch.output()
    assert_nothing_left(namespace)


def test_the_installed_example_params_file_works(launches, probe, ros_install):
    namespace = unique_name('example')
    installed = ros_install / 'share' / 'twobone_ik_ros' / 'config' / 'twobone_ik.yaml'
    launches('twobone_ik.launch.py', f'params_file:={installed}', f'namespace:={namespace}',
             NO_RSP)
    client = probe(namespace=f'/{namespace}')
    client.wait_for_node()
    assert client.get_values('r1')['r1'] == DEFAULTS['r1']


@pytest.mark.robot_state_publisher
@pytest.mark.tf2
def test_two_arms_side_by_side_have_distinct_frames_topics_and_parameters(launches, probe):
    arms = {'left': 0.6, 'right': -0.6}
    tag = unique_name('arms')
    started = {side: launches('twobone_ik.launch.py', f'namespace:={tag}/{side}',
                              'parent_frame:=world', f'base_y:={y}',
                              f'r1:={1.0 if side == "left" else 0.8}', 'r2:=0.5')
               for side, y in arms.items()}
    viewer = probe(namespace=f'/{tag}/left', tf=True)
    right = probe(namespace=f'/{tag}/right')
    viewer.wait_for_node()
    right.wait_for_node()
    assert viewer.get_values('r1')['r1'] == 1.0 and right.get_values('r1')['r1'] == 0.8
    expected = {(name, f'/{tag}/{side}') for side in arms
                for name in ('twobone_ik', 'robot_state_publisher', 'base_placement')}
    assert viewer.spin_until(
        lambda: expected <= set(viewer.node.get_node_names_and_namespaces())), \
        viewer.node.get_node_names_and_namespaces()
    # one target each, in the common frame: each arm's tool0 (its own TF frame) lands on it
    for side, y, client, stamp in (('left', 0.6, viewer, 101), ('right', -0.6, right, 102)):
        goal = (0.9, y + 0.4)
        assert client.solve(*goal, stamp_id=stamp, frame_id='world') is not None, \
            started[side].output()
        assert viewer.spin_until(lambda: math.dist(
            viewer.tool_position('world', f'{tag}/{side}/tool0'), goal) < 1e-9, 10.0), side
    assert viewer.tool_position(f'{tag}/left/base_link', f'{tag}/right/base_link') == \
        pytest.approx((0.0, -1.2), abs=1e-12)


@pytest.mark.parametrize('launch_file', ['twobone_ik.launch.py', 'twobone_ik.launch.xml',
                                         'demo.launch.py'])
def test_sigint_ends_every_launch_file_with_exit_code_zero(launches, probe, launch_file):
    namespace = unique_name('sigint')
    launch = launches(launch_file, f'namespace:={namespace}', NO_RSP)
    probe(namespace=f'/{namespace}').wait_for_node()
    assert launch.interrupt() == 0, launch.output()
    assert_nothing_left(namespace)


def test_the_resolved_defaults_validate():
    assert validate(DEFAULTS).frame == 'base_link'


@pytest.mark.parametrize('output, controller, topic', [
    ('forward_command', '', 'commands'),  # no controller named: not remapped
    ('joint_trajectory', 'arm_controller', 'arm_controller/joint_trajectory')])
def test_a_controller_output_commands_its_controller_and_starts_no_robot_state_publisher(
        launches, probe, output, controller, topic):
    namespace = unique_name('control')
    launch = launches('twobone_ik.launch.py', f'namespace:={namespace}', f'output:={output}',
                      *([f'controller:={controller}'] if controller else []))
    listener = probe(namespace=f'/{namespace}')
    node = listener.node
    assert listener.spin_until(
        lambda: node.count_publishers(f'/{namespace}/{topic}') == 1 and listener.markers, 30.0), \
        launch.output()
    # the node reads the arm's state (the probe listens there too)
    assert node.count_subscribers(f'/{namespace}/joint_states') == 2
    assert node.count_publishers(f'/{namespace}/joint_states') == 0
    # (nodes of earlier tests can linger on the graph for a while: look in ours)
    assert ('robot_state_publisher', f'/{namespace}') \
        not in node.get_node_names_and_namespaces()
    assert listener.get_values('output') == {'output': output}
    assert launch.interrupt() == 0, launch.output()
    assert_nothing_left(namespace)


@pytest.mark.robot_state_publisher
@pytest.mark.ros2_control
@pytest.mark.parametrize('output', ['forward_command', 'joint_trajectory',
                                    'follow_joint_trajectory'])
def test_control_launch_with_robot_state_publisher_auto_brings_the_controllers_up(
        launches, probe, output):
    """With auto, robot_state_publisher starts: controller_manager waits for its URDF."""
    namespace = unique_name('auto')
    launches('control.launch.py', f'namespace:={namespace}', f'output:={output}',
             'robot_state_publisher:=auto', 'rviz:=false')
    client = probe(namespace=f'/{namespace}')
    client.wait_for_node(timeout=60.0)
    assert client.spin_until(lambda: ('robot_state_publisher', f'/{namespace}')
                             in client.node.get_node_names_and_namespaces(), 30.0)
    # joint_state_broadcaster publishes: controller_manager read the URDF and spawned it
    assert client.spin_until(lambda: client.joint_states, 60.0), 'no joint_states'


def test_control_launch_shows_its_defaults_and_names_what_to_install(launches):
    output = show_args(launches, 'control.launch.py')
    assert "'output':" in output and "(default: 'joint_trajectory')" in output
    namespace = unique_name('control')
    launch = launches('control.launch.py', f'namespace:={namespace}',
                      env=without_package('controller_manager'))
    assert launch.wait() != 0
    text = launch.output()
    assert "package 'controller_manager' not found; install ros-$ROS_DISTRO-ros2-control" in text
    assert 'process started' not in text
    assert_nothing_left(namespace)
