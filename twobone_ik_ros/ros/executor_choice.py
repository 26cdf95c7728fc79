"""
Which executor spins the node: rclpy's EventsExecutor where rclpy has it, else the lean one.

rclpy's ``experimental.EventsExecutor`` (Jazzy on: rclpy 7.1, 9.1 and
later) waits in C++ and calls each callback from there, with no Python
between two callbacks; rclpy's own API, so it serves any release that has
it.  It is the default where it is there (``default``): on the node's work
it costs within a few percent of the lean executor (``bench_control``'s
``node_events_cpu_ratio``, doc/performance.md), and it takes no private API.
Elsewhere (Humble) the lean executor (``executor``), which reaches into
rclpy's lower-level interface and so serves only the rclpy releases a lane
of the suite runs (``LEAN_RCLPY``), where ``test/test_executor.py`` compares
it with rclpy's executor scenario by scenario; on any other release rclpy's
``SingleThreadedExecutor``, said once in the log.  ``TWOBONE_IK_EXECUTOR``
asks for one of them by name (``EXECUTORS``): the benchmarks weigh them so.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import re
from typing import Any, Optional

from twobone_ik_ros.ros.executor import LeanExecutor
from twobone_ik_ros.ros.rclpy_releases import WITH_INFO

#: the rclpy releases (major.minor) the lean executor serves: those a lane of
#: the suite runs and test_executor compares with rclpy's own executor
LEAN_RCLPY = {'3.3': 'Humble', '7.1': 'Jazzy', '9.1': 'Kilted'}
#: the executors a spinner can use (``spinner_executor``): the default choice (rclpy's
#: EventsExecutor where rclpy has it, else the lean one), rclpy's EventsExecutor, the
#: lean one, rclpy's SingleThreadedExecutor
EXECUTORS = ('default', 'events', 'lean', 'rclpy')


def rclpy_version() -> Optional[str]:
    """
    Return the version of the rclpy imported (``9.1.2``), or None if nothing says it.

    From its installed metadata (the wheels' and colcon's egg-info), else
    from its ``package.xml`` in the ament index (any ROS install).
    """
    import importlib.metadata
    import os

    for name in ('rclpy', 'ros-rclpy'):
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    try:
        from ament_index_python.packages import get_package_share_directory
        with open(os.path.join(get_package_share_directory('rclpy'), 'package.xml')) as xml:
            found = re.search(r'<version>\s*([0-9][0-9.]*)\s*</version>', xml.read())
        return found.group(1) if found else None
    except Exception:  # noqa: B902  (no ament index, no package.xml: unknown)
        return None


def lean_refusal(version: Optional[str]) -> Optional[str]:
    """Say why the lean executor does not serve rclpy ``version`` (None: it does)."""
    if version is None:
        return "rclpy's version is unknown"
    release = '.'.join(version.split('.')[:2])
    if release not in LEAN_RCLPY:
        known = ', '.join(f'{number} ({distro})' for number, distro in LEAN_RCLPY.items())
        return f'rclpy {version} is not a release the lean executor is checked on ({known})'
    return None


def _take_pairs(subscription: Any) -> None:
    """
    Let rclpy's EventsExecutor give ``subscription`` its MessageInfo.

    rclpy 7.1's and 9.1's EventsExecutor call a callback that takes the
    message info with one argument, the (message, info) pair rclpy's take
    returns (rclpy's other executors: two).  The callback is wrapped to take
    the pair either way, and keeps its callback type (setting a callback
    makes rclpy look its type up again, and a wrapper of ``*taken`` looks
    like one of the message alone); should an rclpy call it with the
    message alone after all, the info is None.
    """
    callback = subscription.callback

    def taking(*taken: Any) -> Any:
        if len(taken) == 1:
            pair = taken[0]
            return callback(*pair) if isinstance(pair, tuple) else callback(pair, None)
        return callback(*taken)

    subscription.callback = taking
    subscription._callback_type = WITH_INFO


def events_executor_class() -> Any:
    """Return rclpy's EventsExecutor, or None where this rclpy has none (Humble)."""
    try:
        from rclpy.experimental import EventsExecutor
    except ImportError:
        return None
    return EventsExecutor


def default_kind() -> str:
    """Return the executor ``default`` stands for here: events, else lean (or rclpy's)."""
    return 'events' if events_executor_class() is not None else 'lean'


def spinner_executor(node: Any, kind: str) -> Any:
    """
    Return the executor of ``kind`` (one of ``EXECUTORS``) a spinner uses for ``node``.

    ``default``: rclpy's EventsExecutor where rclpy has it, else the lean one
    (``default_kind``).  The EventsExecutor where rclpy has it (the
    subscriptions that take their MessageInfo then take it as it gives it:
    ``_take_pairs``); the lean one where this rclpy is known; otherwise
    rclpy's ``SingleThreadedExecutor``, and a kind asked for and not given is
    logged once, as a warning with the reason (an unknown kind is the
    default one, said so).
    """
    from rclpy.executors import SingleThreadedExecutor

    def instead(reason: str) -> Any:
        node.get_logger().warning(f"spinning with rclpy's SingleThreadedExecutor: {reason}")
        return SingleThreadedExecutor(context=node.context)

    if kind not in EXECUTORS:
        node.get_logger().warning(
            f'executor {kind!r} is none of {", ".join(EXECUTORS)}: the default one spins')
        kind = 'default'
    if kind == 'default':
        kind = default_kind()
    if kind == 'events':
        events = events_executor_class()
        if events is None:
            return instead(f'rclpy {rclpy_version()} has no experimental.EventsExecutor')
        for subscription in node.subscriptions if WITH_INFO is not None else ():
            if getattr(subscription, '_callback_type', None) is WITH_INFO:
                _take_pairs(subscription)
        return events(context=node.context)
    if kind == 'lean':
        reason = lean_refusal(rclpy_version())
        if reason is not None:
            return instead(reason)
        return LeanExecutor(context=node.context)
    return SingleThreadedExecutor(context=node.context)
