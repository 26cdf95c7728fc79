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
The node driving an arm: controller outputs, the arm's state, multi-turn joints, paths.

Each test starts the node in a process of its own and a stand-in ros2_control
arm (``controller_stand_ins``: controllers that check commands as the real
ones do, mock hardware, a joint_state_broadcaster) on the probe's node, over
loopback DDS.  Nothing waits a fixed time: a test that needs the node to
know the arm's state waits until the node's diagnostics report it.
"""

import math
import random

from builtin_interfaces.msg import Time
from controller_stand_ins import StandInArm
from geometry_msgs.msg import PoseStamped
from helpers import random_reachable
from nav_msgs.msg import Path
import pytest
from ros_harness import NodeProcess, Probe, unique_name
from twobone_ik_ros.solver import forward, TwoBoneIK

pytestmark = pytest.mark.ros

R1, R2 = 2.0, 1.0
TOLERANCE = 1e-9 * (R1 + R2)
TWO_PI = 2.0 * math.pi


class Arm:
    """The node under test, its probe and the stand-in arm, stopped together."""

    def __init__(self, output, start=(0.3, -0.5), **parameters):
        self.output = output  # what command() listens for
        self.namespace = '/' + unique_name('arm')
        ros_args = ['-r', f'__ns:={self.namespace}', '-p', f'r1:={R1}', '-p', f'r2:={R2}',
                    '-p', f'output:={output}']
        for name, value in parameters.items():
            ros_args += ['-p', f'{name}:={value}']
        self.process = NodeProcess('twobone_ik_ros.node', ros_args=ros_args)
        self.probe = Probe(namespace=self.namespace)
        self.arm = StandInArm(self.probe.node, start, self.namespace)
        self.path_pub = self.probe.node.create_publisher(Path, f'{self.namespace}/path', 10)
        # matched both ways: the markers (transient local) prove the node has
        # seen this participant's readers, the counts that the endpoints matched
        commands = {'forward_command': self.arm.forward,
                    'joint_trajectory': self.arm.trajectory}.get(output)
        ready = self.probe.spin_until(
            lambda: self.probe.target_pub.get_subscription_count() > 0
            and bool(self.probe.markers) and self.path_pub.get_subscription_count() > 0
            and (commands is None or commands.get_publisher_count() > 0), 30.0)
        if not ready:
            self.close()
            pytest.fail('node did not start:\n' + self.process.output())

    def close(self):
        self.probe.close()
        self.process.stop()

    def wait_for_state(self, theta1, theta2, timeout=20.0):
        """Wait until the node's diagnostics report the arm at (theta1, theta2)."""
        self.arm.move_to(theta1, theta2)
        expected = f'{theta1!r} {theta2!r}'
        deadline = self.probe.node.get_clock().now().nanoseconds + timeout * 1e9
        while self.probe.node.get_clock().now().nanoseconds < deadline:
            _, values = self.probe.latest_diagnostics()
            if values.get('arm_state') == expected:
                return values
        pytest.fail(f'the node never reported the arm at {expected}')

    def command(self, x, y, timeout=10.0):
        """Send a target; return the (theta1, theta2) the controller took."""
        sent = self.arm.commands if self.output == 'forward_command' else self.arm.trajectories
        count = len(sent)
        self.probe.send(x, y, frame_id='')
        assert self.probe.spin_until(lambda: len(sent) > count or self.arm.refused, timeout), \
            f'no command for target ({x}, {y})'
        assert not self.arm.refused, self.arm.refused
        last = sent[-1]
        if isinstance(last, list):
            return tuple(last)
        return tuple(last.points[-1].positions)

    def send_path(self, points, stamps_s=None, frame_id=''):
        msg = Path()
        msg.header.frame_id = frame_id
        for i, (x, y) in enumerate(points):
            pose = PoseStamped()
            pose.header.frame_id = frame_id
            if stamps_s is not None:
                pose.header.stamp = Time(sec=int(stamps_s[i]),
                                         nanosec=int(round((stamps_s[i] % 1) * 1e9)))
            pose.pose.position.x, pose.pose.position.y = float(x), float(y)
            pose.pose.orientation.w = 1.0
            msg.poses.append(pose)
        self.path_pub.publish(msg)


@pytest.fixture
def make_arm():
    arms = []

    def make(*args, **kwargs):
        arms.append(Arm(*args, **kwargs))
        return arms[-1]

    yield make
    for arm in arms:
        arm.close()


def from_node(probe):
    """Return the joint_states the node published (not those of the stand-in broadcaster)."""
    return [m for m in probe.joint_states if 'gripper_joint' not in m.name]


def tip(theta1, theta2):
    return forward(R1, R2, theta1, theta2)[1]


def circle(center, radius, count):
    return [(center[0] + radius * math.cos(TWO_PI * i / count),
             center[1] + radius * math.sin(TWO_PI * i / count)) for i in range(count)]


