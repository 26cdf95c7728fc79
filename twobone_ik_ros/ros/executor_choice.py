"""
Which executor spins the node: the lean one where this rclpy is known, else rclpy's.

The lean executor (``executor``) serves the rclpy releases a lane of the
suite runs (``LEAN_RCLPY``: Humble 3.3, Jazzy 7.1, Kilted 9.1), where
``test/test_executor.py`` runs the same scenarios on it and on rclpy's
executor and compares them.  Elsewhere rclpy's ``SingleThreadedExecutor``
spins the node, said once in the log; ``TWOBONE_IK_EXECUTOR`` asks for
another (``EXECUTORS``).
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
#: the executors a spinner can use (``spinner_executor``): the lean one, rclpy's
#: SingleThreadedExecutor, and rclpy's ``experimental.EventsExecutor`` (Jazzy on)
EXECUTORS = ('lean', 'rclpy', 'events')


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


def spinner_executor(node: Any, kind: str) -> Any:
    """
    Return the executor of ``kind`` (one of ``EXECUTORS``) a spinner uses for ``node``.

    The lean one where this rclpy is known, rclpy's EventsExecutor where
    rclpy has it; otherwise rclpy's ``SingleThreadedExecutor``, and a kind
    asked for and not given is logged once, as a warning with the reason
    (an unknown kind is the lean one, said so).
    """
    from rclpy.executors import SingleThreadedExecutor

    def instead(reason: str) -> Any:
        node.get_logger().warning(f"spinning with rclpy's SingleThreadedExecutor: {reason}")
        return SingleThreadedExecutor(context=node.context)

    if kind == 'events':
        try:
            from rclpy.experimental import EventsExecutor
        except ImportError:
            return instead(f'rclpy {rclpy_version()} has no experimental.EventsExecutor')
        with_info = [subscription.topic_name for subscription in node.subscriptions
                     if WITH_INFO is not None
                     and getattr(subscription, '_callback_type', None) is WITH_INFO]
        if with_info:
            # rclpy 9.1's EventsExecutor calls such a callback with the message alone
            # (a TypeError), or raises SystemError from spin_once: doc/performance.md
            return instead(f"rclpy {rclpy_version()}'s EventsExecutor does not give a "
                           f'subscription its MessageInfo ({", ".join(with_info)})')
        return EventsExecutor(context=node.context)
    if kind != 'rclpy':
        if kind != 'lean':
            node.get_logger().warning(
                f'executor {kind!r} is none of {", ".join(EXECUTORS)}: the lean one spins')
        reason = lean_refusal(rclpy_version())
        if reason is not None:
            return instead(reason)
        return LeanExecutor(context=node.context)
    return SingleThreadedExecutor(context=node.context)
