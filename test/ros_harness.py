"""
Real processes on real DDS: start nodes and launch files, and talk to them.

``NodeProcess`` runs a module of this package as a node in a process of its
own, ``LaunchProcess`` runs ``ros2 launch`` as a user types it (both are
``harness.RosProcess``: SIGINT restored, so a test can stop them as Ctrl-C
would); ``Probe`` is an rclpy node in the test process that publishes
targets, records what the IK node publishes, reads TF with real tf2 and calls
parameter services.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import itertools
import math
import os
import re
import time

from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import PointStamped
from rcl_interfaces.msg import Parameter as ParameterMsg
from rcl_interfaces.srv import DescribeParameters, GetParameters, SetParameters
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, QoSProfile
from rclpy.subscription import Subscription
from sensor_msgs.msg import JointState
from twobone_ik_ros.ros.process import STOP_HUNG_EXIT_CODE
from twobone_ik_ros.tools.harness import GraphClient, log_path, publisher_count, RosProcess
from visualization_msgs.msg import MarkerArray
import yaml

#: rclpy hands a subscription its messages' info (Iron on): the node counts the
#: gaps in each publisher's sequence numbers as lost; on Humble it cannot
MESSAGE_INFO = hasattr(Subscription, 'CallbackType')
_unique = itertools.count(1)


def unique_name(prefix):
    """Return a name no other test of this session uses (for namespaces)."""
    return f'{prefix}_{os.getpid()}_{next(_unique)}'


def NodeProcess(module, ros_args=(), args=(), script=''):  # noqa: N802  (a constructor)
    """Start a package module (or a ``script``) as a node of its own; output to a log file."""
    return RosProcess.python(module, ros_args, args, script,
                             log_path=log_path(os.path.basename(script) or module))


def LaunchProcess(launch_file, *arguments, env=None, group=False):  # noqa: N802  (a constructor)
    """Start ``ros2 launch twobone_ik_ros <file> <arguments>`` as a user types it."""
    return RosProcess(['ros2', 'launch', 'twobone_ik_ros', launch_file, *arguments],
                      log_path=log_path(launch_file), env=env, group=group)


def installed_executable(package, executable):
    """Return the path of a package's executable, found as ``ros2 run`` finds it."""
    from ament_index_python.packages import get_package_prefix
    return os.path.join(get_package_prefix(package), 'lib', package, executable)


def RobotStatePublisher(namespace, urdf, directory):  # noqa: N802  (a constructor)
    """Start the real robot_state_publisher in ``namespace`` with ``urdf`` (a params file)."""
    params = os.path.join(directory, 'robot_state_publisher.yaml')
    with open(params, 'w') as stream:
        yaml.safe_dump({'/**': {'ros__parameters': {'robot_description': urdf}}}, stream)
    return RosProcess(
        [installed_executable('robot_state_publisher', 'robot_state_publisher'),
         '--ros-args', '-r', f'__ns:={namespace}', '--params-file', params],
        log_path=log_path('robot_state_publisher'))


def assert_nothing_left(namespace, timeout=10.0):
    """Check that no process started for ``namespace`` is alive (none orphaned to PID 1)."""
    deadline = time.monotonic() + timeout
    while processes_mentioning(f'__ns:=/{namespace}') and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_mentioning(f'__ns:=/{namespace}') == []


def hung_in_rclpy(output):
    """
    Tell whether the stop's bound ended a process of ours whose main thread was inside rclpy.

    Rarely (twice in CI runs of several hundred stops each, never in about
    1000 stops looped alone), rclpy's ``destroy_node`` never returns: inside
    the middleware, with the GIL held (``ros.process``).  The bound then ends the
    process with ``STOP_HUNG_EXIT_CODE`` and its threads' stacks.  Once (Humble,
    busy CI) a process hung after its Python had ended: every thread's stack
    ``<no Python frame>``, the native teardown at exit, also the middleware's.
    """
    if 'Timeout (' not in output and 'stopping did not finish' not in output:
        return False
    threads = re.split(r'^(?:Current thread|Thread) 0x[0-9a-f]+ \(most recent call first\):$',
                       output, flags=re.MULTILINE)[1:]
    if threads and all(thread.strip() == '<no Python frame>' for thread in threads):
        return True
    for stack in output.split('\n\n'):
        frames = [line for line in stack.splitlines() if line.strip().startswith('File ')]
        if any(' in run_node' in frame for frame in frames):
            return '/rclpy/' in frames[0]
    return False


