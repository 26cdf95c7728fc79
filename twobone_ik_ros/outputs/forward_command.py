"""
``output:=forward_command``: each move streamed on ``commands`` at the controller's cycles.

forward_command_controller takes a std_msgs/Float64MultiArray of positions
and holds the last one: a move has to reach it position by position, one
per controller cycle.  The move is planned within the limits as every
controller move is (``controller``) and streamed at ``command_rate``
(``streaming.Stream``: each position evaluated at the cycle it is for); a
new target while it streams continues from where the stream is.  Every
position streamed is held within what the move's check allowed
(``limit_check.Envelope``).  Before the arm's state is known a target is
one position and a path plays back at its own timing.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Callable, Optional

from std_msgs.msg import Float64MultiArray
from twobone_ik_ros.model.parameter_table import Output
from twobone_ik_ros.motion.joint_paths import Angles, PathPlan
from twobone_ik_ros.motion.limit_check import Envelope, first
from twobone_ik_ros.motion.planning import Timed
from twobone_ik_ros.outputs.base import Parts, QUEUE_DEPTH
from twobone_ik_ros.outputs.controller import AnyTimed, ControllerOutput
from twobone_ik_ros.outputs.positions import PositionMessages
from twobone_ik_ros.outputs.streaming import Stream
from twobone_ik_ros.outputs.trajectories import at_rest
from twobone_ik_ros.ros.qos_events import QUIET_PUBLISHER


class ForwardCommandOutput(ControllerOutput):
    """Moves streamed as positions for forward_command_controller."""

    def _connect(self, parts: Parts) -> None:
        self._stream = Stream(self._node, self._tracker)
        self._messages = PositionMessages()
        #: what the stream may publish of its motion (``limit_check.Envelope``)
        self._envelope = Envelope(self._bounds, None)
        self._publisher = self._node.create_publisher(
            Float64MultiArray, Output.FORWARD_COMMAND.topic, QUEUE_DEPTH,
            event_callbacks=QUIET_PUBLISHER)

    def _listening(self) -> bool:
        return bool(self._publisher.get_subscription_count() > 0)

    def _launch(self, plan: Callable[[int], Optional[AnyTimed]]) -> Optional[AnyTimed]:
        """Plan from the last cycle the stream has published, and stream the motion."""
        motion = plan(self._stream.begin(self._config.command_rate))
        if motion is not None:
            self._envelope = Envelope(self._bounds, first(motion.points()))
            self._stream.start(self._config.command_rate, self._stream_command)
        return motion

    def _stream_command(self, theta1: float, theta2: float) -> None:
        """Publish a position of the stream's motion, held within its ``Envelope``."""
        self._publish_command(*self._envelope.admit((theta1, theta2)))

    def _publish_command(self, theta1: float, theta2: float) -> None:
        self._publisher.publish(self._messages.command(theta1, theta2))

    def _due(self, motion: Timed) -> float:
        return self._stream.due(motion)

    def _point(self, theta1: float, theta2: float, goal: Angles,
               start: Optional[Angles]) -> float:
        """Publish the solution once: the controller jumps to it (nothing to plan from)."""
        self._check_position(theta1, theta2)
        self._stream.stop()
        self._publish_command(theta1, theta2)
        return 0.0

    def _send_at_own_timing(self, plan: PathPlan) -> None:
        self._check(at_rest(plan.times_ns, plan.positions), False, None)
        self._playback.play(plan.positions, plan.times_ns, self._publish_command)

    def _stop_motion(self) -> None:
        self._stream.stop()

    def _forget_arm(self) -> None:
        super()._forget_arm()
        self._stream.cycles.forget()

    def _heard_at(self, stamp_ns: int) -> None:
        self._stream.cycles.heard(stamp_ns)

    def destroy(self) -> None:
        """Stop the stream; destroy the publisher."""
        super().destroy()
        self._node.destroy_publisher(self._publisher)
