"""
``output:=joint_states``: each solution as a sensor_msgs/JointState, for a display.

robot_state_publisher turns the joint states into TF for RViz: nothing is
driven, so nothing is planned.  A solution is published at once, stamped
like its target; a path is played back at its own timing (``Playback``),
its poses checked against the joint limits first; and the node republishes
the current solution at ``joint_state_rate`` (``republish``) so that
robot_state_publisher ends on it however fast targets came.
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

from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.model.interface import Output
from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.motion.joint_paths import PathPlan
from twobone_ik_ros.motion.limit_check import at_rest, position_excursion
from twobone_ik_ros.motion.path_timing import PathMotion
from twobone_ik_ros.outputs.base import OutputMode, OutputServices
from twobone_ik_ros.outputs.positions import PositionMessages
from twobone_ik_ros.ros.endpoints import publisher


class JointStatesOutput(OutputMode):
    """Solutions and paths published as joint states."""

    def __init__(self, parts: OutputServices, config: IKConfig) -> None:
        """Make the ``joint_states`` publisher."""
        super().__init__(parts, config)
        self._messages = PositionMessages()
        self._publisher = publisher(self._node, Output.JOINT_STATES.topic)

    def _named(self, names: Tuple[str, str]) -> None:
        self._messages.name(names)

    def send(self, theta1: float, theta2: float, stamp: Any, arm_at: Optional[Angles]) -> None:
        """Publish the solution stamped ``stamp``, if within the joint limits."""
        self._check_position(theta1, theta2)
        self._publisher.publish(self._messages.joint_state(theta1, theta2, stamp))

    def follow(self, path: PathPlan, stamp: Any) -> Optional[PathMotion]:
        """Play the path back at its own timing (nothing to time it for)."""
        self._playback.stop()
        self._check(at_rest(path.times_ns, path.positions), False, None)
        self._playback.play(path.positions, path.times_ns, self._publish_now)
        return None

    def _publish_now(self, theta1: float, theta2: float) -> None:
        """Publish a joint state stamped now (a path played back)."""
        self.send(theta1, theta2, self._node.get_clock().now().to_msg(), None)

    def republish(self, position: Angles, stamp: Any) -> None:
        """Publish ``position`` again, unless a path plays or it left new limits."""
        if not self.playing and position_excursion(position, self._bounds) is None:
            self.send(position[0], position[1], stamp, None)

    def destroy(self) -> None:
        """Destroy the publisher."""
        super().destroy()
        self._node.destroy_publisher(self._publisher)
