"""
``output:=forward_command``: each move streamed on ``commands`` at the controller's cycles.

forward_command_controller takes a std_msgs/Float64MultiArray of positions
and holds the last one: a move has to reach it position by position, one
per controller cycle.  The move is planned within the limits as every
controller move is (``controller``) and streamed at ``command_rate``
(``streaming.Stream``: each position evaluated at the cycle it is for); a
new target while it streams continues from where the stream is.  Every
position streamed is held within what the move's check allowed
(``limit_check.Envelope``).  The stream advances one cycle per message:
a node that comes late holds the arm and ends the move later, it never
steps ahead (``streaming``).  Before the arm's state is known a target is
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

from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.model.parameter_table import Output
from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.motion.feedback import Move
from twobone_ik_ros.motion.joint_paths import PathPlan
from twobone_ik_ros.motion.limit_check import at_rest, Envelope, first
from twobone_ik_ros.motion.planning import Timed
from twobone_ik_ros.outputs.controller import AnyTimed, Carrier
from twobone_ik_ros.outputs.positions import PositionMessages
from twobone_ik_ros.outputs.streaming import Stream
from twobone_ik_ros.ros.endpoints import publisher


class CommandStream:
    """Moves streamed as positions for forward_command_controller: a transport."""

    answers = False
    busy = False  # a command is taken as it is published

    def __init__(self, carrier: Carrier) -> None:
        """Make the ``commands`` publisher; the stream's timer comes when a move does."""
        self._node = carrier.node
        self._check = carrier.check
        self._check_position = carrier.check_position
        self._bounds = carrier.bounds
        self._playback = carrier.playback
        self._stream = Stream(carrier.node, carrier.tracker, carrier.cycles, carrier.catch_up,
                              carrier.arrival.delayed)
        self._messages = PositionMessages()
        self._rate = 0.0
        self.listened = False
        #: what the stream may publish of its motion (``limit_check.Envelope``)
        self._envelope = Envelope(carrier.bounds(), None)
        self._publisher = publisher(self._node, Output.FORWARD_COMMAND.topic)

    def listen(self) -> None:
        """Ask the graph whether a subscription takes the commands."""
        self.listened = bool(self._publisher.get_subscription_count() > 0)

    def poll(self) -> None:
        """Nothing waits: the topic does not answer."""

    def configure(self, config: IKConfig) -> None:
        """Take the stream's rate (the controller's ``update_rate``)."""
        self._rate = config.command_rate

    def start(self, motion_from: Callable[[int], Optional[AnyTimed]]) -> Optional[AnyTimed]:
        """Plan from the last cycle the stream has published, and stream the motion."""
        motion = motion_from(self._stream.begin(self._rate))
        if motion is not None:
            self._envelope = Envelope(self._bounds(), first(motion.points()))
            self._stream.start(self._rate, self._stream_command)
        return motion

    def _stream_command(self, theta1: float, theta2: float) -> None:
        """Publish a position of the stream's motion, held within its ``Envelope``."""
        self._publish(*self._envelope.admit((theta1, theta2)))

    def _publish(self, theta1: float, theta2: float) -> None:
        self._publisher.publish(self._messages.command(theta1, theta2))

    def due(self, motion: Timed) -> float:
        """Return the seconds from now to the end of the motion streamed."""
        return self._stream.due(motion)

    def point(self, theta1: float, theta2: float, goal: Angles,
              start: Optional[Angles]) -> float:
        """Publish the solution once: the controller jumps to it (nothing to plan from)."""
        self._check_position(theta1, theta2)
        self._stream.stop()
        self._publish(theta1, theta2)
        return 0.0

    def own_timing(self, path: PathPlan) -> None:
        """Play the path back at its own timing, one command per pose due."""
        self._check(at_rest(path.times_ns, path.positions), False, None)
        self._playback.play(path.positions, path.times_ns, self._publish)

    def stop(self) -> None:
        """Stop the stream."""
        self._stream.stop()

    def track(self, move: Optional[Move]) -> None:
        """Nothing to follow: the topic does not answer."""

    def destroy(self) -> None:
        """Destroy the publisher (the stream has stopped)."""
        self._node.destroy_publisher(self._publisher)
