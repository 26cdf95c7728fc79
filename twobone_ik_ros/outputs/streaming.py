"""
Positions published over time by a timer: a stream (``Stream``) and a playback (``Playback``).

A *stream* (``forward_command``) publishes a finished motion once per
controller cycle, evaluated at the cycle it is for and published between the
cycle before and its own (``motion.cycles``).  It advances one period per
message, never by the clock: a late node holds the arm (``TransportOwner.arm_held``),
and no message goes out before the cycle that takes the last has run
(``ControllerCycles.paced``), so no cycle finds two.  The last position goes
again each cycle until the arm is heard there (``TransportOwner.arm_short_of``): the
controller may read best effort.  Why each rule: doc/motion.md, a late node.

A *playback* publishes a path at its own timing, the pose due at each tick,
and tells ``moved`` each position.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Callable, Optional, Tuple

import numpy as np
import numpy.typing as npt
from rclpy.node import Node
from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.motion.cycles import ControllerCycles, cycles_skipped
from twobone_ik_ros.outputs.transport import FinishedMotion, TransportOwner
from twobone_ik_ros.ros.clock import node_time_ns

#: How often a path played back is sampled.
PLAYBACK_RATE_HZ = 50.0
Publish = Callable[[float, float], None]
_NS = 1_000_000_000


class Stream:
    """A finished motion streamed at a controller's cycles (``forward_command``)."""

    def __init__(self, node: Node, owner: TransportOwner) -> None:
        """
        Make the timer on ``node`` when a stream starts.

        ``owner`` gives the controller's cycles, read off the arm's joint
        states, and hears each hold of the arm (the node came late).
        """
        self._node = node
        self._owner = owner
        self._timer: Any = None
        self._publish: Optional[Publish] = None
        self._motion: Optional[FinishedMotion] = None
        self._start_ns = 0  # the motion's start, held later by the cycles the arm was held
        self._period_ns = 0
        self._first_ns = 0  # when a stream that ``begin`` found stopped publishes first
        #: a tick found the cycle that takes the last message not yet heard: its joint state
        #: ticks again (``state_heard``), not the timer a period on (a held cycle)
        self._waiting = False
        #: the cycle the last message was for (before the first: the cycle before it)
        self._content_ns = 0
        #: the cycle that takes the last message (0: none since the stream began: nothing to
        #: wait for): the next waits until that cycle has run
        self._taken_ns = 0
        #: when the stream last ran (0: not since it began): a gap of periods is the node away
        self._ticked_ns = 0
        #: the node was away since the last message: its wait was moved after, once
        self._away_since_sent = False
        #: the motion's last position, once published: sent again each cycle until the arm is
        #: heard there (``TransportOwner.arm_short_of``): forward_command_controller may have
        #: lost it
        self._final: Optional[Angles] = None

    def begin(self, rate_hz: float) -> int:
        """
        Return when a move planned now for a stream at ``rate_hz`` starts (ROS clock, ns).

        The last cycle the stream has published a position for (at rest: the
        cycle before its first message, which the arm holds anyway): the next
        message is for the cycle after, however late it comes.  A stopped
        stream notes when it will publish first, for ``run``.
        """
        period = round(1e9 / rate_hz)
        cycles = self._cycles()  # the output read the waiting states as the target came
        if self._timer is not None and period == self._period_ns and self._content_ns:
            return self._content_ns
        publish = self._first_ns = cycles.publish_time(node_time_ns(self._node), period)
        self._content_ns = cycles.content_time(publish, period) - period
        return self._content_ns

    def _cycles(self) -> ControllerCycles:
        """Return the controller's cycles; on a simulator's clock, the next a period on."""
        cycles = self._owner.cycles
        cycles.follows_last = self._node.get_clock().ros_time_is_active
        return cycles

    def run(self, rate_hz: float, motion: FinishedMotion, publish: Publish) -> None:
        """Publish ``motion`` at ``rate_hz`` through ``publish`` (a stream goes on with it)."""
        assert motion.timed is not None
        self._motion, self._final = motion, None
        self._start_ns = motion.start_ns
        self._publish = publish
        period = round(1e9 / rate_hz)
        if self._timer is not None and period != self._period_ns:
            self._destroy_timer()  # a new rate: ``begin`` planned from the new one's first
        if self._timer is None:
            self._period_ns = period
            first = max(self._first_ns - node_time_ns(self._node), 1)
            self._timer = self._node.create_timer(first / 1e9, self._tick)
            self._timer.timer_period_ns = period  # from the first call on

    def _tick(self) -> None:
        """
        Publish the motion one cycle on from the last message; its end until the arm is there.

        The message is for the controller's next cycle.  Where cycles went by
        since the last message's (the node came late), the arm held on it
        through them: the move is held as long, and goes on one cycle on.
        """
        period = self._period_ns
        cycles = self._cycles()
        now = node_time_ns(self._node)
        last = self._content_ns
        self._waiting = False
        away = bool(self._ticked_ns) and now - self._ticked_ns > 2 * period
        self._ticked_ns = now  # not the last message's time: waiting for its cycle is no absence
        if self._taken_ns:
            if away and not self._away_since_sent:
                # the node was away: its last message may reach the controller only now
                # (once: a stall or a slow clock while it waits changes nothing it sent)
                self._away_since_sent = True
                self._taken_ns = cycles.content_time(now, period)
                cycles.sent(now, period)
            if not cycles.has_run(self._taken_ns, now, period):
                self._waiting = True  # the last message may not be taken yet
                self._time_next(cycles, period)
                return
        cycle = cycles.content_time(now, period, last)
        skipped = cycles_skipped(last, cycle, period) if last else 0
        if skipped < 0:  # that cycle has its message: wait for the next
            self._time_next(cycles, period)
            return
        motion, publish = self._motion, self._publish
        if motion is None or motion.timed is None or publish is None or (
                self._final is not None and not self._owner.arm_short_of(self._final)):
            self.stop()  # the motion is over and the arm was heard at its end
            return
        position = self._final
        if position is None:
            late = cycle - last - period if last else 0
            if late:  # cycles went by, one came late (a simulator's), the grid moved: it waits
                self._start_ns += late
                self._owner.arm_held(late, skipped)
            elapsed = cycle - self._start_ns
            envelope = motion.envelope
            position = motion.timed.at(elapsed / _NS).position
            if envelope is not None:
                position = envelope.admit(position)
            if elapsed >= motion.timed.duration * _NS:
                self._final = position
        self._content_ns = cycle
        publish(*position)
        # the gate counts from when the message went out, not from when the tick began: a
        # host that took the thread away in between would have the next go out at once
        self._taken_ns, self._away_since_sent = cycle, False
        cycles.sent(node_time_ns(self._node), period)
        self._time_next(cycles, period)

    def state_heard(self) -> None:
        """
        Tick now if the last tick waited for the cycle that takes the last message.

        The controller's joint state of that cycle can come after the tick
        meant to publish the next message (at 100 Hz on the stand-in, now
        and then more than a tenth of a period after the cycle): waiting for
        the timer's next tick, a period on, held the arm a cycle in the
        middle of a move.  Ticking on the state publishes the message for
        the next cycle as soon as the last is known to be taken.
        """
        if self._waiting and self._timer is not None:
            self._tick()

    def held(self, now_ns: int) -> int:
        """
        Return how long the arm has waited by ``now_ns`` for the motion's next position (ns).

        Counted as the move's lateness (``TransportOwner.arm_held``) only when that
        position goes out: the move may not time out meanwhile.
        """
        if self._motion is None or self._final is not None or not self._content_ns:
            return 0
        return max(now_ns - self._content_ns - self._period_ns, 0)

    def _time_next(self, cycles: ControllerCycles, period: int) -> None:
        """Have the timer fire again just after the controller's next cycle."""
        timer = self._timer
        following = node_time_ns(self._node) + timer.time_until_next_call()
        timer.timer_period_ns = cycles.publish_time(following + period // 2, period) - following

    def stop(self) -> None:
        """Stop streaming."""
        self._content_ns = 0
        self._taken_ns = self._ticked_ns = 0
        self._motion = self._final = None
        self._destroy_timer()

    def _destroy_timer(self) -> None:
        self._waiting = False  # a state heard before the next timer's first tick waits for it
        if self._timer is not None:
            self._node.destroy_timer(self._timer)
            self._timer = None


class Playback:
    """A path published at its own timing, the pose due at each tick (one path at a time)."""

    def __init__(self, node: Node, moved: Callable[[Angles], None]) -> None:
        """Make the timer on ``node`` when a path plays; ``moved`` hears each position."""
        self._node = node
        self._moved = moved
        self._path: Optional[Tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], int,
                                   Publish]] = None
        self._timer: Any = None

    def play(self, positions: npt.NDArray[np.float64], times_ns: npt.NDArray[np.int64],
             publish: Publish) -> None:
        """Play a path (``positions`` at ``times_ns`` from now) through ``publish``."""
        self.stop()
        self._path = (positions, times_ns, node_time_ns(self._node), publish)
        self._timer = self._node.create_timer(1.0 / PLAYBACK_RATE_HZ, self._play)

    def stop(self) -> None:
        """Stop a path being played back (a new target or path replaces it)."""
        self._path = None
        if self._timer is not None:
            self._node.destroy_timer(self._timer)
            self._timer = None

    def ahead(self) -> Optional[npt.NDArray[np.float64]]:
        """Return the poses of the path played back from the one due now on (None: no path)."""
        if self._path is None:
            return None
        return self._path[0][max(self._due(), 0):]

    @property
    def playing(self) -> bool:
        """Tell whether a path is being played back."""
        return self._path is not None

    def _due(self) -> int:
        """Return the index of the pose of the path played back due now (-1: none yet)."""
        assert self._path is not None
        _, times_ns, start, _ = self._path
        return int(np.searchsorted(times_ns, node_time_ns(self._node) - start, side='right')) - 1

    def _play(self) -> None:
        """Publish the last pose of the path that is due, and stop after the final one."""
        if self._path is None:
            return
        positions, times_ns, _, publish = self._path
        index = self._due()
        if index < 0:
            return
        theta1, theta2 = float(positions[index, 0]), float(positions[index, 1])
        publish(theta1, theta2)
        self._moved((theta1, theta2))
        if index == len(times_ns) - 1:
            self.stop()
