"""
One position as the message of its output, made once and filled in place per target.

``joint_states`` publishes a sensor_msgs/JointState per solved target and
``forward_command`` a std_msgs/Float64MultiArray per streamed position: the
hot path, so each is one message whose stamp and two positions are written
in place (``publish`` serialises at once), not a new message per target.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from array import array
from typing import Any, Sequence

from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray


class PositionMessages:
    """The JointState and the Float64MultiArray of two joints."""

    def __init__(self) -> None:
        """Make both messages; the JointState's names come with ``name``."""
        self._joints = JointState()
        self._joints.position = array('d', (0.0, 0.0))
        self._command = Float64MultiArray()
        self._command.data = array('d', (0.0, 0.0))

    def name(self, joints: Sequence[str]) -> None:
        """Name the JointState's joints."""
        self._joints.name = list(joints)

    def joint_state(self, theta1: float, theta2: float, stamp: Any) -> JointState:
        """Return the JointState of (theta1, theta2) stamped ``stamp``."""
        joints = self._joints
        joints.header.stamp = stamp
        position = joints.position  # filled in place, no new list
        position[0] = theta1
        position[1] = theta2
        return joints

    def command(self, theta1: float, theta2: float) -> Float64MultiArray:
        """Return the Float64MultiArray of (theta1, theta2)."""
        data = self._command.data
        data[0] = theta1
        data[1] = theta2
        return self._command
