"""
Where the node's solutions go, for each value of the ``output`` parameter.

``joint_states`` publishes sensor_msgs/JointState for robot_state_publisher
(a display).  The controller outputs drive an arm through ros2_control, each
target a move planned within the joints' limits from the arm's current
state (``planning``, ``tracking``): ``joint_trajectory`` publishes it as
one JointTrajectory, ``follow_joint_trajectory`` sends it as the action's
goal (``goals``: the controller answers), ``forward_command`` streams its
positions on ``commands`` at ``command_rate`` until the arm arrives.  They
read the arm's ``joint_states`` (``measured``): the start of each move and
the previous solution for ``closest``.

``ArmOutput`` owns the entities of the current mode and swaps them when the
parameter changes, so only what the mode uses is on the graph (every entity
costs the executor time on each wake-up).  On a controller output a path is
timed within the limits (``path_timing``) and sent or streamed as a move
is; on joint_states, or before the arm's state is known, it keeps its own
timing.  Every command passes one check on its way out (``_check``:
``limit_check``, the joint limits, between the points too): a move that
fails it is not sent, a path falls back to a timing that passes or is
refused.  The messages are made in ``positions`` and ``trajectories``, the
streams timed in ``streaming``; how each move ended is ``arrival``'s.  One
idea, about 400 lines: the output modes side by side, what each does
with a target, a path and the arm's state.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Tuple

from rclpy.node import Node
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory
from twobone_ik_ros.arm.arrival import Arrival, Warn
from twobone_ik_ros.arm.feedback import ArmReport
from twobone_ik_ros.arm.goals import Guard, TrajectoryGoals
from twobone_ik_ros.arm.limit_check import (
    Bounds, check_motion, Envelope, first, LimitRefusal, position_excursion)
from twobone_ik_ros.arm.motion import Angles, PathPlan
from twobone_ik_ros.arm.path_timing import load_path_timing, PathMotion, run_path, time_poses
from twobone_ik_ros.arm.planning import Limits, Planner, Samples, Still, Timed, Unplanned
from twobone_ik_ros.arm.positions import PositionMessages
from twobone_ik_ros.arm.streaming import Streamer
from twobone_ik_ros.arm.tracking import ArmTracker, JointReader
from twobone_ik_ros.arm.trajectories import at_rest, TrajectorySender
from twobone_ik_ros.model.parameters import IKConfig, Output
from twobone_ik_ros.ros.qos_events import QUIET_PUBLISHER, QUIET_SUBSCRIPTION

QUEUE_DEPTH = 10


class ArmOutput:
    """Publishers (and the arm's state) of the node's current ``output`` mode."""

    def __init__(self, node: Node, config: IKConfig, moved: Callable[[Angles], None],
                 warn: Warn, guard: Guard) -> None:
        """
        Nothing is created until ``configure``; ``moved`` hears each position played back.

        ``warn(key, describe)`` is a throttled warning (moves that failed, a
        stale arm state: ``arrival``); ``guard`` wraps the callbacks the
        node's own wrapping does not reach (the action's answers).
        """
        self._node = node
        self._guard = guard
        self.arrival = Arrival(node, warn)
        self._output: Optional[Output] = None
        self._publisher: Any = None
        self._goals: Optional[TrajectoryGoals] = None  # output follow_joint_trajectory
        self._state_subscription: Any = None
        self._names: Tuple[str, str] = ('', '')
        self._config: Optional[IKConfig] = None
        self._bounds = _bounds(config)
        self._tracker = ArmTracker(_planner(config))
        self._trajectories = TrajectorySender(node, self._tracker)
        self._streamer = Streamer(node, self._tracker, moved)
        self._reader = JointReader()
        self._messages = PositionMessages()
        self._listened = False  # something takes the commands (``poll``)
        #: what the stream may publish of its motion (``limit_check.Envelope``)
        self._envelope = Envelope(self._bounds, None)
        #: publishes one solution: (theta1, theta2, stamp, start of the move or None)
        self.send: Callable[[float, float, Any, Optional[Angles]], None] = self._send_nothing

    @property
    def measured(self) -> Optional[Angles]:
        """Return the arm's last measured angles (controller outputs; None before any)."""
        return self._tracker.measured

    def report(self) -> Optional[ArmReport]:
        """Return the arm's state and moves for diagnostics (None for a display)."""
        if self._output is None or not self._output.drives_controller:
            return None
        measured = self.measured
        return self.arrival.report(
            'none yet' if measured is None else f'{measured[0]!r} {measured[1]!r}',
            self._goals is not None)

    def poll(self) -> None:
        """
        Time out moves and the arm's state; see who listens (the node's housekeeping calls it).

        Whether anything takes the commands changes rarely: asked here, not
        of the graph on every target.
        """
        if self._output is None or not self._output.drives_controller:
            return
        self._listened = self._listening()
        if self.arrival.poll():
            self._tracker.forget_measurement()  # plan from the commands until states return

    def _listening(self) -> bool:
        """Tell whether anything takes the commands: a subscriber, or the action's server."""
        if self._goals is not None:
            return self._goals.ready()
        return bool(self._publisher.get_subscription_count() > 0)

    def _emit(self, message: Any) -> None:
        """
        Publish a trajectory, or send it as the action's goal when its server is there.

        Nothing listening since the last ``poll``: asked again (a controller
        that has just come up), which costs a graph query only then.
        """
        if not self._listened:
            self._listened = self._listening()
        if self._goals is None:
            self._publisher.publish(message)
        elif self._listened:
            assert self._config is not None
            self._goals.send(message, self._config)

    def _sent(self, stamp: Any, goal: Angles, seconds: float, braked: int = 0) -> None:
        """
        Record a move sent now, due in ``seconds``, answering the target stamped ``stamp``.

        ``braked``: it was planned as a stop and a move from rest (``tracking``).
        """
        move = self.arrival.sent(stamp, goal, seconds, self._listened, braked)
        if self._goals is not None:
            self._goals.track(move)

    def _due(self, motion: Timed) -> float:
        """Return the seconds from now to the end of ``motion`` just sent."""
        assert self._output is not None
        if self._output.sends_trajectories:
            return self._trajectories.due(motion)
        return self._streamer.due(motion)

    def configure(self, config: IKConfig) -> None:
        """
        Make ``config``'s output the one in force (new entities only when it changed).

        New limits (positions, velocity, acceleration, jerk, the shortest
        move) while the arm moves rein the motion in (``_rein``).
        """
        self._config = config
        bounds, planner = _bounds(config), self._tracker.planner
        speeds_changed = _limits(config) != (planner.limits, planner.min_duration)
        limits_changed = speeds_changed or bounds != self._bounds
        self._bounds = bounds
        if speeds_changed:
            self._tracker.configure(_planner(config))
        names = config.joint_names
        if names != self._names:
            self._names = names
            self._messages.name(names)
            self._reader.name(names)
            self._tracker.forget()
            self._streamer.cycles.forget()
        self.arrival.configure(config, config.output.drives_controller)
        if config.output is not self._output:
            self._replace_entities(config.output)
        self._trajectories.configure(names, self._emit, as_bytes=self._goals is None,
                                     check=self._check)
        if limits_changed:
            self._rein()

    def _replace_entities(self, output: Output) -> None:
        """Destroy the previous output's publisher (or client) and subscription; make new ones."""
        self._streamer.stop_playback()
        self._streamer.stop_stream()
        node = self._node
        if self._publisher is not None:
            node.destroy_publisher(self._publisher)
            self._publisher = None
        if self._goals is not None:
            self._goals.destroy()
            self._goals = None
        if self._state_subscription is not None:
            node.destroy_subscription(self._state_subscription)
            self._state_subscription = None
        self._tracker.forget()
        self._streamer.cycles.forget()
        self._output = output
        message_type, self.send = {
            Output.JOINT_STATES: (JointState, self._send_joint_state),
            Output.FORWARD_COMMAND: (Float64MultiArray, self._send_command),
            Output.JOINT_TRAJECTORY: (JointTrajectory, self._send_move),
            Output.FOLLOW_JOINT_TRAJECTORY: (None, self._send_move),
        }[output]
        if message_type is None:
            self._goals = TrajectoryGoals(node, self.arrival, self._guard)
        else:
            self._publisher = node.create_publisher(message_type, output.topic, QUEUE_DEPTH,
                                                    event_callbacks=QUIET_PUBLISHER)
        self._listened = self._listening()
        if output.drives_controller:
            load_path_timing()  # now, not in the first path's callback (see path_timing)
            # best effort takes both reliable and best-effort publishers of the state
            self._state_subscription = node.create_subscription(
                JointState, 'joint_states', self._on_joint_state, qos_profile_sensor_data,
                event_callbacks=QUIET_SUBSCRIPTION)

    # --------------------------------------------------------- the limits

    def _check(self, points: Samples, accelerations: bool, start: Optional[Angles]) -> None:
        """
        Refuse ``points`` (``LimitRefusal``) if they or the controller's curve leave the limits.

        The one check of every motion the node commands (``limit_check``);
        the joints may come back from ``start`` (where the arm is; None:
        unknown), no further out, and are held to the limits once inside.
        """
        check_motion(points, accelerations, self._bounds, start)

    def _check_planned(self, motion: Timed) -> None:
        """Refuse a motion planned from the arm's state, which is its first point."""
        points = motion.points()
        self._check(points, motion.needs_accelerations, first(points))

    def _check_position(self, theta1: float, theta2: float) -> None:
        """Refuse a single position outside the limits (``LimitRefusal``)."""
        excursion = position_excursion((theta1, theta2), self._bounds)
        if excursion is not None:
            raise LimitRefusal(excursion)

    def _refused(self, goal: Angles, refusal: Exception) -> None:
        """Count a move to ``goal`` that the check refused, or ruckig did not plan; warn."""
        if isinstance(refusal, LimitRefusal):
            self.arrival.refused(goal, 'joint_limits',
                                 f'it would take {refusal.excursion.describe(self._names)}')
        else:
            self.arrival.refused(goal, 'unplanned', f'ruckig did not plan it ({refusal})')

    # --------------------------------------------------------- one target

    def _send_nothing(self, theta1: float, theta2: float, stamp: Any,
                      start: Optional[Angles]) -> None:
        raise RuntimeError('ArmOutput.configure was not called')

    def _send_joint_state(self, theta1: float, theta2: float, stamp: Any,
                          start: Optional[Angles]) -> None:
        self._check_position(theta1, theta2)
        self._publisher.publish(self._messages.joint_state(theta1, theta2, stamp))

    def _send_command(self, theta1: float, theta2: float, stamp: Any,
                      start: Optional[Angles]) -> None:
        """
        Stream the move to the solution (or, with the arm's state unknown, send it once).

        A stream under way goes on with the new move: its timer is kept, not
        made again per target.
        """
        config = self._config
        assert config is not None
        goal = self._inside((theta1, theta2))
        braked = self._tracker.braked
        try:  # the stream goes on with the move before if this one is refused
            motion = self._tracker.move(goal, self._streamer.begin(config.command_rate),
                                        self._check_planned)
        except (LimitRefusal, Unplanned) as refusal:
            self._refused(goal, refusal)
            return
        if motion is None:
            self._check_position(theta1, theta2)
            self._streamer.stop_stream()
            self._publish_command(theta1, theta2)
        else:
            self._stream(motion)
        self._sent(stamp, goal, 0.0 if motion is None else self._due(motion),
                   self._tracker.braked - braked)

    def _stream(self, motion: Timed) -> None:
        """Stream the tracker's ``motion`` (just recorded), held to what its check allowed."""
        config = self._config
        assert config is not None
        self._envelope = Envelope(self._bounds, first(motion.points()))
        self._streamer.stream(config.command_rate, self._stream_command)

    def _stream_command(self, theta1: float, theta2: float) -> None:
        """Publish a position of the stream's motion, held within its ``Envelope``."""
        self._publish_command(*self._envelope.admit((theta1, theta2)))

    def _publish_command(self, theta1: float, theta2: float) -> None:
        self._publisher.publish(self._messages.command(theta1, theta2))

    def _send_move(self, theta1: float, theta2: float, stamp: Any,
                   start: Optional[Angles]) -> None:
        """Send the move to the solution as one trajectory, stamped with its start."""
        config = self._config
        assert config is not None
        goal = self._inside((theta1, theta2))
        braked = self._tracker.braked
        try:
            motion = self._trajectories.timed(
                lambda begin: self._tracker.move(goal, begin, self._check_planned))
            seconds = (self._trajectories.point(goal, start, config) if motion is None
                       else self._due(motion))
        except (LimitRefusal, Unplanned) as refusal:
            self._refused(goal, refusal)
            return
        self._sent(stamp, goal, seconds, self._tracker.braked - braked)

    def republish(self, position: Angles, stamp: Any) -> None:
        """Publish ``position`` again on joint_states (that output only; not if limits changed)."""
        if (self._output is Output.JOINT_STATES and not self._streamer.playing
                and position_excursion(position, self._bounds) is None):
            self.send(position[0], position[1], stamp, None)

    # --------------------------------------------------------- the arm's state

    def _on_joint_state(self, msg: JointState) -> None:
        """Keep the arm's (theta1, theta2): matched by name, any order, other joints ignored."""
        reading = self._reader.read(msg.name, msg.position, msg.velocity)
        if reading is not None:
            stamp = msg.header.stamp
            self._streamer.cycles.heard(stamp.sec * 1_000_000_000 + stamp.nanosec)
            self._tracker.measure(*reading)
            self.arrival.heard(reading[0])

    # --------------------------------------------------------- paths

    def follow(self, plan: PathPlan, names: Sequence[str], stamp: Any) -> Optional[PathMotion]:
        """
        Send a planned path; return it as timed within the limits (None: sent at its own timing).

        A controller output whose arm's state is known runs the path as it
        runs a move (``path_timing``: within the limits, from the arm's
        state; a target after it continues from the path's state).
        Otherwise: one trajectory at the plan's timing, or a playback.  On a
        controller output the path is one move, answering ``stamp``.
        ``LimitRefusal`` when its motion would leave the joint limits:
        nothing is sent (the caller counts it).
        """
        self._streamer.stop_playback()
        motion = self._run_path(plan)
        goal = (float(plan.positions[-1, 0]), float(plan.positions[-1, 1]))
        if motion is not None:
            self._sent(stamp, goal, self._due(motion))
            return motion
        self._streamer.stop_stream()
        self._tracker.drop_move()  # the path's own timing drives the arm now
        output = self._output
        if output is not None and output.sends_trajectories:
            self._trajectories.plan(plan)
        else:  # the path's own timing: no move planned, from wherever the arm is
            self._check(at_rest(plan.times_ns, plan.positions), False, None)
            self._streamer.play(plan.positions, plan.times_ns,
                                self._publish_command if output is Output.FORWARD_COMMAND
                                else self._publish_now)
        if output is not None and output.drives_controller:
            self._sent(stamp, goal, float(plan.times_ns[-1]) / 1e9)
        return None

    def _publish_now(self, theta1: float, theta2: float) -> None:
        """Publish a joint state stamped now (a path played back)."""
        self._send_joint_state(theta1, theta2, self._node.get_clock().now().to_msg(), None)

    def _run_path(self, plan: PathPlan) -> Optional[PathMotion]:
        """Time the path from the arm's state and send or stream it (None: no state)."""
        config = self._config
        assert config is not None
        trajectory = self._output is not None and self._output.sends_trajectories
        if not (trajectory or self._output is Output.FORWARD_COMMAND):
            return None
        tracker = self._tracker
        if not tracker.known:
            return None
        parts = [time_poses(plan.positions[begin:end],
                            (plan.times_ns[begin:end] - plan.times_ns[begin]) / 1e9
                            if plan.stamped else None, tracker.planner.limits)
                 for begin, end in plan.parts]

        def start(begin: int) -> Optional[PathMotion]:
            # the arm's state after the timing, which takes milliseconds
            motion = run_path(parts, tracker.state(begin), tracker.planner, self._bounds)
            if motion is not None:
                tracker.run(motion, begin)
            return motion

        if trajectory:
            self._streamer.stop_stream()
            return self._trajectories.timed(start)
        motion = start(self._streamer.begin(config.command_rate))
        if motion is not None:
            self._stream(motion)
        return motion

    def stop_playback(self) -> None:
        """Stop a path being played back (a new target or path replaces it)."""
        self._streamer.stop_playback()

    # --------------------------------------------------------- new limits

    def _rein(self) -> None:
        """
        Bring what moves the arm within new limits: nothing sent after the change goes past them.

        A path played back at its own timing stops if what is still to come
        leaves them.  A controller's move under way is re-planned to its goal
        held inside the new limits, a path stopped (``ArmTracker.rein``: the
        move, else the quickest stop and a move from rest, else a move from
        rest where the arm is), and sent as a target's move is, answering the
        same stamp; the move before is superseded (doc/motion.md).
        """
        output, config, tracker = self._output, self._config, self._tracker
        assert output is not None and config is not None
        ahead = self._streamer.ahead()
        if ahead is not None:
            if any(position_excursion((float(p[0]), float(p[1])), self._bounds) is not None
                   for p in ahead):
                self._streamer.stop_playback()
                self._node.get_logger().warning(
                    'the joint limits changed while a path was played back: it stopped, as '
                    'its poses still to come leave the new limits')
            return
        motion = tracker.motion
        if motion is None or not output.drives_controller:
            return
        goal = None if isinstance(motion, PathMotion) else self._inside(motion.goal)
        pending = self.arrival.ledger.pending
        stamp = pending.stamp if pending is not None else \
            self._node.get_clock().now().to_msg()

        def rein(begin: int) -> Optional[Timed]:
            return tracker.rein(begin, goal, self._inside, self._check_planned)

        if output.sends_trajectories:
            reined = self._trajectories.timed(rein)
        else:
            reined = rein(self._streamer.begin(config.command_rate))
            if reined is not None:
                self._stream(reined)
        if reined is None:
            return  # the motion was over
        self._sent(stamp, reined.goal, self._due(reined))
        self._node.get_logger().warning(
            'the limits changed while the arm moved: '
            + ('it is held where it was: no motion within them could be planned'
               if isinstance(reined, Still) else 'the path stopped within them'
               if goal is None else
               f'the move re-planned within them, to {goal[0]:.6g} {goal[1]:.6g}'))

    def _inside(self, position: Angles) -> Angles:
        """Return ``position`` held inside the joint limits: a goal (``Bounds.inside``)."""
        return self._bounds.inside(position)

    def clock_jumped(self) -> None:
        """
        End what is timed on the node's clock: it jumped back, changed or started (``node``).

        The stream and a playback stop, the move under way is given up
        (``arrival``), and the arm's state, its controller's cycles and the
        last move are forgotten: the next target plans from the arm as it is
        heard after the jump.  A trajectory the controller has keeps running
        there: a controller on the same clock has been reset with it.
        """
        self._streamer.stop_playback()
        self._streamer.stop_stream()
        self._tracker.forget()
        self._streamer.cycles.forget()
        self.arrival.clock_jumped()

    @property
    def playing(self) -> bool:
        """Tell whether a path is being played back."""
        return self._streamer.playing


def arm_limits(config: IKConfig) -> Tuple[Tuple[Limits, float], Bounds]:
    """Return what moves are planned and checked within: the planner's limits, the bounds."""
    return _limits(config), _bounds(config)


def _limits(config: IKConfig) -> Tuple[Limits, float]:
    """Return what a planner is made of: the joints' limits and the shortest move."""
    return (Limits.of(config.max_joint_velocity, config.max_joint_acceleration,
                      config.max_joint_jerk), config.min_move_time)


def _planner(config: IKConfig) -> Planner:
    return Planner(*_limits(config))


def _bounds(config: IKConfig) -> Bounds:
    return Bounds.of(config.solver.shoulder_limits, config.solver.elbow_limits)
