"""
Hostile input over DDS: the node never dies, never publishes NaN, and counts what it refuses.

Whatever any process on the graph sends (raw bytes on ``target``, odd paths,
parameter sets of the wrong type), the node answers the next good target,
its counters add up, and it stops with exit code 0 on SIGINT.  A callback
that raises (a bug, injected here by ``faulty_node.py``) costs that one
callback: counted as ``internal_errors``, logged once with its traceback,
diagnostics level ERROR.
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
import random
import struct

from diagnostic_msgs.msg import DiagnosticStatus
from geometry_msgs.msg import PointStamped, PoseStamped
from helpers import random_reachable, ROOT
from nav_msgs.msg import Path
import pytest
from rclpy.serialization import serialize_message
from ros_harness import (all_finite, assert_stopped, MESSAGE_INFO, NodeProcess, Probe,
                         unique_name)
from twobone_ik_ros.node.diagnostics import REJECT_REASONS

pytestmark = pytest.mark.ros

R1, R2 = 1.0, 0.7
FAULTY_NODE = os.path.join(ROOT, 'test', 'faulty_node.py')


@pytest.fixture
def started():
    """Start the node (or the faulty one) and a probe; stop both at the end."""
    running = []

    def start(script=''):
        namespace = '/' + unique_name('hostile')
        process = NodeProcess('twobone_ik_ros.node.node', script=script, ros_args=[
            '-r', f'__ns:={namespace}', '-p', f'r1:={R1}', '-p', f'r2:={R2}'])
        probe = Probe(namespace=namespace)
        running.append((process, probe))
        try:
            probe.wait_for_node()
        except AssertionError:
            pytest.fail('node did not start:\n' + process.output())
        return process, probe

    yield start
    for process, probe in running:
        probe.close()
        process.stop()


def counters(probe, condition, timeout=30.0):
    """Wait until the node's diagnostics values satisfy ``condition``; return them."""
    seen = {}

    def holds():
        nonlocal seen
        status, values = probe.latest_diagnostics()
        seen = dict(values, level=status.level)
        return condition(seen)
    assert probe.spin_until(holds, timeout), sorted(seen.items())
    return seen


def add_up(values):
    received = int(values['received'])
    return received == int(values['solved']) + int(values['clamped']) + \
        int(values['rejected']) and int(values['rejected']) == sum(
            int(values[f'rejected.{reason}']) for reason in REJECT_REASONS)


def serialized_target(x, y, frame=b''):
    """Return a PointStamped's bytes with ``frame`` written in as raw bytes."""
    msg = PointStamped()
    msg.header.frame_id = 'f' * len(frame)
    msg.point.x, msg.point.y = x, y
    raw = bytearray(serialize_message(msg))
    if frame:
        raw[16:16 + len(frame)] = frame
    return bytes(raw)


def hostile_targets(rng, count):
    """Yield bytes on ``target``: random, cut, mutated, and frames rclpy cannot name."""
    good = serialized_target(0.5, 0.5, b'base_link')
    for i in range(count):
        kind = i % 4
        if kind == 0:
            yield rng.randbytes(rng.randrange(80))
        elif kind == 1:
            yield good[:rng.randrange(len(good))]
        elif kind == 2:
            raw = bytearray(good)
            for _ in range(rng.randint(1, 6)):
                raw[rng.randrange(len(raw))] = rng.randrange(256)
            yield bytes(raw)
        else:
            struct_size = bytearray(good)
            struct.pack_into('<I', struct_size, 12, rng.randrange(2**32))
            yield bytes(struct_size)


def odd_paths():
    """Yield paths a confused or hostile sender might publish."""
    def path(points, frame='', pose_frames=None):
        msg = Path()
        msg.header.frame_id = frame
        for i, (x, y) in enumerate(points):
            pose = PoseStamped()
            pose.header.frame_id = (pose_frames or [''] * len(points))[i]
            pose.pose.position.x, pose.pose.position.y = x, y
            msg.poses.append(pose)
        return msg
    yield path([])
    yield path([(math.nan, 0.0)])
    yield path([(math.inf, -math.inf)] * 5)
    yield path([(1e308, -1e308), (0.0, 0.0), (1.0, 0.5)])
    yield path([(0.5, 0.5)] * 200)
    yield path([(0.5, 0.5), (0.6, 0.4)], frame='no_such_frame')
    yield path([(0.5, 0.5), (0.6, 0.4)], pose_frames=['base_link', 'elsewhere'])
    yield path([(1.0, 0.5)], frame='\u00e9\u00e8' * 100)


WRONG_PARAMETERS = [
    {'r1': 'abc'}, {'r1': [1.0, 2.0]}, {'r2': True}, {'elbow': 3}, {'joint_names': 'one'},
    {'joint_names': ['a', 'b', 'c']}, {'shoulder_limits': [1.0]}, {'shoulder_limits': 'x'},
    {'output': 7}, {'unreachable': ['clamp']}, {'base_frame': ''}, {'r1': math.nan},
    {'max_joint_velocity': -1.0}, {'transform_timeout': math.inf}, {'frame_prefix': 5},
]


