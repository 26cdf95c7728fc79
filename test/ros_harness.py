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
Real processes on real DDS: start a node as a subprocess and talk to it.

``NodeProcess`` runs an executable of this package as its own process (with
SIGINT restored, so a test can stop it as Ctrl-C would); ``Probe`` is an rclpy
node in the test process that publishes targets, records every message the
node publishes, and sets parameters through the node's parameter services.
"""

import math
import os
import signal
import subprocess
import sys
import time

from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import PointStamped
from rcl_interfaces.msg import Parameter as ParameterMsg
from rcl_interfaces.srv import GetParameters, SetParameters
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.parameter import Parameter
from sensor_msgs.msg import JointState
from visualization_msgs.msg import MarkerArray


def _restore_sigint():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class NodeProcess:
    """A package executable (``python -m module``) in a process of its own."""

    def __init__(self, module, ros_args=(), args=()):
        """Start it; output goes to a file the test can read on failure."""
        self.log_path = os.path.join(os.environ.get('ROS_LOG_DIR', '/tmp'),
                                     f'{module}-{time.monotonic_ns()}.out')
        self._log = open(self.log_path, 'w+')
        command = [sys.executable, '-m', module, *args]
        if ros_args:
            command += ['--ros-args', *ros_args]
        self.process = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT,
                                        preexec_fn=_restore_sigint)

    def output(self):
        """Everything the process printed so far."""
        self._log.flush()
        with open(self.log_path) as log:
            return log.read()

    def interrupt(self, timeout=15.0):
        """Send SIGINT, as Ctrl-C does, and return the exit code."""
        self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout=timeout)

    def stop(self):
        """End the process whatever its state."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


class Probe:
    """The test's side of the graph: targets out, everything the node says in."""

    def __init__(self, node_name='twobone_ik', namespace='', name='probe'):
        """Create the probe node in its own context."""
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        self.node = rclpy.create_node(name, context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        prefix = f'{namespace}/' if namespace else ''
        self.joint_states = []
        self.elbows = []
        self.markers = []
        self.diagnostics = []
        node = self.node
        node.create_subscription(JointState, prefix + 'joint_states',
                                 self.joint_states.append, 1000)
        node.create_subscription(PointStamped, prefix + 'elbow', self.elbows.append, 1000)
        node.create_subscription(MarkerArray, prefix + 'markers', self.markers.append, 100)
        node.create_subscription(DiagnosticArray, '/diagnostics', self.diagnostics.append, 100)
        self.target_pub = node.create_publisher(PointStamped, prefix + 'target', 1000)
        full_name = f'{namespace}/{node_name}' if namespace else f'/{node_name}'
        self._set = node.create_client(SetParameters, f'{full_name}/set_parameters')
        self._get = node.create_client(GetParameters, f'{full_name}/get_parameters')

    def spin_until(self, condition, timeout=10.0):
        """Process callbacks until ``condition()`` holds; return whether it did."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                return False
            self.executor.spin_once(timeout_sec=0.01)
        return True

    def spin_for(self, seconds):
        """Process callbacks for a while (to catch messages that should not come)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.executor.spin_once(timeout_sec=0.01)

    def wait_for_node(self, timeout=20.0):
        """Wait until the node subscribes to our targets and its services answer."""
        ready = self.spin_until(lambda: self.target_pub.get_subscription_count() > 0
                                and self._set.service_is_ready()
                                and self.node.count_publishers('/diagnostics') > 0, timeout)
        assert ready, 'the node did not come up on the graph'

    def send(self, x, y, z=0.0, frame_id='base_link', stamp_id=None):
        """Publish one target; ``stamp_id`` > 0 marks it so the answer can be found."""
        msg = PointStamped()
        msg.header.frame_id = frame_id
        if stamp_id is not None:
            msg.header.stamp.sec = int(stamp_id)
        msg.point.x, msg.point.y, msg.point.z = float(x), float(y), float(z)
        self.target_pub.publish(msg)

    def solve(self, x, y, stamp_id, timeout=5.0):
        """Send a target and return the JointState answering it (None if none)."""
        def answered():
            return any(js.header.stamp.sec == stamp_id for js in self.joint_states)
        self.send(x, y, stamp_id=stamp_id)
        if not self.spin_until(answered, timeout):
            return None
        return next(js for js in self.joint_states if js.header.stamp.sec == stamp_id)

    def set_parameters(self, **values):
        """Set parameters on the node; return the list of SetParametersResult."""
        request = SetParameters.Request()
        request.parameters = [Parameter(name, value=value).to_parameter_msg()
                              for name, value in values.items()]
        return self._call(self._set, request).results

    def get_parameters(self, *names):
        """Return the current values of the named parameters as Python values."""
        request = GetParameters.Request(names=list(names))
        values = self._call(self._get, request).values
        return {name: Parameter.from_parameter_msg(ParameterMsg(name=name, value=value)).value
                for name, value in zip(names, values)}

    def latest_diagnostics(self, timeout=5.0):
        """Wait for a fresh /diagnostics message and return its values as a dict."""
        count = len(self.diagnostics)
        assert self.spin_until(lambda: len(self.diagnostics) > count, timeout)
        status = self.diagnostics[-1].status[0]
        return status, {kv.key: kv.value for kv in status.values}

    def _call(self, client, request, timeout=10.0):
        assert client.wait_for_service(timeout_sec=timeout)
        future = client.call_async(request)
        assert self.spin_until(future.done, timeout), 'no answer from the parameter service'
        return future.result()

    def close(self):
        """Destroy the probe and its context."""
        self.executor.shutdown()
        self.node.destroy_node()
        rclpy.shutdown(context=self.context)


def all_finite(messages):
    """Tell whether every float in the recorded messages is finite."""
    for msg in messages:
        if isinstance(msg, JointState):
            values = list(msg.position)
        elif isinstance(msg, PointStamped):
            values = [msg.point.x, msg.point.y, msg.point.z]
        elif isinstance(msg, MarkerArray):
            values = [v for m in msg.markers for p in m.points for v in (p.x, p.y, p.z)]
            values += [v for m in msg.markers
                       for v in (m.pose.position.x, m.pose.position.y, m.scale.x)]
        else:
            continue
        if not all(math.isfinite(v) for v in values):
            return False
    return True
