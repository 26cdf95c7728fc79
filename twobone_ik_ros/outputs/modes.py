"""
The output in force: what builds each value of the ``output`` parameter, and the swap.

``MODES`` is the one place the modes are chosen: ``joint_states`` is a mode
of its own (``JointStatesOutput``), and each controller output is a
``ControllerOutput`` with its transport class from ``TRANSPORTS``.  A new
controller output is a row of ``Output`` (``model.interface``), its
transport's module, and its row in ``TRANSPORTS``.  ``OutputSwitch`` is
what the node holds: ``mode``, the mode of its configuration, made anew
when the parameter changes (the new one first, so that one the graph
refuses leaves the mode in force as it was, and none of its entities
behind: SROS2 refuses the topics of an output its enclave's permissions do
not name; then the old one's entities leave the graph, so only what the
mode in force uses is there), and what outlives a change (``arrival``:
the moves' counters and ``reached``).
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
from typing import Any, Callable, Dict, Optional, Set

from rclpy.node import Node
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.model.interface import Output
from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.outputs.arrival import ArrivalMonitor, Warn
from twobone_ik_ros.outputs.base import CallbackWrapper, OutputMode, OutputServices
from twobone_ik_ros.outputs.controller import ControllerOutput
from twobone_ik_ros.outputs.follow_joint_trajectory import TrajectoryGoals
from twobone_ik_ros.outputs.forward_command import CommandStream
from twobone_ik_ros.outputs.joint_states import JointStatesOutput
from twobone_ik_ros.outputs.joint_trajectory import TrajectoryTopic
from twobone_ik_ros.outputs.transport import Factory

#: how each controller output's motions reach its controller: a row per output
TRANSPORTS: Dict[Output, Factory] = {
    Output.FORWARD_COMMAND: CommandStream,
    Output.JOINT_TRAJECTORY: TrajectoryTopic,
    Output.FOLLOW_JOINT_TRAJECTORY: TrajectoryGoals,
}
#: what builds the mode of each value of ``output`` (from the parts and the configuration)
MODES: Dict[Output, Callable[[OutputServices, IKConfig], OutputMode]] = {
    Output.JOINT_STATES: JointStatesOutput,
    **{output: partial(ControllerOutput, transport=transport)
       for output, transport in TRANSPORTS.items()},
}


class OutputSwitch:
    """The node's output mode in force (``mode``), swapped when the ``output`` parameter does."""

    def __init__(self, node: Node, moved: Callable[[Angles], None], warn: Warn,
                 guard: CallbackWrapper) -> None:
        """
        Nothing is made until ``configure``; ``moved`` hears each position played back.

        ``warn(key, describe)`` is a throttled warning (moves that failed, a
        stale arm state: ``arrival``); ``guard`` wraps the callbacks the
        node's own wrapping does not reach (the action's answers).
        """
        self.arrival = ArrivalMonitor(node, warn)
        self._parts = OutputServices(node, self.arrival, moved, guard)
        self._value: Optional[Output] = None
        self._config: Optional[IKConfig] = None
        #: the mode in force (from ``configure`` on): the node sends, follows and polls through it
        self.mode: OutputMode

    def configure(self, config: IKConfig) -> None:
        """Make ``config``'s output the one in force (a new mode only when it changed)."""
        if config.output is not self._value:
            mode = self._make(config)
            if self._value is not None:
                self.mode.destroy()
            self.mode = mode
            self._value = config.output
        else:
            self.arrival.configure(config, config.output.drives_controller)
        self._config = config
        self.mode.configure(config)

    def _make(self, config: IKConfig) -> OutputMode:
        """
        Make ``config``'s mode, and ``reached`` for a controller's.

        If rcl refuses one of their entities, the arrival goes back to the
        configuration in force and the entities made so far are destroyed.
        """
        node = self._parts.node
        before = _entities(node)
        try:
            self.arrival.configure(config, config.output.drives_controller)
            return MODES[config.output](self._parts, config)
        except Exception:
            if self._config is not None:
                self.arrival.configure(self._config, self._config.output.drives_controller)
            for entity in _entities(node) - before:
                _destroy(node, entity)
            raise

    def clock_jumped(self) -> None:
        """
        End what is timed on the node's clock: it jumped back, changed or started (``node``).

        The stream and a playback stop, the arm's state and motion are
        forgotten (the mode), and the move under way is given up (``arrival``).
        """
        self.mode.clock_jumped()
        self.arrival.clock_jumped()


def _entities(node: Node) -> Set[Any]:
    """Return every entity the node has on the graph or in its executor's wait set."""
    return {*node.publishers, *node.subscriptions, *node.clients, *node.services,
            *node.timers, *node.waitables}


def _destroy(node: Node, entity: Any) -> None:
    """Destroy one of the node's entities, whatever its kind."""
    for kind, destroy in ((node.publishers, node.destroy_publisher),
                          (node.subscriptions, node.destroy_subscription),
                          (node.clients, node.destroy_client),
                          (node.services, node.destroy_service),
                          (node.timers, node.destroy_timer)):
        if entity in set(kind):
            destroy(entity)
            return
    entity.destroy()  # a waitable: an action client takes itself off its node
