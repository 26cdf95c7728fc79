"""
An action's goals sent and their results asked for, on the action's own services.

An action is two services and two topics under its name (``<action>/_action/
send_goal``, ``get_result``, ``status``, ``feedback``: rcl_action's names).
rclpy's ``ActionClient`` subscribes to ``status`` and turns every status
array into Python objects: a server keeps each goal's status for its
``result_timeout`` (10 s), so with a goal per target at 100 Hz every array
holds about a thousand entries, each a few Python objects to make, on every
status change (bench_control's action rows, doc/performance.md).  The node
needs of an action only a goal's acceptance and its result, which are the
two services' answers; ``GoalClient`` is those two clients.  It subscribes
to ``feedback`` as well, as bytes it drops, because that subscription is
what makes the graph (``ros2 action info``) name a node an action's client.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import os
from typing import Any, Tuple

from rclpy.qos import qos_profile_services_default, QoSProfile
from twobone_ik_ros.ros.qos_events import QUIET_SUBSCRIPTION

#: rcl_action's names of an action's services and feedback topic, under the action's name
SEND_GOAL, GET_RESULT, FEEDBACK = '/_action/send_goal', '/_action/get_result', '/_action/feedback'


def _dropped(_: bytes) -> None:
    """Take a feedback message and drop it: the node follows the arm on joint_states."""


class GoalClient:
    """The client of one action's goals: send a goal, ask for its result."""

    def __init__(self, node: Any, action_type: Any, name: str) -> None:
        """
        Make the two clients and the feedback subscription under ``name``.

        ``name`` is resolved and remapped as rcl_action resolves an action's
        name (a topic's rules), then the services' names are made from it.
        """
        impl = action_type.Impl
        resolved = node.resolve_topic_name(name)
        self._node = node
        #: the one request every goal goes in (serialised as it is sent: filled again for the next)
        self._goal_request = impl.SendGoalService.Request()
        self._uuid_type = type(self._goal_request.goal_id)
        self._result_request = impl.GetResultService.Request
        self._send = node.create_client(impl.SendGoalService, resolved + SEND_GOAL,
                                        qos_profile=qos_profile_services_default)
        self._result = node.create_client(impl.GetResultService, resolved + GET_RESULT,
                                          qos_profile=qos_profile_services_default)
        self._feedback = node.create_subscription(
            impl.FeedbackMessage, resolved + FEEDBACK, _dropped, QoSProfile(depth=1), raw=True,
            event_callbacks=QUIET_SUBSCRIPTION)

    def server_is_ready(self) -> bool:
        """Tell whether both services have a server (a graph query)."""
        return bool(self._send.service_is_ready() and self._result.service_is_ready())

    @property
    def goal(self) -> Any:
        """
        Return the goal ``send_goal_async`` sends next, to be filled in place.

        One goal object for every goal: a goal's objects made anew (the
        action's goal holds a trajectory, a multi-DOF one and four lists of
        tolerances) were most of what it cost to send.
        """
        return self._goal_request.goal

    def send_goal_async(self) -> Tuple[Any, Any]:
        """Send ``goal`` with a new random id; return the id and the future of its acceptance."""
        request = self._goal_request
        goal_id = self._uuid_type(uuid=list(os.urandom(16)))  # a random id, as rclpy's (uuid4)
        request.goal_id = goal_id
        return goal_id, self._send.call_async(request)

    def get_result_async(self, goal_id: Any) -> Any:
        """Ask for the result of the goal ``goal_id``; return the future of the answer."""
        request = self._result_request()
        request.goal_id = goal_id
        return self._result.call_async(request)

    def destroy(self) -> None:
        """Take the clients and the subscription off the graph (answers to come are dropped)."""
        node = self._node
        node.destroy_client(self._send)
        node.destroy_client(self._result)
        node.destroy_subscription(self._feedback)
