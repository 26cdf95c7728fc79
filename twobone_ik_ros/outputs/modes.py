"""
The output in force: the class of each value of the ``output`` parameter, and the swap.

``MODES`` is the one place the modes are chosen: a new output mode is a
module with its class (an ``OutputMode``) and a line here.  ``ArmOutput``
is what the node holds: the mode of its configuration, made anew when the
parameter changes (the old one's entities leave the graph first, so only
what the mode in force uses is there: an entity's cost,
``ros.executor``), and what outlives a change (``arrival``: the moves'
counters and ``reached``).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Type

from rclpy.node import Node
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.model.parameter_table import Output
from twobone_ik_ros.motion.feedback import ArmReport
from twobone_ik_ros.motion.joint_paths import Angles, PathPlan
from twobone_ik_ros.motion.path_timing import PathMotion
from twobone_ik_ros.outputs.arrival import Arrival, Warn
from twobone_ik_ros.outputs.base import Guard, OutputMode, Parts
from twobone_ik_ros.outputs.follow_joint_trajectory import FollowJointTrajectoryOutput
from twobone_ik_ros.outputs.forward_command import ForwardCommandOutput
from twobone_ik_ros.outputs.joint_states import JointStatesOutput
from twobone_ik_ros.outputs.joint_trajectory import JointTrajectoryOutput

MODES: Dict[Output, Type[OutputMode]] = {
    Output.JOINT_STATES: JointStatesOutput,
    Output.FORWARD_COMMAND: ForwardCommandOutput,
    Output.JOINT_TRAJECTORY: JointTrajectoryOutput,
    Output.FOLLOW_JOINT_TRAJECTORY: FollowJointTrajectoryOutput,
}


class ArmOutput:
    """The node's output mode in force, swapped when the ``output`` parameter changes."""

    def __init__(self, node: Node, moved: Callable[[Angles], None], warn: Warn,
                 guard: Guard) -> None:
        """
        Nothing is made until ``configure``; ``moved`` hears each position played back.

        ``warn(key, describe)`` is a throttled warning (moves that failed, a
        stale arm state: ``arrival``); ``guard`` wraps the callbacks the
        node's own wrapping does not reach (the action's answers).
        """
        self.arrival = Arrival(node, warn)
        self._parts = Parts(node, self.arrival, moved, guard)
        self._mode: Optional[OutputMode] = None
        self._output: Optional[Output] = None
        #: publishes one solution: (theta1, theta2, stamp, start of the move or None)
        self.send: Callable[[float, float, Any, Optional[Angles]], None] = _send_nothing

    @property
    def mode(self) -> OutputMode:
        """Return the mode in force."""
        if self._mode is None:
            raise RuntimeError('ArmOutput.configure was not called')
        return self._mode

    def configure(self, config: IKConfig) -> None:
        """Make ``config``'s output the one in force (a new mode only when it changed)."""
        self.arrival.configure(config, config.output.drives_controller)
        mode = self._mode
        if mode is None or config.output is not self._output:
            if mode is not None:
                mode.destroy()
            mode = self._mode = MODES[config.output](self._parts, config)
            self._output = config.output
            self.send = mode.send
        mode.configure(config)

    @property
    def measured(self) -> Optional[Angles]:
        """Return the arm's last measured angles (controller outputs; None before any)."""
        mode = self._mode  # per target: no more than one look-up on the way
        return None if mode is None else mode.measured

    def report(self) -> Optional[ArmReport]:
        """Return the arm's state and moves for diagnostics (None for a display)."""
        return self.mode.report()

    def poll(self) -> None:
        """Time out moves and the arm's state (the node's housekeeping calls it)."""
        self.mode.poll()

    def follow(self, plan: PathPlan, stamp: Any) -> Optional[PathMotion]:
        """Send a planned path (``OutputMode.follow``)."""
        return self.mode.follow(plan, stamp)

    def republish(self, position: Angles, stamp: Any) -> None:
        """Publish ``position`` again on joint_states (that output only; not if limits changed)."""
        self.mode.republish(position, stamp)

    def stop_playback(self) -> None:
        """Stop a path being played back (a new target or path replaces it)."""
        self.mode.stop_playback()

    @property
    def playing(self) -> bool:
        """Tell whether a path is being played back."""
        mode = self._mode  # per target, as ``measured``
        return mode is not None and mode.playing

    def clock_jumped(self) -> None:
        """
        End what is timed on the node's clock: it jumped back, changed or started (``node``).

        The stream and a playback stop, the arm's state and motion are
        forgotten (the mode), and the move under way is given up (``arrival``).
        """
        self.mode.clock_jumped()
        self.arrival.clock_jumped()


def _send_nothing(theta1: float, theta2: float, stamp: Any, start: Optional[Angles]) -> None:
    raise RuntimeError('ArmOutput.configure was not called')
