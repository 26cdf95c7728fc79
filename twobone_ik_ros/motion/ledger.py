"""
How each move sent to a controller ended: reached, superseded, or failed (pure, no ROS).

Every move the node sends is one entry and ends in exactly one outcome, so
``sent == reached + superseded + failed`` once nothing is pending (at most
one move is under way, the last one sent): reached (the measured arm within
``goal_tolerance`` of its end, no earlier than its planned end), superseded
(a newer target or path came first), or failed with a reason
(``no_controller``, ``rejected``, ``aborted``, ``timed_out``,
``joint_limits``, ``clock_jumped``).  A streamed move the node held ends
that much later (``MoveLedger.delayed``), and the action output's goals
have counters of their own (``GOAL_RESULTS``).  The outcomes as a user reads
them: doc/reliability.md.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, NamedTuple, Optional

from twobone_ik_ros.model.tally import ReasonCounter
from twobone_ik_ros.motion.angles import Angles, apart

FAILURES = ('no_controller', 'rejected', 'aborted', 'timed_out', 'joint_limits',
            'unplanned', 'clock_jumped')
#: How the action's server answered a goal, and what that makes of its move:
#: reached (None) or the failure.  A goal canceled unasked (a deactivated
#: controller) failed; one the node replaced was superseded before the answer.
GOAL_OUTCOMES: Dict[str, Optional[str]] = {
    'succeeded': None, 'rejected': 'rejected', 'aborted': 'aborted', 'canceled': 'aborted'}
GOAL_RESULTS = tuple(GOAL_OUTCOMES)
#: How much sooner than its planned end a move may be found reached (the
#: clocks of the node and the controller, and the measurement's lag).
ARRIVAL_SLACK_NS = 50_000_000


@dataclass
class Move:
    """One move under way: what it answers, where it ends, by when."""

    stamp: Any  # the header stamp of the target or path it answers
    goal: Angles
    end_ns: int  # the node's clock: its planned end
    deadline_ns: int  # the node's clock: planned end + goal_time_tolerance
    late_ns: int = 0  # how much later than planned it ends (its stream held cycles)


@dataclass
class MoveCounters:
    """Every move sent, in exactly one outcome once it has ended."""

    sent: int = 0
    reached: int = 0
    superseded: int = 0
    #: of those sent, the moves planned as a stop and a move from rest (a
    #: retarget whose time-optimal move would pass a limit; not an outcome)
    braked: int = 0
    failed: ReasonCounter = field(default_factory=lambda: ReasonCounter(FAILURES))
    #: controller cycles a stream held the arm for: its command for them came late
    cycles_held: int = 0
    #: commands a stream published after the cycle it had planned them for
    commands_late: int = 0
    #: how much later than planned the last move that ended ended (ns), and the most of any
    late_last_ns: int = 0
    late_max_ns: int = 0
    goals: Dict[str, int] = field(default_factory=lambda: dict.fromkeys(GOAL_RESULTS, 0))


class ArmReport(NamedTuple):
    """What diagnostics show of a controller output's arm."""

    position: str  # the measured angles, or 'none yet'
    age: str  # seconds since the last joint state, or 'none yet'
    stale: bool
    moves: MoveCounters
    #: moves that failed since the previous report, by reason (the report starts again)
    failed_recently: Dict[str, int]
    #: the action output's goals by result (``moves.goals``); False for a topic output
    goals: bool


class MoveLedger:
    """The move under way and the counters of the ones that ended."""

    def __init__(self) -> None:
        """Start with nothing sent."""
        self.counters = MoveCounters()
        self.pending: Optional[Move] = None

    def sent(self, stamp: Any, goal: Angles, end_ns: int, deadline_ns: int,
             connected: bool) -> Optional[Move]:
        """
        Record a move sent now; the one under way, if any, is superseded.

        ``connected`` False: nothing subscribed to the command, so the move
        has failed already (``no_controller``) and None is returned; else the
        move, now under way.
        """
        counters = self.counters
        counters.sent += 1
        if self.pending is not None:
            counters.superseded += 1
            self.pending = None  # it did not end: its lateness is no move's
        if not connected:
            self._fail('no_controller')
            return None
        self.pending = Move(stamp, goal, end_ns, deadline_ns)
        return self.pending

    def delayed(self, late_ns: int, cycles: int) -> None:
        """
        Record a stream that held the arm ``late_ns`` mid-move: ``cycles`` controller cycles.

        The move under way ends that much later: its end and its deadline
        move with it, so a late node delays ``reached`` and times out
        nothing.  No cycle held: a simulator's cycle came late, or the
        controller's grid as read moved, and the stream waited for it (or
        went on a little sooner, ``late_ns`` negative): no command was late.
        """
        counters = self.counters
        counters.cycles_held += cycles
        counters.commands_late += cycles > 0
        move = self.pending
        if move is not None:
            move.end_ns += late_ns
            move.deadline_ns += late_ns
            move.late_ns += late_ns

    def _over(self) -> None:
        """End the move under way: its lateness is the last one, and counts to the most."""
        move = self.pending
        assert move is not None
        self.pending = None
        counters = self.counters
        counters.late_last_ns = move.late_ns
        counters.late_max_ns = max(counters.late_max_ns, move.late_ns)

    def refused(self, reason: str) -> None:
        """
        Record a move that was made but not sent; the one under way stays.

        ``reason``: ``joint_limits`` (the check refused it) or ``unplanned``
        (ruckig did not plan it).
        """
        self.counters.sent += 1
        self._fail(reason)

    def passed_over(self) -> None:
        """Record a target's move that waited to be sent and was replaced by a newer one's."""
        counters = self.counters
        counters.sent += 1
        counters.superseded += 1

    def measured(self, position: Angles, tolerance: float, now_ns: int) -> Optional[Move]:
        """Return the move under way if ``position`` is within ``tolerance`` of its end."""
        move = self.pending
        if move is None or now_ns < move.end_ns - ARRIVAL_SLACK_NS or apart(
                position, move.goal) > tolerance:
            return None
        self._over()
        self.counters.reached += 1
        return move

    def ended(self, move: Move, failure: Optional[str]) -> bool:
        """
        End ``move`` as the controller said: reached (``failure`` None) or failed.

        False when it had ended already (superseded, reached, timed out): the
        first outcome stands.
        """
        if self.pending is not move:
            return False
        self._over()
        if failure is None:
            self.counters.reached += 1
        else:
            self._fail(failure)
        return True

    def answered(self, move: Move, result: str) -> bool:
        """Count the goal's ``result`` (``GOAL_RESULTS``); end ``move`` by it (see ``ended``)."""
        self.counters.goals[result] += 1
        return self.ended(move, GOAL_OUTCOMES[result])

    def poll(self, now_ns: int, held_ns: int = 0) -> Optional[Move]:
        """
        Return the move under way if its deadline has passed (timed out), else None.

        ``held_ns``: how long a stream has held the arm so far and not yet
        counted (``delayed``): it waits for the controller, and its move
        ends that much later however long the wait.
        """
        move = self.pending
        if move is None or now_ns - held_ns <= move.deadline_ns:
            return None
        self._over()
        self._fail('timed_out')
        return move

    def abandon(self, reason: str) -> None:
        """End the move under way, if any, as failed for ``reason`` (one of ``FAILURES``)."""
        if self.pending is not None:
            self._over()
            self._fail(reason)

    def _fail(self, reason: str) -> None:
        self.counters.failed.add(reason)
