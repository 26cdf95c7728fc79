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
The lean executor (``ros.executor``) serves every kind of entity a node has, as rclpy's does.

Real rclpy nodes in contexts of their own, over loopback DDS: a node spun by
``LeanExecutor`` in a thread (``process.Spinner``, as the IK node is), and a
peer spun by rclpy's ``SingleThreadedExecutor`` that talks to it.  Every
node test of the suite runs the IK node on this executor too; these check
the executor's own rules: entities made and destroyed by callbacks, message
info, services and clients both ways, guard conditions, QoS event handlers
(waitables), a wake from another thread, a context shut down under a wait,
and a callback's exception.
"""

import threading
import time

import pytest
from rcl_interfaces.srv import GetParameters
import rclpy
from rclpy.executors import SingleThreadedExecutor
from std_msgs.msg import String
from twobone_ik_ros.ros.executor import LeanExecutor, spinner_executor
from twobone_ik_ros.ros.process import Spinner

pytestmark = pytest.mark.ros


class Pair:
    """A node on the lean executor and a peer on rclpy's, each in a context of its own."""

    def __init__(self):
        self.contexts = [rclpy.Context(), rclpy.Context()]
        for context in self.contexts:
            rclpy.init(context=context)
        self.node = rclpy.create_node('lean', context=self.contexts[0])
        self.peer = rclpy.create_node('peer', context=self.contexts[1])
        self.spinner = None
        self.peer_executor = SingleThreadedExecutor(context=self.contexts[1])
        self.peer_executor.add_node(self.peer)

    def start(self):
        self.spinner = Spinner(self.node, lean=True).start()
        assert isinstance(self.spinner._executor, LeanExecutor)
        return self

    def spin_peer_until(self, condition, timeout=10.0):
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                return False
            self.peer_executor.spin_once(timeout_sec=0.01)
        return True

    def close(self):
        if self.spinner is not None:
            self.spinner.stop()
        self.peer_executor.shutdown()
        self.node.destroy_node()
        self.peer.destroy_node()
        for context in self.contexts:
            rclpy.try_shutdown(context=context)


@pytest.fixture
def pair():
    made = Pair()
    yield made
    made.close()


def test_timers_and_subscriptions_made_and_destroyed_by_callbacks_are_served(pair):
    node, heard, ticks = pair.node, [], []
    publisher = pair.peer.create_publisher(String, 'chatter', 10)

    def once():
        ticks.append(time.monotonic())
        node.destroy_timer(timer)  # a timer that ends itself
        node.create_subscription(String, 'chatter', lambda *args: heard.append(args), 10)

    timer = node.create_timer(0.05, once)
    pair.start()
    assert pair.spin_peer_until(lambda: publisher.get_subscription_count() > 0)
    for i in range(5):
        publisher.publish(String(data=str(i)))
    assert pair.spin_peer_until(lambda: len(heard) == 5)
    time.sleep(0.2)
    assert len(ticks) == 1 and [args[0].data for args in heard] == ['0', '1', '2', '3', '4']
    if len(heard[0]) == 2:  # Iron on: message info
        assert heard[0][1]['publication_sequence_number'] >= 1


def test_services_and_clients_are_served_both_ways(pair):
    node = pair.node
    node.declare_parameter('answer', 42)
    client = node.create_client(GetParameters, '/peer/get_parameters')
    pair.peer.declare_parameter('question', 'six times seven')
    answers = []

    def ask():
        if client.service_is_ready() and not answers:
            answers.append(None)
            client.call_async(GetParameters.Request(names=['question'])).add_done_callback(
                lambda future: answers.append(future.result().values[0].string_value))

    node.create_timer(0.05, ask)
    pair.start()
    ours = pair.peer.create_client(GetParameters, '/lean/get_parameters')
    assert pair.spin_peer_until(ours.service_is_ready)
    future = ours.call_async(GetParameters.Request(names=['answer']))
    assert pair.spin_peer_until(future.done)
    assert future.result().values[0].integer_value == 42
    assert pair.spin_peer_until(lambda: answers[-1:] == ['six times seven'])


def test_guard_conditions_and_qos_event_handlers_are_served(pair):
    from rclpy.qos import QoSDurabilityPolicy, QoSProfile
    node = pair.node
    guarded, incompatible = [], []
    guard = node.create_guard_condition(lambda: guarded.append(True))
    try:
        from rclpy.event_handler import PublisherEventCallbacks, SubscriptionEventCallbacks
    except ImportError:  # Humble's name
        from rclpy.qos_event import PublisherEventCallbacks, SubscriptionEventCallbacks
    # a transient-local reader meets a volatile writer: the reader's event fires
    node.create_subscription(
        String, 'mismatch', lambda msg: None,
        QoSProfile(depth=1, durability=QoSDurabilityPolicy.TRANSIENT_LOCAL),
        event_callbacks=SubscriptionEventCallbacks(incompatible_qos=incompatible.append))
    pair.start()
    guard.trigger()
    pair.peer.create_publisher(String, '/mismatch', QoSProfile(depth=1),  # its side: quiet
                               event_callbacks=PublisherEventCallbacks(
                                   incompatible_qos=lambda event: None))
    assert pair.spin_peer_until(lambda: guarded and incompatible)


def test_a_wait_ends_on_wake_and_on_shutdown_and_a_callback_error_reaches_the_spinner(pair):
    executor = LeanExecutor(context=pair.contexts[0])
    executor.add_node(pair.node)
    assert pair.node.executor is executor
    executor.spin_once(timeout_sec=0.1)  # adding the node woke it once
    done = threading.Event()

    def spin():
        executor.spin_once()  # nothing to do: only a wake ends it
        done.set()

    threading.Thread(target=spin, daemon=True).start()
    time.sleep(0.2)
    assert not done.is_set()
    executor.wake()
    assert done.wait(5.0)
    executor.shutdown()
    assert pair.node.executor is None

    # a callback that raises: the spinner stops and hands the error on
    def fail():
        raise RuntimeError('a bug')
    pair.node.create_timer(0.01, fail)
    pair.start()
    deadline = time.monotonic() + 10.0
    while pair.spinner.error is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert isinstance(pair.spinner.error, RuntimeError)


def test_a_context_shut_down_under_a_wait_ends_it(pair):
    pair.start()
    time.sleep(0.1)
    rclpy.shutdown(context=pair.contexts[0])
    pair.spinner._thread.join(5.0)
    assert not pair.spinner._thread.is_alive()


def test_rclpy_executor_on_request():
    context = rclpy.Context()
    rclpy.init(context=context)
    node = rclpy.create_node('plain', context=context)
    try:
        assert isinstance(spinner_executor(node, lean=False), SingleThreadedExecutor)
        assert isinstance(spinner_executor(node, lean=True), LeanExecutor)
    finally:
        node.destroy_node()
        rclpy.shutdown(context=context)
