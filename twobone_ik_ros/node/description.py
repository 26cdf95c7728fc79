"""
The user's robot description in: ``robot_description`` read while ``tip_link`` is set.

robot_state_publisher publishes the URDF it holds on ``robot_description``
(std_msgs/String, reliable, transient local: a late subscriber gets it, and
it republishes when its parameter changes); controller_manager reads the
same topic from Jazzy on.  The node subscribes to it, relative to its
namespace as both of those do, only while ``tip_link`` is set, and hands
each text to the node, which reads the arm from it
(``model.config.validate``).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Callable, Optional

from rclpy.node import Node
from std_msgs.msg import String
from twobone_ik_ros.ros.endpoints import subscription


class DescriptionInput:
    """``robot_description`` while wanted; ``text`` is the last one, ``received`` their count."""

    def __init__(self, node: Node, on_text: Callable[[str], None]) -> None:
        """Subscribe on ``node`` once ``want(True)``; ``on_text`` gets each description."""
        self._node = node
        self._on_text = on_text
        self._subscription: Any = None
        self.text: Optional[str] = None
        self.received = 0

    def want(self, wanted: bool) -> None:
        """Subscribe (``wanted``) or unsubscribe and forget the description held."""
        if wanted and self._subscription is None:
            self._subscription = subscription(self._node, 'robot_description', self._on_message)
        elif not wanted and self._subscription is not None:
            self._node.destroy_subscription(self._subscription)
            self._subscription = None
            self.text = None

    def _on_message(self, msg: String) -> None:
        self.received += 1
        self.text = msg.data
        self._on_text(msg.data)
