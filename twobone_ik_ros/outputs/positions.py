"""
One position as the message of its output, made once and rewritten per target.

``joint_states`` publishes a sensor_msgs/JointState per solved target and
``forward_command`` a std_msgs/Float64MultiArray per streamed position: the
hot path.  Each message is serialised once and its bytes rewritten in place
(``ros.wire``), or, where that writer is not usable, the one message is
filled in place; either way no new message per target.
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
from typing import Any, Optional, Sequence

from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from twobone_ik_ros.ros.wire import SerializedMessage


class PositionMessages:
    """The JointState and the Float64MultiArray of two joints, as bytes or messages."""

    def __init__(self) -> None:
        """Make both messages; the JointState's names come with ``name``."""
        self._joints = JointState()
        self._joints.position = array('d', (0.0, 0.0))
        self._command = Float64MultiArray()
        self._command.data = array('d', (0.0, 0.0))
        self._joints_wire: Optional[SerializedMessage] = None
        self._command_wire = _usable(SerializedMessage(self._command, fill_command, False))

    def name(self, joints: Sequence[str]) -> None:
        """Name the JointState's joints."""
        self._joints.name = list(joints)
        self._joints_wire = _usable(SerializedMessage(self._joints, fill_joint_state))

    def joint_state(self, theta1: float, theta2: float, stamp: Any) -> Any:
        """Return the JointState of (theta1, theta2) stamped ``stamp`` (bytes, or the message)."""
        wire = self._joints_wire
        if wire is not None:
            return wire.write(stamp.sec, stamp.nanosec, theta1, theta2)
        joints = self._joints
        joints.header.stamp = stamp
        position = joints.position  # filled in place, no new list
        position[0] = theta1
        position[1] = theta2
        return joints

    def command(self, theta1: float, theta2: float) -> Any:
        """Return the Float64MultiArray of (theta1, theta2) (bytes, or the message)."""
        wire = self._command_wire
        if wire is not None:
            return wire.write(0, 0, theta1, theta2)
        data = self._command.data
        data[0] = theta1
        data[1] = theta2
        return self._command


def _usable(wire: SerializedMessage) -> Optional[SerializedMessage]:
    return wire if wire.usable else None


def fill_joint_state(message: JointState, sec: int, nanosec: int, a: float, b: float) -> None:
    """Write a stamp and two positions into a JointState (``SerializedMessage``'s fill)."""
    message.header.stamp.sec = sec
    message.header.stamp.nanosec = nanosec
    message.position[0] = a
    message.position[1] = b


def fill_command(message: Float64MultiArray, sec: int, nanosec: int, a: float,
                 b: float) -> None:
    """Write two positions into a Float64MultiArray (no stamp: it has none)."""
    message.data[0] = a
    message.data[1] = b
