"""
Keeping robot_state_publisher's model in step with the node's arm.

When the arm changes at runtime, robot_state_publisher must get the new URDF
or RViz's RobotModel no longer matches the markers.  robot_state_publisher
takes a new ``robot_description`` (and ``frame_prefix``) through its
parameter service: it validates the URDF, refuses one that does not parse,
and republishes the model.  ``RobotModelSync`` makes that call without
blocking and keeps the outcome for the diagnostics.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import time
from typing import Any, Optional

from rcl_interfaces.srv import SetParameters
from rclpy.node import Node
from rclpy.parameter import Parameter
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.model.urdf import config_urdf
from twobone_ik_ros.ros.endpoints import client

#: How long a change waits for robot_state_publisher's service to be discovered
DISCOVERY_TIMEOUT_S = 5.0
#: How long a sent request may stay unanswered before it is sent again
RETRY_S = 0.5


class RobotModelSync:
    """Sends the arm's URDF to robot_state_publisher; ``state`` says how it went."""

    def __init__(self, node: Node) -> None:
        """Create nothing yet: the client is made on the first change to send."""
        self._node = node
        self._client: Any = None
        self._name = ''
        self._pending: Optional[IKConfig] = None
        self._give_up = 0.0
        self._future: Any = None
        self._sent_at = 0.0
        self.state = 'not sent'

    def send(self, config: IKConfig) -> None:
        """
        Give ``config.robot_state_publisher`` the URDF of ``config``, as soon as it can.

        The service client is made on the first change, and ``poll`` sends
        once it is discovered, or gives up after ``DISCOVERY_TIMEOUT_S``.
        """
        if self._future is not None:  # superseded: only the newest arm matters
            self._client.remove_pending_request(self._future)
            self._future = None
        name = config.robot_state_publisher
        if name != self._name:
            if self._client is not None:
                self._node.destroy_client(self._client)
            self._client = client(self._node, name, 'set_parameters') if name else None
            self._name = name
        if self._client is None:
            self._pending = None
            self.state = 'not sent: robot_state_publisher is empty'
            return
        self._pending = config
        self._give_up = time.monotonic() + DISCOVERY_TIMEOUT_S
        self.poll()

    def poll(self) -> None:
        """
        Send what is pending once robot_state_publisher is discovered (call it often).

        A request sent just after the service was discovered can be lost (the
        server may not have matched this client yet), so one left unanswered
        for ``RETRY_S`` is sent again until ``DISCOVERY_TIMEOUT_S`` is up.
        """
        if self._pending is None:
            return
        now = time.monotonic()
        if self._future is not None:
            if now - self._sent_at < RETRY_S:
                return
            self._client.remove_pending_request(self._future)
            self._future = None
        if now > self._give_up:
            self._pending = None
            self.state = ('not sent: no robot_state_publisher' if self.state.startswith('waiting')
                          else 'failed: robot_state_publisher did not answer')
            return
        if not self._client.service_is_ready():
            self.state = 'waiting for robot_state_publisher'
            return
        config = self._pending
        # frame_prefix first: robot_state_publisher republishes its fixed
        # transforms when it applies robot_description, with the prefix it has
        request = SetParameters.Request(parameters=[
            Parameter('frame_prefix', Parameter.Type.STRING,
                      config.frame_prefix).to_parameter_msg(),
            Parameter('robot_description', Parameter.Type.STRING,
                      config_urdf(config)).to_parameter_msg()])
        self.state = 'sending'
        self._sent_at = now
        self._future = self._client.call_async(request)
        self._future.add_done_callback(self._on_answer)

    def _on_answer(self, future: Any) -> None:
        if future is not self._future:
            return  # an answer to a request given up on
        self._future = None
        self._pending = None
        try:
            results = future.result().results
        except Exception as error:  # the service call itself failed: any error
            problems = [f'{type(error).__name__}: {error}']
        else:
            problems = [r.reason or 'refused' for r in results if not r.successful]
        if problems:
            self.state = 'failed: ' + '; '.join(problems)
            self._node.get_logger().error(
                'robot_state_publisher did not take the new robot_description: '
                f'{"; ".join(problems)}; the RobotModel in RViz shows the old arm')
        else:
            self.state = 'updated'