@pytest.mark.parametrize('output', ['forward_command', 'joint_trajectory'])
def test_controller_commands_reach_200_random_targets_and_no_joint_states_are_published(
        make_arm, output):
    arm = make_arm(output)
    rng = random.Random(11)
    for x, y in (random_reachable(rng, R1, R2) for _ in range(200)):
        theta1, theta2 = arm.command(x, y)
        tx, ty = tip(theta1, theta2)
        assert math.hypot(tx - x, ty - y) <= TOLERANCE
    # only the stand-in broadcaster publishes the arm's joint_states
    probe = arm.probe
    assert probe.node.count_publishers(f'{arm.namespace}/joint_states') == 1
    assert all('gripper_joint' in msg.name for msg in probe.joint_states)
    if output == 'joint_trajectory':
        for msg in arm.arm.trajectories:
            assert (msg.header.stamp.sec, msg.header.stamp.nanosec) == (0, 0)
            assert list(msg.joint_names) == ['shoulder_joint', 'elbow_joint']
            assert len(msg.points) == 1 and not msg.points[0].velocities


def test_the_arms_state_drives_closest_along_a_circle(make_arm):
    targets = circle((1.8, 0.4), 0.6, 60)
    down = TwoBoneIK(R1, R2, elbow='down').solve(*targets[0])
    arm = make_arm('forward_command', start=(0.0, 0.0), elbow='closest')
    arm.wait_for_state(down.theta1, down.theta2)
    commanded = [arm.command(x, y) for x, y in targets]
    # up (theta2 <= 0) is what closest falls back to without the arm's state
    assert all(theta2 > 0.0 for _, theta2 in commanded)
    for (x, y), (theta1, theta2) in zip(targets, commanded):
        tx, ty = tip(theta1, theta2)
        assert math.hypot(tx - x, ty - y) <= TOLERANCE


def test_a_multi_turn_joint_is_commanded_the_angle_nearest_the_arm(make_arm):
    x, y = tip(-1.0, -0.8)
    assert TwoBoneIK(R1, R2).solve(x, y).theta1 == pytest.approx(-1.0, abs=1e-12)
    arm = make_arm('forward_command', shoulder_limits='[-6.283185307179586,6.283185307179586]')
    arm.wait_for_state(5.0, -0.8)
    theta1, theta2 = arm.command(x, y)
    assert theta1 == pytest.approx(-1.0 + TWO_PI, abs=1e-12)  # 5.28, not -1.0
    assert theta2 == pytest.approx(-0.8, abs=1e-12)
    arm.wait_for_state(-5.5, -0.8)  # the other way round: -1.0 is nearest now
    assert arm.command(x, y)[0] == pytest.approx(-1.0, abs=1e-12)


def test_move_times_follow_the_velocity_limit(make_arm):
    arm = make_arm('joint_trajectory', max_joint_velocity=0.5, min_move_time=0.2)
    for start, goal in (((0.3, -1.0), (0.32, -1.01)), ((0.3, -1.0), (1.5, -0.4))):
        arm.wait_for_state(*start)
        theta1, theta2 = arm.command(*tip(*goal))
        assert (theta1, theta2) == pytest.approx(goal, abs=1e-12)
        expected = max(0.2, max(abs(theta1 - start[0]), abs(theta2 - start[1])) / 0.5)
        point = arm.arm.trajectories[-1].points[0]
        assert point.time_from_start.sec * 10**9 + point.time_from_start.nanosec == \
            round(expected * 1e9)


def test_a_circle_path_is_one_branch_continuous_trajectory(make_arm):
    center, radius, count = (1.8, 0.4), 0.6, 1000
    points = circle(center, radius, count)
    points.append(points[0])  # closed: 1001 poses, the last one the first
    down = TwoBoneIK(R1, R2, elbow='down').solve(*points[0])
    arm = make_arm('joint_trajectory', start=(0.0, 0.0), elbow='closest',
                   shoulder_limits='[-6.283185307179586,6.283185307179586]')
    arm.wait_for_state(down.theta1, down.theta2)
    arm.send_path(points)
    assert arm.probe.spin_until(lambda: arm.arm.trajectories or arm.arm.refused, 20.0)
    assert not arm.arm.refused, arm.arm.refused
    trajectory = arm.arm.trajectories[-1]
    positions = [tuple(p.positions) for p in trajectory.points]
    assert len(positions) == len(points)
    for (x, y), (theta1, theta2) in zip(points, positions):
        tx, ty = tip(theta1, theta2)
        assert math.hypot(tx - x, ty - y) <= TOLERANCE
    assert all(theta2 > 0.0 for _, theta2 in positions)  # the arm's branch throughout
    # |d theta| <= |J^-1| |d p|, |J^-1| <= |J|_F / |det J|, det J = r1 r2 sin theta2,
    # |J|_F^2 <= (r1 + r2)^2 + r2^2; sin theta2 is smallest at the circle's extreme radii
    spacing = 2.0 * radius * math.sin(math.pi / count)
    smallest_sin = min(
        math.sqrt(1.0 - ((rho * rho - R1 * R1 - R2 * R2) / (2 * R1 * R2)) ** 2)
        for rho in (math.hypot(*center) - radius, math.hypot(*center) + radius))
    bound = 2.0 * spacing * math.hypot(R1 + R2, R2) / (R1 * R2 * smallest_sin)
    steps = [max(abs(a[0] - b[0]), abs(a[1] - b[1])) for a, b in zip(positions, positions[1:])]
    assert max(steps) < bound
    # a closed circle around nothing: the shoulder ends where it began (no unwinding)
    assert positions[-1] == pytest.approx(positions[0], abs=1e-9)


