"""
``output:=follow_joint_trajectory``: each move as a FollowJointTrajectory goal.

MoveIt and ros2_control users drive joint_trajectory_controller through
its ``follow_joint_trajectory`` action rather than its topic because the
server answers: a goal is accepted or rejected (an inactive controller
rejects it), then ends succeeded, aborted or canceled.  ``TrajectoryGoals``
sends the trajectory ``trajectories.TrajectorySender`` built for a move, with the node's
``goal_tolerance`` on every joint and its ``goal_time_tolerance``, so that
the controller's success means what ``reached`` means.  A new goal
replaces the one in flight: joint_trajectory_controller cancels the old
goal when it accepts the new one (the node does not cancel it first: the
arm would stop between the two).  While a goal waits for its acceptance, a
target waits (``busy``), and a newer one replaces it: one goal per
acceptance, however fast the targets come.  A rejection is counted and
handed to ``arrival`` for the goal's move; an accepted goal's result is
asked for at the node's next timer (``poll``, at least 10 Hz) unless a
newer goal was accepted by then, and then counted and handed on.  A goal
replaced sooner has its move superseded already, so its end (canceled, by
the controller's rule above) would change nothing, and at 100 targets a
second asking for every result was half the action's messages.  A server
keeps a result for its ``result_timeout`` after the goal ends (rcl_action's
default: 15 minutes on Humble, 10 s from Jazzy on): a timer that comes
later finds it gone (``STATUS_UNKNOWN``), which ends nothing, and the move
ends as the joint states or its deadline say.  The goals go on the action's
own services (``ros.goals``), without rclpy's ActionClient and the status
arrays it reads.

control_msgs is imported when the output is configured, not with the
package: it comes with ros2_control, which a display does not need.
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

from action_msgs.msg import GoalStatus
from trajectory_msgs.msg import JointTrajectory
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.model.parameter_table import Output
from twobone_ik_ros.motion.feedback import Move
from twobone_ik_ros.outputs.commands import duration
from twobone_ik_ros.outputs.controller import Carrier
from twobone_ik_ros.outputs.trajectories import TrajectorySender
from twobone_ik_ros.ros.endpoints import goal_client
#: How long a goal sent may wait for its acceptance before a target waits no more for it
#: (``TrajectoryGoals.busy``): far above an acceptance's round trip (milliseconds), far
#: below a target's patience.
ACCEPTANCE_WAIT_NS = 200_000_000
#: A finished goal's status as a result of ``feedback.GOAL_OUTCOMES``; any other is an abort.
_RESULTS = {GoalStatus.STATUS_SUCCEEDED: 'succeeded', GoalStatus.STATUS_CANCELED: 'canceled'}


class TrajectoryGoals:
    """The action's goals (a ``trajectories.Delivery``): sent, answers to ``arrival``."""

    answers = True
    as_bytes = False

    def __init__(self, carrier: Carrier) -> None:
        """
        Make the client of ``follow_joint_trajectory`` (relative: remapped like a topic).

        The carrier's ``guard`` wraps the answers' callbacks as the node's own
        are (a bug in one costs that answer, not the node).  ImportError
        without control_msgs.
        """
        from control_msgs.action import FollowJointTrajectory
        from control_msgs.msg import JointTolerance
        self._goal_type = FollowJointTrajectory.Goal
        self._tolerance_type = JointTolerance
        self._client = goal_client(carrier.node, Output.FOLLOW_JOINT_TRAJECTORY.topic)
        self._arrival = carrier.arrival
        self._catch_up = carrier.catch_up
        self._free = carrier.free
        self._guard = carrier.guard
        self._sent: Any = None  # (goal id, acceptance) of the goal just sent, until ``track``
        self._accepting_since: Optional[int] = None  # (monotonic ns) a goal not yet answered
        self._accepted: Any = None  # (goal id, move) of the newest goal accepted, until ``poll``

    @property
    def busy(self) -> bool:
        """
        Tell whether the goal sent last is still waiting for the server's acceptance.

        For at most ``ACCEPTANCE_WAIT_NS``: a server that does not answer
        (gone, or stalled) holds no target back for longer.
        """
        since = self._accepting_since
        return since is not None and time.monotonic_ns() - since < ACCEPTANCE_WAIT_NS

    def ready(self) -> bool:
        """Tell whether the action's server is there (a graph query: not per target)."""
        return self._client.server_is_ready()

    def deliver(self, trajectory: JointTrajectory, config: IKConfig) -> None:
        """Send ``trajectory`` as a goal with ``config``'s tolerances; ``track`` follows."""
        goal = self._goal_type()
        goal.trajectory = trajectory
        goal.goal_tolerance = [self._tolerance_type(name=name, position=config.goal_tolerance)
                               for name in trajectory.joint_names]
        goal.goal_time_tolerance = duration(round(config.goal_time_tolerance * 1e9))
        self._sent = self._client.send_goal_async(goal)
        self._accepting_since = time.monotonic_ns()

    def poll(self) -> None:
        """Ask for the result of the newest goal accepted since the last ``poll``, if any."""
        accepted, self._accepted = self._accepted, None
        if accepted is not None:
            goal_id, move = accepted
            self._client.get_result_async(goal_id).add_done_callback(
                self._guard(lambda done: self._finished(done, move)))

    def track(self, move: Optional[Move]) -> None:
        """Hand the answers to the goal just sent to ``arrival`` as ``move``'s."""
        sent, self._sent = self._sent, None
        if sent is None:
            return
        goal_id, acceptance = sent
        acceptance.add_done_callback(self._guard(
            lambda done: self._answered(done, goal_id, move)))

    def _answered(self, acceptance: Any, goal_id: Any, move: Optional[Move]) -> None:
        """Take the server's accept or reject (the result is asked for at ``poll``); go on."""
        self._accepting_since = None
        response = acceptance.result()
        if move is not None:
            if not response.accepted:
                self._arrival.answered(move, 'rejected',
                                       'the controller rejected the goal (is it active?)')
            else:
                self._accepted = (goal_id, move)  # replaces an older one: not asked for
        self._free()  # a target that waited for this answer goes now

    def _finished(self, result: Any, move: Move) -> None:
        """Hand the goal's end to ``arrival``, as a result of ``_RESULTS``."""
        response = result.result()
        if response.status == GoalStatus.STATUS_UNKNOWN:
            return  # the server no longer has the goal (its result_timeout passed)
        why = response.result.error_string or f'error code {response.result.error_code}'
        self._catch_up()  # a success publishes where the arm is: the latest state
        self._arrival.answered(move, _RESULTS.get(response.status, 'aborted'), why)

    def destroy(self) -> None:
        """Destroy the client (the output changed); answers still to come are dropped."""
        self._accepted = None
        self._client.destroy()


def follow_joint_trajectory_transport(carrier: Carrier) -> TrajectorySender:
    """Return the transport of ``output:=follow_joint_trajectory``."""
    return TrajectorySender(carrier, TrajectoryGoals(carrier))
