"""
A ros2_control arm under the IK node: ``control.launch.py`` as a user runs it, or its stand-in.

``ControlledArm`` starts ``ros2 launch twobone_ik_ros control.launch.py`` in
a namespace of its own: the real robot_state_publisher, controller_manager's
``ros2_control_node`` with mock_components/GenericSystem, the spawners of
joint_state_broadcaster and of the commanded controller, and the IK node.
With ``controllers='stand_in'`` it starts instead what that launch gives
the node for ``forward_command`` and ``joint_trajectory`` (the installed
node, its parameters file, its output and its controller's topic) and the stand-in of
``test/stand_ins/ros2_control.py`` (``StandInLaunch``): the same tests, with
the same assertions, where ros2_control is not installed.  A
probe records what the node commands (on the controller's own topic) and the
arm's measured ``joint_states`` (joint_state_broadcaster's), and can put the
arm somewhere by commanding the controller itself, as another node would.
With ``output:=follow_joint_trajectory`` the node's goals are not seen (an
action's goals are service requests): the probe hears ``reached`` and the
counters instead.
controller_manager_msgs is imported only here, when an arm starts: it comes
with ros2_control, which a run without the C++ stack does not have.
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
import tempfile
import time

from geometry_msgs.msg import PointStamped, PoseStamped
from helpers import ROOT, seconds
from nav_msgs.msg import Path
import pytest
from rclpy.subscription import Subscription
from ros_harness import answer, installed_executable, LaunchProcess, Probe, unique_name
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint
from twobone_ik_ros.bringup.control_config import DEFAULT_CONTROLLERS
from twobone_ik_ros.bringup.launch_config import controller_remappings
from twobone_ik_ros.model.interface import Output
from twobone_ik_ros.model.parameter_table import DEFAULTS
from twobone_ik_ros.solver import forward
from twobone_ik_ros.tools.harness import log_path, RosProcess
import yaml

JOINTS = tuple(DEFAULTS['joint_names'])
#: how close the measured angles must come to a commanded end (mock hardware mirrors exactly)
AT = 1e-12
#: how close a command's tool position must be to its target to be its answer (m)
TOOL_AT = 1e-8
#: a forward_command stream has ended when no command came for this long (s)
STREAM_QUIET_S = 0.2
#: why a first target may be sent again (``reach``/``command``'s ``resend``): a volatile
#: command the node writes before its new writer has matched the controller's reader (at a
#: start, after a change of output) reaches nobody, and the node cannot tell
NOT_MATCHED_YET = "the node's command writer may not have matched the controller's reader yet"
#: the stand-in for ros2_control, and the controllers file whose update_rate it takes
STAND_IN = os.path.join(ROOT, 'test', 'stand_ins', 'ros2_control.py')
CONTROLLERS_FILE = os.path.join(ROOT, 'config', 'controllers.yaml')
#: the outputs the stand-in serves (its ``controller_type``: the controller each commands)
STAND_IN_OUTPUTS = ('forward_command', 'joint_trajectory')


class StandInLaunch:
    """
    The node and the ros2_control stand-in, control.launch.py's processes (``STAND_IN_OUTPUTS``).

    Each in a process of its own, in the namespace: the installed
    ``twobone_ik_node`` with the parameters file, ``output``, the frame
    prefix and the remapping of its command topic to the controller's that
    the launch file gives it, and the stand-in at the controllers file's
    ``update_rate``.  The launch arguments it does not follow are refused.
    """

    #: the launch arguments it takes (the others need the launch file)
    ARGUMENTS = ('rviz', 'controllers_file', 'use_sim_time')

    def __init__(self, name, output, params_file, arguments, controller):
        """Start both processes; ``arguments`` are control.launch.py's, as ``name:=value``."""
        given = dict(argument.split(':=', 1) for argument in arguments)
        assert set(given) <= set(self.ARGUMENTS), f'the stand-in takes no {given}'
        assert given.get('use_sim_time', 'false') == 'false', 'the stand-in runs on the wall clock'
        assert output.value in STAND_IN_OUTPUTS, f'the stand-in has no controller for {output}'
        with open(given.get('controllers_file', CONTROLLERS_FILE)) as stream:
            manager = yaml.safe_load(stream)['/**/controller_manager']['ros__parameters']
        namespace = ['-r', f'__ns:=/{name}']
        self.stand_in = RosProcess.python(
            script=STAND_IN, log_path=log_path('ros2_control_stand_in'),
            ros_args=[*namespace, '-p', f'update_rate:={int(manager["update_rate"])}',
                      '-p', f'controller:={controller}',
                      '-p', f'controller_type:={output.value}'])
        remaps = [word for pair in controller_remappings(output, controller)
                  for word in ('-r', f'{pair[0]}:={pair[1]}')]
        with open(params_file) as stream:  # the launch prefixes the frames with the namespace
            values = yaml.safe_load(stream)['/**']['ros__parameters']
        prefix = [] if 'frame_prefix' in values else ['-p', f'frame_prefix:={name}/']
        self.node = RosProcess(
            [installed_executable('twobone_ik_ros', 'twobone_ik_node'), '--ros-args',
             *namespace, '--params-file', params_file, '-p', f'output:={output.value}',
             *prefix, *remaps], log_path=log_path('twobone_ik_node'))
        self.process = self.node.process  # as a launch's: it ends with the node

    def output(self):
        """Return what both processes printed so far."""
        return (f'[twobone_ik_node]\n{self.node.output()}\n'
                f'[ros2_control stand-in]\n{self.stand_in.output()}')

    def interrupt(self, timeout=30.0):
        """Ctrl-C both; return 0 if both ended with 0, else the first other code."""
        for process in (self.node, self.stand_in):
            process.process.send_signal(signal.SIGINT)
        codes = [process.wait(timeout) for process in (self.node, self.stand_in)]
        return next((code for code in codes if code), 0)

    def stop(self, timeout=15.0):
        """End both whatever their state; return as ``interrupt``."""
        codes = [process.stop(timeout) for process in (self.node, self.stand_in)]
        return next((code for code in codes if code), 0)


