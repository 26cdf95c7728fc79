"""
Positions published over time, by a timer: a stream and a playback.

A *stream* (``forward_command``) publishes the tracker's motion at
``command_rate`` until it ends, then its end once: a new target while it
runs changes the motion, not the timer.  Each message is the motion at the
controller cycle it is for, published between the cycle before and its own
(``cycles``); the timer is held at that moment by setting its period on each
call (rcl uses it for the call after the next).  A move planned while a
stream runs starts at the last cycle the stream has published (``begin``):
it continues the motion the controller has, and the next message is its
position one cycle on.  Times are the node's clock's (ROS time: a
simulator's with ``use_sim_time``), which the controller's stamps and the
timers keep, so a simulation at half speed streams at half speed.

A *playback* publishes a path at its own timing (on joint_states, or on
commands before the arm's state is known), the last pose that is due at each
tick (on the node's clock too), and tells ``moved`` each position.  The
timers are destroyed, not cancelled, when they stop: a cancelled timer is
still an entity the executor checks on every wake-up (rclpy destroys it once
its callback, which may be the caller, has returned).
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
from twobone_ik_ros.arm.cycles import ControllerCycles
from twobone_ik_ros.arm.motion import Angles
from twobone_ik_ros.arm.planning import Timed
from twobone_ik_ros.arm.tracking import ArmTracker

#: How often a path played back is sampled.
PLAYBACK_RATE_HZ = 50.0
Publish = Callable[[float, float], None]


class Streamer:
    """The stream of the tracker's motion and the playback of a path (one at a time each)."""

    def __init__(self, node: Node, tracker: ArmTracker, moved: Callable[[Angles], None]) -> None:
        """Make timers on ``node``; ``moved`` hears each position played back."""
        self._node = node
        self._tracker = tracker
        self._moved = moved
        self.cycles = ControllerCycles()
        self._stream_timer: Any = None
        self._stream_publish: Optional[Publish] = None
        self._period_ns = 0
        self._first_ns = 0  # when a stream that ``begin`` found stopped publishes first
        self._playback: Optional[Tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], int,
                                       Publish]] = None
        self._playback_timer: Any = None

    def _now(self) -> int:
        return int(self._node.get_clock().now().nanoseconds)

    def begin(self, rate_hz: float) -> int:
        """
        Return when a move planned now for a stream at ``rate_hz`` starts (ROS clock, ns).

        The last cycle the stream has published a position for (at rest: the
        cycle before its first message, which the arm holds anyway): the next
        message is for the cycle after.  A stopped stream notes when it will
        publish first, for ``stream``.
        """
        period = round(1e9 / rate_hz)
        now = self._now()
        timer = self._stream_timer
        if timer is not None and period == self._period_ns:
            publish = now + timer.time_until_next_call()
        else:
            publish = self._first_ns = self.cycles.publish_time(now, period)
        return self.cycles.content_time(publish, period) - period

    def due(self, motion: Timed) -> float:
        """Return the seconds from now to the end of the tracker's ``motion`` (from ``begin``)."""
        return (self._tracker.started_ns - self._now()) / 1e9 + motion.duration

    def stream(self, rate_hz: float, publish: Publish) -> None:
        """Publish the tracker's motion at ``rate_hz`` through ``publish`` (a stream goes on)."""
        self._stream_publish = publish
        period = round(1e9 / rate_hz)
        if self._stream_timer is not None and period != self._period_ns:
            self.stop_stream()
        if self._stream_timer is None:
            self._period_ns = period
            first = max(self._first_ns - self._now(), 1)
            self._stream_timer = self._node.create_timer(first / 1e9, self._tick)
            self._stream_timer.timer_period_ns = period  # from the first call on

    def _tick(self) -> None:
        """Publish the motion at the cycle this message is for; after its end (once) stop."""
        now = self._now()
        period = self._period_ns
        cycle = self.cycles.content_time(now, period)
        state = self._tracker.commanded(cycle)
        if state is None or self._stream_publish is None:
            self.stop_stream()
            return
        self._stream_publish(state.position[0], state.position[1])
        if not self._tracker.moving(cycle):
            self.stop_stream()
            return
        timer = self._stream_timer
        following = self._now() + timer.time_until_next_call()
        timer.timer_period_ns = (
            self.cycles.publish_time(following + period // 2, period) - following)

    def stop_stream(self) -> None:
        """Stop streaming."""
        if self._stream_timer is not None:
            self._node.destroy_timer(self._stream_timer)
            self._stream_timer = None

    def play(self, positions: npt.NDArray[np.float64], times_ns: npt.NDArray[np.int64],
             publish: Publish) -> None:
        """Play a path (``positions`` at ``times_ns`` from now) through ``publish``."""
        self.stop_playback()
        self._playback = (positions, times_ns, self._now(), publish)
        self._playback_timer = self._node.create_timer(1.0 / PLAYBACK_RATE_HZ, self._play)

    def stop_playback(self) -> None:
        """Stop a path being played back (a new target or path replaces it)."""
        self._playback = None
        if self._playback_timer is not None:
            self._node.destroy_timer(self._playback_timer)
            self._playback_timer = None

    def ahead(self) -> Optional[npt.NDArray[np.float64]]:
        """Return the poses of the path played back from the one due now on (None: no path)."""
        if self._playback is None:
            return None
        positions, times_ns, start, _ = self._playback
        index = int(np.searchsorted(times_ns, self._now() - start, side='right')) - 1
        return positions[max(index, 0):]

    @property
    def playing(self) -> bool:
        """Tell whether a path is being played back."""
        return self._playback is not None

    def _play(self) -> None:
        """Publish the last pose of the path that is due, and stop after the final one."""
        if self._playback is None:
            return
        positions, times_ns, start, publish = self._playback
        index = int(np.searchsorted(times_ns, self._now() - start, side='right')) - 1
        if index < 0:
            return
        theta1, theta2 = float(positions[index, 0]), float(positions[index, 1])
        publish(theta1, theta2)
        self._moved((theta1, theta2))
        if index == len(times_ns) - 1:
            self.stop_playback()