def assert_stopped(code, output):
    """
    Assert that a process of ours stopped cleanly: exit code 0; return whether it hung instead.

    Hung: exit code 1 from the stop's bound, its main thread in rclpy's
    teardown (``hung_in_rclpy``): upstream's hang, printed and let pass (True);
    a hang anywhere else, or any other code, fails.
    """
    if code == STOP_HUNG_EXIT_CODE and hung_in_rclpy(output):
        print("rclpy's teardown hung (upstream); the stop's bound ended the process:", output)
        return True
    assert code == 0, output
    return False


def processes_mentioning(text):
    """Return the PIDs of the processes whose command line contains ``text``."""
    found = []
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open(f'/proc/{entry}/cmdline', 'rb') as cmdline:
                if text.encode() in cmdline.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


class Probe(GraphClient):
    """The test's side of the graph: targets out, everything the node says in."""

    def __init__(self, node_name='twobone_ik', namespace='', name='probe', tf=False,
                 target_topic='target', target_qos=1000):
        """Create the probe node in its own context (with a tf2 listener if ``tf``)."""
        super().__init__(unique_name(name))
        self.namespace = namespace
        prefix = f'{namespace}/' if namespace else ''
        self.joint_states = []
        self.elbows = []
        self.markers = []
        self.diagnostics = []
        node = self.node
        self.joint_state_sub = node.create_subscription(
            JointState, prefix + 'joint_states', self.joint_states.append, 1000)
        node.create_subscription(PointStamped, prefix + 'elbow', self.elbows.append, 1000)
        node.create_subscription(MarkerArray, prefix + 'markers', self.markers.append,
                                 QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL))
        node.create_subscription(DiagnosticArray, '/diagnostics', self._on_diagnostics, 100)
        if not target_topic.startswith('/'):
            target_topic = prefix + target_topic
        self.target_pub = node.create_publisher(PointStamped, target_topic, target_qos)
        self.node_name = f'{namespace}/{node_name}' if namespace else f'/{node_name}'
        self._clients = {}
        self.tf_buffer = None
        if tf:
            import tf2_ros
            self.tf_buffer = tf2_ros.Buffer()
            self._tf_listener = tf2_ros.TransformListener(self.tf_buffer, node)

    def _on_diagnostics(self, msg):
        if any(status.name == f'{self.node_name.lstrip("/")}: targets'
               for status in msg.status):
            self.diagnostics.append(msg)

    def wait_for_node(self, timeout=30.0):
        """Wait until the node subscribes to our targets and its services answer."""
        client = self._client(SetParameters, self.node_name)
        # matched both ways: our targets reach it, and its answers reach us --
        # our side seeing its writer is not enough, its writer must have seen
        # our reader; the markers (transient local) arriving prove that much
        ready = self.spin_until(lambda: self.target_pub.get_subscription_count() > 0
                                and publisher_count(self.node, self.joint_state_sub) > 0
                                and bool(self.markers)
                                and client.service_is_ready()
                                and self.node.count_publishers('/diagnostics') > 0, timeout)
        assert ready, f'{self.node_name} did not come up on the graph'

    def send(self, x, y, z=0.0, frame_id='base_link', stamp_id=None):
        """Publish one target; ``stamp_id`` > 0 marks it so the answer can be found."""
        msg = PointStamped()
        msg.header.frame_id = frame_id
        if stamp_id is not None:
            msg.header.stamp.sec = int(stamp_id)
        msg.point.x, msg.point.y, msg.point.z = float(x), float(y), float(z)
        self.target_pub.publish(msg)

    def answer(self, stamp_id):
        """Return the JointState answering the target sent with ``stamp_id``, or None."""
        return next((js for js in self.joint_states if js.header.stamp.sec == stamp_id), None)

    def solve(self, x, y, stamp_id, frame_id='base_link', timeout=10.0):
        """Send a target and return the JointState answering it (None if none)."""
        # once the node's subscription is matched: a message sent before is not its to get
        self.spin_until(lambda: self.target_pub.get_subscription_count() > 0, timeout)
        self.send(x, y, frame_id=frame_id, stamp_id=stamp_id)
        self.spin_until(lambda: self.answer(stamp_id) is not None, timeout)
        return self.answer(stamp_id)

    def set_parameters(self, node_name=None, **values):
        """Set parameters on the IK node (or ``node_name``); return the results."""
        request = SetParameters.Request()
        request.parameters = [Parameter(name, value=value).to_parameter_msg()
                              for name, value in values.items()]
        return self._call(SetParameters, node_name or self.node_name, request).results

    def get_parameters(self, *names, node_name=None):
        """Return the named parameters of the IK node (or ``node_name``) as Parameters."""
        request = GetParameters.Request(names=list(names))
        values = self._call(GetParameters, node_name or self.node_name, request).values
        return {name: Parameter.from_parameter_msg(ParameterMsg(name=name, value=value))
                for name, value in zip(names, values)}

    def describe(self, *names, node_name=None):
        """Return the named parameters' descriptors, as ``ros2 param describe`` shows them."""
        request = DescribeParameters.Request(names=list(names))
        described = self._call(DescribeParameters, node_name or self.node_name, request)
        return dict(zip(names, described.descriptors))

    def get_values(self, *names, node_name=None):
        """Return the named parameters' values as Python values."""
        return {name: p.value
                for name, p in self.get_parameters(*names, node_name=node_name).items()}

    def latest_diagnostics(self, timeout=5.0):
        """Wait for a fresh diagnostics message of the node; return its status and values."""
        count = len(self.diagnostics)
        assert self.spin_until(lambda: len(self.diagnostics) > count, timeout), \
            f'no diagnostics from {self.node_name}'
        status = self.diagnostics[-1].status[0]
        return status, {kv.key: kv.value for kv in status.values}

    def diagnostics_when(self, condition, timeout=20.0):
        """Return the node's diagnostics values from the first report for which ``condition``."""
        values = {}

        def holds():
            nonlocal values
            values = self.latest_diagnostics()[1]
            return condition(values)
        assert self.spin_until(holds, timeout), f'diagnostics never held it: {values}'
        return values

    def tool_position(self, base, tool, timeout=5.0):
        """Return (x, y) of ``tool`` in ``base`` from tf2, once the transform is there."""
        from rclpy.time import Time
        assert self.spin_until(lambda: self.tf_buffer.can_transform(base, tool, Time()),
                               timeout), f'no transform {base} -> {tool}'
        translation = self.tf_buffer.lookup_transform(base, tool, Time()).transform.translation
        return translation.x, translation.y

    def _client(self, service_type, node_name):
        suffix = {SetParameters: 'set_parameters', GetParameters: 'get_parameters',
                  DescribeParameters: 'describe_parameters'}[service_type]
        key = (node_name, suffix)
        if key not in self._clients:
            self._clients[key] = self.node.create_client(service_type, f'{node_name}/{suffix}')
        return self._clients[key]

    def _call(self, service_type, node_name, request, timeout=15.0):
        client = self._client(service_type, node_name)
        assert self.spin_until(client.service_is_ready, timeout), f'{node_name} has no service'
        # a read is asked again while unanswered; a set is sent once (answer says why)
        again_after = None if service_type is SetParameters else 1.0
        return answer(self, client, request, timeout, again_after)


