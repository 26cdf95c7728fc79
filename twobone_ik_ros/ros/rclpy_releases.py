"""
What differs between the rclpy releases the package runs on, looked up once.

rclpy's lower-level interface moved between Humble and Kilted: a
subscription's callback type (Iron on), ``TimerInfo`` (Jazzy on), the
timer's call (``call_timer_with_info``, Kilted on), the error of a
destroyed handle.  The lean executor (``executor``) and the choice of
executor (``executor_choice``) read them from here.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import inspect
from typing import Any, Callable, List, Optional, Tuple

#: rcl's entity kinds, in the order rclpy's executor serves them
KINDS = ('timer', 'subscription', 'guard_condition', 'client', 'service')
#: the node's list of each kind (rclpy's ``Node`` properties)
LISTS = {'timer': 'timers', 'subscription': 'subscriptions', 'guard_condition': 'guards',
         'client': 'clients', 'service': 'services'}


def unserved_callback(node: Any) -> Optional[str]:
    """
    Name a callback of ``node`` that ``LeanExecutor`` does not serve, if any (else None).

    Coroutine functions (rclpy awaits them in a task) and timer callbacks
    with a parameter annotated ``TimerInfo`` (rclpy fills it in, from Jazzy
    on; it checks the annotation the same way).
    """
    for kind in KINDS:
        for entity in getattr(node, LISTS[kind]):
            callback = getattr(entity, 'callback', None)
            if callback is None:
                continue
            if inspect.iscoroutinefunction(callback):
                return f'a {kind} callback is a coroutine ({_name(callback)})'
            if kind == 'timer' and TIMER_INFO is not None and any(
                    parameter.annotation == TIMER_INFO
                    for parameter in _parameters(callback)):
                return f'a timer callback takes TimerInfo ({_name(callback)})'
    return None


def _parameters(callback: Callable[..., Any]) -> List[inspect.Parameter]:
    try:
        return list(inspect.signature(callback).parameters.values())
    except (TypeError, ValueError):  # a builtin without a signature
        return []


def _name(callback: Callable[..., Any]) -> str:
    return getattr(callback, '__qualname__', repr(callback))


def _timer_info() -> Any:
    try:
        from rclpy.timer import TimerInfo
        return TimerInfo
    except ImportError:  # Humble: timers take no argument
        return None


def timer_passed(invalid: Any) -> Tuple[Any, ...]:
    """Return the errors of a timer's call that mean nothing to run (as rclpy passes them)."""
    try:
        from rclpy.exceptions import TimerCancelledError
        return (invalid, TimerCancelledError)
    except ImportError:  # before Kilted: a cancelled timer is not ready (checked first)
        return (invalid,)


def call_timer(handle: Any) -> Any:
    """Mark the timer's period as used (``call_timer_with_info`` from Kilted on)."""
    call = getattr(handle, 'call_timer_with_info', None)
    return call() if call is not None else handle.call_timer()


def _with_info() -> Any:
    try:
        from rclpy.subscription import Subscription
        return Subscription.CallbackType.WithMessageInfo
    except (ImportError, AttributeError):  # before Iron: no message info
        return None


def _invalid_handle() -> Any:
    try:
        from rclpy.exceptions import InvalidHandle
        return InvalidHandle
    except ImportError:  # no rclpy: nothing to take from
        return ()


WITH_INFO = _with_info()
INVALID = _invalid_handle()
TIMER_INFO = _timer_info()
