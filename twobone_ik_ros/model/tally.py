"""
Counts by reason, since start-up and since the last diagnostics report.

The node's rejected targets and the arm's failed moves are both told this
way on ``/diagnostics``: one key per reason, all of them there from the
start (a client reads 0, not a missing key), and a level of WARN while some
happened since the previous report, which names them.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Dict, Iterable


class ReasonCounter:
    """How many of each reason so far (``counts``), and since the last ``take_recent``."""

    def __init__(self, reasons: Iterable[str]) -> None:
        """Start every one of ``reasons`` at 0."""
        self.counts: Dict[str, int] = dict.fromkeys(reasons, 0)
        self.recent: Dict[str, int] = {}

    def add(self, reason: str) -> None:
        """Count one of ``reason`` (KeyError for a reason not given at the start)."""
        self.counts[reason] += 1
        self.recent[reason] = self.recent.get(reason, 0) + 1

    @property
    def total(self) -> int:
        """Return the count of every reason together."""
        return sum(self.counts.values())

    def take_recent(self) -> Dict[str, int]:
        """Return the counts since the previous call (or the start), and start again."""
        recent, self.recent = self.recent, {}
        return recent

    def describe(self, counts: Dict[str, int]) -> str:
        """Return ``counts`` (some of this tally's) as 'reason n, reason n', in reason order."""
        return ', '.join(f'{reason} {counts[reason]}' for reason in self.counts
                         if counts.get(reason))
