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
from typing import Any, Callable, Dict


class ThrottledWarnings:
    """Log ``describe()`` for a reason at most once per period, with the count held back."""

    def __init__(self, logger: Any, period_s: float) -> None:
        """Warn through ``logger`` (rclpy's), each reason at most once per ``period_s``."""
        self._logger = logger
        self._period_s = period_s
        self._last: Dict[str, float] = {}
        self._held: Dict[str, int] = {}

    def warn(self, reason: str, describe: Callable[[], str]) -> None:
        """Warn about ``reason`` now, or count it for the next warning (text built only to log)."""
        now = time.monotonic()
        if now - self._last.get(reason, -math.inf) < self._period_s:
            self._held[reason] = self._held.get(reason, 0) + 1
            return
        self._last[reason] = now
        more = self._held.pop(reason, 0)
        tail = f' ({more} more {reason} target(s) since the last such warning)' if more else ''
        self._logger.warning(describe() + tail)
