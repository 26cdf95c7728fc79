"""
``output:=forward_command``: each move streamed on ``commands`` at the controller's cycles.

forward_command_controller holds the last Float64MultiArray of positions it
read, so a move reaches it position by position, one per controller cycle:
planned and checked within the limits as every controller move is
(``controller``), streamed at ``command_rate`` (``streaming.Stream``), each
position held within what the check allowed (``limit_check.Envelope``).  A
new target mid-stream is planned from where the stream is (``begin``); a
late node holds the arm, never steps it (``streaming``).  Before the arm's
state is known, a move is its last position, commanded at once.
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
from twobone_ik_ros.outputs.positions import PositionMessages
from twobone_ik_ros.outputs.streaming import Stream
from twobone_ik_ros.outputs.transport import FinishedMotion, Transport, TransportOwner
from twobone_ik_ros.ros.endpoints import publisher


class CommandStream(Transport):
    """Motions streamed as positions for forward_command_controller: its transport."""

    whole = False

    def __init__(self, node: Node, owner: TransportOwner) -> None:
        """Make the ``commands`` publisher; the stream's timer comes when a motion does."""
        self._node = node
        self._stream = Stream(node, owner)
        self._messages = PositionMessages()
        self._rate = 0.0
        self._publisher = publisher(node, Output.FORWARD_COMMAND.topic)

    def connected(self) -> bool:
        """Tell whether a subscription takes the commands."""
        return bool(self._publisher.get_subscription_count() > 0)

    def configure(self, config: IKConfig) -> None:
        """Take the stream's rate (the controller's ``update_rate``)."""
        self._rate = config.command_rate

    def begin(self) -> int:
        """Return the last cycle the stream has published: a motion planned now starts there."""
        return self._stream.begin(self._rate)

    def send(self, motion: FinishedMotion, move: Optional[Move]) -> None:
        """
        Stream ``motion``, or command its last position at once (no motion to stream).

        Streamed with no one listening (``move`` None) too: the stream is
        where the next motion is planned from.
        """
        if motion.timed is not None:
            self._stream.run(self._rate, motion, self.publish)
            return
        self._stream.stop()
        self.publish(*motion.last)

    def publish(self, theta1: float, theta2: float) -> None:
        """Command one position now (a path played back at its own timing, too)."""
        self._publisher.publish(self._messages.command(theta1, theta2))

    def stop(self) -> None:
        """Stop the stream."""
        self._stream.stop()

    def state_heard(self) -> None:
        """Let a stream that waits for the cycle that took its last command go on."""
        self._stream.state_heard()

    def held(self, now_ns: int) -> int:
        """Return how long the stream has held the arm by ``now_ns`` and not yet told (ns)."""
        return self._stream.held(now_ns)

    def destroy(self) -> None:
        """Destroy the publisher (the stream has stopped)."""
        self._node.destroy_publisher(self._publisher)