class ControlledArm:
    """control.launch.py for real, a probe on its graph; ``close`` stops both."""

    def __init__(self, output, parameters=None, arguments=(), controller=None, joints=JOINTS,
                 tf=False, controllers='real'):
        """
        Launch the arm with the node's ``parameters`` (a params_file) and extra arguments.

        ``controller``: the one the output commands (default: the package's for
        the output; pass ``controller:=`` among the arguments too); ``joints``:
        the arm's, in the node's order; ``tf``: the probe listens to TF;
        ``controllers``: ``real`` or ``stand_in`` (``StandInLaunch``).
        """
        self.output = Output(output)
        self.joints = tuple(joints)
        self.name = unique_name('arm')
        self.namespace = '/' + self.name
        with tempfile.NamedTemporaryFile('w', suffix='.yaml', delete=False) as params:
            yaml.safe_dump({'/**': {'ros__parameters': dict(parameters or {})}}, params)
        self.params_file = params.name
        parameters = dict(DEFAULTS, **(parameters or {}))
        self.r1, self.r2 = parameters['r1'], parameters['r2']
        self.controller = controller or DEFAULT_CONTROLLERS[self.output]
        self.stand_in = controllers == 'stand_in'
        if self.stand_in:
            self.launch = StandInLaunch(self.name, self.output, self.params_file, arguments,
                                        self.controller)
        else:
            self.launch = LaunchProcess('control.launch.py', f'namespace:={self.name}',
                                        f'output:={output}', f'params_file:={self.params_file}',
                                        *arguments)
        self.probe = Probe(namespace=self.namespace, tf=tf)
        node = self.probe.node
        self.action = self.output is Output.FOLLOW_JOINT_TRAJECTORY
        # the controller's own topic (move_to); the action's goals do not go there
        topic = Output.JOINT_TRAJECTORY.topic if self.action else self.output.topic
        self.topic = f'{self.namespace}/{self.controller}/{topic}'
        kind = Float64MultiArray if self.output is Output.FORWARD_COMMAND else JointTrajectory
        self.commands = []
        self.heard_commands = 0  # every command message, a repeat of the one before too
        self.received_at = []  # the system clock (the ROS clock) at each command's receipt
        self.published_at = []  # ... at each command's writing (s), where rclpy tells it
        self.sequence = []  # ... and its number among the node's writes: a gap is one we lost
        self.last_command_at = 0.0
        self.command_sub = node.create_subscription(
            kind, self.topic, self._on_command_info if hasattr(Subscription, 'CallbackType')
            else self._on_command, 1000)
        self._command_pub = node.create_publisher(kind, self.topic, 10)
        self.path_pub = node.create_publisher(Path, f'{self.namespace}/path', 10)
        self.reached = []  # the node's reached messages, in order
        node.create_subscription(PointStamped, f'{self.namespace}/reached',
                                 self.reached.append, 100)
        self._clients = {}
        self._stamps = iter(range(900_000, 1_000_000))  # reach's targets (action output)
        self.targets_sent = 0  # every target reach and command sent, resent ones too
        self.targets_answered = 0  # and every one answered
        # the node's action client takes the server's feedback (remapped to the controller's)
        feedback = f'{self.namespace}/{self.controller}/{self.output.topic}/_action/feedback'
        try:
            self.wait_until_active(self.controller, 'joint_state_broadcaster')
            self.probe.wait_for_node(timeout=60.0)
            assert self.probe.spin_until(
                lambda: self._command_pub.get_subscription_count() >= 1
                and self.path_pub.get_subscription_count() >= 1
                and (node.count_subscribers(feedback) >= 1 if self.action
                     else node.count_publishers(self.topic) >= 2), 30.0), 'topics not matched'
            # the node has read the arm's state: its joint_states reader can match
            # joint_state_broadcaster after the arm first moves (the probe heard it), and
            # until then a move is one point, stamped zero
            self.probe.diagnostics_when(lambda values: values.get('arm_state') not in
                                        (None, 'none yet'), 30.0)
        except BaseException as error:  # whatever stops it coming up, nothing is left running
            output = self.launch.output()
            self.close()
            if not isinstance(error, AssertionError):
                raise
            pytest.fail(f'the arm did not come up ({error}):\n{output}')

    def _on_command(self, msg):
        self._on_command_info(msg, None)

    def _on_command_info(self, msg, info):
        self.heard_commands += 1
        number = info.get('publication_sequence_number') if info else None
        if (self.output is Output.FORWARD_COMMAND and self.commands
                and list(msg.data) == list(self.commands[-1].data)):
            # the stream's last position again, until the arm is heard there: it moves
            # nothing, so it is the command before, numbered as the repeat (no gap after)
            self.sequence[-1] = number
            self.last_command_at = time.monotonic()
            return
        self.commands.append(msg)
        self.received_at.append(time.time())
        # when the node wrote it (its middleware's source timestamp; None before Iron)
        self.published_at.append(info['source_timestamp'] / 1e9 if info else None)
        self.sequence.append(number)
        self.last_command_at = time.monotonic()

    def lateness(self, since=0, until=None):
        """
        Return how long after its stamped start each trajectory ``since:until`` reached us (s).

        Negative: ahead of its start, as planned.  The controller takes the
        same messages over the same loopback; one that reaches it after its
        start is sampled where it should be by then (a jump).  Stamp zero
        (start now) is left out.
        """
        pairs = zip(self.commands[since:until], self.received_at[since:until])
        starts = [(seconds(m.header.stamp), received)
                  for m, received in pairs if isinstance(m, JointTrajectory)]
        return [received - start for start, received in starts if start]

    def close(self):
        """Stop the launch (as Ctrl-C would) and the probe; return the launch's exit code."""
        self.probe.close()
        code = self.launch.stop(timeout=30.0)
        os.unlink(self.params_file)
        return code

    def interrupt(self):
        """Ctrl-C the launch; return its exit code once every process it started has ended."""
        code = self.launch.interrupt(timeout=60.0)
        self.probe.close()
        os.unlink(self.params_file)
        return code

    # -- controller_manager ------------------------------------------------------------------

    def controllers(self):
        """
        Return {name: state} from the arm's controller_manager.

        Asked again after 5 s unanswered (``ros_harness.answer``): a starting
        controller_manager on a busy machine can answer into the void.
        """
        from controller_manager_msgs.srv import ListControllers
        client = self._client(ListControllers, 'list_controllers')
        result = answer(self.probe, client, ListControllers.Request(), 15.0, again_after=5.0)
        return {c.name: c.state for c in result.controller}

    def wait_until_active(self, *names, timeout=60.0):
        """Wait until the spawners have activated the named controllers (the stand-in: it runs)."""
        if self.stand_in:  # its controllers are active from its first cycle
            assert self.probe.spin_until(lambda: self.probe.joint_states, timeout), \
                'no joint_states from the ros2_control stand-in'
            return
        from controller_manager_msgs.srv import ListControllers
        client = self._client(ListControllers, 'list_controllers')
        assert self.probe.spin_until(client.service_is_ready, timeout), 'no controller_manager'
        states = {}

        def active():
            nonlocal states
            states = self.controllers()
            return all(states.get(name) == 'active' for name in names)
        assert self.probe.spin_until(active, timeout), f'controllers not active: {states}'

    def load(self, *names):
        """Load and configure controllers named in the controllers file (inactive after)."""
        from controller_manager_msgs.srv import ConfigureController, LoadController
        for name in names:
            for kind, service in ((LoadController, 'load_controller'),
                                  (ConfigureController, 'configure_controller')):
                result = answer(self.probe, self._client(kind, service), kind.Request(name=name))
                assert result.ok, f'{service} refused {name}'

    def switch(self, activate=(), deactivate=()):
        """Activate and deactivate controllers (strict: all or nothing)."""
        from controller_manager_msgs.srv import SwitchController
        client = self._client(SwitchController, 'switch_controller')
        request = SwitchController.Request(activate_controllers=list(activate),
                                           deactivate_controllers=list(deactivate),
                                           strictness=SwitchController.Request.STRICT)
        assert answer(self.probe, client, request).ok, f'switch_controller refused {request}'

    def _client(self, kind, service):
        if service not in self._clients:
            self._clients[service] = self.probe.node.create_client(
                kind, f'{self.namespace}/controller_manager/{service}')
        return self._clients[service]

    # -- the arm -----------------------------------------------------------------------------

    def measured(self):
        """Return the last angles joint_state_broadcaster published, or None."""
        if not self.probe.joint_states:
            return None
        last = self.probe.joint_states[-1]
        return in_joint_order(last.name, last.position, self.joints)

    def at(self, angles, tolerance=AT):
        """Return whether the measured angles are within ``tolerance`` of ``angles``."""
        now = self.measured()
        return now is not None and self._at(now, angles, tolerance)

    def wait_until_at(self, angles, timeout=20.0, tolerance=AT):
        """Wait until the measured angles are within ``tolerance`` of ``angles``."""
        assert self.probe.spin_until(lambda: self.at(angles, tolerance), timeout), \
            f'the arm is at {self.measured()}, not {angles}'
        return self.measured()

    @staticmethod
    def _at(now, angles, tolerance):
        return max(abs(a - b) for a, b in zip(now, angles)) <= tolerance

    def wait_until_tool_at(self, r1, r2, point, timeout=20.0, tolerance=1e-9):
        """Wait until the forward kinematics of the measured angles is ``point``."""
        def there():
            now = self.measured()
            return now is not None and math.dist(forward(r1, r2, *now)[1], point) <= tolerance
        assert self.probe.spin_until(there, timeout), \
            f'the tool is at {forward(r1, r2, *self.measured())[1]}, not {point}'

    def reach(self, x, y, timeout=30.0, resend=''):
        """
        Send the target until the measured arm is at the node's answer; return the answer.

        Sent once: a command that never moves the arm fails the test.  Sent
        again only with ``resend``, the caller's reason (``NOT_MATCHED_YET``: the
        first target after a start or a change of output), whenever the arm,
        not there yet, stood still for 3 s.  Whether the arm moved is judged
        over a whole window, not from one state before the command: on
        ``joint_states`` the node's own states share the topic with
        joint_state_broadcaster's, and one of them, the last heard before a
        switch of output, once passed for a move that never came (CI).
        """
        if self.action:
            return self._reach_by_goal(x, y, timeout, resend)
        deadline = time.monotonic() + timeout
        # the arm's state first: each window's move is judged from one
        assert self.probe.spin_until(lambda: self.measured() is not None, timeout), \
            'no joint_states from joint_state_broadcaster'
        while True:
            end = self.command(x, y, timeout=max(0.0, deadline - time.monotonic()),
                               resend=resend)
            while True:
                before = self.measured()
                if self.probe.spin_until(lambda: self.at(end),
                                         max(0.0, min(3.0, deadline - time.monotonic()))):
                    return end
                assert time.monotonic() < deadline, \
                    f'the arm is at {self.measured()}: the controller did not take {end}'
                if self.measured() == before:
                    assert resend, (f'the arm stood 3 s at {self.measured()}, away from the '
                                    f'command {end}: the controller never took it')
                    break  # stood still for 3 s away from the answer: send again

    def _reach_by_goal(self, x, y, timeout, resend):
        """Send the target (stamped with a number of ours) until it is reached; return the arm."""
        deadline = time.monotonic() + timeout
        while True:
            stamp_id = next(self._stamps)
            self.probe.send(x, y, frame_id='', stamp_id=stamp_id)
            self.targets_sent += 1
            if self.probe.spin_until(
                    lambda: any(m.header.stamp.sec == stamp_id for m in self.reached),
                    max(0.0, min(5.0 if resend else timeout, deadline - time.monotonic()))):
                self.targets_answered += 1
                return self.measured()
            assert time.monotonic() < deadline, f'({x}, {y}) not reached: {self.measured()}'

    def move_to(self, theta1, theta2, timeout=20.0):
        """
        Put the arm at (theta1, theta2) by commanding its controller, as any node could.

        The command is sent again every second until the arm is there: one
        published as the controller's subscription is still being matched
        (its publisher counted, the controller's reader not yet) is lost.
        """
        if self.output is Output.FORWARD_COMMAND:
            message = Float64MultiArray(data=[float(theta1), float(theta2)])
        else:
            point = JointTrajectoryPoint(positions=[float(theta1), float(theta2)])
            point.time_from_start.nanosec = 100_000_000
            message = JointTrajectory(joint_names=list(self.joints), points=[point])
        deadline = time.monotonic() + timeout
        while True:
            self._command_pub.publish(message)
            if time.monotonic() + 1.0 >= deadline:
                return self.wait_until_at((theta1, theta2), max(0.0, deadline - time.monotonic()))
            if self.probe.spin_until(lambda: self.at((theta1, theta2)), 1.0):
                return self.measured()

    def wait_for_node_state(self, angles, timeout=20.0):
        """Wait until the node's diagnostics report the arm at exactly these angles."""
        expected = ' '.join(repr(float(a)) for a in angles)
        values = {}

        def reported():
            nonlocal values
            values = self.probe.latest_diagnostics()[1]
            return values.get('arm_state') == expected
        assert self.probe.spin_until(reported, timeout), \
            f'the node reports the arm at {values.get("arm_state")}, not {expected}'

    def put(self, theta1, theta2):
        """Move the arm and wait until the node has read where it is."""
        self.wait_for_node_state(self.move_to(theta1, theta2))

    def command(self, x, y, timeout=10.0, resend=''):
        """
        Send a target; return the (theta1, theta2) the node commanded for it.

        The answer is the first new command whose tool position is (x, y)
        (for forward_command, which streams each move, the last command of the
        stream, once it has stopped).  Sent once: no answer within ``timeout``
        fails, and ``targets_sent`` / ``targets_answered`` count every one.
        With ``resend`` (the caller's reason, ``NOT_MATCHED_YET``) it is sent
        again after a second in which no command came: our reader can see the
        node's (new) command writer before that writer has matched our reader.
        Not while commands come (a stream under way): a target sent again
        mid-move is a retarget, and a single move would not be one.  A target
        sent twice can be answered twice, so an answer to the previous target
        may still arrive; it is not taken for this one.  This proves what the
        node sends, not that the controller has matched the writer yet:
        ``reach`` proves that.
        """
        seen, seen_messages = len(self.commands), self.heard_commands
        deadline = time.monotonic() + timeout
        answer = None

        def answered():
            nonlocal answer
            new = self.commands[seen:]
            if self.output is Output.FORWARD_COMMAND:
                # a move is streamed: its answer is where the stream stops (a move to where the
                # arm stands, or to the last command, is that command again: kept as one)
                if self.heard_commands == seen_messages or (
                        time.monotonic() - self.last_command_at < STREAM_QUIET_S):
                    return False
                new = self.commands[-1:]
            answer = next((end for end in map(self.commanded_end, new)
                           if math.dist(self.tool(end), (x, y)) <= TOOL_AT), None)
            return answer is not None
        heard = seen_messages  # nothing heard since: send
        while True:
            if self.heard_commands == heard:
                self.probe.send(x, y, frame_id='')
                self.targets_sent += 1
            heard = self.heard_commands if resend else -1  # -1: never sent again
            if self.probe.spin_until(answered, max(0.0, min(1.0 if resend else timeout,
                                                            deadline - time.monotonic()))):
                self.targets_answered += 1
                return answer
            assert time.monotonic() < deadline, \
                f'no command for target ({x}, {y}); new ones: {self.commands[seen:][-5:]}'

    def tool(self, angles):
        """Return the tool position of ``angles`` on this arm."""
        return forward(self.r1, self.r2, *angles)[1]

    def commanded_end(self, command):
        """Return where a recorded command sends the arm."""
        if isinstance(command, Float64MultiArray):
            return tuple(command.data)
        return tuple(command.points[-1].positions)

    def stream_lateness(self):
        """
        Return how much later than planned the last move ended (s): the node's stream held it.

        A forward_command stream whose node came late holds the arm for the
        cycles it missed, and the move ends that much later
        (``stream.move_late_s``, from the node's next diagnostics); 0 for the
        trajectory outputs, whose controller times the move.
        """
        if self.output is not Output.FORWARD_COMMAND:
            return 0.0
        return float(self.probe.latest_diagnostics(timeout=10.0)[1]['stream.move_late_s'])

    def send_path(self, points, stamps_s=None, frame_id=''):
        """Publish a nav_msgs/Path through ``points`` (stamped when ``stamps_s`` is given)."""
        self.path_pub.publish(path_message(points, stamps_s, frame_id))


def path_message(points, stamps_s=None, frame_id=''):
    """Return a nav_msgs/Path through ``points`` (x, y), its poses stamped with ``stamps_s``."""
    msg = Path()
    msg.header.frame_id = frame_id
    for i, (x, y) in enumerate(points):
        pose = PoseStamped()
        pose.header.frame_id = frame_id
        if stamps_s is not None:
            pose.header.stamp.sec = int(stamps_s[i])
            pose.header.stamp.nanosec = int(round((stamps_s[i] % 1) * 1e9))
        pose.pose.position.x, pose.pose.position.y = float(x), float(y)
        pose.pose.orientation.w = 1.0
        msg.poses.append(pose)
    return msg


def in_joint_order(names, values, joints=JOINTS):
    """Return the values of named joints in the order of ``joints`` (any order, others ignored)."""
    return tuple(dict(zip(names, values))[joint] for joint in joints)
