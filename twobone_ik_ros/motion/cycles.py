"""
When a controller takes a streamed command: its cycles, told by its joint states' stamps.

forward_command_controller writes, at each cycle, the last command that
reached it, so a stream publishes each position between the cycle before and
its own, never before the cycle its last command is for has run
(``has_run``).  The cycles are read off joint_state_broadcaster's stamps: on
the wall clock a grid, a low percentile (``GRID_QUANTILE``) of the recent stamps'
offsets; on a simulator's clock the last cycle plus a period
(``follows_last``).  Where a joint state comes each cycle, the next command
waits for the stamp of the cycle that took the last (``sent``, ``paced``).
Times are nanoseconds of the ROS clock; pure (no ROS).  Why each rule, and
what it measured: doc/motion.md.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from collections import deque
from typing import Deque, Optional, Tuple

#: How many recent stamps the grid is read from (a third of a second at 100 Hz).
WINDOW = 32
#: When a command is published: this fraction of a period after the latest
#: wake-up of the controller's recent cycles (its lateness on the grid), so
#: that the cycle before the one the command is for has read its buffer, and
#: at most ``LATEST`` after the grid, to leave the rest of the period to the
#: node's own timer, the DDS hop and the controller's executor.
PUBLISH_AFTER = 0.1
LATEST = 0.4
#: A command published later than this fraction of a period after a cycle
#: (on the grid) is for the cycle after the next: it might reach the next
#: one only after that cycle has run (a stream's next command then waits for
#: that cycle too, so two commands are never written within half a period).
NEXT_CYCLE_CUTOFF = 0.5
#: How late (a fraction of a period after the stamps' median) a cycle is
#: still taken to be late, not early: the rest of the period counts as early.
LATE_WRAP = 0.75
#: Which of the recent offsets, from the earliest, is the grid: a tenth of
#: the window, so that that many cycles later than ``LATE_WRAP`` do not count.
GRID_QUANTILE = 0.1
#: How many recent stamps tell whether a joint state comes each cycle (``paced``), and how
#: far (ns) a stamp may be from the node's clock as it is heard (the same clock), and the
#: node's clock from when the last was heard (the states still come).
PACED_AFTER = 9
PACED_WITHIN_NS = 1_000_000_000


def next_cycle_at(phase_ns: int, period_ns: int, after_ns: int) -> int:
    """Return the first ``phase_ns + k * period_ns`` (k an integer) at or after ``after_ns``."""
    return after_ns + (phase_ns - after_ns) % period_ns


class ControllerCycles:
    """The phase of a controller's cycles, from the stamps of the joint states it publishes."""

    def __init__(self) -> None:
        """Know nothing: phase 0 (any grid keeps a stream's positions a period apart)."""
        self._stamps: Deque[int] = deque(maxlen=WINDOW)
        #: each cycle comes a period after the last (a simulator's clock), not on a fixed grid
        self.follows_last = False
        self._offset_ns = 0  # the node's clock less the last stamp, as it was heard
        #: a cycle at or after this stamp takes the last command sent (``sent``)
        self._sent_ns: Optional[int] = None

    def heard(self, stamp_ns: int, now_ns: int) -> None:
        """Record a joint state's stamp, heard at ``now_ns``."""
        self._stamps.append(stamp_ns)
        self._offset_ns = now_ns - stamp_ns
        if self._sent_ns is not None and stamp_ns >= self._sent_ns:
            self._sent_ns = None  # the cycle that took the last command sent

    def forget(self) -> None:
        """Drop the stamps (another arm) and what waited for them."""
        self._stamps.clear()
        self._sent_ns = None

    def sent(self, publish_ns: int, period_ns: int) -> None:
        """
        Note a command published at ``publish_ns``: the cycle that takes it is to be heard.

        The first cycle ``NEXT_CYCLE_CUTOFF`` of a period after it or later: a
        command reaches the controller within that (``content_time``).
        """
        self._sent_ns = publish_ns + round(NEXT_CYCLE_CUTOFF * period_ns)

    def paced(self, period_ns: int, now_ns: int) -> bool:
        """
        Tell whether a joint state comes each cycle of ``period_ns``, on the node's clock.

        Then a stream waits for the stamps; otherwise (none yet, a
        broadcaster slower than the stream or silent for ``PACED_WITHIN_NS``,
        another clock) for the cycles' times on the grid.
        """
        recent = list(self._stamps)[-PACED_AFTER:]
        if len(recent) < PACED_AFTER or abs(self._offset_ns) > PACED_WITHIN_NS:
            return False
        if now_ns - recent[-1] - self._offset_ns > PACED_WITHIN_NS:
            return False
        spacing = sorted(b - a for a, b in zip(recent, recent[1:]))
        return spacing[len(spacing) // 2] <= 1.5 * period_ns

    def grid(self, period_ns: int) -> Tuple[int, int]:
        """
        Return the grid's phase in ``[0, period_ns)`` and the cycles' latest wake-up after it.

        Each stamp's offset from the stamps' median wake-up (found around the
        last stamp, half a period either side), wrapped to ``LATE_WRAP`` of a
        period after it and the rest before: the ``GRID_QUANTILE`` percentile is the
        grid (a cycle is never early, often late), the latest the lateness
        to allow for.  (0, 0) before any stamp.
        """
        stamps = self._stamps
        if not stamps:
            return 0, 0
        last = stamps[-1]
        if self.follows_last:
            return last % period_ns, 0
        half = period_ns // 2
        around_last = sorted((stamp - last + half) % period_ns for stamp in stamps)
        median = last + around_last[len(around_last) // 2] - half
        early = period_ns - round(LATE_WRAP * period_ns)
        offsets = sorted((stamp - median + early) % period_ns - early for stamp in stamps)
        earliest = offsets[int(GRID_QUANTILE * len(offsets))]
        return (median + earliest) % period_ns, offsets[-1] - earliest

    def content_time(self, publish_ns: int, period_ns: int, after_ns: int = 0) -> int:
        """
        Return the cycle a command published at ``publish_ns`` is for: the next one.

        Not for a timer that fired late, in the last part of the period
        before that cycle (``NEXT_CYCLE_CUTOFF``): its command could reach the
        controller after the cycle, which then holds the last one, and the
        next command would be taken at the cycle after: two in one cycle.
        It is for the cycle after: the arm holds a cycle either way, and
        each command it takes is one cycle of the motion on from the last
        (a stream advances one period per command).  Following the last cycle (a
        simulator's clock), never that cycle itself (a timer that fires on the
        clock step of a cycle that came late has heard it: stale), nor the
        cycle that the command for ``after_ns`` served: when the cycles drift
        between two commands, the one for the old grid's time is taken by the
        drifted cycle, and the next is for the cycle after that.
        """
        phase = self.grid(period_ns)[0]
        if self.follows_last and self._stamps:
            publish_ns = max(publish_ns, self._stamps[-1] + 1, after_ns + period_ns // 2)
        return next_cycle_at(phase, period_ns,
                             publish_ns + round((1.0 - NEXT_CYCLE_CUTOFF) * period_ns))

    def has_run(self, cycle_ns: int, now_ns: int, period_ns: int) -> bool:
        """
        Tell whether the controller's cycle ``cycle_ns`` (on the grid) has surely run by now.

        A stream sends nothing before the cycle that takes its last message
        has run: a second message could reach the controller before that
        cycle, which would take only the second, two periods of the motion in
        one cycle.  Where a state comes each cycle (``paced``), a cycle that
        took the last command ``sent`` has been heard, however long that
        takes; otherwise ``cycle_ns``'s stamp has been heard, or it is past
        by more than the cycles' lateness (``LATEST`` of a period at most),
        and ``NEXT_CYCLE_CUTOFF`` of a period has gone by since the last was sent.
        """
        if self.paced(period_ns, now_ns):
            return self._sent_ns is None
        if self._sent_ns is not None and now_ns < self._sent_ns:
            return False  # never two commands written within ``NEXT_CYCLE_CUTOFF`` of a period
        if self._stamps and self._stamps[-1] >= cycle_ns:
            return True
        lateness = self.grid(period_ns)[1]
        return now_ns > cycle_ns + min(lateness, round(LATEST * period_ns))

    def publish_time(self, after_ns: int, period_ns: int) -> int:
        """Return the first moment at or after ``after_ns`` to publish a command at."""
        phase, lateness = self.grid(period_ns)
        delay = min(lateness + round(PUBLISH_AFTER * period_ns), round(LATEST * period_ns))
        return next_cycle_at(phase + delay, period_ns, after_ns)


def cycles_skipped(last_ns: int, cycle_ns: int, period_ns: int) -> int:
    """
    Return how many controller cycles lie between the cycle ``last_ns`` and ``cycle_ns``.

    Zero when ``cycle_ns`` is the next one (a grid that moved by less than
    half a period between two commands is the same grid); negative when it
    is ``last_ns`` itself (a command for it was published already).  A
    stream holds the arm over the cycles skipped: its command for them never
    came, so the controller kept the last one.
    """
    return round((cycle_ns - last_ns) / period_ns) - 1
