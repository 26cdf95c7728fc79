"""
A callback that raises costs that one callback, not the node.

rclpy lets an exception from a callback out of ``spin``, and the process
ends: one message that meets a bug we have not found yet would stop an arm.
``CallbackGuard.wrap`` catches it at the callback's edge, counts it (the
diagnostics report the count, level ERROR), and logs it with its traceback
the first time each kind happens, then at most once per period with how
many more there were.  ``GuardedNode`` wraps every subscription and timer
callback made on it, those rclpy makes in ``Node.__init__`` too (``/clock``
under ``use_sim_time``).  The wrapper keeps the callback's signature
(``functools.wraps``): rclpy reads it to decide whether a callback takes the
message info or the timer info.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import functools
import traceback
from typing import Any, Callable, Optional, Tuple, TypeVar

import rclpy.logging
from rclpy.node import Node
from twobone_ik_ros.node.throttle import Throttle

Callback = TypeVar('Callback', bound=Callable[..., Any])
Kind = Tuple[str, str, str, int]


class CallbackGuard:
    """Catch, count and log what callbacks raise (``count``: all of them so far)."""

    def __init__(self, logger: Any, period_s: float) -> None:
        """Log through ``logger``; a repeated kind at most once per ``period_s``."""
        self.count = 0
        self.logger = logger
        self._throttle = Throttle(period_s)

    def wrap(self, callback: Callback,
             refuse: Optional[Callable[[BaseException], Any]] = None) -> Callback:
        """Return ``callback`` guarded; what it raises gives ``refuse(error)`` (or None)."""
        name = getattr(callback, '__qualname__', repr(callback))

        @functools.wraps(callback)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                return callback(*args, **kwargs)
            except Exception as error:  # noqa: B902  (any bug, whatever its type)
                self.record(error, name)
                return refuse(error) if refuse is not None else None
        return guarded  # type: ignore[return-value]

    def record(self, error: BaseException, callback: str = '') -> None:
        """Count ``error`` from ``callback``; log it (the first of its kind with a traceback)."""
        self.count += 1
        frames = traceback.extract_tb(error.__traceback__)
        where = frames[-1] if frames else None
        kind = (callback, type(error).__name__, where.filename if where else '?',
                (where.lineno or 0) if where else 0)
        first = not self._throttle.seen(kind)
        held = self._throttle.due(kind)
        if held is None:
            return
        if first:
            self.logger.error(
                f'internal error {self.count} in {callback} (abandoned; the node goes on):\n'
                + ''.join(traceback.format_exception(type(error), error, error.__traceback__)))
        else:
            self.logger.error(
                f'internal error {kind[1]} in {callback} at {kind[2]}:{kind[3]} again: '
                f'{held + 1} time(s) since it was last logged (latest: {error})')


class GuardedNode(Node):
    """An rclpy node whose subscription and timer callbacks cannot stop it."""

    def __init__(self, node_name: str, guard_period_s: float, **kwargs: Any) -> None:
        """Create the node; ``guard`` logs a repeated kind at most once per ``guard_period_s``."""
        # before rclpy's Node.__init__, which may subscribe /clock (use_sim_time)
        self.guard = CallbackGuard(rclpy.logging.get_logger(node_name), guard_period_s)
        super().__init__(node_name, **kwargs)
        self.guard.logger = self.get_logger()  # its name has the namespace

    def create_subscription(self, msg_type: Any, topic: str, callback: Any,
                            *args: Any, **kwargs: Any) -> Any:
        """Create a subscription whose callback cannot stop the node."""
        return super().create_subscription(msg_type, topic, self.guard.wrap(callback),
                                           *args, **kwargs)

    def create_timer(self, timer_period_sec: float, callback: Any,
                     *args: Any, **kwargs: Any) -> Any:
        """Create a timer whose callback cannot stop the node."""
        return super().create_timer(timer_period_sec, self.guard.wrap(callback),
                                    *args, **kwargs)
