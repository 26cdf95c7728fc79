"""
The node driving an arm: controller outputs, the arm's state, multi-turn joints, paths.

The controller outputs are proven against a real ros2_control arm:
``control.launch.py`` with the real controller_manager, mock hardware,
joint_state_broadcaster and forward_command_controller or
joint_trajectory_controller (``control_harness.ControlledArm``), so a
command the real controller would refuse fails here.  The ``joint_states``
output needs no controller: those tests start the node alone.  Nothing waits
a fixed time: a test that needs the node to know the arm's state waits until
the node's diagnostics report it.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math
import random

from control_harness import in_joint_order, NOT_MATCHED_YET, path_message
from controller_model import excursion, followed
from helpers import random_reachable, seconds
from nav_msgs.msg import Path
import numpy as np
from parts import CONTROLLERS, on
import pytest
from ros_harness import NodeProcess, Probe, unique_name
from twobone_ik_ros.model.parameter_table import DEFAULTS
from twobone_ik_ros.motion.bounds import Bounds
from twobone_ik_ros.motion.samples import Samples
from twobone_ik_ros.solver import forward, TwoBoneIK

pytestmark = pytest.mark.ros

R1, R2 = 2.0, 1.0
ARM = {'r1': R1, 'r2': R2}
TOLERANCE = 1e-9 * (R1 + R2)
TWO_PI = 2.0 * math.pi
MULTI_TURN = [-TWO_PI, TWO_PI]


@pytest.fixture
def lone_node():
    """Start the node alone (output joint_states) and a probe; stop both at the end."""
    started = []

    def start(**parameters):
        namespace = '/' + unique_name('arm')
        ros_args = ['-r', f'__ns:={namespace}']
        for name, value in dict(ARM, **parameters).items():
            ros_args += ['-p', f'{name}:={value}']
        process = NodeProcess('twobone_ik_ros.node.node', ros_args=ros_args)
        probe = Probe(namespace=namespace)
        started.append((process, probe))
        probe.wait_for_node()
        paths = probe.node.create_publisher(Path, f'{namespace}/path', 10)
        assert probe.spin_until(lambda: paths.get_subscription_count() > 0)
        return probe, paths

    yield start
    for process, probe in started:
        probe.close()
        process.stop()


def tip(theta1, theta2):
    return forward(R1, R2, theta1, theta2)[1]


def circle(center, radius, count):
    return [(center[0] + radius * math.cos(TWO_PI * i / count),
             center[1] + radius * math.sin(TWO_PI * i / count)) for i in range(count)]


@pytest.mark.parametrize('controllers,output', [
    on(controllers, output) for controllers in CONTROLLERS
    for output in ('forward_command', 'joint_trajectory')], indirect=['controllers'])
def test_controller_commands_reach_200_random_targets_and_no_joint_states_are_published(
        controlled_arm, output):
    # limits high enough that every move takes min_move_time: forward_command streams each
    # move, and its last command (the one checked) comes when the move ends
    arm = controlled_arm(output, dict(ARM, max_joint_velocity=100.0,
                                      max_joint_acceleration=1000.0))
    rng = random.Random(11)
    targets = [random_reachable(rng, R1, R2) for _ in range(200)]
    # before the first target, make sure the node's
    # command writer has matched the controller's reader (a volatile command sent earlier
    # reaches nobody, and the node cannot tell)
    arm.reach(*targets[0], resend=NOT_MATCHED_YET)
    known = len(arm.commands)  # the node has read the arm's state (ControlledArm waits)
    sent, answered = arm.targets_sent, arm.targets_answered
    for x, y in targets:
        theta1, theta2 = arm.command(x, y)
        tx, ty = tip(theta1, theta2)
        assert math.hypot(tx - x, ty - y) <= TOLERANCE
    # each target sent once and answered: none lost, none sent again
    assert arm.targets_sent - sent == arm.targets_answered - answered == len(targets)
    # the real controller took the last one: the measured arm ends there
    arm.wait_until_at(arm.commanded_end(arm.commands[-1]))
    # only joint_state_broadcaster publishes the arm's joint_states
    assert arm.probe.node.count_publishers(f'{arm.namespace}/joint_states') == 1
    if output == 'joint_trajectory':
        for msg in arm.commands[known:]:
            assert msg.header.stamp.sec > 0  # the move's start (doc/motion.md)
            assert list(msg.joint_names) == ['shoulder_joint', 'elbow_joint']
            times = [p.time_from_start.sec * 10**9 + p.time_from_start.nanosec
                     for p in msg.points]
            assert times == sorted(set(times)) and times[0] == 0  # from the start state
            assert all(len(p.positions) == len(p.velocities) == 2 and not p.accelerations
                       for p in msg.points)  # no jerk limit: positions and velocities
            assert list(msg.points[-1].velocities) == [0.0, 0.0]


def test_the_arms_state_drives_closest_along_a_circle(controlled_arm):
    targets = circle((1.8, 0.4), 0.6, 60)
    down = TwoBoneIK(R1, R2, elbow='down').solve(*targets[0])
    arm = controlled_arm('forward_command', dict(ARM, elbow='closest'))
    arm.put(down.theta1, down.theta2)
    commanded = [arm.command(x, y, resend=NOT_MATCHED_YET if i == 0 else '')
                 for i, (x, y) in enumerate(targets)]
    # up (theta2 <= 0) is what closest falls back to without the arm's state
    assert all(theta2 > 0.0 for _, theta2 in commanded)
    for (x, y), (theta1, theta2) in zip(targets, commanded):
        tx, ty = tip(theta1, theta2)
        assert math.hypot(tx - x, ty - y) <= TOLERANCE


def test_a_multi_turn_joint_is_commanded_the_angle_nearest_the_arm(controlled_arm):
    x, y = tip(-1.0, -0.8)
    assert TwoBoneIK(R1, R2).solve(x, y).theta1 == pytest.approx(-1.0, abs=1e-12)
    arm = controlled_arm('forward_command', dict(ARM, shoulder_limits=MULTI_TURN))
    arm.put(5.0, -0.8)
    # the mock arm went the short way, past +pi
    theta1, theta2 = arm.reach(x, y, resend=NOT_MATCHED_YET)
    assert theta1 == pytest.approx(-1.0 + TWO_PI, abs=1e-12)  # 5.28, not -1.0
    assert theta2 == pytest.approx(-0.8, abs=1e-12)
    arm.put(-5.5, -0.8)  # the other way round: -1.0 is nearest now
    assert arm.command(x, y)[0] == pytest.approx(-1.0, abs=1e-12)


def test_move_times_are_time_optimal_within_the_limits(controlled_arm):
    velocity, acceleration = 0.5, 5.0
    arm = controlled_arm('joint_trajectory',
                         dict(ARM, max_joint_velocity=velocity,
                              max_joint_acceleration=acceleration, min_move_time=0.2))

    def fastest(distance):  # from rest to rest: accelerate, cruise, brake
        if distance >= velocity ** 2 / acceleration:
            return distance / velocity + velocity / acceleration
        return 2.0 * math.sqrt(distance / acceleration)
    for start, goal in (((0.3, -1.0), (0.32, -1.01)), ((0.3, -1.0), (1.5, -0.4))):
        arm.put(*start)
        first = goal == (0.32, -1.01)
        theta1, theta2 = arm.reach(*tip(*goal), resend=NOT_MATCHED_YET if first else '')
        assert (theta1, theta2) == pytest.approx(goal, abs=1e-12)
        expected = max(0.2, fastest(abs(theta1 - start[0])), fastest(abs(theta2 - start[1])))
        point = arm.commands[-1].points[-1]
        assert seconds(point.time_from_start) == pytest.approx(expected, abs=1e-6)


def test_a_circle_path_is_one_branch_continuous_trajectory(controlled_arm):
    center, radius, count = (1.8, 0.4), 0.6, 1000
    points = circle(center, radius, count)
    points.append(points[0])  # closed: 1001 poses, the last one the first
    down = TwoBoneIK(R1, R2, elbow='down').solve(*points[0])
    arm = controlled_arm('joint_trajectory',
                         dict(ARM, elbow='closest', shoulder_limits=MULTI_TURN))
    arm.reach(*points[0], resend=NOT_MATCHED_YET)  # the controller has matched the writer
    arm.put(down.theta1, down.theta2)
    count_before = len(arm.commands)
    arm.send_path(points)
    assert arm.probe.spin_until(lambda: len(arm.commands) > count_before, 20.0)
    trajectory = arm.commands[-1]
    positions = [tuple(p.positions) for p in trajectory.points]
    times = [seconds(p.time_from_start) for p in trajectory.points]
    # the arm is on the first pose (its branch, closest): the path timed within the limits
    # (motion.path_timing): points every 20 ms of toppra's timing on the path's geometry
    # (the path's angles are the batch solver's: numpy's arctan2, which may be an ulp from libm's)
    start = next(i for i, position in enumerate(positions)
                 if position == pytest.approx((down.theta1, down.theta2), abs=1e-12))
    on_path = positions[start:]
    for theta1, theta2 in on_path:
        tx, ty = tip(theta1, theta2)
        assert abs(math.hypot(tx - center[0], ty - center[1]) - radius) <= 1e-3
    assert all(theta2 > 0.0 for _, theta2 in on_path)  # the arm's branch throughout
    steps = [max(abs(a[0] - b[0]), abs(a[1] - b[1])) / (t1 - t0)
             for a, b, t0, t1 in zip(on_path, on_path[1:], times[start:], times[start + 1:])]
    assert max(steps) <= DEFAULTS['max_joint_velocity'] * (1.0 + 1e-6)
    # a closed circle around nothing: the shoulder ends where it began (no unwinding)
    assert on_path[-1] == pytest.approx(on_path[0], abs=1e-9)
    # and joint_trajectory_controller ran it to the end on the mock arm
    end = trajectory.points[-1].time_from_start
    arm.wait_until_at(positions[-1], timeout=end.sec + 20.0)


def test_a_path_played_back_on_joint_states_keeps_its_timing(lone_node):
    points = circle((1.8, 0.4), 0.6, 21)
    stamps = [100.0 + 0.05 * i for i in range(len(points))]
    probe, paths = lone_node(elbow='up')
    paths.publish(path_message(points, stamps))
    expected = TwoBoneIK(R1, R2).solve(*points[-1])

    def at_end():
        return probe.joint_states and tuple(probe.joint_states[-1].position) == pytest.approx(
            (expected.theta1, expected.theta2), abs=1e-12)

    assert probe.spin_until(at_end, 20.0)
    first = probe.joint_states[0].header.stamp
    last = probe.joint_states[-1].header.stamp
    elapsed = (last.sec - first.sec) + (last.nanosec - first.nanosec) * 1e-9
    assert elapsed >= stamps[-1] - stamps[0] - 0.05  # one playback period of slack


@pytest.mark.parametrize('policy', ['reject', 'clamp'])
def test_a_path_through_an_unreachable_pose(controlled_arm, policy):
    arm = controlled_arm('joint_trajectory', dict(ARM, unreachable=policy))
    points = [(1.5, 0.0), (2.0, 0.5), (5.0, 0.0), (2.0, -0.5)]
    arm.reach(*points[0], resend=NOT_MATCHED_YET)  # the controller has matched the writer
    sent = len(arm.commands)
    arm.send_path(points)
    probe = arm.probe
    values = probe.diagnostics_when(lambda values: values['paths'] == '1')
    if policy == 'reject':
        assert values['paths.rejected'] == '1' and values['paths.followed'] == '0'
        probe.spin_for(0.2)
        assert len(arm.commands) == sent
    else:
        assert values['paths.followed'] == '1' and values['paths.clamped_poses'] == '1'
        assert probe.spin_until(lambda: len(arm.commands) > sent, 10.0)
        trajectory = arm.commands[-1]
        end = trajectory.points[-1]
        arm.wait_until_at(tuple(end.positions), timeout=end.time_from_start.sec + 20.0)


@pytest.mark.parametrize('policy', ['clamp', 'reject'])
def test_the_full_circle_stays_within_the_limits_on_the_real_controller(controlled_arm, policy):
    """
    1000 poses round the base at 1.1 m, limits [-pi, pi], the arm at rest at (0, -1).

    Going round, the shoulder must pass +-pi.  Under clamp the path is split
    there: the arm runs to the pose before, stops, turns back within the
    limits to the pose after and runs on to the end; what the node commands
    (sampled as the controller interpolates it) and the arm's measured angles
    stay within the limits.  Under reject nothing moves.
    """
    arm = controlled_arm('joint_trajectory', {'unreachable': policy, 'max_joint_velocity': 1.0,
                                              'max_joint_acceleration': 1.0})
    rest = (0.0, -1.0)
    # the controller has matched the writer
    arm.reach(*forward(arm.r1, arm.r2, *rest)[1], resend=NOT_MATCHED_YET)
    arm.move_to(*rest)  # exactly: the answer's shoulder was 5.6e-17
    arm.wait_for_node_state(rest)
    circle_points = [(1.1 * math.cos(TWO_PI * i / 999), 1.1 * math.sin(TWO_PI * i / 999))
                     for i in range(1000)]
    sent, heard = len(arm.commands), len(arm.probe.joint_states)
    arm.send_path(circle_points)
    probe = arm.probe
    values = probe.diagnostics_when(lambda values: values['paths'] == '1', 30.0)
    bounds = Bounds((-math.pi, -math.pi), (math.pi, math.pi))
    if policy == 'reject':
        assert values['paths.rejected.wrap'] == '1' and values['paths.followed'] == '0'
        probe.spin_for(0.5)
        assert len(arm.commands) == sent and arm.measured() == rest
        return
    assert values['paths.split'] == '1' and values['paths.followed'] == '1'
    assert probe.spin_until(lambda: len(arm.commands) > sent, 10.0)
    trajectory = arm.commands[-1]
    points = Samples(
        np.array([round(seconds(p.time_from_start) * 1e9) for p in trajectory.points]),
        *(np.array([getattr(p, field) for p in trajectory.points])
          for field in ('positions', 'velocities', 'accelerations')))
    commanded = excursion(followed(points, True), bounds)
    end = tuple(trajectory.points[-1].positions)
    arm.wait_until_at(end, timeout=seconds(trajectory.points[-1].time_from_start) + 30.0)
    measured = np.array([in_joint_order(m.name, m.position)
                         for m in probe.joint_states[heard:]])
    shoulder = measured[:, 0]
    print(f'circle, clamp, on the real controller: commanded {commanded} rad past a limit, '
          f'measured {excursion(measured, bounds)} ({len(measured)} states); shoulder '
          f'{shoulder.min():.4f} to {shoulder.max():.4f}')
    assert commanded == 0.0
    assert excursion(measured, bounds) <= DEFAULTS['goal_tolerance']
    assert shoulder.max() > 3.1 and shoulder.min() < -3.1  # round, then back within
    assert math.dist(forward(arm.r1, arm.r2, *arm.measured())[1], circle_points[-1]) <= 1e-9


@pytest.mark.parametrize('spacing,retimed', [(0.001, True), (1.0, False)])
def test_path_stamps_beyond_the_limits_are_stretched_and_counted(controlled_arm, spacing,
                                                                 retimed):
    arm = controlled_arm('joint_trajectory', ARM)
    points = [(1.5, 0.0), (1.2, 0.6), (0.6, 1.0)]
    arm.reach(*points[0], resend=NOT_MATCHED_YET)  # the controller has matched the writer
    sent = len(arm.commands)
    arm.send_path(points, [10.0 + spacing * i for i in range(len(points))])
    assert arm.probe.spin_until(lambda: len(arm.commands) > sent, 10.0)
    trajectory = arm.commands[-1]
    positions = [tuple(p.positions) for p in trajectory.points]
    times = [seconds(p.time_from_start) for p in trajectory.points]
    # the stamped poses' spline knots (after a move to the first pose if the node still
    # had the arm moving there: a target sent twice by reach is a second move to it)
    start = TwoBoneIK(R1, R2).solve(*points[0])  # (libm's atan2; the path's: numpy's)
    begin = next(i for i, position in enumerate(positions)
                 if position == pytest.approx((start.theta1, start.theta2), abs=1e-12))
    positions, times = positions[begin:], times[begin:]
    assert len(positions) == len(points)
    duration = times[-1] - times[0]
    if retimed:
        assert duration > 10 * spacing * (len(points) - 1)  # 1 ms per pose is far beyond 1 rad/s
    else:
        assert duration == pytest.approx(spacing * (len(points) - 1), abs=1e-8)
    steps = [max(abs(a[0] - b[0]), abs(a[1] - b[1])) / (t1 - t0)
             for a, b, t0, t1 in zip(positions, positions[1:], times, times[1:])]
    assert max(steps) <= DEFAULTS['max_joint_velocity'] * (1.0 + 1e-6)
    values = arm.probe.diagnostics_when(lambda values: values.get('paths.followed') == '1', 10.0)
    assert values['paths.retimed'] == ('1' if retimed else '0')
    end = TwoBoneIK(R1, R2).solve(*points[-1])
    assert positions[-1] == pytest.approx((end.theta1, end.theta2), abs=1e-12)
    arm.wait_until_at(positions[-1], timeout=duration + 20.0, tolerance=1e-9)


def test_output_changes_at_runtime_and_swaps_its_topics(controlled_arm):
    arm = controlled_arm('forward_command', ARM)
    probe, node, namespace = arm.probe, arm.probe.node, arm.namespace
    # the node's command publisher and the probe's own (ControlledArm.move_to); the
    # probe's readers matched with the node's new writers before anything is sent
    assert node.count_publishers(arm.topic) == 2
    assert probe.set_parameters(output='joint_states')[0].successful
    assert probe.spin_until(lambda: node.count_publishers(arm.topic) == 1
                            and node.count_publishers(f'{namespace}/joint_states') == 2
                            and probe.joint_state_sub.get_publisher_count() == 2, 10.0)
    # our reader seeing the node's new writer does not mean that writer has seen
    # our reader yet (DDS matches each side on its own): ask again until answered
    assert any(probe.solve(*tip(0.2, -0.7), stamp_id=77, frame_id='', timeout=2.0)
               is not None
               for _ in range(5))
    result = probe.set_parameters(output='forward_command')[0]
    assert result.successful, result.reason
    assert probe.spin_until(lambda: node.count_publishers(arm.topic) == 2
                            and node.count_publishers(f'{namespace}/joint_states') == 1
                            and arm.command_sub.get_publisher_count() == 2, 10.0)
    # the controller's reader, too, must match the new writer: reach sends until the arm moves
    reached = arm.reach(*tip(0.4, -0.9), resend=NOT_MATCHED_YET)
    assert reached == pytest.approx((0.4, -0.9), abs=1e-12)
    refused = probe.set_parameters(output='screen')[0]
    assert not refused.successful and 'output' in refused.reason


def test_a_target_stops_a_path_being_played_back(lone_node):
    probe, paths = lone_node()
    points = circle((1.8, 0.4), 0.6, 50)
    paths.publish(path_message(points, [100.0 + 0.1 * i for i in range(len(points))]))  # 5 s
    started = TwoBoneIK(R1, R2).solve(*points[0])
    assert probe.spin_until(lambda: any(
        tuple(m.position) == pytest.approx((started.theta1, started.theta2), abs=1e-12)
        for m in probe.joint_states), 20.0)
    answer = probe.solve(*tip(0.2, -0.7), stamp_id=42)
    assert answer is not None
    count = len(probe.joint_states)
    probe.spin_for(1.0)  # ten playback periods and more
    later = [tuple(m.position) for m in probe.joint_states[count:]]
    assert later and all(p == pytest.approx((0.2, -0.7), abs=1e-12) for p in later)


@pytest.mark.parametrize('output', ['forward_command', 'joint_trajectory'])
def test_new_limits_mid_move_keep_every_later_command_within_them(controlled_arm, output):
    """
    A move toward a shoulder angle of 2.5 rad, then shoulder_limits [-1, 1].

    Every command after the change keeps the new limits (the stream's
    positions; a trajectory's points and the controller's curve through
    them), the move ends on the new limit, and nothing raised.
    """
    arm = controlled_arm(output, dict(ARM, max_joint_velocity=0.25))
    arm.reach(*tip(0.0, -0.5), resend=NOT_MATCHED_YET)
    before = len(arm.commands)
    arm.probe.send(*tip(2.5, -0.5), frame_id='')
    # the change comes at 0.2 rad, three seconds before the move would pass 1.0: every
    # command from here on, before the change or after, keeps the new limits
    assert arm.probe.spin_until(lambda: arm.measured()[0] > 0.2, 10.0)
    result = arm.probe.set_parameters(shoulder_limits=[-1.0, 1.0])[0]
    assert result.successful, result.reason
    arm.wait_until_at((1.0, -0.5), 20.0)
    arm.probe.spin_for(0.5)
    later = arm.commands[before + (output == 'joint_trajectory'):]  # after the one to 2.5
    assert later, 'no command after the change'
    bounds = Bounds((-1.0, -math.pi), (1.0, math.pi))
    if output == 'forward_command':
        shoulder = [command.data[0] for command in later]
    else:
        shoulder = []
        for trajectory in later:
            positions = np.array([p.positions for p in trajectory.points])
            points = Samples(
                np.array([p.time_from_start.sec * 10**9 + p.time_from_start.nanosec
                          for p in trajectory.points], np.int64), positions,
                np.array([p.velocities for p in trajectory.points]),
                np.array([p.accelerations or (0.0, 0.0) for p in trajectory.points]))
            curve = followed(points, bool(trajectory.points[0].accelerations))
            shoulder += list(curve[:, 0])
            assert excursion(curve, bounds) == 0.0
    print(f'{output}: {len(later)} commands after the change, shoulder at most '
          f'{max(shoulder)!r} rad')
    assert max(shoulder) <= 1.0
    assert arm.commanded_end(later[-1]) == pytest.approx((1.0, -0.5), abs=1e-12)
    values = arm.probe.latest_diagnostics()[1]
    assert values['internal_errors'] == '0'


def test_new_limits_stop_a_path_played_back_where_its_rest_leaves_them(lone_node):
    """The playback must not raise on the ticks after such a change (it once raised on each)."""
    probe, paths = lone_node()
    points = circle((1.8, 0.4), 0.6, 50)
    paths.publish(path_message(points, [100.0 + 0.1 * i for i in range(len(points))]))  # 5 s
    solver = TwoBoneIK(R1, R2)
    shoulder = [solver.solve(*p).theta1 for p in points]
    assert probe.spin_until(lambda: probe.joint_states, 20.0)  # the playback has begun
    # limits that hold where the path begins, not the whole of what is still to come
    limits = [min(shoulder) - 0.01, max(shoulder[:10]) + 0.01]
    assert max(shoulder) > limits[1]
    result = probe.set_parameters(shoulder_limits=limits)[0]
    assert result.successful, result.reason
    count = len(probe.joint_states)
    probe.spin_for(1.0)  # fifty playback periods
    later = [m.position[0] for m in probe.joint_states[count:]]
    assert all(limits[0] <= s <= limits[1] for s in later), later
    values = probe.latest_diagnostics()[1]
    assert values['internal_errors'] == '0'


def test_targets_stepping_round_a_circle_past_the_shoulders_limit_are_never_lost(controlled_arm):
    """
    Elbow closest, targets stepping round a circle, the arm following.

    The shoulder meets its limit at -pi going round; the target after it is a
    move back the long way, from a moving arm.  No target is lost to the
    limits (``moves.failed.joint_limits`` stays 0) and every command keeps them.
    """
    arm = controlled_arm('forward_command', {'elbow': 'closest'})  # r1 1.0, r2 0.7
    arm.reach(1.2, 0.0, resend=NOT_MATCHED_YET)
    before = len(arm.commands)
    for step in range(130):  # two turns, clockwise, a target every 0.1 s
        phi = -0.1 * step
        arm.probe.send(1.2 * math.cos(phi), 1.2 * math.sin(phi), frame_id='')
        arm.probe.spin_for(0.1)
    arm.probe.spin_for(2.0)
    values = arm.probe.diagnostics_when(lambda v: int(v.get('moves.sent', 0)) >= 100, 20.0)
    shoulder = [command.data[0] for command in arm.commands[before:]]
    moves = {key: values.get(f'moves.{key}') for key in ('sent', 'braked', 'failed.joint_limits')}
    print(f'{len(shoulder)} commands, shoulder {min(shoulder)!r} to {max(shoulder)!r}; {moves}')
    assert -math.pi <= min(shoulder) and max(shoulder) <= math.pi
    assert values['moves.failed.joint_limits'] == '0'
    assert values['internal_errors'] == '0'
