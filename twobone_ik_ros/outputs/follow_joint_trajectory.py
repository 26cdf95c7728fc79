"""
``output:=follow_joint_trajectory``: each move as a FollowJointTrajectory goal.

``TrajectoryGoals`` sends each motion as a goal through rclpy's
``ActionClient``, with the node's ``goal_tolerance`` on every joint and its
``goal_time_tolerance``, so that the controller's success means what
``reached`` means.  A new goal replaces the one in flight (the controller
cancels the old one when it accepts the new; cancelling first would stop
the arm between them).  While a goal waits for its acceptance a target waits
(``busy``), a newer one replacing it: one goal per acceptance however fast
targets come.  A rejection is told at once (``TransportOwner.answered``); the result
of the newest goal accepted is asked for at the node's next timer (``poll``),
since asking for every one was half the action's messages at 100 targets a
second.  control_msgs is imported when the output comes into force.
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
from typing import Any, Dict, Optional

from action_msgs.msg import GoalStatus
from rclpy.node import Node
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.model.interface import Output
from twobone_ik_ros.motion.ledger import Move
from twobone_ik_ros.outputs.trajectory_message import duration
from twobone_ik_ros.outputs.trajectory_wire import TrajectoryMessages
from twobone_ik_ros.outputs.transport import FinishedMotion, Transport, TransportOwner
from twobone_ik_ros.ros.endpoints import action_client

#: How long a goal sent may wait for its acceptance before a target waits no more for it
#: (``TrajectoryGoals.busy``): far above an acceptance's round trip (milliseconds), far
#: below a target's patience.
ACCEPTANCE_WAIT_NS = 200_000_000
#: Goals sent and never answered (a server gone) that are kept for their answer, at most.
UNANSWERED_KEPT = 100
#: A finished goal's status as a result of ``ledger.GOAL_OUTCOMES``; any other is an abort.
_RESULTS = {GoalStatus.STATUS_SUCCEEDED: 'succeeded', GoalStatus.STATUS_CANCELED: 'canceled'}


class TrajectoryGoals(Transport):
    """Whole motions as the action's goals: the transport of the action; answers to the owner."""

    answers = True

    def __init__(self, node: Node, owner: TransportOwner) -> None:
        """
        Make the client of ``follow_joint_trajectory`` (relative: remapped like a topic).

        The owner's ``guard`` wraps the answers' callbacks as the node's own
        are (a bug in one costs that answer, not the node).  ImportError
        without control_msgs.
        """
        from control_msgs.action import FollowJointTrajectory
        from control_msgs.msg import JointTolerance
        self._tolerance_type = JointTolerance
        self._client = action_client(node, Output.FOLLOW_JOINT_TRAJECTORY.topic)
        #: the one goal every motion goes in (serialised as it is sent: filled again for the next)
        self._goal = FollowJointTrajectory.Goal()
        self._owner = owner
        self._messages = TrajectoryMessages()
        self._accepting_since: Optional[int] = None  # (monotonic ns) a goal not yet answered
        self._accepted: Any = None  # (goal id, move) of the newest goal accepted, until ``poll``
        #: each goal sent and not yet answered: its acceptance's future -> its move
        self._sent: Dict[Any, Move] = {}
        self._on_acceptance = owner.guard(self._answered)  # wrapped once, not per goal

    @property
    def busy(self) -> bool:
        """
        Tell whether the goal sent last is still waiting for the server's acceptance.

        For at most ``ACCEPTANCE_WAIT_NS``: a server that does not answer
        (gone, or stalled) holds no target back for longer.
        """
        since = self._accepting_since
        return since is not None and time.monotonic_ns() - since < ACCEPTANCE_WAIT_NS

    def connected(self) -> bool:
        """Tell whether the action's server is there (a graph query: not per target)."""
        return bool(self._client.server_is_ready())

    def configure(self, config: IKConfig) -> None:
        """Name the joints; put ``goal_tolerance`` and ``goal_time_tolerance`` in the goal."""
        self._messages.name(config.joint_names)
        goal = self._goal
        goal.goal_time_tolerance = duration(round(config.goal_time_tolerance * 1e9))
        goal.goal_tolerance = [self._tolerance_type(name=name, position=config.goal_tolerance)
                               for name in config.joint_names]

    def send(self, motion: FinishedMotion, move: Optional[Move]) -> None:
        """
        Send ``motion`` as a goal with the tolerances; its answers go to the owner as ``move``'s.

        Nothing when there is no server (``move`` None).
        """
        if move is None:
            return
        self._goal.trajectory = self._messages.message(motion)
        acceptance = self._client.send_goal_async(self._goal)
        self._accepting_since = time.monotonic_ns()
        sent = self._sent
        sent[acceptance] = move
        if len(sent) > UNANSWERED_KEPT:  # a server that never answers: forget the oldest
            del sent[next(iter(sent))]
        acceptance.add_done_callback(self._on_acceptance)

    def poll(self) -> None:
        """Ask for the result of the newest goal accepted since the last ``poll``, if any."""
        accepted, self._accepted = self._accepted, None
        if accepted is not None:
            handle, move = accepted
            handle.get_result_async().add_done_callback(
                self._owner.guard(lambda done: self._finished(done, move)))

    def _answered(self, acceptance: Any) -> None:
        """Take the server's accept or reject (the result is asked for at ``poll``); go on."""
        move = self._sent.pop(acceptance, None)
        if move is None:
            return  # a goal of a client destroyed since (another output)
        self._accepting_since = None
        handle = acceptance.result()
        if not handle.accepted:
            self._owner.answered(move, 'rejected',
                                 'the controller rejected the goal (is it active?)')
        else:
            self._accepted = (handle, move)  # replaces an older one: not asked for
        self._owner.motion_taken()  # a target that waited for this answer goes now

    def _finished(self, result: Any, move: Move) -> None:
        """Tell the owner the goal's end, as a result of ``_RESULTS``."""
        response = result.result()
        if response.status == GoalStatus.STATUS_UNKNOWN:
            return  # the server no longer has the goal (its result_timeout passed)
        why = response.result.error_string or f'error code {response.result.error_code}'
        self._owner.answered(move, _RESULTS.get(response.status, 'aborted'), why)

    def destroy(self) -> None:
        """Destroy the client (the output changed); answers still to come are dropped."""
        self._accepted = None
        self._sent.clear()
        self._client.destroy()