def answer(probe, client, request, timeout=15.0, again_after=None):
    """
    Return the result of ``request``; one safe to repeat is sent again every ``again_after`` s.

    A client's ``service_is_ready`` means it sees the server; the server may not
    yet see the client's reply reader, and then its reply is lost (a discovery
    race: Fast DDS 2.6 on Humble; robot_state_publisher just started, on Kilted,
    idle).  A request that changes nothing (a read, a list) is asked again while
    it is unanswered; one that changes something is sent once, since the lost
    reply's request has been carried out.
    """
    deadline = time.monotonic() + timeout
    while True:
        future = send_request(probe, client, request, max(deadline - time.monotonic(), 0.0))
        wait = deadline - time.monotonic()
        if probe.spin_until(future.done, wait if again_after is None else min(again_after, wait)):
            return future.result()
        client.remove_pending_request(future)
        assert again_after is not None and time.monotonic() < deadline, \
            f'{client.srv_name} did not answer in {timeout:g} s'


def send_request(probe, client, request, timeout=15.0):
    """
    Return ``client.call_async(request)``, tried again while Fast DDS cannot send it.

    A reliable writer whose history is full waits ``max_blocking_time`` and then
    refuses the write (``RCLError: failed to send request: cannot publish
    data``, ros2/rmw_fastrtps#310): seen on a machine loaded far beyond two
    CPU-bound processes.  That is the middleware's back-pressure, not an
    answer: the request is sent again after a pause.
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            return client.call_async(request)
        except Exception as error:  # noqa: B902  (rclpy's RCLError lives in a private module)
            if 'cannot publish data' not in str(error) or time.monotonic() > deadline:
                raise
        probe.spin_for(0.2)


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
