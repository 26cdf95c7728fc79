"""
The node's parts, each made on a real rclpy node and driven over loopback DDS.

In one process, in a context of its own: a node carrying one part, and a
peer node that plays the graph around it.  A target read from its bytes
and counted, malformed ones too (``targets``); the markers published
(``drawing``); a peer whose QoS can never match found in the graph
(``qos_watch``); a user's robot_description taken (``description``); the
robot model with no robot_state_publisher said so (``robot_model``); the
arm's joint states heard with their stamps (``outputs.joint_state_input``);
a path played back at its own timing (``outputs.streaming``); an endpoint
made from its row (``ros.endpoints``) and the node's clock (``ros.clock``).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import time

from geometry_msgs.msg import PointStamped
import numpy as np
import pytest
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.serialization import serialize_message
from ros_harness import unique_name
from twobone_ik_ros.model.config import validate
from twobone_ik_ros.model.interface import QUEUE_DEPTH
from twobone_ik_ros.model.parameter_table import DEFAULTS
from twobone_ik_ros.node.description import DescriptionInput
from twobone_ik_ros.node.diagnostics import TargetCounters
from twobone_ik_ros.node.drawing import ArmDrawing
from twobone_ik_ros.node.frames import TargetFrames
from twobone_ik_ros.node.qos_watch import QosWatch
from twobone_ik_ros.node.robot_model import RobotModelSync
from twobone_ik_ros.node.targets import TargetInput
from twobone_ik_ros.outputs.joint_state_input import JointStateInput
from twobone_ik_ros.outputs.streaming import Playback
from twobone_ik_ros.ros.clock import node_time_ns
from twobone_ik_ros.ros.endpoints import publisher
from twobone_ik_ros.solver import Status
from twobone_ik_ros.tools.harness import shut_down

pytestmark = pytest.mark.ros

CONFIG = validate(dict(DEFAULTS))


class Graph:
    """A node for the part and a peer, one executor for both, in a context of their own."""

    def __init__(self):
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        namespace = '/' + unique_name('parts')
        self.node = rclpy.create_node('part', namespace=namespace, context=self.context)
        self.peer = rclpy.create_node('peer', namespace=namespace, context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self.executor.add_node(self.peer)

    def spin_until(self, condition, timeout=10.0):
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, 'timed out'
            self.executor.spin_once(timeout_sec=0.01)

    def close(self):
        self.executor.shutdown()
        self.node.destroy_node()
        self.peer.destroy_node()
        shut_down(self.context)


@pytest.fixture
def graph():
    graph = Graph()
    yield graph
    graph.close()


def test_a_target_is_read_from_its_bytes_and_malformed_bytes_are_counted(graph):
    counters, solved, rejected = TargetCounters(), [], []
    frames = TargetFrames(graph.node, lambda: CONFIG.frame, lambda f: f)
    TargetInput(graph.node, CONFIG, counters, frames,
                lambda x, y, z, stamp: solved.append((x, y, z, stamp.sec)),
                lambda reason, describe: rejected.append((reason, describe())))
    sender = graph.peer.create_publisher(PointStamped, 'target', 10)
    graph.spin_until(lambda: sender.get_subscription_count() > 0)
    target = PointStamped()
    target.header.stamp.sec, target.header.frame_id = 7, 'base_link'
    target.point.x, target.point.y = 1.2, 0.4
    sender.publish(target)
    sender.publish(b'\x00\x01\x00\x00' + bytes(3))  # no PointStamped
    graph.spin_until(lambda: solved and rejected)
    assert solved == [(1.2, 0.4, 0.0, 7)]
    assert rejected[0][0] == 'malformed' and 'not a readable PointStamped' in rejected[0][1]
    assert counters.received == 2
    assert serialize_message(target)  # what went over the wire is rclpy's own form


def test_the_markers_are_published_for_a_late_subscriber(graph):
    from visualization_msgs.msg import MarkerArray
    drawing = ArmDrawing(graph.node, CONFIG)
    heard = []
    graph.peer.create_subscription(MarkerArray, 'markers', heard.append, 10)
    drawing.show_target((1.2, 0.4), Status.SOLVED)
    graph.spin_until(lambda: graph.node.count_subscribers('markers') > 0)
    deadline = time.monotonic() + 10.0
    while not heard and time.monotonic() < deadline:
        drawing.poll(time.monotonic(), (0.1, -0.5))
        graph.executor.spin_once(timeout_sec=0.05)
    assert heard and heard[-1].markers


def test_a_peer_that_can_never_match_is_found_once(graph):
    from rclpy.qos import DurabilityPolicy, QoSProfile
    publisher(graph.node, 'elbow')  # reliable, volatile
    watch = QosWatch(graph.node)
    graph.peer.create_subscription(PointStamped, 'elbow', lambda _: None, 10)  # matches
    graph.peer.create_subscription(  # a volatile publisher cannot serve it
        PointStamped, 'elbow', lambda _: None,
        QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL))
    deadline = time.monotonic() + 10.0
    while watch.incompatible == 0 and time.monotonic() < deadline:
        watch.check()
        graph.executor.spin_once(timeout_sec=0.05)
    assert watch.incompatible == 1
    for _ in range(20):
        watch.check()
    assert watch.incompatible == 1  # told once


def test_a_users_description_is_taken_while_wanted(graph):
    from rclpy.qos import DurabilityPolicy, QoSProfile
    from std_msgs.msg import String
    texts = []
    description = DescriptionInput(graph.node, texts.append)
    latched = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL)
    graph.peer.create_publisher(String, 'robot_description', latched).publish(
        String(data='<robot name="arm"/>'))
    description.want(True)
    graph.spin_until(lambda: texts)
    assert texts == ['<robot name="arm"/>'] and description.received == 1
    description.want(False)
    assert description.text is None


def test_without_robot_state_publisher_the_model_says_so(graph):
    model = RobotModelSync(graph.node)
    assert model.state == 'not sent'
    model.send(validate(dict(DEFAULTS, robot_state_publisher='')))
    assert 'robot_state_publisher is empty' in model.state


def test_the_arms_joint_states_are_heard_with_their_stamps(graph):
    from sensor_msgs.msg import JointState
    heard = []
    states = JointStateInput(graph.node, lambda *state: heard.append(state))
    sender = graph.peer.create_publisher(JointState, 'joint_states', 10)
    graph.spin_until(lambda: sender.get_subscription_count() > 0)
    state = JointState(name=['shoulder_joint', 'elbow_joint'], position=[0.1, 0.2])
    state.header.stamp.sec, state.header.stamp.nanosec = 3, 4
    sender.publish(state)
    graph.spin_until(lambda: heard)
    now, stamp, names, position, velocity = heard[0]
    assert stamp == 3_000_000_004 and list(names) == ['shoulder_joint', 'elbow_joint']
    assert list(position) == [0.1, 0.2] and now > 0
    states.destroy()


def test_a_path_is_played_back_at_its_own_timing(graph):
    moved, published = [], []
    playback = Playback(graph.node, moved.append)
    playback.play(np.array([[0.0, 0.0], [0.1, 0.1], [0.2, 0.2]]),
                  np.array([0, 50_000_000, 100_000_000], dtype=np.int64),
                  lambda a, b: published.append((a, b)))
    assert playback.playing
    graph.spin_until(lambda: not playback.playing)
    assert published[-1] == (0.2, 0.2) and moved[-1] == (0.2, 0.2)


def test_an_endpoint_has_its_rows_qos_and_the_clock_is_the_nodes(graph):
    elbow = publisher(graph.node, 'elbow')
    assert elbow.qos_profile.depth == QUEUE_DEPTH
    before = graph.node.get_clock().now().nanoseconds
    assert before <= node_time_ns(graph.node) <= graph.node.get_clock().now().nanoseconds


def test_the_node_in_one_process_answers_a_target_and_plays_a_path(graph):
    from control_harness import path_message
    from nav_msgs.msg import Path
    from sensor_msgs.msg import JointState
    from twobone_ik_ros.node.node import TwoBoneIKNode
    from twobone_ik_ros.node.paths import PathFollower
    ik = TwoBoneIKNode(context=graph.context, namespace=graph.node.get_namespace())
    graph.executor.add_node(ik)
    try:
        assert isinstance(ik._paths, PathFollower)
        answers = []
        graph.peer.create_subscription(JointState, 'joint_states', answers.append, 100)
        targets = graph.peer.create_publisher(PointStamped, 'target', 10)
        paths = graph.peer.create_publisher(Path, 'path', 10)
        graph.spin_until(lambda: targets.get_subscription_count()
                         and paths.get_subscription_count()
                         and ik.count_subscribers('joint_states') > 0)
        target = PointStamped()
        target.header.stamp.sec = 11
        target.point.x, target.point.y = 1.2, 0.4
        targets.publish(target)
        graph.spin_until(lambda: any(m.header.stamp.sec == 11 for m in answers))
        paths.publish(path_message([(1.1, 0.3), (1.0, 0.5)], stamps_s=[0.0, 0.1]))
        graph.spin_until(lambda: ik._counters.paths_followed == 1)
    finally:
        graph.executor.remove_node(ik)
        ik.destroy_node()