def test_a_path_played_back_on_joint_states_keeps_its_timing(make_arm):
    points = circle((1.8, 0.4), 0.6, 21)
    stamps = [100.0 + 0.05 * i for i in range(len(points))]
    arm = make_arm('joint_states', elbow='up')
    probe = arm.probe
    arm.send_path(points, stamps)
    expected = TwoBoneIK(R1, R2).solve(*points[-1])

    def at_end():
        ours = from_node(probe)
        return ours and tuple(ours[-1].position) == pytest.approx(
            (expected.theta1, expected.theta2), abs=1e-12)

    assert probe.spin_until(at_end, 20.0)
    played = from_node(probe)
    first = played[0].header.stamp
    last = played[-1].header.stamp
    elapsed = (last.sec - first.sec) + (last.nanosec - first.nanosec) * 1e-9
    assert elapsed >= stamps[-1] - stamps[0] - 0.05  # one playback period of slack


@pytest.mark.parametrize('policy', ['reject', 'clamp'])
def test_a_path_through_an_unreachable_pose(make_arm, policy):
    arm = make_arm('joint_trajectory', unreachable=policy)
    points = [(1.5, 0.0), (2.0, 0.5), (5.0, 0.0), (2.0, -0.5)]
    arm.send_path(points)
    probe = arm.probe
    values = {}

    def counted():
        nonlocal values
        values = probe.latest_diagnostics()[1]
        return values['paths'] == '1'

    assert probe.spin_until(counted, 20.0)
    if policy == 'reject':
        assert values['paths.rejected'] == '1' and values['paths.followed'] == '0'
        probe.spin_for(0.2)
        assert not arm.arm.trajectories
    else:
        assert values['paths.followed'] == '1' and values['paths.clamped_poses'] == '1'
        assert probe.spin_until(lambda: arm.arm.trajectories, 10.0)
        assert len(arm.arm.trajectories[-1].points) == len(points)
    assert not arm.arm.refused


def test_output_changes_at_runtime_and_swaps_its_topics(make_arm):
    arm = make_arm('joint_states')
    probe, node, namespace = arm.probe, arm.probe.node, arm.namespace
    assert node.count_publishers(f'{namespace}/joint_states') == 2  # the node and the stand-in
    result = probe.set_parameters(output='forward_command')[0]
    assert result.successful, result.reason
    arm.output = 'forward_command'
    assert probe.spin_until(lambda: node.count_publishers(f'{namespace}/commands') == 1
                            and node.count_publishers(f'{namespace}/joint_states') == 1, 10.0)
    assert probe.spin_until(lambda: arm.arm.forward.get_publisher_count() == 1, 10.0)
    theta1, theta2 = arm.command(*tip(0.4, -0.9))
    assert (theta1, theta2) == pytest.approx((0.4, -0.9), abs=1e-12)
    refused = probe.set_parameters(output='screen')[0]
    assert not refused.successful and 'output' in refused.reason


def test_a_target_stops_a_path_being_played_back(make_arm):
    arm = make_arm('joint_states')
    probe = arm.probe
    points = circle((1.8, 0.4), 0.6, 50)
    arm.send_path(points, [100.0 + 0.1 * i for i in range(len(points))])  # 5 s long
    started = TwoBoneIK(R1, R2).solve(*points[0])
    assert probe.spin_until(lambda: any(
        tuple(m.position) == pytest.approx((started.theta1, started.theta2), abs=1e-12)
        for m in from_node(probe)), 20.0)
    answer = probe.solve(*tip(0.2, -0.7), stamp_id=42)
    assert answer is not None
    count = len(from_node(probe))
    probe.spin_for(1.0)  # ten playback periods and more
    later = [tuple(m.position) for m in from_node(probe)[count:]]
    assert later and all(p == pytest.approx((0.2, -0.7), abs=1e-12) for p in later)
