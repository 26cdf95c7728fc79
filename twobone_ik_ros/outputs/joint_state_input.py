"""
The arm's joint_states as a controller output reads them: each state as it comes.

A controller output plans each move from the arm's state, read off the
joint_states its broadcaster publishes (best effort, so any publisher's QoS
is met; ``ros.endpoints.subscription``).  Each state is handed on with when
it was read (the node's clock) and its stamp, which the controller took at
its cycle (``motion.cycles``).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Callable, Sequence

from rclpy.node import Node
from twobone_ik_ros.ros.clock import node_time_ns
from twobone_ik_ros.ros.endpoints import subscription

#: What hears each joint state: when it was read (the node's clock, ns), its stamp (ns),
#: names, positions and velocities.
Heard = Callable[[int, int, Sequence[str], Sequence[float], Sequence[float]], None]


class JointStateInput:
    """The ``joint_states`` subscription of a controller output."""

    def __init__(self, node: Node, heard: Heard) -> None:
        """Subscribe to ``joint_states``; ``heard`` takes each state as it comes."""
        self._node = node
        self._heard = heard
        self._subscription = subscription(node, 'joint_states', self._arrived)

    def _arrived(self, msg: Any) -> None:
        stamp = msg.header.stamp
        self._heard(node_time_ns(self._node), stamp.sec * 1_000_000_000 + stamp.nanosec,
                    msg.name, msg.position, msg.velocity)

    def destroy(self) -> None:
        """Take the subscription off the graph."""
        self._node.destroy_subscription(self._subscription)
