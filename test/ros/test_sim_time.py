"""
The node on a simulator's clock (``use_sim_time``), output joint_states.

A ``sim_clock.SimClock`` publishes ``/clock`` at a real-time factor, pauses
and jumps back; the node's stamps, its joint-state repeat and a path's
playback must keep the simulated time, and a pause must stop its timing, not
the node.  The controllers on a simulated clock are in ``test_sim_control``.
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

from control_harness import path_message
from nav_msgs.msg import Path
import pytest
from ros_harness import NodeProcess, Probe, unique_name
from sim_clock import SimClock
from twobone_ik_ros.solver import TwoBoneIK

pytestmark = pytest.mark.ros

R1, R2 = 2.0, 1.0
START_S = 1000.0  # the simulation's time when the test begins: far from the wall clock's


def seconds(stamp):
    return stamp.sec + stamp.nanosec * 1e-9


@pytest.fixture
def sim():
    """Start the simulated clock, the node on it (or not) and a probe; stop all three."""
    started = []

    def start(rtf, *ros_args, use_sim_time=True):
        clock = SimClock(rtf, START_S)
        started.append(clock)
        namespace = '/' + unique_name('sim')
        process = NodeProcess('twobone_ik_ros.node.node', ros_args=[
            '-r', f'__ns:={namespace}', '-p', f'r1:={R1}', '-p', f'r2:={R2}',
            '-p', f'use_sim_time:={str(use_sim_time).lower()}', *ros_args])
        probe = Probe(namespace=namespace)
        started.append(process)
        started.append(probe)
        try:
            probe.wait_for_node()
        except AssertionError:
            pytest.fail('node did not start:\n' + process.output())
        if use_sim_time:
            clock.wait_for_readers()
            assert answers_on_sim_time(probe), process.output()
            del probe.joint_states[:]
        return clock, process, probe

    yield start
    for part in reversed(started):
        (part.close if isinstance(part, Probe) else part.stop)()


def answers_on_sim_time(probe, timeout=30.0):
    """
    Tell whether the node's answers to unstamped targets come to carry the simulation's time.

    Zero until its ``/clock`` reader has matched and taken a message (its time
    before the first one), sent again until one does.
    """
    def on_sim_time():
        probe.send(0.5, 0.5)
        return probe.spin_until(lambda: any(
            START_S < seconds(js.header.stamp) < START_S + 600
            for js in probe.joint_states), 0.5)
    return any(on_sim_time() for _ in range(int(timeout / 0.5)))


def test_on_sim_time_from_the_start_stamps_repeats_and_pauses_keep_the_simulation(sim):
    clock, process, probe = sim(0.5, '-p', 'joint_state_rate:=2.0')
    answer = probe.solve(1.0, 1.0, 1)  # stamped: the target's stamp
    assert answer is not None, process.output()
    probe.send(1.0, 1.2)  # unstamped: the node's clock, the simulation's
    assert probe.spin_until(lambda: any(START_S <= seconds(js.header.stamp) < START_S + 60
                                        for js in probe.joint_states)), process.output()
    # at rest: the solution again every 0.5 s of simulated time (1 s of real time
    # when the machine keeps the pace: measured on the simulated clock)
    del probe.joint_states[:]
    begin = clock.now_s()
    assert probe.spin_until(lambda: clock.now_s() >= begin + 2.0, 60.0)
    stamps = [seconds(js.header.stamp) for js in probe.joint_states]
    # the first between one and two periods after the last answer, then one a period
    assert 2 <= len(stamps) <= 5, (begin, stamps)
    gaps = [b - a for a, b in zip(stamps, stamps[1:])]
    assert all(0.49 <= gap <= 0.61 for gap in gaps), gaps  # the timer's 0.1 s of slack
    # paused: no repeat, no time passes; targets, parameters, diagnostics served
    clock.pause()
    probe.spin_for(0.3)
    paused_at = clock.now_s()
    del probe.joint_states[:]
    before = len(probe.diagnostics)
    probe.send(1.0, 0.8)
    assert probe.spin_until(lambda: probe.joint_states, 10.0)
    [answer] = probe.joint_states
    assert seconds(answer.header.stamp) == pytest.approx(paused_at, abs=1e-9)
    assert probe.set_parameters(elbow='down')[0].successful
    probe.spin_for(3.0)
    assert len(probe.joint_states) == 1  # the answer; no repeat while the clock stands
    assert len(probe.diagnostics) >= before + 2  # 1 Hz on the steady clock
    clock.resume()
    assert probe.spin_until(lambda: len(probe.joint_states) > 1, 5.0)
    assert seconds(probe.joint_states[1].header.stamp) > paused_at


def test_use_sim_time_switched_at_runtime_moves_the_stamps_to_the_other_clock(sim):
    clock, process, probe = sim(1.0, '-p', 'joint_state_rate:=0.0', use_sim_time=False)
    probe.send(1.0, 1.0)
    assert probe.spin_until(lambda: probe.joint_states)
    assert seconds(probe.joint_states[-1].header.stamp) > 1e9  # the system clock
    solution = TwoBoneIK(R1, R2).solve(1.0, 1.1)
    wall_answer = (solution.theta1, solution.theta2)
    for use_sim_time in (True, False, True):
        assert probe.set_parameters(use_sim_time=use_sim_time)[0].successful
        del probe.joint_states[:]
        if use_sim_time:  # once its new /clock reader has a message
            assert answers_on_sim_time(probe), process.output()
        else:  # at once: the first answer to the next target
            probe.send(1.0, 1.1, stamp_id=None)
            assert probe.spin_until(lambda: any(
                tuple(js.position) == pytest.approx(wall_answer) for js in probe.joint_states))
            answer = next(js for js in probe.joint_states
                          if tuple(js.position) == pytest.approx(wall_answer))
            assert seconds(answer.header.stamp) > 1e9
    assert 'the clock jumped back or changed' in process.output()


def played_poses(probe, points):
    """Return (stamp, index of the path's pose) of each joint state, once the end is published."""
    ik = TwoBoneIK(R1, R2)
    poses = [(s.theta1, s.theta2) for s in (ik.solve(*point) for point in points)]

    def index(js):
        distances = [math.dist(js.position, pose) for pose in poses]
        nearest = min(range(len(poses)), key=distances.__getitem__)
        assert distances[nearest] < 1e-9, (tuple(js.position), distances[nearest])
        return nearest

    def at_end():
        return probe.joint_states and tuple(probe.joint_states[-1].position) == pytest.approx(
            poses[-1], abs=1e-12)
    assert probe.spin_until(at_end, 30.0)
    return [(seconds(js.header.stamp), index(js)) for js in probe.joint_states]


@pytest.mark.parametrize('rtf', [0.5, 2.0])
def test_a_path_is_played_back_at_its_timing_in_simulated_time(sim, rtf):
    clock, process, probe = sim(rtf, '-p', 'joint_state_rate:=0.0')
    paths = probe.node.create_publisher(Path, f'{probe.namespace}/path', 10)
    assert probe.spin_until(lambda: paths.get_subscription_count() > 0)
    points = [(1.8 + 0.6 * math.cos(i / 10), 0.4 + 0.6 * math.sin(i / 10)) for i in range(21)]
    step = 0.1
    paths.publish(path_message(points, [100.0 + step * i for i in range(len(points))]))
    played = played_poses(probe, points)
    # each joint state carries the pose due at its stamp in simulated time (pose k from
    # start + k steps to start + k + 1), whatever the real time the path took (1 s or
    # 4 s on the wall clock) and however late the node woke on a loaded machine: a late
    # wake publishes a later pose, stamped later (the last one: any time from its own
    # on).  Some start must fit every sample (``slack``: the clock's steps between the
    # node's two reads of it, 2 ms each)
    slack = 0.02
    latest_start = min(stamp - step * k for stamp, k in played)
    earliest_start = max(stamp - step * (k + 1) for stamp, k in played if k < len(points) - 1)
    assert earliest_start - slack < latest_start, (earliest_start, latest_start, played)
    assert [k for _, k in played] == sorted(k for _, k in played)
    assert all(START_S < stamp < START_S + 600 for stamp, _ in played)


def test_a_reset_simulation_ends_the_playback_and_the_node_answers_on(sim):
    clock, process, probe = sim(1.0, '-p', 'joint_state_rate:=0.0')
    paths = probe.node.create_publisher(Path, f'{probe.namespace}/path', 10)
    assert probe.spin_until(lambda: paths.get_subscription_count() > 0)
    points = [(1.8 + 0.6 * math.cos(i / 10), 0.4 + 0.6 * math.sin(i / 10)) for i in range(41)]
    paths.publish(path_message(points, [100.0 + 0.25 * i for i in range(len(points))]))
    assert probe.spin_until(lambda: len(probe.joint_states) >= 3, 10.0)
    clock.jump_to(START_S - 500.0)  # a reset: back to an earlier time
    assert probe.spin_until(lambda: 'the clock jumped back' in process.output(), 10.0), \
        process.output()
    probe.spin_for(0.5)
    played = len(probe.joint_states)
    probe.spin_for(1.5)
    assert len(probe.joint_states) == played  # the playback ended with the old time
    probe.send(1.0, 1.0)
    assert probe.spin_until(lambda: len(probe.joint_states) > played, 10.0)
    stamp = seconds(probe.joint_states[-1].header.stamp)
    assert START_S - 500.0 <= stamp < START_S - 400.0  # the new time
    _, values = probe.latest_diagnostics()
    assert values['internal_errors'] == '0'
    assert os.environ.get('ROS_DOMAIN_ID')  # the clock stayed in the test's own domain
