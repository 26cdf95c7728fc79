"""
``output:=joint_trajectory``: each move or path as one JointTrajectory on the controller's topic.

joint_trajectory_controller takes a trajectory_msgs/JointTrajectory on its
``joint_trajectory`` topic and follows it from its stamp on; a new one
replaces the rest of the one it follows.  The trajectories are those of
``TrajectoryOutput``, written as bytes; the topic does not answer, so
``arrival`` tells whether the arm got there from its joint states.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any

from trajectory_msgs.msg import JointTrajectory
from twobone_ik_ros.model.parameter_table import Output
from twobone_ik_ros.outputs.base import Parts, QUEUE_DEPTH
from twobone_ik_ros.outputs.trajectories import TrajectoryOutput
from twobone_ik_ros.ros.qos_events import QUIET_PUBLISHER


class JointTrajectoryOutput(TrajectoryOutput):
    """Trajectories published on ``joint_trajectory``."""

    def _connect(self, parts: Parts) -> None:
        super()._connect(parts)
        self._publisher = self._node.create_publisher(
            JointTrajectory, Output.JOINT_TRAJECTORY.topic, QUEUE_DEPTH,
            event_callbacks=QUIET_PUBLISHER)

    def _listening(self) -> bool:
        return bool(self._publisher.get_subscription_count() > 0)

    def _deliver(self, message: Any) -> None:
        self._publisher.publish(message)

    def destroy(self) -> None:
        """Destroy the publisher."""
        super().destroy()
        self._node.destroy_publisher(self._publisher)
