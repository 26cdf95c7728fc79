"""
Warnings at most once per period per reason, saying how many were held back.

rclpy's ``throttle_duration_sec`` drops the warnings in between without a
trace; a user watching the log of a node that rejects 900 targets a second
should read that it did, not that it rejected one every two seconds.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import math
import time
from typing import Any, Callable, Dict, Hashable, Optional


class Throttle:
    """Per key, whether to log now (at most once per period), and how many were held back."""

    def __init__(self, period_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        """Let each key through at most once per ``period_s`` of ``clock`` (s)."""
        self._period_s = period_s
        self._clock = clock
        self._last: Dict[Hashable, float] = {}
        self._held: Dict[Hashable, int] = {}

    def seen(self, key: Hashable) -> bool:
        """Tell whether ``key`` was let through before."""
        return key in self._last

    def due(self, key: Hashable) -> Optional[int]:
        """Return how many of ``key`` were held back since it was last let through, or None."""
        now = self._clock()
        if now - self._last.get(key, -math.inf) < self._period_s:
            self._held[key] = self._held.get(key, 0) + 1
            return None
        self._last[key] = now
        return self._held.pop(key, 0)


class ThrottledWarnings:
    """Log ``describe()`` for a reason at most once per period, with the count held back."""

    def __init__(self, logger: Any, period_s: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """Warn through ``logger`` (rclpy's), each reason at most once per ``period_s``."""
        self._logger = logger
        self._throttle = Throttle(period_s, clock)

    def warn(self, reason: str, describe: Callable[[], str]) -> None:
        """Warn about ``reason`` now, or count it for the next warning (text built only to log)."""
        more = self._throttle.due(reason)
        if more is None:
            return
        tail = f' ({more} more {reason} target(s) since the last such warning)' if more else ''
        self._logger.warning(describe() + tail)
