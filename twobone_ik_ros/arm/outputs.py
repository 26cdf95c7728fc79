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
Where the node's solutions go, for each value of the ``output`` parameter.

``joint_states`` publishes sensor_msgs/JointState for robot_state_publisher
(a display).  The two controller outputs drive an arm through ros2_control,
each target a move planned within the joints' velocity, acceleration and
jerk limits from the arm's current state (``planning``, ``tracking``):
``joint_trajectory`` publishes it as one JointTrajectory on
``joint_trajectory`` (points at the profile's knots, with velocities, and
accelerations when jerk is limited), ``forward_command`` streams its
positions as Float64MultiArray on ``commands`` at ``command_rate`` until
the arm arrives.  Both leave ``joint_states`` to the arm's
joint_state_broadcaster and read it instead (``measured``), as the start
of each move and the previous solution for ``closest``.

``ArmOutput`` owns the entities of the current mode and swaps them when the
parameter changes, so only what the mode uses is on the graph (every entity
costs the executor time on each wake-up).  On a controller output a path is
timed within the limits (``path_timing``) and sent or streamed as a move
is; on joint_states, or before the arm's state is known, it keeps its own
timing (one trajectory, or played back).
"""

from __future__ import annotations

from array import array
import math
import time
from typing import Any, Callable, List, Optional, Sequence, Tuple, TypeVar

import numpy as np
from rclpy.node import Node
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint
from twobone_ik_ros.arm.arrival import Arrival, Warn
from twobone_ik_ros.arm.commands import duration, joint_trajectory
from twobone_ik_ros.arm.feedback import ArmReport
from twobone_ik_ros.arm.motion import Angles, move_time, PathPlan
from twobone_ik_ros.arm.path_timing import (
    load_path_timing, PathMotion, start_path, time_poses)
from twobone_ik_ros.arm.planning import Limits, Planner, Timed
from twobone_ik_ros.arm.tracking import ArmTracker
from twobone_ik_ros.arm.trajectory_wire import TrajectoryWriter
from twobone_ik_ros.model.parameters import IKConfig, Output
from twobone_ik_ros.ros.qos_events import QUIET_PUBLISHER, QUIET_SUBSCRIPTION
from twobone_ik_ros.ros.wire import SerializedMessage

#: How far ahead a joint_trajectory move starts (its stamp): a DDS hop and a
#: controller period, so that the controller has it before it begins.
START_DELAY_NS = 20_000_000
#: A trajectory made later than this before its start is planned again from
#: a later one (``_publish_timed``), at most ``PLAN_ATTEMPTS`` times.
LATE_MARGIN_NS = 5_000_000
PLAN_ATTEMPTS = 3
#: How often a path played back on joint_states or commands is sampled.
PLAYBACK_RATE_HZ = 50.0
QUEUE_DEPTH = 10
AnyTimed = TypeVar('AnyTimed', bound=Timed)


class ArmOutput:
    """Publishers (and the arm's state) of the node's current ``output`` mode."""

    def __init__(self, node: Node, config: IKConfig, moved: Callable[[Angles], None],
                 warn: Warn) -> None:
        """
        Nothing is created until ``configure``; ``moved`` hears each position played back.

        ``warn(key, describe)`` is a throttled warning (moves that failed, a
        stale arm state: ``arrival``).
        """
        self._node = node
        self.arrival = Arrival(node, warn)
        self._moved = moved
        self._output: Optional[Output] = None
        self._publisher: Any = None
        self._state_subscription: Any = None
        self._names: Tuple[str, str] = ('', '')
        self._config: Optional[IKConfig] = None
        self._tracker = ArmTracker(_planner(config))
        self._stream_timer: Any = None
        self._state_names: Optional[List[str]] = None
        self._state_index: Optional[Tuple[int, int]] = None
        self._joints = JointState()
        self._joints.position = array('d', (0.0, 0.0))
        self._command = Float64MultiArray()
        self._command.data = array('d', (0.0, 0.0))
        self._move = JointTrajectory()
        self._move.points = [JointTrajectoryPoint()]
        self._move.points[0].positions = array('d', (0.0, 0.0))
        # the two per-target messages, serialised once and rewritten (see wire)
        self._joints_wire: Optional[SerializedMessage] = None
        self._trajectory_wire: Optional[TrajectoryWriter] = None  # paths (see wire_path)
        self._command_wire = _usable(SerializedMessage(self._command, _fill_command, False))
        self._playback: Optional[Tuple[np.ndarray, np.ndarray, int]] = None
        self._playback_timer: Any = None
        self._listened = False  # something subscribes to the command (``poll``)
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
            'none yet' if measured is None else f'{measured[0]!r} {measured[1]!r}')

    def poll(self) -> None:
        """
        Time out moves and the arm's state; see who listens (the node's housekeeping calls it).

        Whether anything subscribes to the command changes rarely: asked here,
        not of the graph on every target.
        """
        if self._output is None or not self._output.drives_controller:
            return
        self._listened = self._publisher.get_subscription_count() > 0
        if self.arrival.poll():
            self._tracker.forget_measurement()  # plan from the commands until states return

    def _sent(self, stamp: Any, goal: Angles, seconds: float) -> None:
        """Record a move sent now, due in ``seconds``, answering the target stamped ``stamp``."""
        self.arrival.sent(stamp, goal, seconds, self._listened)

    def _due(self, motion: Timed) -> float:
        """Return the seconds from now to the end of ``motion`` just sent (a trajectory's lead)."""
        lead = START_DELAY_NS / 1e9 if self._output is Output.JOINT_TRAJECTORY else 0.0
        return lead + motion.duration

    def configure(self, config: IKConfig) -> None:
        """Make ``config``'s output the one in force (new entities only when it changed)."""
        self._config = config
        planner = self._tracker.planner
        if _limits(config) != (planner.limits, planner.min_duration):
            self._tracker.configure(_planner(config))
        names = config.joint_names
        if names != self._names:
            self._names = names
            self._joints.name = list(names)
            self._joints_wire = _usable(SerializedMessage(self._joints, _fill_joint_state))
            self._move.joint_names = list(names)
            writer = TrajectoryWriter(names)
            self._trajectory_wire = writer if writer.usable else None
            self._state_names, self._state_index = None, None
            self._tracker.forget()
        self.arrival.configure(config, config.output.drives_controller)
        if config.output is self._output:
            return
        self.stop_playback()
        self._stop_stream()
        if self._publisher is not None:
            self._node.destroy_publisher(self._publisher)
        if self._state_subscription is not None:
            self._node.destroy_subscription(self._state_subscription)
        self._state_subscription = None
        self._tracker.forget()
        self._output = config.output
        node = self._node
        message_type, self.send = {
            Output.JOINT_STATES: (JointState, self._send_joint_state),
            Output.FORWARD_COMMAND: (Float64MultiArray, self._send_command),
            Output.JOINT_TRAJECTORY: (JointTrajectory, self._send_move),
        }[config.output]
        self._publisher = node.create_publisher(message_type, config.output.topic, QUEUE_DEPTH,
                                                event_callbacks=QUIET_PUBLISHER)
        self._listened = self._publisher.get_subscription_count() > 0
        if config.output.drives_controller:
            load_path_timing()  # now, not in the first path's callback (see path_timing)
            # best effort takes both reliable and best-effort publishers of the state
            self._state_subscription = node.create_subscription(
                JointState, 'joint_states', self._on_joint_state, qos_profile_sensor_data,
                event_callbacks=QUIET_SUBSCRIPTION)

    # --------------------------------------------------------- one target

    def _send_nothing(self, theta1: float, theta2: float, stamp: Any,
                      start: Optional[Angles]) -> None:
        raise RuntimeError('ArmOutput.configure was not called')

    def _send_joint_state(self, theta1: float, theta2: float, stamp: Any,
                          start: Optional[Angles]) -> None:
        wire = self._joints_wire
        if wire is not None:
            self._publisher.publish(wire.write(stamp.sec, stamp.nanosec, theta1, theta2))
            return
        joints = self._joints
        joints.header.stamp = stamp
        position = joints.position  # filled in place, no new list
        position[0] = theta1
        position[1] = theta2
        self._publisher.publish(joints)

    def _send_command(self, theta1: float, theta2: float, stamp: Any,
                      start: Optional[Angles]) -> None:
        """
        Stream the move to the solution (or, with the arm's state unknown, send it once).

        A stream under way goes on with the new move: its timer is kept, not
        made again per target.
        """
        config = self._config
        assert config is not None
        motion = self._tracker.move((theta1, theta2), time.monotonic_ns())
        if motion is None:
            self._stop_stream()
            self._publish_command(theta1, theta2)
        else:
            self._start_stream(config)
        self._sent(stamp, (theta1, theta2), 0.0 if motion is None else self._due(motion))

    def _start_stream(self, config: IKConfig) -> None:
        """Stream the tracker's move at ``command_rate`` (a stream under way goes on)."""
        if self._stream_timer is None:
            self._stream_timer = self._node.create_timer(1.0 / config.command_rate,
                                                         self._stream)

    def _stream(self) -> None:
        """Publish the move's position now; after its end (the goal, once) stop."""
        now = time.monotonic_ns()
        state = self._tracker.commanded(now)
        if state is None:
            self._stop_stream()
            return
        self._publish_command(state.position[0], state.position[1])
        if not self._tracker.moving(now):
            self._stop_stream()

    def _stop_stream(self) -> None:
        """Stop streaming (destroyed, not cancelled: see ``stop_playback``)."""
        if self._stream_timer is not None:
            self._node.destroy_timer(self._stream_timer)
            self._stream_timer = None

    def _publish_command(self, theta1: float, theta2: float) -> None:
        wire = self._command_wire
        if wire is not None:
            self._publisher.publish(wire.write(0, 0, theta1, theta2))
            return
        data = self._command.data
        data[0] = theta1
        data[1] = theta2
        self._publisher.publish(self._command)

    def _send_move(self, theta1: float, theta2: float, stamp: Any,
                   start: Optional[Angles]) -> None:
        """Publish the move to the solution as one trajectory, stamped with its start."""
        config = self._config
        assert config is not None
        goal = (theta1, theta2)
        motion = self._publish_timed(lambda begin: self._tracker.move(goal, begin), config)
        self._sent(stamp, goal, self._send_point(theta1, theta2, start, config)
                   if motion is None else self._due(motion))

    def _publish_timed(self, plan: Callable[[int], Optional[AnyTimed]],
                       config: IKConfig) -> Optional[AnyTimed]:
        """
        Publish ``plan(begin)`` as a trajectory stamped ``begin``, ``START_DELAY_NS`` ahead.

        Planned again from a later start when making the message took the
        node past ``begin - LATE_MARGIN_NS`` (a collector pass, a busy
        machine): the controller jumps a trajectory whose start has passed to
        where it should be by then.  ``plan`` records the motion in the
        tracker; a motion not sent is undone there.  None when ``plan`` is.
        """
        clock = self._node.get_clock()
        for attempt in range(PLAN_ATTEMPTS):
            begin = clock.now().nanoseconds + START_DELAY_NS
            motion = plan(begin)
            if motion is None:
                return None
            message = self._trajectory(motion, config, begin)
            if clock.now().nanoseconds <= begin - LATE_MARGIN_NS or attempt + 1 == PLAN_ATTEMPTS:
                break
            self._tracker.undo()
        self._publisher.publish(message)
        return motion

    def _trajectory(self, motion: Timed, config: IKConfig, start_ns: int) -> Any:
        """Return the move's points as a message (bytes when the writer is usable)."""
        points = motion.points()
        accelerations = points.accelerations if config.max_joint_jerk > 0.0 else None
        wire = self._trajectory_wire
        if wire is not None:
            return wire.write(points.positions, points.times_ns, points.velocities,
                              accelerations, start_ns)
        msg = joint_trajectory(self._names, points.positions, points.times_ns,
                               points.velocities, accelerations)
        msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(start_ns, 1_000_000_000)
        return msg

    def _send_point(self, theta1: float, theta2: float, start: Optional[Angles],
                    config: IKConfig) -> float:
        """
        Send the solution as one point, timed by the velocity limit; return its seconds.

        Only before the arm's state is known (no joint_states yet): nothing to
        plan from.  The controller interpolates from where the arm is.
        """
        point = self._move.points[0]
        point.positions[0] = theta1
        point.positions[1] = theta2
        seconds = move_time(start, (theta1, theta2), config.max_joint_velocity,
                            config.min_move_time)
        point.time_from_start = duration(round(seconds * 1e9))
        self._publisher.publish(self._move)
        return seconds

    def republish(self, position: Angles, stamp: Any) -> None:
        """Publish ``position`` again on joint_states (that output only)."""
        if self._output is Output.JOINT_STATES and self._playback is None:
            self.send(position[0], position[1], stamp, None)

    # --------------------------------------------------------- the arm's state

    def _on_joint_state(self, msg: JointState) -> None:
        """Keep the arm's (theta1, theta2): matched by name, any order, other joints ignored."""
        names = msg.name
        if names != self._state_names:
            self._state_names = list(names)
            try:
                self._state_index = (names.index(self._names[0]), names.index(self._names[1]))
            except ValueError:
                self._state_index = None
        index = self._state_index
        if index is None:
            return
        position, velocity = msg.position, msg.velocity
        last = max(index)
        if len(position) > last:
            theta1, theta2 = position[index[0]], position[index[1]]
            if math.isfinite(theta1) and math.isfinite(theta2):
                speed: Optional[Angles] = None
                if len(velocity) > last:
                    speed = (velocity[index[0]], velocity[index[1]])
                    if not (math.isfinite(speed[0]) and math.isfinite(speed[1])):
                        speed = None  # joint_state_broadcaster's NaN: no such interface
                self._tracker.measure((theta1, theta2), speed)
                self.arrival.heard((theta1, theta2))

    # --------------------------------------------------------- paths

    def follow(self, plan: PathPlan, names: Sequence[str], stamp: Any) -> Optional[PathMotion]:
        """
        Send a planned path; return it as timed within the limits (None: sent at its own timing).

        A controller output whose arm's state is known runs the path as it
        runs a move (``path_timing``: within the limits, from the arm's
        state; a target after it continues from the path's state).
        Otherwise: one trajectory at the plan's timing, or a playback.  On a
        controller output the path is one move, answering ``stamp``.
        """
        self.stop_playback()
        motion = self._run_path(plan)
        goal = (float(plan.positions[-1, 0]), float(plan.positions[-1, 1]))
        if motion is not None:
            self._sent(stamp, goal, self._due(motion))
            return motion
        self._stop_stream()
        self._tracker.drop_move()  # the path's own timing drives the arm now
        if self._output is Output.JOINT_TRAJECTORY:
            wire = self._trajectory_wire
            self._publisher.publish(
                wire.write(plan.positions, plan.times_ns) if wire is not None
                else joint_trajectory(names, plan.positions, plan.times_ns))
        else:
            self._playback = (plan.positions, plan.times_ns, time.monotonic_ns())
            self._playback_timer = self._node.create_timer(1.0 / PLAYBACK_RATE_HZ, self._play)
        if self._output is not None and self._output.drives_controller:
            self._sent(stamp, goal, float(plan.times_ns[-1]) / 1e9)
        return None

    def _run_path(self, plan: PathPlan) -> Optional[PathMotion]:
        """Time the path from the arm's state and send or stream it (None: no state)."""
        config = self._config
        assert config is not None
        trajectory = self._output is Output.JOINT_TRAJECTORY
        if not (trajectory or self._output is Output.FORWARD_COMMAND):
            return None
        tracker = self._tracker
        if tracker.measured is None and tracker.motion is None:
            return None
        offsets = (plan.times_ns - plan.times_ns[0]) / 1e9 if plan.stamped else None
        timed = time_poses(plan.positions, offsets, tracker.planner.limits)

        def start(begin: int) -> Optional[PathMotion]:
            # the arm's state after the timing, which takes milliseconds
            motion = start_path(timed, tracker.state(begin), tracker.planner)
            if motion is not None:
                tracker.run(motion, begin)
            return motion

        if trajectory:
            self._stop_stream()
            return self._publish_timed(start, config)
        motion = start(time.monotonic_ns())
        if motion is not None:
            self._start_stream(config)
        return motion

    def stop_playback(self) -> None:
        """
        Stop a path being played back (a new target or path replaces it).

        The timer is destroyed, not cancelled: a cancelled timer is still an
        entity the executor checks on every wake-up (rclpy destroys it once
        its callback, which may be the caller, has returned).
        """
        self._playback = None
        if self._playback_timer is not None:
            self._node.destroy_timer(self._playback_timer)
            self._playback_timer = None

    @property
    def playing(self) -> bool:
        """Tell whether a path is being played back."""
        return self._playback is not None

    def _play(self) -> None:
        """Publish the last pose of the path that is due, and stop after the final one."""
        if self._playback is None:
            return
        positions, times_ns, start = self._playback
        index = int(np.searchsorted(times_ns, time.monotonic_ns() - start, side='right')) - 1
        if index < 0:
            return
        theta1, theta2 = float(positions[index, 0]), float(positions[index, 1])
        if self._output is Output.FORWARD_COMMAND:  # the path's own timing: no move planned
            self._publish_command(theta1, theta2)
        else:
            self._send_joint_state(theta1, theta2, self._node.get_clock().now().to_msg(), None)
        self._moved((theta1, theta2))
        if index == len(times_ns) - 1:
            self.stop_playback()


def _limits(config: IKConfig) -> Tuple[Limits, float]:
    """Return what a planner is made of: the joints' limits and the shortest move."""
    return (Limits.of(config.max_joint_velocity, config.max_joint_acceleration,
                      config.max_joint_jerk), config.min_move_time)


def _planner(config: IKConfig) -> Planner:
    return Planner(*_limits(config))


def _usable(wire: SerializedMessage) -> Optional[SerializedMessage]:
    return wire if wire.usable else None


def _fill_joint_state(message: JointState, sec: int, nanosec: int, a: float, b: float) -> None:
    message.header.stamp.sec = sec
    message.header.stamp.nanosec = nanosec
    message.position[0] = a
    message.position[1] = b


def _fill_command(message: Float64MultiArray, sec: int, nanosec: int, a: float,
                  b: float) -> None:
    message.data[0] = a
    message.data[1] = b
