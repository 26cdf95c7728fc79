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
Positions published over time, by a timer: a stream and a playback.

A *stream* (``forward_command``) publishes the tracker's motion at
``command_rate`` until it ends, then its end once: a new target while it
runs changes the motion, not the timer.  A *playback* publishes a path at
its own timing (on joint_states, or on commands before the arm's state is
known), the last pose that is due at each tick, and tells ``moved`` each
position.  The timers are destroyed, not cancelled, when they stop: a
cancelled timer is still an entity the executor checks on every wake-up
(rclpy destroys it once its callback, which may be the caller, has
returned).
"""

from __future__ import annotations

import time
from typing import Any, Callable, Optional, Tuple

import numpy as np
from rclpy.node import Node
from twobone_ik_ros.arm.motion import Angles
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
        self._stream_timer: Any = None
        self._stream_publish: Optional[Publish] = None
        self._playback: Optional[Tuple[np.ndarray, np.ndarray, int, Publish]] = None
        self._playback_timer: Any = None

    def stream(self, rate_hz: float, publish: Publish) -> None:
        """Publish the tracker's motion at ``rate_hz`` through ``publish`` (a stream goes on)."""
        self._stream_publish = publish
        if self._stream_timer is None:
            self._stream_timer = self._node.create_timer(1.0 / rate_hz, self._tick)

    def _tick(self) -> None:
        """Publish the motion's position now; after its end (the goal, once) stop."""
        now = time.monotonic_ns()
        state = self._tracker.commanded(now)
        if state is None or self._stream_publish is None:
            self.stop_stream()
            return
        self._stream_publish(state.position[0], state.position[1])
        if not self._tracker.moving(now):
            self.stop_stream()

    def stop_stream(self) -> None:
        """Stop streaming."""
        if self._stream_timer is not None:
            self._node.destroy_timer(self._stream_timer)
            self._stream_timer = None

    def play(self, positions: np.ndarray, times_ns: np.ndarray, publish: Publish) -> None:
        """Play a path (``positions`` at ``times_ns`` from now) through ``publish``."""
        self.stop_playback()
        self._playback = (positions, times_ns, time.monotonic_ns(), publish)
        self._playback_timer = self._node.create_timer(1.0 / PLAYBACK_RATE_HZ, self._play)

    def stop_playback(self) -> None:
        """Stop a path being played back (a new target or path replaces it)."""
        self._playback = None
        if self._playback_timer is not None:
            self._node.destroy_timer(self._playback_timer)
            self._playback_timer = None

    @property
    def playing(self) -> bool:
        """Tell whether a path is being played back."""
        return self._playback is not None

    def _play(self) -> None:
        """Publish the last pose of the path that is due, and stop after the final one."""
        if self._playback is None:
            return
        positions, times_ns, start, publish = self._playback
        index = int(np.searchsorted(times_ns, time.monotonic_ns() - start, side='right')) - 1
        if index < 0:
            return
        theta1, theta2 = float(positions[index, 0]), float(positions[index, 1])
        publish(theta1, theta2)
        self._moved((theta1, theta2))
        if index == len(times_ns) - 1:
            self.stop_playback()
