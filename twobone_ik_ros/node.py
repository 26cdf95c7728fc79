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

The node is a thin shell around ``solver.TwoBoneIK``: it brings each target
into the base frame, calls the solver, and publishes.  The per-target
callback publishes the joint state first and leaves the rest to timers:
markers are redrawn at ``MARKER_RATE_HZ`` when something changed, the
current solution is published again at ``joint_state_rate`` (so that
robot_state_publisher, which drops joint states closer together than its
publish period, ends on the last solution), and diagnostics go out at 1 Hz.
Every target ends in exactly one counter (see ``diagnostics``), and every
rejected one in a throttled warning.

Interface (relative names, so a namespace or a remap moves them):
  subscribes ``target`` (geometry_msgs/PointStamped; QoS overridable with
  the ``qos_overrides./<ns>/target.subscription.*`` parameters);
  publishes ``joint_states`` (sensor_msgs/JointState), ``elbow``
  (geometry_msgs/PointStamped, only while someone subscribes), ``markers``
  (visualization_msgs/MarkerArray, transient local) and ``/diagnostics``
  (diagnostic_msgs/DiagnosticArray);
  calls ``<robot_state_publisher>/set_parameters`` when the arm changes.
"""

from __future__ import annotations

import math
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import PointStamped
from rcl_interfaces.msg import SetParametersResult
from rcl_interfaces.srv import SetParameters
import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, QoSProfile
from rclpy.qos_overriding_options import QoSOverridingOptions
from rclpy.time import Time
from sensor_msgs.msg import JointState
from twobone_ik_ros.diagnostics import build_diagnostics, REJECTION_TEXT, TargetCounters
from twobone_ik_ros.markers import arm_markers, workspace_markers
from twobone_ik_ros.parameters import (
    as_double, descriptor, IKConfig, MODEL_PARAMETERS, PARAMETER_NAMES, PARAMETERS, validate,
    validate_change)
from twobone_ik_ros.solver import Reason, Status
from twobone_ik_ros.urdf import config_urdf
from visualization_msgs.msg import Marker, MarkerArray

try:  # tf2_ros_py: a declared dependency, but the PyPI-only venv may lack it
    import tf2_ros
except ImportError:  # only targets in the base frame then
    tf2_ros = None  # type: ignore[assignment]

NODE_NAME = 'twobone_ik'
#: Depth of the target queue: reliable, keep-last; a stream of setpoints wants
#: the newest (override with qos_overrides parameters for a list of targets)
QUEUE_DEPTH = 10
MARKER_RATE_HZ = 30.0
DIAGNOSTICS_PERIOD_S = 1.0
WARNING_PERIOD_S = 2.0
#: Targets waiting for a transform at once; beyond that they are rejected
MAX_WAITING_TARGETS = 100
_MARKER_QOS = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL)


class TwoBoneIKNode(Node):
    """Solve every target on ``target`` and publish the arm that reaches it."""

    def __init__(self, node_name: str = NODE_NAME, **kwargs: Any) -> None:
        """Declare and validate parameters; raise ValueError if they are invalid."""
        super().__init__(node_name, **kwargs)
        for spec in PARAMETERS:
            self.declare_parameter(spec.name, spec.default, descriptor(spec))
        values = {name: self.get_parameter(name).value for name in PARAMETER_NAMES}
        config = validate(values)
        # r1:=2 arrives as an INTEGER; store it as the double it means
        self.set_parameters([Parameter(name, Parameter.Type.DOUBLE, float(value))
                             for name, value in values.items()
                             if as_double(name, value) is not value])
        self._counters = TargetCounters()
        self._previous: Optional[Tuple[float, float]] = None
        self._shown_target: Optional[Tuple[float, float]] = None
        self._shown_status = Status.SOLVED
        self._markers_stale = True
        self._last_warning: Dict[str, float] = {}
        self._suppressed: Dict[str, int] = {}
        self._waiting: List[Tuple[float, Any]] = []  # (deadline, future) of parked targets
        self._joints_msg = JointState()
        self._elbow_msg = PointStamped()
        self._workspace: List[Marker] = []
        self._rsp_client: Any = None
        self._robot_description = 'not sent'
        self._joint_state_timer: Any = None

        self._joint_pub = self.create_publisher(JointState, 'joint_states', QUEUE_DEPTH)
        self._elbow_pub = self.create_publisher(PointStamped, 'elbow', QUEUE_DEPTH)
        self._marker_pub = self.create_publisher(MarkerArray, 'markers', _MARKER_QOS)
        self._diag_pub = self.create_publisher(DiagnosticArray, '/diagnostics', QUEUE_DEPTH)
        self._tf_buffer = None
        if tf2_ros is not None:
            self._tf_buffer = tf2_ros.Buffer()
            self._tf_listener = tf2_ros.TransformListener(self._tf_buffer, self)
        self._apply(config)
        self.create_subscription(
            PointStamped, 'target', self._on_target, QUEUE_DEPTH,
            qos_overriding_options=QoSOverridingOptions.with_default_policies())
        self.create_timer(1.0 / MARKER_RATE_HZ, self._on_marker_timer)
        self.create_timer(DIAGNOSTICS_PERIOD_S, self._publish_diagnostics)
        self.create_timer(0.05, self._expire_waiting)
        if hasattr(self, 'add_pre_set_parameters_callback'):  # not on Humble
            self.add_pre_set_parameters_callback(_doubles_as_doubles)
        self.add_on_set_parameters_callback(self._on_set_parameters)
        self.get_logger().info(f'ready: {_describe(config)}')

    # ------------------------------------------------------------ hot path

    def _on_target(self, msg: PointStamped) -> None:
        self._counters.received += 1
        frame = msg.header.frame_id
        if frame and frame != self._config.frame:
            self._transform_and_solve(msg)
            return
        self._solve(msg.point.x, msg.point.y, msg.header.stamp)

    def _solve(self, x: float, y: float, stamp: Any) -> None:
        """Solve a target in the base frame; publish it, or count and warn why not."""
        config = self._config
        result = config.solver.solve(x, y, self._previous)
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
        # one message object each, reused: publish() serialises at once, and
        # the names and frame only change with the parameters
        joints = self._joints_msg
        joints.header.stamp = stamp
        joints.position = [theta1, theta2]
        self._joint_pub.publish(joints)
        if self._elbow_pub.get_subscription_count():
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
        """Count a rejected target and warn, at most once per period per reason."""
        self._counters.reject(reason)
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

    # ---------------------------------------------------------- frames

    def _transform_and_solve(self, msg: PointStamped) -> None:
        """
        Solve a target given in another frame, with tf2.

        The transform is the one at the target's stamp (the latest for a zero
        stamp).  If tf2 cannot give it yet, the target waits for it, without
        blocking the executor, for up to ``transform_timeout`` seconds.
        """
        buffer, base = self._tf_buffer, self._config.frame
        source = msg.header.frame_id
        if buffer is None:
            self._reject('unknown_frame', lambda: (
                f'target in frame {source!r} dropped: the node works in {base!r} '
                'and tf2_ros is not installed to transform between them'))
            return
        if len(self._waiting) >= MAX_WAITING_TARGETS:
            self._reject('unknown_frame', lambda: (
                f'target in frame {source!r} dropped: {MAX_WAITING_TARGETS} targets are '
                f'already waiting for a transform to {base!r}'))
            return
        future = buffer.wait_for_transform_async(base, source, Time.from_msg(msg.header.stamp))
        answered: List[bool] = []  # rclpy releases may run done callbacks again after a cancel

        def once(done: Any) -> None:
            if not answered:
                answered.append(True)
                self._on_transform(done, msg, base)

        future.add_done_callback(once)
        if not answered:
            self._waiting.append((time.monotonic() + self._config.transform_timeout, future))

    def _on_transform(self, future: Any, msg: PointStamped, base: str) -> None:
        source = msg.header.frame_id
        if future.cancelled():
            self._reject('unknown_frame', lambda: (
                f'target in frame {source!r} dropped: no transform to {base!r} '
                f'within transform_timeout={self._config.transform_timeout:g} s'))
            return
        try:
            transform = future.result()
        except tf2_ros.TransformException as error:
            detail = f'{type(error).__name__}: {error}'
            self._reject('unknown_frame', lambda: (
                f'target in frame {source!r} dropped: no transform to {base!r} ({detail})'))
            return
        if base != self._config.frame:  # the base frame changed while it waited
            self._reject('unknown_frame', lambda: (
                f'target in frame {source!r} dropped: the base frame changed to '
                f'{self._config.frame!r} while it waited'))
            return
        x, y = _apply_transform(transform.transform, msg.point.x, msg.point.y, msg.point.z)
        self._solve(x, y, msg.header.stamp)

    def _expire_waiting(self) -> None:
        if not self._waiting:
            return
        now = time.monotonic()
        still = []
        for deadline, future in self._waiting:
            if future.done() or future.cancelled():
                continue
            if deadline <= now:
                future.cancel()  # runs _on_transform, which rejects it
            else:
                still.append((deadline, future))
        self._waiting = still

    # ---------------------------------------------------------- timers

    def _on_marker_timer(self) -> None:
        if self._markers_stale:
            self._publish_markers()

    def _publish_markers(self) -> None:
        config = self._config
        moving = arm_markers(config.frame, config.r1, config.r2,
                             self._previous or (0.0, 0.0), self._shown_target, self._shown_status)
        self._marker_pub.publish(MarkerArray(markers=moving + self._workspace))
        self._markers_stale = False

    def _republish_joint_state(self) -> None:
        """Publish the current solution again, stamped now (see the module docstring)."""
        if self._previous is None:
            return
        joints = self._joints_msg
        joints.header.stamp = self.get_clock().now().to_msg()
        joints.position = list(self._previous)
        self._joint_pub.publish(joints)

    def _publish_diagnostics(self) -> None:
        self._diag_pub.publish(build_diagnostics(
            self.get_fully_qualified_name().lstrip('/'), self.get_clock().now().to_msg(),
            self._counters,
            dict(self._config.as_parameters(), robot_description=self._robot_description)))
        self._counters.rejected_since_report = 0

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
        model_changed = any(name in changes for name in MODEL_PARAMETERS + ('frame_prefix',))
        self._apply(config)
        self._publish_markers()  # the arm and the workspace change at once
        if model_changed:
            self._send_robot_description()
        self.get_logger().info(f'parameters changed: {_describe(config)}')
        return SetParametersResult(successful=True)

    def _apply(self, config: IKConfig) -> None:
        """Make ``config`` the one in force, with what is derived from it."""
        previous = getattr(self, '_config', None)
        self._config = config
        self._joints_msg.name = list(config.joint_names)
        self._elbow_msg.header.frame_id = config.frame
        self._workspace = workspace_markers(config.frame, config.r1, config.r2)
        if previous is None or previous.joint_state_rate != config.joint_state_rate:
            if self._joint_state_timer is not None:
                self.destroy_timer(self._joint_state_timer)
                self._joint_state_timer = None
            if config.joint_state_rate > 0.0:
                self._joint_state_timer = self.create_timer(
                    1.0 / config.joint_state_rate, self._republish_joint_state)
        if previous is None or previous.robot_state_publisher != config.robot_state_publisher:
            if self._rsp_client is not None:
                self.destroy_client(self._rsp_client)
                self._rsp_client = None
            if config.robot_state_publisher:
                self._rsp_client = self.create_client(
                    SetParameters, f'{config.robot_state_publisher}/set_parameters')

    def _send_robot_description(self) -> None:
        """
        Give robot_state_publisher the URDF of the arm now in force.

        robot_state_publisher re-reads ``robot_description`` and
        ``frame_prefix`` when they are set, and republishes the model, so RViz's
        RobotModel follows a runtime change.  Where no such node runs, nothing
        is sent; a refusal or a failed call is logged and shown in diagnostics.
        """
        client = self._rsp_client
        if client is None or not client.service_is_ready():
            self._robot_description = 'not sent: no robot_state_publisher'
            return
        config = self._config
        request = SetParameters.Request(parameters=[
            Parameter('robot_description', Parameter.Type.STRING,
                      config_urdf(config)).to_parameter_msg(),
            Parameter('frame_prefix', Parameter.Type.STRING,
                      config.frame_prefix).to_parameter_msg()])
        self._robot_description = 'sending'
        client.call_async(request).add_done_callback(self._on_robot_description_sent)

    def _on_robot_description_sent(self, future: Any) -> None:
        try:
            results = future.result().results
        except Exception as error:  # the service call itself failed: any error
            problems = [f'{type(error).__name__}: {error}']
        else:
            problems = [r.reason or 'refused' for r in results if not r.successful]
        if problems:
            self._robot_description = 'failed: ' + '; '.join(problems)
            self.get_logger().error(
                f'robot_state_publisher did not take the new robot_description: '
                f'{"; ".join(problems)}; the RobotModel in RViz shows the old arm')
        else:
            self._robot_description = 'updated'


def _doubles_as_doubles(parameters: List[Parameter[Any]]) -> List[Parameter[Any]]:
    """Pre-set callback: ``ros2 param set /twobone_ik r1 2`` stores the double 2.0."""
    return [Parameter(p.name, Parameter.Type.DOUBLE, float(p.value))
            if as_double(p.name, p.value) is not p.value else p for p in parameters]


def _describe(config: IKConfig) -> str:
    return ', '.join(f'{key}={value}' for key, value in config.as_parameters().items())


def _apply_transform(transform: Any, x: float, y: float, z: float) -> Tuple[float, float]:
    """
    Rotate (x, y, z) by the transform's quaternion, translate, keep x and y.

    This is what tf2_geometry_msgs' ``do_transform_point`` computes; that
    module is not a dependency here (it is not available everywhere this
    package runs), and the frame tests check this against tf2 end to end.
    """
    q, t = transform.rotation, transform.translation
    # v' = v + 2 w (u x v) + 2 u x (u x v), with u the quaternion's vector part
    cx = q.y * z - q.z * y
    cy = q.z * x - q.x * z
    cz = q.x * y - q.y * x
    return (x + 2.0 * (q.w * cx + q.y * cz - q.z * cy) + t.x,
            y + 2.0 * (q.w * cy + q.z * cx - q.x * cz) + t.y)


def main(args: Optional[List[str]] = None) -> None:
    """Run the node until SIGINT or shutdown; exit 2 on an invalid configuration."""
    rclpy.init(args=args)
    node = None
    code = 0
    try:
        try:
            node = TwoBoneIKNode()
        except (ValueError, rclpy.exceptions.ParameterException) as error:
            rclpy.logging.get_logger(NODE_NAME).fatal(f'invalid parameters: {error}')
            code = 2
        else:
            rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass  # Ctrl-C, also while starting up, is a clean stop
    finally:
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
    if code:
        sys.exit(code)


if __name__ == '__main__':
    main()
