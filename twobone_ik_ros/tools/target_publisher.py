"""
Demo target source: publishes a pattern of PointStamped targets at a set rate.

Parameters: ``pattern`` (circle | figure_eight | random_walk | step), ``rate``
(targets per second), ``r1`` and ``r2`` (to size the pattern to the arm),
``frame_id``, ``seed`` (random_walk), ``count`` (stop after that many;
0 runs until shut down) and ``min_subscribers`` (send nothing until that many
subscriptions are matched, so the first targets are not lost to discovery).
Publishes on ``target``, stamped with the time of sending, so a listener can
measure latency through the IK node.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, List, Optional

from geometry_msgs.msg import PointStamped
from rcl_interfaces.msg import ParameterDescriptor
from rclpy.duration import Duration
from rclpy.node import Node
from twobone_ik_ros.model.parameter_table import DEFAULTS
from twobone_ik_ros.ros.process import run_node
from twobone_ik_ros.tools.target_patterns import make_pattern, PATTERNS


#: How long the source waits, after its last target, for every reader to have them all: a
#: writer that ends first takes the ones still unacknowledged with it, and the node cannot
#: count those as lost (no later sequence number shows the gap; 3 of 150 on a busy host).
ACKED_WITHIN_S = 10.0


class TargetPublisher(Node):
    """Publish the chosen pattern on ``target`` until done or shut down."""

    def __init__(self, **kwargs: Any) -> None:
        """Declare parameters and start the publishing timer."""
        super().__init__('target_publisher', **kwargs)
        dynamic = ParameterDescriptor(dynamic_typing=True)
        pattern: str = self.declare_parameter(
            'pattern', 'figure_eight',
            ParameterDescriptor(description=f'one of {", ".join(PATTERNS)}')).value
        rate = float(self.declare_parameter('rate', 20.0, dynamic).value)
        r1 = float(self.declare_parameter('r1', DEFAULTS['r1'], dynamic).value)
        r2 = float(self.declare_parameter('r2', DEFAULTS['r2'], dynamic).value)
        self._frame_id: str = self.declare_parameter('frame_id', 'base_link').value
        seed = int(self.declare_parameter('seed', 0).value)
        self._remaining = int(self.declare_parameter('count', 0).value) or -1
        self._min_subscribers = int(self.declare_parameter('min_subscribers', 1).value)
        self._points = make_pattern(pattern, r1, r2, rate, seed)
        # a counted burst is kept whole for the readers until they acknowledge it: a reader the
        # writer matched before the reader matched the writer asks for the first ones late
        self._pub = self.create_publisher(PointStamped, 'target', max(10, self._remaining))
        self._timer = self.create_timer(1.0 / rate, self._publish)
        self.get_logger().info(f'publishing {pattern} targets at {rate:g} Hz on '
                               f'{self._pub.topic_name}')

    @property
    def done(self) -> bool:
        """Tell whether the requested count of targets has been sent."""
        return self._remaining == 0

    def _publish(self) -> None:
        if self.done or self._pub.get_subscription_count() < self._min_subscribers:
            return
        msg = PointStamped()
        msg.header.stamp = self.get_clock().now().to_msg()
        msg.header.frame_id = self._frame_id
        msg.point.x, msg.point.y = next(self._points)
        self._pub.publish(msg)
        self._remaining -= 1
        if self.done:  # the last: keep the writer until every reader has all (reliable)
            self._pub.wait_for_all_acked(Duration(seconds=ACKED_WITHIN_S))


def main(args: Optional[List[str]] = None) -> None:
    """Run until the count is reached, SIGINT, SIGTERM or shutdown."""
    code = run_node(TargetPublisher, args=args, until=lambda node: node.done,
                    invalid=(ValueError,), name='target_publisher')
    if code:
        raise SystemExit(code)


if __name__ == '__main__':
    main()
