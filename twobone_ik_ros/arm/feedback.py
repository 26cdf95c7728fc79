# Copyright 2026 The twobone_ik_ros Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""
How each move sent to a controller ended: reached, superseded, or failed.

Pure (no ROS), like ``tracking``.  Every move the node sends is one entry:
it ends in exactly one outcome, so ``sent == reached + superseded +
failed`` once nothing is pending (``MoveLedger.pending``: at most one move
is under way, the last one sent).

- reached: the arm's measured angles came within ``goal_tolerance`` (rad,
  each joint) of the move's end, no earlier than the move's planned end
  (less ``ARRIVAL_SLACK_NS``): a closed path starts where it ends, and a
  controller follows a trajectory in time, so it cannot be there sooner;
- superseded: a new target or path was sent before the arm got there;
- failed.no_controller: nothing subscribed to the command topic when it
  was sent (it went nowhere);
- failed.timed_out: not reached by the move's planned end plus
  ``goal_time_tolerance``.

``FAILURES`` lists the failure labels; ``rejected`` and ``aborted`` are the
action's (issue 20, not built yet) and stay 0 here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, NamedTuple, Optional, Tuple

Angles = Tuple[float, float]

FAILURES = ('no_controller', 'rejected', 'aborted', 'timed_out')
#: How much sooner than its planned end a move may be found reached (the
#: clocks of the node and the controller, and the measurement's lag).
ARRIVAL_SLACK_NS = 50_000_000


@dataclass
class Move:
    """One move under way: what it answers, where it ends, by when."""

    stamp: Any  # the header stamp of the target or path it answers
    goal: Angles
    end_ns: int  # monotonic: its planned end
    deadline_ns: int  # monotonic: planned end + goal_time_tolerance


@dataclass
class MoveCounters:
    """Every move sent, in exactly one outcome once it has ended."""

    sent: int = 0
    reached: int = 0
    superseded: int = 0
    failed: Dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAILURES, 0))
    failed_since_report: int = 0

    @property
    def failed_total(self) -> int:
        """Return the failed moves of every reason."""
        return sum(self.failed.values())


class ArmReport(NamedTuple):
    """What diagnostics show of a controller output's arm."""

    position: str  # the measured angles, or 'none yet'
    age: str  # seconds since the last joint state, or 'none yet'
    stale: bool
    moves: MoveCounters
    #: moves that failed since the previous report (the report starts the count again)
    failed_recently: int


class MoveLedger:
    """The move under way and the counters of the ones that ended."""

    def __init__(self) -> None:
        """Start with nothing sent."""
        self.counters = MoveCounters()
        self.pending: Optional[Move] = None

    def sent(self, stamp: Any, goal: Angles, end_ns: int, deadline_ns: int,
             listened: bool) -> None:
        """
        Record a move sent now; the one under way, if any, is superseded.

        ``listened`` False: nothing subscribed to the command, so the move
        has failed already (``no_controller``).
        """
        counters = self.counters
        counters.sent += 1
        if self.pending is not None:
            counters.superseded += 1
            self.pending = None
        if not listened:
            self._fail('no_controller')
            return
        self.pending = Move(stamp, goal, end_ns, deadline_ns)

    def measured(self, position: Angles, tolerance: float, now_ns: int) -> Optional[Move]:
        """Return the move under way if ``position`` is within ``tolerance`` of its end."""
        move = self.pending
        if move is None or now_ns < move.end_ns - ARRIVAL_SLACK_NS or max(
                abs(position[0] - move.goal[0]), abs(position[1] - move.goal[1])) > tolerance:
            return None
        self.pending = None
        self.counters.reached += 1
        return move

    def poll(self, now_ns: int) -> Optional[Move]:
        """Return the move under way if its deadline has passed (timed out), else None."""
        move = self.pending
        if move is None or now_ns <= move.deadline_ns:
            return None
        self.pending = None
        self._fail('timed_out')
        return move

    def _fail(self, reason: str) -> None:
        self.counters.failed[reason] += 1
        self.counters.failed_since_report += 1
