"""
What a transport is: how a finished motion reaches its controller, and what it tells back.

A controller output (``controller.ControllerOutput``) plans, checks and
records each move; its transport only sends the result, a
``FinishedMotion``: the checked points, when they start at the controller,
and, for a stream, the motion to evaluate at each cycle.  One transport per
controller output, in the module named after it (``modes``):
``forward_command`` streams positions, ``joint_trajectory`` and
``follow_joint_trajectory`` send each motion whole.  A transport knows its
output only as a ``TransportOwner``: what the controller did (a cycle held, a goal
answered, a goal taken) and what it reads (the controller's cycles, whether the arm
is short of a position).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Optional, Protocol

import numpy as np
from rclpy.node import Node
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.motion.bounds import Envelope
from twobone_ik_ros.motion.cycles import ControllerCycles
from twobone_ik_ros.motion.ledger import Move
from twobone_ik_ros.motion.limit_check import at_rest
from twobone_ik_ros.motion.planning import Timed
from twobone_ik_ros.motion.samples import Samples


class FinishedMotion(NamedTuple):
    """A motion planned and checked: all a transport needs to send it."""

    #: the points the check passed (times from ``start_ns``)
    points: Samples
    #: when the points start at the controller (the node's clock, ns; 0: as it takes them)
    start_ns: int
    #: what the points carry beyond positions: 0 none (straight lines), 1 velocities
    #: (cubics), 2 accelerations too (quintics)
    derivatives: int
    #: the motion itself, which a stream evaluates at each cycle (None: the points only)
    timed: Optional[Timed] = None
    #: what a stream's positions are held within (``limit_check.Envelope``)
    envelope: Optional[Envelope] = None

    @classmethod
    def positions(cls, times_ns: Any, positions: Any) -> FinishedMotion:
        """Return positions at their times from now, nothing else known (no arm state)."""
        return cls(at_rest(np.asarray(times_ns, np.int64),
                           np.asarray(positions, np.float64)), 0, 0)

    @property
    def last(self) -> Angles:
        """Return the last position (a stream without a motion commands it at once)."""
        last = self.points.last()
        return (float(last[0]), float(last[1]))


class TransportOwner(Protocol):
    """
    The controller output a transport belongs to, as the transport sees it.

    What the transport tells it (the arm held, a goal answered, a motion
    taken) and what it reads (the controller's cycles, whether the arm is
    short of a position).
    """

    #: the controller's cycles, read off the arm's joint states
    cycles: ControllerCycles

    def arm_held(self, late_ns: int, cycles: int) -> None:
        """Take a stream's hold of the arm: ``late_ns`` late, ``cycles`` cycles without one."""

    def arm_short_of(self, position: Angles) -> bool:
        """Tell whether the arm is heard short of ``position`` (beyond ``goal_tolerance``)."""

    def answered(self, move: Move, result: str, why: str) -> None:
        """Take the controller's answer to ``move`` (``ledger.GOAL_OUTCOMES``)."""

    def motion_taken(self) -> None:
        """Take the end of ``busy``: the controller answered the motion sent last."""

    def guard(self, callback: Callable[..., Any]) -> Callable[..., Any]:
        """Wrap a callback the node's own wrapping does not reach (an action's answers)."""


class Transport:
    """
    How finished motions reach a controller: what each controller output writes.

    Here are the defaults of a topic that takes whole motions; a transport
    writes ``connected``, ``send`` and ``destroy``, and what differs.
    """

    #: the controller answers each motion (an action): diagnostics show the answers
    answers = False
    #: each motion goes whole, stamped with its start (joint_trajectory_controller); else
    #: its positions stream one per controller cycle (forward_command_controller)
    whole = True

    @property
    def busy(self) -> bool:
        """
        Tell whether the motion sent last is still being taken (an action's goal).

        A target then waits, replacing any that waited, until ``TransportOwner.motion_taken``.
        """
        return False

    def connected(self) -> bool:
        """Tell whether something takes the motions (a graph query: not per target)."""
        raise NotImplementedError

    def configure(self, config: IKConfig) -> None:
        """Take the joint names, rates and tolerances of ``config``."""

    def begin(self) -> int:
        """Return when a motion planned now starts streaming (the node's clock, ns)."""
        raise NotImplementedError

    def send(self, motion: FinishedMotion, move: Optional[Move]) -> None:
        """Send ``motion``, ``move`` in the ledger (None: counted as sent nowhere)."""
        raise NotImplementedError

    def stop(self) -> None:
        """Stop what is streamed (nothing, where motions go whole)."""

    def poll(self) -> None:
        """Do what waits for the node's timer (an action asks for its newest goal's result)."""

    def state_heard(self) -> None:
        """Hear that a joint state of the arm came (a stream may be waiting for its cycle)."""

    def held(self, now_ns: int) -> int:
        """
        Return how long a stream has held the arm by ``now_ns`` and not yet told (ns).

        It waits for the controller: the move under way ends that much later
        (``TransportOwner.arm_held`` when it goes on), and does not time out meanwhile.
        """
        return 0

    def destroy(self) -> None:
        """Take the transport's entities off the graph."""
        raise NotImplementedError


#: What makes a transport: from the node it puts its entities on, and its output.
Factory = Callable[[Node, TransportOwner], Transport]
