"""
The node's drawing of the arm in RViz: when to redraw and what.

The markers themselves are a pure function (``markers``); this part decides
when they go out: at most ``MARKER_RATE_HZ``, only when something changed
and someone subscribes, from the node's one housekeeping timer.  The
publisher is transient local, and a drawing stays stale until published, so a subscriber
that comes later still gets the drawing of now.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Optional, Tuple

from rclpy.node import Node
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.node.markers import arm_markers, move_arm_markers, workspace_markers
from twobone_ik_ros.ros.endpoints import publisher
from twobone_ik_ros.solver import Status
from visualization_msgs.msg import MarkerArray

MARKER_RATE_HZ = 10.0


class ArmDrawing:
    """Markers of the arm, its last target and its workspace on ``markers``."""

    def __init__(self, node: Node, config: IKConfig) -> None:
        """Create the ``markers`` publisher on ``node`` for the arm of ``config``."""
        self._publisher = publisher(node, 'markers')
        self._drawing = MarkerArray()  # arm, joints, target, then the workspace circles
        self._target: Optional[Tuple[float, float]] = None
        self._status = Status.SOLVED
        self._next = 0.0
        self.configure(config)

    def configure(self, config: IKConfig) -> None:
        """Draw the arm of ``config`` from now on (the workspace circles change with it)."""
        self._config = config
        self._drawing.markers = (
            arm_markers(config.frame, config.arm, (0.0, 0.0), None, Status.SOLVED)
            + workspace_markers(config.frame, config.arm))
        self._stale = True

    def show_target(self, target: Tuple[float, float], status: Status) -> None:
        """Mark ``target`` as the last one, coloured by ``status``, at the next redraw."""
        self._target = target
        self._status = status
        self._stale = True

    def moved(self) -> None:
        """Redraw the arm without a target (a path or a playback moved it)."""
        self._target = None
        self._stale = True

    def poll(self, now: float, angles: Optional[Angles]) -> None:
        """Redraw at ``angles`` if the drawing is stale, due at ``now`` and someone listens."""
        if self._stale and now >= self._next and self._publisher.get_subscription_count():
            self._next = now + 1.0 / MARKER_RATE_HZ
            self.publish(angles)

    def publish(self, angles: Optional[Angles]) -> None:
        """Draw the arm at ``angles`` (its joints at zero before the first) now."""
        config = self._config
        move_arm_markers(self._drawing.markers[:3], config.arm,
                         angles or (0.0, 0.0), self._target, self._status)
        self._publisher.publish(self._drawing)
        self._stale = False
