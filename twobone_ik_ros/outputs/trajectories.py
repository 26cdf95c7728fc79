"""
A finished motion as one JointTrajectory: the message joint_trajectory_controller follows.

``joint_trajectory`` and ``follow_joint_trajectory`` send the same
trajectories, on the controller's topic or as the action's goals.  A
motion's points go with what they carry (``FinishedMotion.derivatives``:
positions only, velocities, or accelerations too), stamped with its start
(zero: as the controller takes it).  On the topic the messages are written
as bytes (``trajectory_wire``); a goal carries the message itself.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Optional, Tuple

from trajectory_msgs.msg import JointTrajectory
from twobone_ik_ros.outputs.commands import joint_trajectory
from twobone_ik_ros.outputs.trajectory_wire import TrajectoryWriter
from twobone_ik_ros.outputs.transport import FinishedMotion


class TrajectoryMessages:
    """Finished motions as JointTrajectory messages for two named joints."""

    def __init__(self) -> None:
        """Name no joint until ``name``."""
        self._names: Tuple[str, str] = ('', '')
        self._writer: Optional[TrajectoryWriter] = None

    def name(self, names: Tuple[str, str]) -> None:
        """Name the joints (the writer's layout is made anew only when they change)."""
        if names != self._names:
            self._names = names
            writer = TrajectoryWriter(names)
            self._writer = writer if writer.usable else None

    def write(self, motion: FinishedMotion) -> Any:
        """Return ``motion`` as bytes, or as the message where the writer is not usable."""
        writer = self._writer
        if writer is None:
            return self.message(motion)
        points = motion.points
        if not motion.derivatives:
            return writer.write(points.positions, points.times_ns, stamp_ns=motion.start_ns)
        return writer.write(points.positions, points.times_ns, points.velocities,
                            points.accelerations if motion.derivatives > 1 else None,
                            motion.start_ns)

    def message(self, motion: FinishedMotion) -> JointTrajectory:
        """Return ``motion`` as a JointTrajectory: what an action's goal carries."""
        points = motion.points
        derivatives = motion.derivatives
        msg = joint_trajectory(self._names, points.positions, points.times_ns,
                               points.velocities if derivatives else None,
                               points.accelerations if derivatives > 1 else None)
        msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(motion.start_ns, 1_000_000_000)
        return msg
