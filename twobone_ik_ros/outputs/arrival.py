"""
Whether the arm got there, and whether the node still hears it.

The ROS side of ``motion.ledger``: a controller output tells it each move it
sends and each joint state it reads; it counts the moves and publishes
``reached`` once per move the arm reached (or whose goal succeeded): a
geometry_msgs/PointStamped with the target's or path's stamp, the tool where
the measured angles put it, in the base frame.  Joint states older than
``arm_state_timeout`` make the arm's state stale (warned, throttled), and the
tracker then plans from the node's own commands.  Every time is the node's
clock's (a simulator's with ``use_sim_time``): a paused simulation times
nothing out; a jump of that clock ends the move under way.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Callable, Optional

from geometry_msgs.msg import PointStamped
from rclpy.node import Node
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.motion.ledger import ArmReport, GOAL_OUTCOMES, Move, MoveLedger
from twobone_ik_ros.ros.clock import node_time_ns
from twobone_ik_ros.ros.endpoints import publisher

Warn = Callable[[str, Callable[[], str]], None]
_NS = 1_000_000_000


class ArrivalMonitor:
    """Moves sent, the arm's joint states heard, ``reached`` published."""

    def __init__(self, node: Node, warn: Warn) -> None:
        """Publish on ``node`` once ``configure`` says a controller is driven."""
        self._node = node
        self._warn = warn
        self._config: Optional[IKConfig] = None
        self._publisher: Any = None
        self._message = PointStamped()
        self.ledger = MoveLedger()
        #: when the last joint state was read (the node's clock), as it came
        self.heard_ns: Optional[int] = None
        self._position: Optional[Angles] = None  # the last measured angles
        self.stale = False

    def configure(self, config: IKConfig, drives_controller: bool) -> None:
        """Use ``config``'s tolerances, arm and frame; ``reached`` only for a controller."""
        self._config = config
        self._message.header.frame_id = config.frame
        if drives_controller and self._publisher is None:
            self._publisher = publisher(self._node, 'reached')
        elif not drives_controller and self._publisher is not None:
            self._node.destroy_publisher(self._publisher)
            self._publisher = None
            self.ledger.pending = None
            self.heard_ns, self._position, self.stale = None, None, False

    def clock_jumped(self) -> None:
        """End the move under way (``failed.clock_jumped``); the arm is not heard yet again."""
        self.ledger.abandon('clock_jumped')
        self.heard_ns, self._position, self.stale = None, None, False

    def sent(self, stamp: Any, goal: Angles, end_ns: int, connected: bool,
             braked: int = 0) -> Optional[Move]:
        """
        Record a move sent now that should end at ``end_ns`` (the node's clock: as planned).

        Return it (None: it went nowhere, ``connected`` False).  ``braked``: 1
        when it was planned as a stop and a move from rest (counted).
        """
        config = self._config
        assert config is not None
        self.ledger.counters.braked += braked
        move = self.ledger.sent(stamp, goal, end_ns,
                                end_ns + round(config.goal_time_tolerance * _NS), connected)
        if not connected:
            self._warn('no_controller', lambda: (
                'a move went nowhere: nothing subscribes to the command topic, or no '
                'action server (is the controller active and its name remapped with '
                'controller:=?)'))
        return move

    def delayed(self, late_ns: int, cycles: int) -> None:
        """
        Take a stream's wait of ``late_ns`` mid-move: ``cycles`` controller cycles it held.

        The move under way ends that much later (``MoveLedger.delayed``); a
        cycle held is warned, throttled: the node is not keeping its
        controller's pace.
        """
        self.ledger.delayed(late_ns, cycles)
        if cycles:
            self._warn('late', lambda: (
                f'the node came {late_ns / _NS:.3g} s late to its controller ({cycles} '
                'cycle(s) without a command): the arm held, and the move ends that much later'))

    def refused(self, goal: Angles, reason: str, why: str) -> None:
        """Count a move to ``goal`` not sent, for ``reason`` (``ledger.FAILURES``): ``why``."""
        self.ledger.refused(reason)
        self._warn(reason, lambda: (
            f'the move to {goal[0]:.6g} {goal[1]:.6g} was not sent: {why}; the move under way '
            'goes on'))

    def answered(self, move: Move, result: str, why: str) -> None:
        """
        Take the action server's ``result`` for ``move``'s goal (``ledger.GOAL_OUTCOMES``).

        A success publishes ``reached`` with the measured angles' tool
        position (the goal's when none was measured yet); a failure warns.
        Counted either way; nothing more if the move had ended already.
        """
        if not self.ledger.answered(move, result):
            return
        failure = GOAL_OUTCOMES[result]
        if failure is None:
            self._reached(move, self._position or move.goal)
        else:
            self._warn(failure, lambda: (
                f'the move to {move.goal[0]:.6g} {move.goal[1]:.6g} failed ({failure}): {why}'))

    def heard(self, position: Angles, now_ns: int) -> None:
        """Take a joint state measured, read at ``now_ns``: fresh if stale; ``reached`` if due."""
        self.heard_ns = now = now_ns
        self._position = position
        if self.stale:
            self.stale = False
            self._node.get_logger().info('joint_states are back: planning from them again')
        config = self._config
        assert config is not None
        move = self.ledger.measured(position, config.goal_tolerance, now)
        if move is not None:
            self._reached(move, position)

    def _reached(self, move: Move, position: Angles) -> None:
        """Publish ``reached`` for ``move``: the tool at ``position``, with the move's stamp."""
        config = self._config
        if self._publisher is None or config is None:
            return
        message = self._message
        message.header.stamp = move.stamp
        point = message.point
        _, (point.x, point.y, point.z) = config.arm.forward(position[0], position[1])
        self._publisher.publish(message)

    def poll(self, held_ns: int = 0) -> bool:
        """
        Time moves out and the arm's state, now; return True when the state just went stale.

        ``held_ns``: how long a stream has held the arm so far and not yet
        counted (``MoveLedger.poll``).  A stale state warns every time it is
        polled (the warning is throttled).
        """
        config = self._config
        if config is None or self._publisher is None:
            return False
        now = node_time_ns(self._node)
        late = self.ledger.poll(now, held_ns)
        if late is not None:
            self._warn('timed_out', lambda: (
                f'a move to {late.goal[0]:.6g} {late.goal[1]:.6g} was not reached within '
                f'its planned time + goal_time_tolerance ({config.goal_time_tolerance:g} s)'))
        heard = self.heard_ns
        if heard is None or now - heard <= config.arm_state_timeout * _NS:
            return False
        age = (now - heard) / _NS
        self._warn('arm_state_stale', lambda: (
            f'no joint_states for {age:.3g} s (arm_state_timeout {config.arm_state_timeout:g} '
            's): planning from the last commanded state'))
        went_stale = not self.stale
        self.stale = True
        return went_stale

    def report(self, position: str, goals: bool) -> ArmReport:
        """
        Return what diagnostics show, ``position`` the measured angles as text; a new period.

        ``goals``: the output sends action goals (their counters are shown).
        """
        heard = self.heard_ns
        age = 'none yet' if heard is None else f'{(node_time_ns(self._node) - heard) / _NS:.3f}'
        counters = self.ledger.counters
        return ArmReport(position, age, self.stale, counters, counters.failed.take_recent(),
                         goals)