def test_thousands_of_malformed_and_hostile_messages_leave_the_node_answering(started):
    process, probe = started()
    node = probe.node
    raw_targets = node.create_publisher(PointStamped, f'{probe.namespace}/target', 100)
    paths = node.create_publisher(Path, f'{probe.namespace}/path', 100)
    raw_paths = node.create_publisher(Path, f'{probe.namespace}/path', 100)
    assert probe.spin_until(lambda: raw_targets.get_subscription_count() > 0
                            and paths.get_subscription_count() > 0)
    # each writer's sequence starts at the node before the flood: the first sample the
    # node sees from a writer only sets its start (SequenceGaps), so that a flood's
    # first samples, dropped before any was taken, would go uncounted (a busy run)
    assert probe.solve(0.9, 0.3, stamp_id=1) is not None
    start = PointStamped()
    start.header.frame_id, start.header.stamp.sec = 'base_link', 3
    start.point.x, start.point.y = 0.9, 0.3
    raw_targets.publish(start)
    assert probe.spin_until(lambda: probe.answer(3) is not None, 15.0)
    started_at = counters(probe, lambda values: int(values['received']) == 2)
    rng = random.Random(21)
    sent = 0
    for i, raw in enumerate(hostile_targets(rng, 4000)):
        raw_targets.publish(raw)
        sent += 1
        if i % 5 == 0:  # paced, so that most reach the node (depth 10)
            probe.spin_for(0.005)
        if i % 100 == 0:
            raw_paths.publish(rng.randbytes(rng.randrange(120)))
    for msg in odd_paths():
        paths.publish(msg)
    for changes in WRONG_PARAMETERS:
        results = probe.set_parameters(**changes)
        assert not any(result.successful for result in results), changes
    # a frame rclpy reads with replacement characters is an unknown frame
    before = counters(probe, lambda values: True)
    raw_targets.publish(serialized_target(0.5, 0.5, b'\xff\xfebase'))
    values = counters(probe, lambda values: int(values['rejected.unknown_frame'])
                      > int(before['rejected.unknown_frame']))
    assert process.process.poll() is None, process.output()
    assert probe.solve(0.8, -0.4, stamp_id=2) is not None  # still answering
    # each counted, received or lost on the way (the gaps in the sequence numbers;
    # on Humble, without message info, what was lost is not counted)

    def since_start(values, key):
        return int(values[key]) - int(started_at[key])
    values = counters(probe, lambda values: add_up(values) and (
        since_start(values, 'received') + since_start(values, 'lost') == sent + 2
        if MESSAGE_INFO
        else since_start(values, 'received') <= sent + 2 and values['lost'] == '0'))
    print(f'hostile: sent {sent + 2} targets after the start, received {values["received"]}, '
          f'malformed {values["rejected.malformed"]}, lost {values["lost"]}, '
          f'paths {values["paths"]}')
    assert int(values['rejected.malformed']) > sent // 10
    assert values['internal_errors'] == '0'
    assert all_finite(probe.joint_states + probe.elbows + probe.markers)
    assert_stopped(process.interrupt(), process.output())
    assert 'Traceback' not in process.output()


def test_a_callback_that_raises_costs_that_message_not_the_node(started):
    process, probe = started(script=FAULTY_NODE)
    for _ in range(3):
        probe.send(123.0, 0.0)  # the injected fault in the target callback
    values = counters(probe, lambda values: values['internal_errors'] == '3')
    assert values['level'] == DiagnosticStatus.ERROR
    assert probe.solve(*random_reachable(random.Random(1), R1, R2), stamp_id=5) is not None
    paths = probe.node.create_publisher(Path, f'{probe.namespace}/path', 10)
    assert probe.spin_until(lambda: paths.get_subscription_count() > 0)
    broken = Path()
    broken.poses = [PoseStamped() for _ in range(3)]  # the injected fault for paths
    paths.publish(broken)
    counters(probe, lambda values: values['internal_errors'] == '4')
    [refused] = probe.set_parameters(frame_prefix='boom/')  # and in the parameter callback
    assert not refused.successful and 'internal error' in refused.reason
    assert probe.set_parameters(r1=1.2)[0].successful  # the next change works
    assert probe.solve(1.0, 0.5, stamp_id=6) is not None
    output = process.output()
    # each kind with its traceback once; repeats of a kind are counted, not printed again
    assert output.count('Traceback') == 3, output
    assert output.count('ZeroDivisionError: injected fault') == 3, output
    assert_stopped(process.interrupt(), process.output())


def test_a_peer_that_can_never_match_a_topic_is_logged_once_and_counted(started):
    """A QoS or a type that cannot match: found in the graph, no event handler per message."""
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    from sensor_msgs.msg import JointState
    from std_msgs.msg import String
    process, probe = started()
    namespace = probe.namespace
    graph = probe.node
    best_effort = QoSProfile(depth=10, reliability=ReliabilityPolicy.BEST_EFFORT)
    graph.create_publisher(PointStamped, f'{namespace}/target', best_effort)  # node: reliable
    graph.create_subscription(JointState, f'{namespace}/joint_states', lambda _: None,
                              QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL))
    graph.create_publisher(String, f'{namespace}/path', 10)  # the node's is nav_msgs/Path
    graph.create_publisher(PointStamped, f'{namespace}/target', 10)  # matches: not counted
    seen = counters(probe, lambda values: values['peers.incompatible'] == '3')
    probe.spin_for(3.0)  # three more checks: each peer is told once
    assert counters(probe, lambda values: True)['peers.incompatible'] == '3'
    output = process.output()
    told = [line for line in output.splitlines() if 'can never match this node' in line]
    assert len(told) == 3, output
    assert any('/target: the publisher of' in line and 'Best effort publisher' in line
               for line in told)
    assert any('/joint_states: the subscription of' in line
               and 'Volatile publisher and transient local subscription' in line for line in told)
    assert any('/path: the publisher of' in line and 'has type std_msgs/msg/String' in line
               for line in told)
    assert seen['level'] == DiagnosticStatus.OK
