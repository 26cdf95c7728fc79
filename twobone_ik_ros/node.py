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

The node is a thin shell around ``solver.TwoBoneIK``: it checks the frame and
the numbers of each target, calls the solver, and publishes.  The per-target
callback publishes the joint state first and does nothing it can leave to a
timer: markers are redrawn at ``MARKER_RATE_HZ`` when something changed, and
diagnostics are published at 1 Hz.  Every target ends in exactly one counter
(see ``diagnostics``), and every rejected one in a throttled warning.

Interface (relative names, so a namespace or a remap moves them):
  subscribes ``target`` (geometry_msgs/PointStamped);
  publishes ``joint_states`` (sensor_msgs/JointState), ``elbow``
  (geometry_msgs/PointStamped), ``markers`` (visualization_msgs/MarkerArray)
  and ``/diagnostics`` (diagnostic_msgs/DiagnosticArray).
"""

from __future__ import annotations

import math
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple, Type

from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import PointStamped
from rcl_interfaces.msg import SetParametersResult
import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node
from rclpy.parameter import Parameter
from sensor_msgs.msg import JointState
from twobone_ik_ros.diagnostics import build_diagnostics, TargetCounters
from twobone_ik_ros.markers import arm_markers, workspace_markers
from twobone_ik_ros.parameters import (
    descriptor, IKConfig, PARAMETER_NAMES, PARAMETERS, validate, validate_change)
from twobone_ik_ros.solver import Status
from visualization_msgs.msg import Marker, MarkerArray

NODE_NAME = 'twobone_ik'
QUEUE_DEPTH = 10
MARKER_RATE_HZ = 30.0
DIAGNOSTICS_PERIOD_S = 1.0
WARNING_PERIOD_S = 2.0
#: A coordinate whose square overflows a double cannot be a position anyone
#: meant (1e308 m); such targets are refused instead of clamped.
MAX_COORDINATE = math.sqrt(sys.float_info.max)
# rclpy's parameter exceptions share a base class only in newer releases
_CONFIG_ERRORS: Tuple[Type[BaseException], ...] = (
    ValueError, getattr(rclpy.exceptions, 'ParameterException', ValueError))


class TwoBoneIKNode(Node):
    """Solve every target on ``target`` and publish the arm that reaches it."""

    def __init__(self, node_name: str = NODE_NAME, **kwargs: Any) -> None:
        """Declare and validate parameters; raise ValueError if they are invalid."""
        super().__init__(node_name, **kwargs)
        for spec in PARAMETERS:
            self.declare_parameter(spec.name, spec.default, descriptor(spec))
        self._config: IKConfig = validate(
            {name: self.get_parameter(name).value for name in PARAMETER_NAMES})
        self._counters = TargetCounters()
        self._previous: Optional[Tuple[float, float]] = None
        self._shown_target: Optional[Tuple[float, float]] = None
        self._shown_status = Status.SOLVED
        self._markers_stale = True
        self._last_warning: Dict[str, float] = {}
        self._suppressed: Dict[str, int] = {}
        self._tf_buffer = _make_tf_buffer(self)
        self._joints_msg = JointState()
        self._elbow_msg = PointStamped()
        self._workspace: List[Marker] = []
        self._apply(self._config)

        self._joint_pub = self.create_publisher(JointState, 'joint_states', QUEUE_DEPTH)
        self._elbow_pub = self.create_publisher(PointStamped, 'elbow', QUEUE_DEPTH)
        self._marker_pub = self.create_publisher(MarkerArray, 'markers', QUEUE_DEPTH)
        self._diag_pub = self.create_publisher(DiagnosticArray, '/diagnostics', QUEUE_DEPTH)
        self.create_subscription(PointStamped, 'target', self._on_target, QUEUE_DEPTH)
        self.create_timer(1.0 / MARKER_RATE_HZ, self._publish_markers_if_stale)
        self.create_timer(DIAGNOSTICS_PERIOD_S, self._publish_diagnostics)
        self.add_on_set_parameters_callback(self._on_set_parameters)
        self.get_logger().info(f'ready: {_describe(self._config)}')

    # ------------------------------------------------------------ hot path

    def _on_target(self, msg: PointStamped) -> None:
        counters = self._counters
        counters.received += 1
        config = self._config
        point = msg.point
        x, y = point.x, point.y
        frame = msg.header.frame_id
        if frame and frame != config.base_frame:
            moved = self._to_base_frame(msg, config.base_frame)
            if moved is None:
                return
            x, y = moved
        if not (abs(x) <= MAX_COORDINATE and abs(y) <= MAX_COORDINATE
                and math.isfinite(point.z)):
            finite = math.isfinite(x) and math.isfinite(y) and math.isfinite(point.z)
            reason = 'out_of_range' if finite else 'non_finite'
            self._reject(reason, lambda: f'target ({x!r}, {y!r}, {point.z!r}) dropped: '
                         + ('a coordinate is beyond 1e154 m' if finite
                            else 'a coordinate is not a finite number'))
            return
        result = config.solver.solve(x, y, self._previous)
        if result.status is Status.REJECTED:
            reason = result.reason.label
            self._reject(reason, lambda: (
                f'target ({x:.6g}, {y:.6g}) in {config.base_frame} rejected: '
                f'{_REJECTION_TEXT[reason]} (unreachable={config.unreachable.value})'))
            self._show_target((x, y), Status.REJECTED)
            return
        stamp = msg.header.stamp
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
        elbow = self._elbow_msg
        elbow.header.stamp = stamp
        elbow.point.x, elbow.point.y = elbow_xy
        self._elbow_pub.publish(elbow)
        if result.status is Status.CLAMPED:
            counters.clamped += 1
        else:
            counters.solved += 1
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

    def _to_base_frame(self, msg: PointStamped, base_frame: str) -> Optional[Tuple[float, float]]:
        """Target (x, y) in ``base_frame`` via tf2, or None after rejecting it."""
        source = msg.header.frame_id
        if self._tf_buffer is None:
            self._reject('unknown_frame', lambda: (
                f'target in frame {source!r} dropped: the node works in {base_frame!r} '
                'and tf2_ros is not available to transform between them'))
            return None
        try:
            transform = self._tf_buffer.lookup_transform(base_frame, source, rclpy.time.Time())
        except Exception as error:  # tf2 raises several unrelated exception types
            detail = f'{type(error).__name__}: {error}'
            self._reject('unknown_frame', lambda: (
                f'target in frame {source!r} dropped: no transform to {base_frame!r} ({detail})'))
            return None
        return _apply_transform(transform.transform, msg.point.x, msg.point.y, msg.point.z)

    # ---------------------------------------------------------- timers

    def _publish_markers_if_stale(self) -> None:
        if self._markers_stale:
            self._publish_markers()

    def _publish_markers(self) -> None:
        config = self._config
        moving = arm_markers(config.base_frame, config.r1, config.r2,
                             self._previous or (0.0, 0.0), self._shown_target, self._shown_status)
        self._marker_pub.publish(MarkerArray(markers=moving + self._workspace))
        self._markers_stale = False

    def _publish_diagnostics(self) -> None:
        self._diag_pub.publish(build_diagnostics(
            self.get_name(), self.get_clock().now().to_msg(), self._counters,
            self._config.as_parameters()))
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
        self._apply(config)
        self._publish_markers()  # the arm and the workspace change at once
        self.get_logger().info(f'parameters changed: {_describe(config)}')
        return SetParametersResult(successful=True)

    def _apply(self, config: IKConfig) -> None:
        """Make ``config`` the one in force, with what is derived from it."""
        self._config = config
        self._joints_msg.name = list(config.joint_names)
        self._elbow_msg.header.frame_id = config.base_frame
        self._workspace = workspace_markers(config.base_frame, config.r1, config.r2)


_REJECTION_TEXT = {
    'too_far': 'beyond the reach r1 + r2',
    'too_close': 'inside the hole of radius |r1 - r2| around the shoulder',
    'non_finite': 'a coordinate is not a finite number',
    'joint_limits': 'neither elbow branch fits the joint limits',
}


def _describe(config: IKConfig) -> str:
    return ', '.join(f'{key}={value}' for key, value in config.as_parameters().items())


def _make_tf_buffer(node: Node) -> Any:
    """Return a tf2 buffer with a listener, or None where tf2_ros cannot be imported."""
    try:
        import tf2_ros
    except ImportError:
        node.get_logger().info(
            'tf2_ros is not available: only targets in the base frame (or with an empty '
            'frame_id) are used')
        return None
    buffer = tf2_ros.Buffer()
    # the listener subscribes to /tf and must live as long as the node
    setattr(node, '_tf_listener', tf2_ros.TransformListener(buffer, node))
    return buffer


def _apply_transform(transform: Any, x: float, y: float, z: float) -> Tuple[float, float]:
    """Rotate (x, y, z) by the transform's quaternion, translate, keep x and y."""
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
        node = TwoBoneIKNode()
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    except _CONFIG_ERRORS as error:
        rclpy.logging.get_logger(NODE_NAME).fatal(f'invalid parameters: {error}')
        code = 2
    finally:
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
    if code:
        sys.exit(code)


if __name__ == '__main__':
    main()
