"""
``output:=joint_trajectory``: each move or path as one JointTrajectory on the controller's topic.

joint_trajectory_controller takes a trajectory_msgs/JointTrajectory on its
``joint_trajectory`` topic and follows it from its stamp on; a new one
replaces the rest of the one it follows.  The trajectories are those of
``trajectories.TrajectorySender``, written as bytes; the topic does not
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

from typing import Any, Optional

from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.model.parameter_table import Output
from twobone_ik_ros.motion.feedback import Move
from twobone_ik_ros.outputs.controller import Carrier
from twobone_ik_ros.outputs.trajectories import TrajectorySender
from twobone_ik_ros.ros.endpoints import publisher


class TrajectoryTopic:
    """Trajectories published on ``joint_trajectory``: a ``trajectories.Delivery``."""

    answers = False
    as_bytes = True
    busy = False  # a message is taken as it is published

    def __init__(self, carrier: Carrier) -> None:
        """Make the publisher."""
        self._node = carrier.node
        self._publisher = publisher(carrier.node, Output.JOINT_TRAJECTORY.topic)

    def ready(self) -> bool:
        """Tell whether a subscription takes the trajectories."""
        return bool(self._publisher.get_subscription_count() > 0)

    def deliver(self, trajectory: Any, config: IKConfig) -> None:
        """Publish the trajectory (bytes or the message)."""
        self._publisher.publish(trajectory)

    def poll(self) -> None:
        """Nothing waits: the topic does not answer."""

    def track(self, move: Optional[Move]) -> None:
        """Nothing to follow: the topic does not answer."""

    def destroy(self) -> None:
        """Destroy the publisher."""
        self._node.destroy_publisher(self._publisher)


def joint_trajectory_transport(carrier: Carrier) -> TrajectorySender:
    """Return the transport of ``output:=joint_trajectory``."""
    return TrajectorySender(carrier, TrajectoryTopic(carrier))
