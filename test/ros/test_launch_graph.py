"""
Launch tests: each launch file, with the arguments users type, running for real.

In the style of launch_testing_ros' talker/listener test, with launch_pytest:
each case includes one of the package's launch files (in the colcon-built
package) with an argument set in a namespace of its own, and a probe node
checks the running graph: node names, parameter values and types, topics
under the namespace, and that a target published on ``target_topic`` is
answered.  After the test, the launch is shut down as Ctrl-C would, and every
process it started must have exited with code 0 (``assert_stopped``).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from parts import launch_fixture
import pytest
from rclpy.parameter import Parameter
from ros_harness import assert_stopped, Probe, unique_name
from twobone_ik_ros.solver import forward

pytestmark = [pytest.mark.ros, pytest.mark.ros_launch, pytest.mark.ros2cli]

#: name -> (launch file, arguments as typed after the file name, expected r1, r2)
CASES = {
    'python, defaults': ('twobone_ik.launch.py', {}, 1.0, 0.7),
    'python, integers and a remapped target': (
        'twobone_ik.launch.py', {'r1': '1', 'r2': '2', 'elbow': 'down', 'target_topic': 'goal'},
        1.0, 2.0),
    'xml, integers': ('twobone_ik.launch.xml', {'r1': '2', 'unreachable': 'reject'}, 2.0, 0.7),
    'demo': ('demo.launch.py', {'pattern': 'circle', 'rate': '50', 'r2': '0.5'}, 1.0, 0.5),
    # RViz (its stand-in) too: every lane has it, where static_transform_publisher is C++
    'python, on a simulated clock, with RViz': (
        'twobone_ik.launch.py', {'use_sim_time': 'true', 'rviz': 'true'}, 1.0, 0.7),
}


@pytest.fixture(params=list(CASES))
def case(request, ros_install):
    from launch import LaunchDescription
    from launch.actions import IncludeLaunchDescription, RegisterEventHandler
    from launch.event_handlers import OnProcessExit, OnProcessIO
    from launch.launch_description_sources import AnyLaunchDescriptionSource
    import launch_pytest
    launch_file, arguments, r1, r2 = CASES[request.param]
    namespace = unique_name('graph')
    exits = []
    outputs = {}  # process name -> what it printed, for assert_stopped
    share = ros_install / 'share' / 'twobone_ik_ros' / 'launch'
    arguments = dict(arguments, namespace=namespace, robot_state_publisher='false')
    description = LaunchDescription([
        RegisterEventHandler(OnProcessExit(on_exit=lambda event, _: exits.append(
            (event.process_name, event.returncode, outputs.get(event.process_name, ''))))),
        RegisterEventHandler(OnProcessIO(on_stderr=lambda event: outputs.update({
            event.process_name: outputs.get(event.process_name, '')
            + event.text.decode(errors='replace')}))),
        IncludeLaunchDescription(AnyLaunchDescriptionSource(str(share / launch_file)),
                                 launch_arguments=arguments.items()),
        launch_pytest.actions.ReadyToTest(),
    ])
    return description, launch_file, arguments, (r1, r2), exits


@launch_fixture
def launched(case):
    return case


@pytest.mark.launch(fixture=launched)
def test_the_running_graph_is_what_the_arguments_say(launched):
    _, launch_file, arguments, (r1, r2), exits = launched
    namespace = f'/{arguments["namespace"]}'
    target_topic = arguments.get('target_topic', 'target')
    probe = Probe(namespace=namespace, target_topic=target_topic)
    try:
        probe.wait_for_node()
        expected = {('twobone_ik', namespace)}
        if launch_file == 'demo.launch.py':
            expected.add(('target_publisher', namespace))
        assert probe.spin_until(
            lambda: expected <= set(probe.node.get_node_names_and_namespaces())), \
            probe.node.get_node_names_and_namespaces()
        on_sim = arguments.get('use_sim_time') == 'true'
        started = {'twobone_ik'} | ({'rviz2'} if on_sim else set())
        assert probe.spin_until(lambda: {(name, namespace) for name in started}
                                <= set(probe.node.get_node_names_and_namespaces()))
        for name, space in probe.node.get_node_names_and_namespaces():
            if space == namespace:  # every node the launch started, on the same clock
                values = probe.get_values('use_sim_time', node_name=f'{namespace}/{name}')
                assert values == {'use_sim_time': on_sim}, name
        parameters = probe.get_parameters('r1', 'r2', 'elbow')
        assert parameters['r1'].type_ == parameters['r2'].type_ == Parameter.Type.DOUBLE
        assert (parameters['r1'].value, parameters['r2'].value) == (r1, r2)
        assert parameters['elbow'].value == arguments.get('elbow', 'up')
        topics = dict(probe.node.get_topic_names_and_types())
        for topic in ('joint_states', 'markers', target_topic):
            assert f'{namespace}/{topic}' in topics, sorted(topics)
        if launch_file == 'demo.launch.py':  # the demo source's targets are answered
            assert probe.spin_until(lambda: len(probe.joint_states) > 20, 20.0)
        else:
            answer = probe.solve(0.5 * (r1 + r2), 0.1, stamp_id=4242, frame_id='')
            assert answer is not None, 'the target was not answered'
            _, tip = forward(r1, r2, *answer.position)
            assert tip == pytest.approx((0.5 * (r1 + r2), 0.1), abs=1e-9)
    finally:
        probe.close()
    yield
    # after the launch was shut down (SIGINT to every process)
    assert any(name.startswith('twobone_ik_node') for name, _, _ in exits), exits
    for _, code, output in exits:
        assert_stopped(code, output)
