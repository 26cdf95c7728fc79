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
The ROS 2 node: PointStamped targets in, JointState, elbow and markers out.

The node is a thin shell around ``solver.TwoBoneIK``: ``_on_serialized_target``
reads each target from its bytes (``wire``: rclpy's message objects would cost
more than the solve), ``_on_target`` brings one in another frame into the base
frame (``frames.TargetFrames``), ``_solve`` calls the solver and publishes.
The per-target path publishes the joint state and leaves the rest to one
housekeeping timer (every entity costs
rclpy's executor time on every wake-up): markers are redrawn at most
``MARKER_RATE_HZ`` when something changed and someone subscribes, diagnostics
go out at 1 Hz, and the current solution is published again when none went
out for a period of ``joint_state_rate`` (robot_state_publisher drops joint
states closer together than its publish period, so without it a quick
sequence could end on a stale model; while targets stream, it would only
repeat them).  Every
target ends in exactly one counter (see ``diagnostics``), every rejected one
in a throttled warning, and every one lost on the way is counted as lost.

The file is one idea, the node's wiring; what is not wiring lives in the
modules it imports (solver, frames, robot_model, markers, diagnostics), and
``main`` leaves running and stopping the process to ``process.run_node``.

Interface (relative names, so a namespace or a remap moves them):
  subscribes ``target`` (geometry_msgs/PointStamped; QoS overridable with
  the ``qos_overrides./<ns>/target.subscription.*`` parameters) and ``path``
  (nav_msgs/Path, read from its bytes by ``wire_path`` and solved whole:
  ``motion.plan_path``);
  publishes the solutions as the ``output`` parameter says (``outputs``):
  ``joint_states`` (sensor_msgs/JointState), or ``commands``
  (std_msgs/Float64MultiArray) or ``joint_trajectory``
  (trajectory_msgs/JointTrajectory) while subscribing to the arm's
  ``joint_states``; and ``elbow`` (geometry_msgs/PointStamped, only while
  someone subscribes), ``markers`` (visualization_msgs/MarkerArray,
  transient local) and ``/diagnostics`` (diagnostic_msgs/DiagnosticArray);
  calls ``<robot_state_publisher>/set_parameters`` when the arm changes.
"""

from __future__ import annotations

import gc
import math
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from builtin_interfaces.msg import Time
from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import PointStamped
from nav_msgs.msg import Path
import numpy as np
from rcl_interfaces.msg import SetParametersResult
import rclpy
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, QoSProfile
from rclpy.qos_overriding_options import QoSOverridingOptions
from rclpy.serialization import deserialize_message
from rclpy.subscription import Subscription
from std_msgs.msg import Header
from twobone_ik_ros.diagnostics import (
    build_diagnostics, REJECTION_TEXT, SequenceGaps, TargetCounters)
from twobone_ik_ros.frames import apply_transform, TargetFrames
from twobone_ik_ros.guard import CallbackGuard
from twobone_ik_ros.markers import arm_markers, move_arm_markers, workspace_markers
from twobone_ik_ros.motion import Angles, nearest_angles, plan_path
from twobone_ik_ros.outputs import ArmOutput
from twobone_ik_ros.parameters import (
    as_double, descriptor, IKConfig, MODEL_PARAMETERS, PARAMETER_NAMES, PARAMETERS, validate,
    validate_change)
from twobone_ik_ros.process import run_node
from twobone_ik_ros.qos_events import (
    QUIET_PUBLISHER, QUIET_SUBSCRIPTION, SubscriptionEventCallbacks)
from twobone_ik_ros.robot_model import RobotModelSync
from twobone_ik_ros.solver import Reason, Status
from twobone_ik_ros.wire import TargetReader
from twobone_ik_ros.wire_path import PathData, PathReader
from visualization_msgs.msg import MarkerArray

NODE_NAME = 'twobone_ik'
#: Depth of the target queue: reliable, keep-last; a stream of setpoints wants
#: the newest (override with qos_overrides parameters for a list of targets)
QUEUE_DEPTH = 10
MARKER_RATE_HZ = 10.0
DIAGNOSTICS_PERIOD_S = 1.0
WARNING_PERIOD_S = 2.0
_MARKER_QOS = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL)


class TwoBoneIKNode(Node):
    """Solve every target on ``target`` and publish the arm that reaches it."""

    def __init__(self, node_name: str = NODE_NAME, **kwargs: Any) -> None:
        """Declare and validate parameters; raise ValueError if they are invalid."""
        super().__init__(node_name, **kwargs)
        self._guard = CallbackGuard(self.get_logger(), WARNING_PERIOD_S)
        for spec in PARAMETERS:
            self.declare_parameter(spec.name, spec.default, descriptor(spec))
        values = {name: self.get_parameter(name).value for name in PARAMETER_NAMES}
        config = validate(values)
        # r1:=2 arrives as an INTEGER; store it as the double it means
        self.set_parameters([Parameter(name, Parameter.Type.DOUBLE, float(value))
                             for name, value in values.items()
                             if as_double(name, value) is not value])
        self._counters = TargetCounters()
        self._gaps = SequenceGaps()
        self._previous: Optional[Tuple[float, float]] = None
        self._shown_target: Optional[Tuple[float, float]] = None
        self._shown_status = Status.SOLVED
        self._markers_stale = True
        self._next_diagnostics = 0.0
        self._next_joint_state = 0.0  # _solve moves it on: no repeat while targets stream
        self._republish_period = 0.0
        self._next_markers = 0.0
        self._housekeeping_timer: Any = None
        self._last_warning: Dict[str, float] = {}
        self._suppressed: Dict[str, int] = {}
        self._turns = False  # a joint limit reaches beyond +-pi
        self._elbow_listeners = 0  # the elbow's subscribers, counted by the housekeeping
        self._elbow_msg = PointStamped()
        self._drawing = MarkerArray()  # arm, joints, target, then the workspace circles
        self._frames = TargetFrames(self, lambda: self._config.frame, self._guard.wrap)
        self._robot_model = RobotModelSync(self)
        self._output = ArmOutput(self, self._moved)
        # no QoS event handlers on anything of the node's (see qos_events)
        self._elbow_pub = self.create_publisher(PointStamped, 'elbow', QUEUE_DEPTH,
                                                event_callbacks=QUIET_PUBLISHER)
        self._marker_pub = self.create_publisher(MarkerArray, 'markers', _MARKER_QOS,
                                                 event_callbacks=QUIET_PUBLISHER)
        self._diag_pub = self.create_publisher(DiagnosticArray, '/diagnostics', QUEUE_DEPTH,
                                               event_callbacks=QUIET_PUBLISHER)
        self._apply(config)
        # Targets come serialised (raw): read without rclpy's message objects,
        # which cost more than the solve (see wire).  rclpy before Iron passes
        # no message info (and so no sequence numbers).  The one event handled
        # is message_lost: rclpy's default handlers for QoS and type mismatches
        # would be two more entities for the executor to check on every
        # wake-up, and the publisher's side reports those too.
        self._reader = TargetReader()
        self._stamp = Time()  # the stamp of the target being solved, reused
        with_info = hasattr(Subscription, 'CallbackType')
        self.create_subscription(
            PointStamped, 'target',
            self._on_numbered_target if with_info else self._on_serialized_target,
            QUEUE_DEPTH, qos_overriding_options=QoSOverridingOptions.with_default_policies(),
            event_callbacks=SubscriptionEventCallbacks(message_lost=self._on_message_lost,
                                                       use_default_callbacks=False),
            raw=True)
        self._path_reader = PathReader()
        self.create_subscription(
            Path, 'path', self._on_path, QUEUE_DEPTH,
            event_callbacks=QUIET_SUBSCRIPTION, raw=True)
        if hasattr(self, 'add_pre_set_parameters_callback'):  # not on Humble
            self.add_pre_set_parameters_callback(_doubles_as_doubles)
        self.add_on_set_parameters_callback(self._guard.wrap(
            self._on_set_parameters, refuse=lambda error: SetParametersResult(
                successful=False, reason=f'internal error: {error!r} (see the node log)')))
        self.get_logger().info(f'ready: {_describe(config)}')

    # Every subscription and timer callback of the node and its parts is
    # guarded (see guard): a bug costs that one callback, not the node.

    def create_subscription(self, msg_type: Any, topic: str, callback: Any,
                            *args: Any, **kwargs: Any) -> Any:
        """Create a subscription whose callback cannot stop the node."""
        return super().create_subscription(msg_type, topic, self._guard.wrap(callback),
                                           *args, **kwargs)

    def create_timer(self, timer_period_sec: float, callback: Any,
                     *args: Any, **kwargs: Any) -> Any:
        """Create a timer whose callback cannot stop the node."""
        return super().create_timer(timer_period_sec, self._guard.wrap(callback),
                                    *args, **kwargs)

    # ------------------------------------------------------------ hot path

    def _on_numbered_target(self, raw: bytes, info: Dict[str, Any]) -> None:
        """Count the targets its publisher sent before this one that never came, then solve."""
        sequence = info['publication_sequence_number']
        if sequence:  # None or 0 where the middleware does not number samples
            writer = info.get('publisher_gid')
            missed = self._gaps.missed(writer['data'] if writer else None, sequence)
            if missed:
                self._counters.lost += missed
        self._on_serialized_target(raw)

    def _on_serialized_target(self, raw: bytes) -> None:
        """Solve a target in the base frame straight from its bytes; the rest as messages."""
        target = self._reader.read(raw)
        if target is None or target[2] and target[2] != self._config.frame:
            # another encoding, or another frame (tf2 takes the header); what
            # rclpy cannot read either is not a target
            try:
                msg = deserialize_message(raw, PointStamped)
            except Exception as error:  # noqa: B902  (rclpy's error types differ by distro)
                self._counters.received += 1
                detail = str(error)
                self._reject('malformed', lambda: (
                    f'a message of {len(raw)} bytes on target is not a readable '
                    f'PointStamped: {detail}'))
                return
            self._on_target(msg)
            return
        self._counters.received += 1
        stamp = self._stamp
        stamp.sec, stamp.nanosec = target[0], target[1]
        self._solve(target[3], target[4], stamp)

    def _on_message_lost(self, info: Any) -> None:
        self._counters.lost_dds += info.total_count_change

    def _on_target(self, msg: PointStamped) -> None:
        self._counters.received += 1
        frame = msg.header.frame_id
        if frame and frame != self._config.frame:
            point, stamp = msg.point, msg.header.stamp
            self._frames.handle(msg.header, self._config.transform_timeout, lambda transform: (
                self._solve(*apply_transform(transform, point.x, point.y, point.z), stamp)),
                self._reject)
            return
        self._solve(msg.point.x, msg.point.y, msg.header.stamp)

    def _solve(self, x: float, y: float, stamp: Any) -> None:
        """Solve a target in the base frame; publish it, or count and warn why not."""
        config = self._config
        output = self._output
        if output.playing:
            output.stop_playback()  # the newest input wins
        # the arm's measured state when a controller output reads one
        start = output.measured or self._previous
        result = config.solver.solve(x, y, start)
        if result.status is Status.REJECTED:
            reason = result.reason.label
            self._reject(reason, lambda: (
                f'target ({x:.6g}, {y:.6g}) in {config.frame} rejected: '
                f'{REJECTION_TEXT[reason]} (unreachable={config.solver.unreachable.value})'))
            if result.reason is not Reason.NON_FINITE:  # RViz cannot place those
                self._show_target((x, y), Status.REJECTED)
            return
        if not (stamp.sec or stamp.nanosec):
            stamp = self.get_clock().now().to_msg()
        theta1, theta2, elbow_xy = result.theta1, result.theta2, result.elbow
        assert theta1 is not None and theta2 is not None and elbow_xy is not None
        if self._turns:  # multi-turn joints: the representation nearest the arm
            theta1, theta2 = nearest_angles(config.solver, theta1, theta2, start)
        # messages are reused: publish() serialises at once, and the names
        # and frame only change with the parameters
        output.send(theta1, theta2, stamp, start)
        self._next_joint_state = time.monotonic() + self._republish_period
        if self._elbow_listeners:
            elbow = self._elbow_msg
            elbow.header.stamp = stamp
            elbow.point.x, elbow.point.y = elbow_xy
            self._elbow_pub.publish(elbow)
        if result.status is Status.CLAMPED:
            self._counters.clamped += 1
        else:
            self._counters.solved += 1
        self._previous = (theta1, theta2)
        self._show_target((x, y), result.status)

    def _reject(self, reason: str, describe: Callable[[], str]) -> None:
        """Count a rejected target and warn (throttled)."""
        self._counters.reject(reason)
        self._warn(reason, describe)

    def _warn(self, reason: str, describe: Callable[[], str]) -> None:
        """
        Warn at most once per period per reason.

        rclpy's ``throttle_duration_sec`` would drop the warnings in between
        without a trace; this one says how many it held back.
        """
        now = time.monotonic()
        if now - self._last_warning.get(reason, -math.inf) < WARNING_PERIOD_S:
            self._suppressed[reason] = self._suppressed.get(reason, 0) + 1
            return
        self._last_warning[reason] = now
        more = self._suppressed.pop(reason, 0)
        tail = f' ({more} more {reason} target(s) since the last such warning)' if more else ''
        self.get_logger().warning(describe() + tail)

    def _show_target(self, target: Tuple[float, float], status: Status) -> None:
        self._shown_target = target
        self._shown_status = status
        self._markers_stale = True

    # ------------------------------------------------------------ paths

    def _on_path(self, raw: bytes) -> None:
        """Read a path from its bytes, bring it into the base frame (as targets), follow it."""
        self._counters.paths += 1
        path = self._path_reader.read(raw)
        if path is None:  # another form (see wire_path): rclpy reads it
            try:
                path = PathData.from_message(deserialize_message(raw, Path))
            except Exception as error:  # noqa: B902  (rclpy's error types differ by distro)
                detail = str(error)
                self._reject_path('malformed', lambda: (
                    f'a message of {len(raw)} bytes on path is not a readable Path: {detail}'))
                return
        sec, nanosec, frame = path.frame_header()
        points = path.points
        if frame and frame != self._config.frame:
            def use(transform: Any) -> None:
                xs, ys = apply_transform(transform, points[:, 0], points[:, 1], points[:, 2])
                self._follow(np.column_stack((xs, ys)), path.stamps_ns)
            header = Header(stamp=Time(sec=sec, nanosec=nanosec), frame_id=frame)
            self._frames.handle(header, self._config.transform_timeout, use,
                                self._reject_path, 'path')
            return
        self._follow(points[:, :2], path.stamps_ns)

    def _follow(self, points: np.ndarray, stamps: np.ndarray) -> None:
        config = self._config
        output = self._output
        start = output.measured or self._previous
        plan = plan_path(config.solver, points, stamps, start, config.max_joint_velocity,
                         config.min_move_time)
        if plan.rejected:
            text = REJECTION_TEXT.get(plan.rejected, 'the path has no poses')
            self._reject_path(plan.rejected, lambda: (
                f'path of {len(points)} poses rejected: pose {plan.rejected_index} is '
                f'{plan.rejected} ({text}; unreachable={config.solver.unreachable.value})'))
            return
        self._counters.paths_followed += 1
        self._counters.path_poses_clamped += plan.clamped
        self._counters.path_flips += plan.flips
        if plan.flips or plan.unwound:
            self._warn('path_flip', lambda: (
                f'path of {len(points)} poses: the joint limits forced {plan.flips} elbow '
                f'flip(s) and {plan.unwound} full-turn unwinding(s)'))
        output.follow(plan, config.joint_names)
        if not output.playing:  # sent whole: the arm's goal is its last point
            self._moved((float(plan.positions[-1, 0]), float(plan.positions[-1, 1])))

    def _moved(self, position: Angles) -> None:
        """Record where a path put the arm (for closest, markers and the next move)."""
        self._previous = position
        self._shown_target = None
        self._markers_stale = True

    def _reject_path(self, reason: str, describe: Callable[[], str]) -> None:
        self._counters.paths_rejected += 1
        self._warn('path ' + reason, describe)

    # ---------------------------------------------------------- timers

    def _housekeeping(self) -> None:
        """
        Do what is due: redraw stale markers, republish the joint state, diagnostics.

        One timer for all three (at the fastest of their rates), because every
        timer is an entity the executor checks on every wake-up.
        """
        now = time.monotonic()
        self._elbow_listeners = self._elbow_pub.get_subscription_count()
        # a subscriber that comes later still gets the drawing of now: it is
        # stale until published, and the publisher is transient local
        if self._markers_stale and now >= self._next_markers and \
                self._marker_pub.get_subscription_count():
            self._next_markers = now + 1.0 / MARKER_RATE_HZ
            self._publish_markers()
        period = self._republish_period
        if period and now >= self._next_joint_state:
            self._next_joint_state = now + period
            self._republish_joint_state()
        self._robot_model.poll()
        if now >= self._next_diagnostics:
            self._next_diagnostics = now + DIAGNOSTICS_PERIOD_S
            self._diag_pub.publish(build_diagnostics(
                self.get_fully_qualified_name().lstrip('/'), self.get_clock().now().to_msg(),
                self._counters,
                dict(self._config.as_parameters(), robot_description=self._robot_model.state),
                self._arm_state(), self._guard.count))
            self._counters.rejected_since_report = 0

    def _arm_state(self) -> str:
        if not self._config.output.drives_controller:
            return ''
        measured = self._output.measured
        return 'none yet' if measured is None else f'{measured[0]!r} {measured[1]!r}'

    def _publish_markers(self) -> None:
        config = self._config
        move_arm_markers(self._drawing.markers[:3], config.r1, config.r2,
                         self._previous or (0.0, 0.0), self._shown_target, self._shown_status)
        self._marker_pub.publish(self._drawing)
        self._markers_stale = False

    def _republish_joint_state(self) -> None:
        """Publish the current solution again, stamped now (see the module docstring)."""
        if self._previous is not None:
            self._output.republish(self._previous, self.get_clock().now().to_msg())

    # ------------------------------------------------------- parameters

    def _on_set_parameters(self, parameters: List[Parameter[Any]]) -> SetParametersResult:
        """Apply a runtime change only if the whole new configuration is valid."""
        changes = {p.name: p.value for p in parameters if p.name in PARAMETER_NAMES}
        if not changes:
            return SetParametersResult(successful=True)
        try:
            config = validate_change(self._config.as_parameters(), changes)
        except ValueError as error:
            self.get_logger().warning(f'parameter change refused: {error}')
            return SetParametersResult(successful=False, reason=str(error))
        self._apply(config)
        self._publish_markers()  # the arm and the workspace change at once
        if any(name in changes for name in MODEL_PARAMETERS):
            self._robot_model.send(config)
        self.get_logger().info(f'parameters changed: {_describe(config)}')
        return SetParametersResult(successful=True)

    def _apply(self, config: IKConfig) -> None:
        """Make ``config`` the one in force, with what is derived from it."""
        previous = getattr(self, '_config', None)
        self._config = config
        self._output.configure(config)
        self._turns = config.solver.shoulder_limits.multi_turn or \
            config.solver.elbow_limits.multi_turn
        self._elbow_msg.header.frame_id = config.frame
        self._drawing.markers = (
            arm_markers(config.frame, config.r1, config.r2, (0.0, 0.0), None, Status.SOLVED)
            + workspace_markers(config.frame, config.r1, config.r2))
        rate = config.joint_state_rate
        self._republish_period = 1.0 / rate if rate > 0.0 else 0.0
        if previous is None or previous.joint_state_rate != config.joint_state_rate:
            if self._housekeeping_timer is not None:
                self.destroy_timer(self._housekeeping_timer)
            self._housekeeping_timer = self.create_timer(
                1.0 / max(MARKER_RATE_HZ, config.joint_state_rate), self._housekeeping)


def _doubles_as_doubles(parameters: List[Parameter[Any]]) -> List[Parameter[Any]]:
    """Pre-set callback: ``ros2 param set /twobone_ik r1 2`` stores the double 2.0."""
    return [Parameter(p.name, Parameter.Type.DOUBLE, float(p.value))
            if as_double(p.name, p.value) is not p.value else p for p in parameters]


def _describe(config: IKConfig) -> str:
    return ', '.join(f'{key}={value}' for key, value in config.as_parameters().items())


def main(args: Optional[List[str]] = None) -> None:
    """Run the node until SIGINT, SIGTERM or shutdown; exit 2 on an invalid configuration."""
    def make_node() -> TwoBoneIKNode:
        node = TwoBoneIKNode()
        # everything made so far lives as long as the node: keep the collector
        # from walking it again and again while targets stream
        gc.freeze()
        return node

    code = run_node(make_node, args=args, name=NODE_NAME,
                    invalid=(ValueError, rclpy.exceptions.ParameterException))
    if code:
        sys.exit(code)


if __name__ == '__main__':
    main()
