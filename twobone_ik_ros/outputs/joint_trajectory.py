"""
``output:=joint_trajectory``: each motion as one JointTrajectory on the controller's topic.

joint_trajectory_controller takes a trajectory_msgs/JointTrajectory on its
``joint_trajectory`` topic and follows it from its stamp on; a new one
replaces the rest of the one it follows.  The messages are
``trajectory_wire.TrajectoryMessages``', written as bytes; the topic does not
answer, so ``arrival`` tells whether the arm got there from its joint states.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Optional

from rclpy.node import Node
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.model.interface import Output
from twobone_ik_ros.motion.ledger import Move
from twobone_ik_ros.outputs.trajectory_wire import TrajectoryMessages
from twobone_ik_ros.outputs.transport import FinishedMotion, Transport, TransportOwner
from twobone_ik_ros.ros.endpoints import publisher


class TrajectoryTopic(Transport):
    """Whole motions published on ``joint_trajectory``: the transport of the topic."""

    def __init__(self, node: Node, owner: TransportOwner) -> None:
        """Make the publisher (the topic does not answer: nothing to tell ``owner``)."""
        self._node = node
        self._messages = TrajectoryMessages()
        self._publisher = publisher(node, Output.JOINT_TRAJECTORY.topic)

    def connected(self) -> bool:
        """Tell whether a subscription takes the trajectories."""
        return bool(self._publisher.get_subscription_count() > 0)

    def configure(self, config: IKConfig) -> None:
        """Name the joints of the messages."""
        self._messages.name(config.joint_names)

    def send(self, motion: FinishedMotion, move: Optional[Move]) -> None:
        """
        Publish ``motion`` (bytes, or the message), unless nothing took it (``move`` None).

        A volatile topic keeps nothing for a subscriber that comes later.
        """
        if move is not None:
            self._publisher.publish(self._messages.write(motion))

    def destroy(self) -> None:
        """Destroy the publisher."""
        self._node.destroy_publisher(self._publisher)
