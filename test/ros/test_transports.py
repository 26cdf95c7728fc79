"""
Each controller output's transport, and the switch between modes, without a controller_manager.

In one process, in a context of its own: a node holding the output (a real
``ControllerOutput`` with its transport, or the ``OutputSwitch`` that swaps
modes) and a peer node that plays the controller, over loopback DDS.  The
peer publishes the arm's joint states (a still arm) and takes what the
transport sends: the stream's Float64MultiArray commands, the
JointTrajectory on the topic, the FollowJointTrajectory goal (a minimal
action server of its own, which succeeds each goal).  What each must do:

- before the arm's state is known, a target is one command or one point,
  timed by the velocity limit (a stream: the position at once);
- from the arm's state, a move: the stream's commands step from the arm
  towards the goal, one per controller cycle, and end on it; the
  trajectory starts ``START_DELAY_NS`` ahead at the arm's position and ends
  at the goal at rest; the goal carries ``goal_tolerance`` on every joint
  and its success publishes ``reached``;
- with no one taking the commands the move counts as ``no_controller``;
- a change of ``output`` takes the old mode's entities off the graph and
  puts the new one's on.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import time

import pytest
import rclpy
from rclpy.executors import SingleThreadedExecutor
from ros_harness import unique_name
from twobone_ik_ros.model.config import validate
from twobone_ik_ros.model.parameter_table import DEFAULTS
from twobone_ik_ros.motion.joint_paths import move_time
from twobone_ik_ros.outputs.arrival import ArrivalMonitor
from twobone_ik_ros.outputs.base import OutputServices
from twobone_ik_ros.outputs.controller import ControllerOutput
from twobone_ik_ros.outputs.forward_command import CommandStream
from twobone_ik_ros.outputs.joint_states import JointStatesOutput
from twobone_ik_ros.outputs.joint_trajectory import TrajectoryTopic
from twobone_ik_ros.outputs.modes import MODES, OutputSwitch
from twobone_ik_ros.outputs.motion_start import START_DELAY_NS
from twobone_ik_ros.tools.harness import shut_down

pytestmark = pytest.mark.ros

JOINTS = ['shoulder_joint', 'elbow_joint']
#: fast limits: a move of a few tenths of a radian takes a few tenths of a second
LIMITS = {'max_joint_velocity': 2.0, 'max_joint_acceleration': 20.0, 'command_rate': 100.0}
GOAL = (0.3, -0.2)


def config(output, **values):
    return validate(dict(DEFAULTS, output=output, **LIMITS, **values))


class Bench:
    """The node with the output, and a peer that plays the arm and its controller."""

    def __init__(self):
        from geometry_msgs.msg import PointStamped
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        # a namespace of its own: a node of an earlier test can linger in the graph a while
        self.namespace = '/' + unique_name('transports')
        self.node = rclpy.create_node('transported', namespace=self.namespace,
                                      context=self.context)
        self.peer = rclpy.create_node('controller', namespace=self.namespace,
                                      context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self.executor.add_node(self.peer)
        self.warnings = []
        self.arrival = ArrivalMonitor(self.node, lambda key, describe: self.warnings.append(key))
        self.parts = OutputServices(self.node, self.arrival, lambda position: None, lambda f: f)
        self.received = []
        self.reached = []
        self.peer.create_subscription(PointStamped, 'reached', self.reached.append, 10)
        self._states = None

    def output(self, output, **values):
        """Return the mode of ``output``, configured, as ``modes.MODES`` builds it."""
        ik = config(output, **values)
        self.arrival.configure(ik, True)
        mode = MODES[ik.output](self.parts, ik)
        mode.configure(ik)
        return mode

    def take(self, kind, topic):
        self.peer.create_subscription(kind, topic, self.received.append, 100)

    def arm_at(self, position):
        """Publish the arm's joint states at 100 Hz, still at ``position``."""
        from sensor_msgs.msg import JointState
        from std_msgs.msg import Header
        publisher = self.peer.create_publisher(JointState, 'joint_states', 10)

        def publish():
            publisher.publish(JointState(
                header=Header(stamp=self.peer.get_clock().now().to_msg()), name=JOINTS,
                position=list(position)))
        self._states = self.peer.create_timer(0.01, publish)

    def spin_until(self, condition, timeout=10.0):
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, 'timed out'
            self.executor.spin_once(timeout_sec=0.01)

    def spin_for(self, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.executor.spin_once(timeout_sec=0.01)

    def close(self):
        self.node.destroy_node()
        self.close_peer()

    def close_peer(self):
        self.executor.shutdown()
        self.peer.destroy_node()
        shut_down(self.context)


@pytest.fixture
def bench():
    bench = Bench()
    yield bench
    bench.close()


def stamp_now(node):
    return node.get_clock().now().to_msg()


def heard(bench, mode):
    bench.spin_until(lambda: mode.measured_angles() is not None)


#: the classes each value of ``output`` is made of: its mode and its transport
CLASSES = {'forward_command': (ControllerOutput, CommandStream),
           'joint_trajectory': (ControllerOutput, TrajectoryTopic),
           'joint_states': (JointStatesOutput, type(None))}


def ready(bench, output, kind, topic, arm=None):
    """Return ``output``'s mode with the peer taking ``topic`` (and an arm at ``arm``)."""
    bench.take(kind, topic)
    if arm is not None:
        bench.arm_at(arm)
    mode = bench.output(output)
    mode_class, transport_class = CLASSES[output]
    assert type(mode) is mode_class
    assert type(getattr(mode, '_transport', None)) is transport_class
    if arm is not None:
        heard(bench, mode)
    bench.spin_until(lambda: bench.node.count_subscribers(topic))
    mode.poll()  # the taker is seen
    return mode


def test_each_controller_output_has_its_transport_in_the_table():
    """A row of ``Output`` that drives a controller: its row of ``TRANSPORTS``, its module."""
    from twobone_ik_ros.model.interface import Output
    from twobone_ik_ros.outputs.modes import TRANSPORTS
    from twobone_ik_ros.outputs.transport import Transport
    assert set(TRANSPORTS) == {output for output in Output if output.drives_controller}
    for output, transport in TRANSPORTS.items():
        assert isinstance(transport, type) and issubclass(transport, Transport), output
        assert transport.__module__ == f'twobone_ik_ros.outputs.{output.value}', output


def test_the_stream_sends_one_position_before_the_arm_is_heard(bench):
    from std_msgs.msg import Float64MultiArray
    mode = ready(bench, 'forward_command', Float64MultiArray, 'commands')
    mode.send(*GOAL, stamp_now(bench.node), None)
    bench.spin_until(lambda: bench.received)
    bench.spin_for(0.2)
    assert [tuple(m.data) for m in bench.received] == [GOAL]  # no stream without a state


def test_the_stream_steps_from_the_arm_to_the_goal(bench):
    from std_msgs.msg import Float64MultiArray
    mode = ready(bench, 'forward_command', Float64MultiArray, 'commands', arm=(0.0, 0.0))
    mode.send(*GOAL, stamp_now(bench.node), None)
    bench.spin_until(lambda: bench.received and tuple(bench.received[-1].data) == GOAL, 5.0)
    positions = [tuple(m.data) for m in bench.received]
    assert len(positions) > 5  # a move, not a jump
    for joint in (0, 1):  # from rest to rest: each joint on its way to the goal, never past it
        way = [0.0] + [position[joint] for position in positions]
        steps = [after - before for before, after in zip(way, way[1:])]
        assert all(step * GOAL[joint] >= 0.0 for step in steps)
        assert all(abs(value) <= abs(GOAL[joint]) for value in way)
    assert bench.arrival.ledger.counters.sent == 1


def test_a_last_position_the_controller_lost_goes_again_until_the_arm_is_there(bench):
    """
    forward_command_controller's subscription is best effort (Fast DDS): a command can be lost.

    The peer plays a controller and its arm that loses the stream's last
    position the first time: the stream sends it again, the arm gets there,
    the move is reached, and the stream stops, the arm heard there.
    """
    from sensor_msgs.msg import JointState
    from std_msgs.msg import Float64MultiArray, Header
    arm, lost = [(0.0, 0.0)], []

    def take(msg):
        if tuple(msg.data) == GOAL and not lost:
            lost.append(msg)
        else:
            arm[0] = tuple(msg.data)
    bench.peer.create_subscription(Float64MultiArray, 'commands', take, 100)
    states = bench.peer.create_publisher(JointState, 'joint_states', 10)
    bench.peer.create_timer(0.01, lambda: states.publish(JointState(
        header=Header(stamp=stamp_now(bench.peer)), name=JOINTS, position=list(arm[0]))))
    mode = ready(bench, 'forward_command', Float64MultiArray, 'commands')
    heard(bench, mode)
    mode.send(*GOAL, stamp_now(bench.node), None)
    bench.spin_until(lambda: bench.reached, 5.0)
    assert lost and arm[0] == GOAL
    counters = bench.arrival.ledger.counters
    assert (counters.reached, counters.failed.total) == (1, 0)
    bench.spin_for(0.1)
    sent = len(bench.received)
    bench.spin_for(0.2)
    assert len(bench.received) == sent  # the arm is there: the stream has stopped


def test_the_topic_sends_one_point_timed_by_the_velocity_limit_before_the_arm_is_heard(bench):
    from trajectory_msgs.msg import JointTrajectory
    mode = ready(bench, 'joint_trajectory', JointTrajectory, 'joint_trajectory')
    mode.send(*GOAL, stamp_now(bench.node), None)
    bench.spin_until(lambda: bench.received)
    (trajectory,) = bench.received
    assert trajectory.joint_names == JOINTS
    (point,) = trajectory.points
    assert tuple(point.positions) == GOAL
    seconds = move_time(None, GOAL, LIMITS['max_joint_velocity'], DEFAULTS['min_move_time'])
    assert point.time_from_start.sec + point.time_from_start.nanosec * 1e-9 == \
        pytest.approx(seconds, abs=1e-9)


def test_the_topic_sends_the_move_from_the_arm_whole_stamped_ahead(bench):
    from trajectory_msgs.msg import JointTrajectory
    mode = ready(bench, 'joint_trajectory', JointTrajectory, 'joint_trajectory', arm=(0.0, 0.0))
    before = bench.node.get_clock().now().nanoseconds
    mode.send(*GOAL, stamp_now(bench.node), None)
    bench.spin_until(lambda: bench.received)
    (trajectory,) = bench.received
    start = trajectory.header.stamp.sec * 1_000_000_000 + trajectory.header.stamp.nanosec
    assert start >= before + START_DELAY_NS
    first, last = trajectory.points[0], trajectory.points[-1]
    assert tuple(first.positions) == pytest.approx((0.0, 0.0), abs=1e-9)
    assert tuple(last.positions) == pytest.approx(GOAL, abs=1e-12)
    assert tuple(last.velocities) == pytest.approx((0.0, 0.0), abs=1e-9)
    times = [p.time_from_start.sec + p.time_from_start.nanosec * 1e-9 for p in trajectory.points]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert bench.arrival.ledger.counters.failed.total == 0  # someone listened


def test_a_trajectory_made_too_late_for_its_start_starts_later(bench):
    """
    A host that took the node past the start plans again, leading by twice what it took.

    The first attempt takes 60 ms (a collector pass, a busy machine): its
    start, 20 ms ahead, has passed; the one sent starts at least 120 ms
    after that second attempt began, and the move is due that much later.
    """
    from trajectory_msgs.msg import JointTrajectory
    mode = ready(bench, 'joint_trajectory', JointTrajectory, 'joint_trajectory', arm=(0.0, 0.0))
    tracker = mode._tracker
    plan, begins, clock = tracker.move, [], bench.node.get_clock()

    def slow_once(goal, begin, check):
        begins.append((clock.now().nanoseconds, begin))
        if len(begins) == 1:
            time.sleep(0.06)
        return plan(goal, begin, check)

    tracker.move = slow_once
    mode.send(*GOAL, stamp_now(bench.node), None)
    bench.spin_until(lambda: bench.received)
    (trajectory,) = bench.received
    start = trajectory.header.stamp.sec * 1_000_000_000 + trajectory.header.stamp.nanosec
    assert len(begins) == 2 and start == begins[1][1]
    assert start - begins[1][0] >= START_DELAY_NS + 2 * 60_000_000


def test_a_move_no_one_takes_counts_as_sent_to_no_controller(bench):
    mode = bench.output('joint_trajectory')
    mode.poll()
    mode.send(*GOAL, stamp_now(bench.node), None)
    assert bench.arrival.ledger.counters.failed.counts['no_controller'] == 1


class GoalServer:
    """A FollowJointTrajectory server that records each goal and succeeds it at once."""

    def __init__(self, node):
        from control_msgs.action import FollowJointTrajectory
        from rclpy.action import ActionServer
        self.goals = []
        self._result = FollowJointTrajectory.Result
        self.server = ActionServer(node, FollowJointTrajectory, 'follow_joint_trajectory',
                                   self._execute, goal_callback=self._on_goal)

    def _on_goal(self, goal):
        from rclpy.action import GoalResponse
        self.goals.append(goal)
        return GoalResponse.ACCEPT

    def _execute(self, handle):
        handle.succeed()
        return self._result()


@pytest.mark.control_msgs
def test_the_action_sends_the_move_as_a_goal_and_its_success_is_reached(bench):
    server = GoalServer(bench.peer)
    bench.arm_at(GOAL)  # the arm is at the goal as the server succeeds
    mode = bench.output('follow_joint_trajectory', goal_tolerance=0.002)
    heard(bench, mode)
    bench.spin_until(lambda: mode.poll() or mode._connected)  # the server is seen
    stamp = stamp_now(bench.node)
    mode.send(GOAL[0] + 0.1, GOAL[1], stamp, None)
    bench.spin_until(lambda: mode.poll() or bench.reached)  # the node's timer asks the result
    (goal,) = server.goals
    assert list(goal.trajectory.joint_names) == JOINTS
    assert [(t.name, t.position) for t in goal.goal_tolerance] == \
        [(name, 0.002) for name in JOINTS]
    assert tuple(goal.trajectory.points[-1].positions) == pytest.approx(
        (GOAL[0] + 0.1, GOAL[1]), abs=1e-12)
    assert bench.reached[0].header.stamp == stamp
    assert bench.arrival.ledger.counters.goals['succeeded'] == 1
    server.server.destroy()


@pytest.mark.control_msgs
def test_targets_while_a_goal_is_being_accepted_wait_and_the_newest_goes(bench):
    """At 1 kHz goals queued behind each other's acceptance: one goal per acceptance now."""
    server = GoalServer(bench.peer)
    bench.arm_at(GOAL)
    mode = bench.output('follow_joint_trajectory', goal_tolerance=0.002)
    heard(bench, mode)
    bench.spin_until(lambda: mode.poll() or mode._connected)
    targets = [(GOAL[0] + 0.3, GOAL[1]), (GOAL[0] + 0.2, GOAL[1]), (GOAL[0] + 0.1, GOAL[1])]
    stamps = []
    for target in targets:  # no spin between them: the first goal's acceptance cannot come
        stamps.append(stamp_now(bench.node))
        mode.send(*target, stamps[-1], None)
    assert mode._transport.busy
    bench.arm_at(targets[-1])
    bench.spin_until(lambda: bench.reached)
    assert [tuple(goal.trajectory.points[-1].positions) for goal in server.goals] == \
        [pytest.approx(targets[0], abs=1e-12), pytest.approx(targets[-1], abs=1e-12)]
    assert bench.reached[0].header.stamp == stamps[-1]
    counters = bench.arrival.ledger.counters
    assert (counters.sent, counters.superseded, counters.reached) == (3, 2, 1)
    server.server.destroy()


@pytest.mark.control_msgs
def test_only_the_result_of_the_newest_goal_accepted_by_the_nodes_timer_is_asked_for(bench):
    server = GoalServer(bench.peer)  # succeeds every goal at once
    bench.arm_at(GOAL)
    mode = bench.output('follow_joint_trajectory', goal_tolerance=0.002)
    heard(bench, mode)
    bench.spin_until(lambda: mode.poll() or mode._connected)
    stamps = []
    for offset in (0.3, 0.2, 0.1):  # each accepted before the next goes, no timer between
        stamps.append(stamp_now(bench.node))
        mode.send(GOAL[0] + offset, GOAL[1], stamps[-1], None)
        bench.spin_until(lambda: not mode._transport.busy)
    assert len(server.goals) == 3
    goals = bench.arrival.ledger.counters.goals
    bench.spin_for(0.1)
    assert goals['succeeded'] == 0  # nothing asked yet: the answers wait for the timer
    mode.poll()
    bench.spin_until(lambda: bench.reached)
    bench.spin_for(0.3)
    mode.poll()  # nothing more to ask
    bench.spin_for(0.3)
    assert [message.header.stamp for message in bench.reached] == [stamps[-1]]
    assert dict(goals) == {'succeeded': 1, 'rejected': 0, 'aborted': 0, 'canceled': 0}
    counters = bench.arrival.ledger.counters
    assert (counters.sent, counters.superseded, counters.reached) == (3, 2, 1)
    server.server.destroy()


@pytest.mark.control_msgs
def test_a_server_that_never_accepts_holds_no_target_back_for_long(bench, monkeypatch):
    from twobone_ik_ros.outputs import follow_joint_trajectory
    server = GoalServer(bench.peer)
    bench.arm_at(GOAL)
    mode = bench.output('follow_joint_trajectory')
    heard(bench, mode)
    bench.spin_until(lambda: mode.poll() or mode._connected)
    server.server.destroy()  # gone after the goal went: its acceptance never comes
    monkeypatch.setattr(follow_joint_trajectory, 'ACCEPTANCE_WAIT_NS', 50_000_000)
    mode.send(GOAL[0] + 0.1, GOAL[1], stamp_now(bench.node), None)
    mode.send(GOAL[0] + 0.2, GOAL[1], stamp_now(bench.node), None)  # waits
    assert mode._waiting is not None
    bench.spin_until(lambda: not mode._transport.busy)
    mode.poll()  # the node's timer: the waiting target goes
    assert mode._waiting is None
    assert bench.arrival.ledger.counters.sent == 2


def entities(node):
    """Return the node's publishers' and subscriptions' topics, and its action clients'."""
    from rclpy.action import get_action_client_names_and_types_by_node
    name, namespace = node.get_name(), node.get_namespace()
    published = node.get_publisher_names_and_types_by_node(name, namespace)
    taken = node.get_subscriber_names_and_types_by_node(name, namespace)
    clients = get_action_client_names_and_types_by_node(node, name, namespace)
    return ({topic for topic, _ in published}, {topic for topic, _ in taken},
            len(clients))


@pytest.mark.control_msgs
def test_a_change_of_output_swaps_the_entities_on_the_graph(bench):
    output = OutputSwitch(bench.node, lambda position: None, lambda key, describe: None,
                          lambda f: f)
    #: the mode, its transport; publishing joint_states, taking them, publishing commands,
    #: publishing joint_trajectory, an action client, publishing reached
    expected = {
        'joint_states': ('JointStatesOutput', 'NoneType', True, False, False, False, False,
                         False),
        'forward_command': ('ControllerOutput', 'CommandStream', False, True, True, False,
                            False, True),
        'joint_trajectory': ('ControllerOutput', 'TrajectoryTopic', False, True, False, True,
                             False, True),
        'follow_joint_trajectory': ('ControllerOutput', 'TrajectoryGoals', False, True, False,
                                    False, True, True),
    }

    def seen():
        published, taken, clients = entities(bench.node)
        ns = bench.namespace
        return (type(output.mode).__name__,
                type(getattr(output.mode, '_transport', None)).__name__,
                f'{ns}/joint_states' in published, f'{ns}/joint_states' in taken,
                f'{ns}/commands' in published, f'{ns}/joint_trajectory' in published,
                clients > 0, f'{ns}/reached' in published)

    for value in ('joint_states', 'forward_command', 'joint_trajectory',
                  'follow_joint_trajectory', 'joint_states'):
        output.configure(config(value))
        try:  # the graph takes a moment to show a change
            bench.spin_until(lambda: seen() == expected[value], 10.0)
        except AssertionError:
            pass
        assert seen() == expected[value], value


@pytest.mark.control_msgs
def test_a_mode_rcl_refuses_midway_leaves_the_one_in_force_and_nothing_of_its_own(
        bench, monkeypatch):
    """As SROS2 refuses an output whose topics the enclave's permissions do not name."""
    from action_msgs.msg import GoalStatusArray
    from control_msgs.action import FollowJointTrajectory
    from rclpy.action import ActionClient
    from std_msgs.msg import Float64MultiArray
    from twobone_ik_ros.model.interface import Output
    from twobone_ik_ros.ros.rclpy_workarounds import rclpy_error
    output = OutputSwitch(bench.node, lambda position: None, lambda key, describe: None,
                          lambda f: f)
    output.configure(config('joint_states'))
    in_force = output.mode

    def refused(parts, configuration):
        node = parts.node
        node.create_publisher(Float64MultiArray, 'commands', 10)
        node.create_subscription(GoalStatusArray, 'status', lambda message: None, 10)
        node.create_timer(1.0, lambda: None)
        ActionClient(node, FollowJointTrajectory, 'arm_controller/follow_joint_trajectory')
        raise rclpy_error()('failed to create topic [rt/commands] for unknown reasons')

    before = {kind: set(getattr(bench.node, kind))
              for kind in ('publishers', 'subscriptions', 'timers', 'waitables')}
    monkeypatch.setitem(MODES, Output.FORWARD_COMMAND, refused)
    with pytest.raises(rclpy_error()):
        output.configure(config('forward_command'))
    assert output.mode is in_force
    assert {kind: set(getattr(bench.node, kind)) for kind in before} == before
    output.configure(config('joint_states'))  # the mode in force, configured as before
    assert output.mode is in_force
