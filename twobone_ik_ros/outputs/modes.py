"""
The output in force: what builds each value of the ``output`` parameter, and the swap.

``MODES`` is the one place the modes are chosen: ``joint_states`` is a mode
of its own (``JointStatesOutput``), and each controller output is a
``ControllerOutput`` with its transport.  A new controller output is a
transport (``controller.Transport``) and a line here.  ``ArmOutput`` is
what the node holds: ``mode``, the mode of its configuration, made anew
when the parameter changes (the old one's entities leave the graph first,
so only what the mode in force uses is there: an entity's cost,
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

from functools import partial
from typing import Callable, Dict, Optional

from rclpy.node import Node
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.model.parameter_table import Output
from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.outputs.arrival import Arrival, Warn
from twobone_ik_ros.outputs.base import Guard, OutputMode, Parts
from twobone_ik_ros.outputs.controller import Carrier, ControllerOutput, Transport
from twobone_ik_ros.outputs.follow_joint_trajectory import follow_joint_trajectory_transport
from twobone_ik_ros.outputs.forward_command import CommandStream
from twobone_ik_ros.outputs.joint_states import JointStatesOutput
from twobone_ik_ros.outputs.joint_trajectory import joint_trajectory_transport

#: how each controller output's motions reach its controller
TRANSPORTS: Dict[Output, Callable[[Carrier], Transport]] = {
    Output.FORWARD_COMMAND: CommandStream,
    Output.JOINT_TRAJECTORY: joint_trajectory_transport,
    Output.FOLLOW_JOINT_TRAJECTORY: follow_joint_trajectory_transport,
}
#: what builds the mode of each value of ``output`` (from the parts and the configuration)
MODES: Dict[Output, Callable[[Parts, IKConfig], OutputMode]] = {
    Output.JOINT_STATES: JointStatesOutput,
    **{output: partial(ControllerOutput, transport=transport)
       for output, transport in TRANSPORTS.items()},
}


class ArmOutput:
    """The node's output mode in force (``mode``), swapped when the ``output`` parameter does."""

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
        self._output: Optional[Output] = None
        #: the mode in force (from ``configure`` on): the node sends, follows and polls through it
        self.mode: OutputMode

    def configure(self, config: IKConfig) -> None:
        """Make ``config``'s output the one in force (a new mode only when it changed)."""
        self.arrival.configure(config, config.output.drives_controller)
        if config.output is not self._output:
            if self._output is not None:
                self.mode.destroy()
            self.mode = MODES[config.output](self._parts, config)
            self._output = config.output
        self.mode.configure(config)

    def clock_jumped(self) -> None:
        """
        End what is timed on the node's clock: it jumped back, changed or started (``node``).

        The stream and a playback stop, the arm's state and motion are
        forgotten (the mode), and the move under way is given up (``arrival``).
        """
        self.mode.clock_jumped()
        self.arrival.clock_jumped()
