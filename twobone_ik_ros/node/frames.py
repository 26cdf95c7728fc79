"""
Targets in other frames: brought into the base frame with tf2, never blocking.

A target in another frame is transformed with the transform at its stamp
(the latest for a zero stamp).  If tf2 cannot give it yet, the target waits
up to ``transform_timeout`` while the node goes on: tf2's
``wait_for_transform_async`` resolves it, a timer on the node's clock
rejects it when time is up (a paused simulation pauses the wait; a jump of
the clock gives every waiting input its timeout again).  The tf2 listener is
made on the first such target, and inputs in its first ``LISTENER_START_S``
seconds, or up to ``LISTENER_DEAF_S`` while nothing heard connects their
frame, wait that long on the steady clock: they wait for DDS discovery of
the transform's publisher, which takes real time.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import time
from typing import Any, Callable, List, Tuple

from rclpy.node import Node
from rclpy.time import Time
from std_msgs.msg import Header
from twobone_ik_ros.ros.clock import node_time_ns

try:  # tf2_ros_py: a declared dependency, but the PyPI-only venv may lack it
    import tf2_ros
except ImportError:  # only targets in the base frame then
    tf2_ros = None  # type: ignore[assignment]

#: Targets waiting for a transform at once; beyond that they are rejected
MAX_WAITING_TARGETS = 100
#: How long the inputs that arrive while the tf2 listener is new may wait,
#: whatever ``transform_timeout`` says: the listener subscribes to /tf and
#: /tf_static only when the first input in another frame comes, and on a busy
#: machine discovery and the static transforms take longer than 0.2 s.
LISTENER_START_S = 2.0
#: ... and how long while it has heard nothing connecting the input's frame to
#: the base frame: a publisher of transforms whose participant the node's has
#: not discovered yet (both just started) is found at its next announcement,
#: which Fast DDS makes every 3 s.  Other transforms heard meanwhile (the
#: arm's own robot_state_publisher, another arm's) are no sign of it: the
#: first target in ``world`` right after two arms' launches was dropped so,
#: once in 20 beside two CPU-bound processes, while this waited only for the
#: first transform of any frame.
LISTENER_DEAF_S = 10.0
_EXPIRY_PERIOD_S = 0.05

Use = Callable[[Any], None]  # takes the geometry_msgs/Transform into the base frame
Reject = Callable[[str, Callable[[], str]], None]


class TargetFrames:
    """Finds the transform of a target (or path) into the base frame, or says why not."""

    def __init__(self, node: Node, base_frame: Callable[[], str],
                 guard: Callable[[Any], Any] = lambda callback: callback) -> None:
        """
        Keep the node; nothing is created on the graph until it is needed.

        ``guard`` wraps the futures' done callbacks as the node's own callbacks
        are (``guard.CallbackGuard.wrap``): rclpy runs them as executor tasks,
        whose exceptions would otherwise leave ``spin``.
        """
        self._node = node
        self._base_frame = base_frame
        self._guard = guard
        self._buffer: Any = None
        self._listener: Any = None
        self._timer: Any = None
        #: (deadline on the node's clock in ns, future, timeout in s, source frame, base frame)
        self._waiting: List[Tuple[int, Any, float, str, str]] = []
        self._listener_ready = 0.0  # monotonic time until which the listener is new
        self._listener_deaf = 0.0  # ... or, for an input whose frames it never connected, this

    def handle(self, header: Header, timeout: float, use: Use, reject: Reject,
               what: str = 'target') -> None:
        """
        Call ``use`` with the transform from ``header``'s frame to the base frame.

        Now, or once tf2 has it (within ``timeout`` seconds); otherwise call
        ``reject('unknown_frame', describe)``.  ``what`` names the input in
        the messages.
        """
        source = header.frame_id
        base = self._base_frame()
        if tf2_ros is None:
            reject('unknown_frame', lambda: (
                f'{what} in frame {source!r} dropped: the node works in {base!r} '
                'and tf2_ros is not installed to transform between them'))
            return
        if self._buffer is None:
            self._buffer = tf2_ros.Buffer()
            self._listener = tf2_ros.TransformListener(self._buffer, self._node)
            self._listener_ready = time.monotonic() + LISTENER_START_S
            self._listener_deaf = time.monotonic() + LISTENER_DEAF_S
        if len(self._waiting) >= MAX_WAITING_TARGETS:
            reject('unknown_frame', lambda: (
                f'{what} in frame {source!r} dropped: {MAX_WAITING_TARGETS} inputs are '
                f'already waiting for a transform to {base!r}'))
            return
        try:
            stamp = Time.from_msg(header.stamp)
        except ValueError as error:  # a negative stamp: rclpy's Time refuses it
            detail = str(error)
            reject('malformed', lambda: f'{what} in frame {source!r} dropped: {detail}')
            return
        future = self._buffer.wait_for_transform_async(base, source, stamp)
        answered: List[bool] = []  # rclpy releases may run done callbacks again after a cancel

        def once(done: Any) -> None:
            if not answered:
                answered.append(True)
                self._on_transform(done, source, base, stamp, timeout, use, reject, what)

        future.add_done_callback(self._guard(once))
        if not answered:
            self._waiting.append((node_time_ns(self._node) + round(timeout * 1e9), future, timeout,
                                  source, base))
            if self._timer is None:  # destroyed when nothing waits (``_expire``)
                self._timer = self._node.create_timer(_EXPIRY_PERIOD_S, self._expire)

    def _on_transform(self, future: Any, source: str, base: str, stamp: Time, timeout: float,
                      use: Use, reject: Reject, what: str) -> None:
        if future.cancelled():
            reject('unknown_frame', lambda: (
                f'{what} in frame {source!r} dropped: no transform to {base!r} '
                f'within transform_timeout={timeout:g} s'))
            return
        try:
            transform = future.result()
            if transform is True:  # Humble's future says the transform is there, no more
                transform = self._buffer.lookup_transform(base, source, stamp)
        except tf2_ros.TransformException as error:
            detail = f'{type(error).__name__}: {error}'
            reject('unknown_frame', lambda: (
                f'{what} in frame {source!r} dropped: no transform to {base!r} ({detail})'))
            return
        changed = self._base_frame()
        if changed != base:
            reject('unknown_frame', lambda: (
                f'{what} in frame {source!r} dropped: the base frame changed to {changed!r} '
                'while it waited'))
            return
        use(transform.transform)

    def clock_jumped(self) -> None:
        """Give every waiting input its whole timeout again, on the clock as it is now."""
        now = node_time_ns(self._node)
        self._waiting = [(now + round(timeout * 1e9), future, timeout, source, base)
                         for _, future, timeout, source, base in self._waiting]

    def _expire(self) -> None:
        now = time.monotonic()
        if now < self._listener_ready:
            return  # a new listener: every input waits
        deaf = now < self._listener_deaf
        clock = node_time_ns(self._node)
        still = []
        for waiting in self._waiting:
            deadline, future, _, source, base = waiting
            if future.done() or future.cancelled():
                continue
            if deadline <= clock and not (deaf and not self._connected(source, base)):
                future.cancel()  # runs _on_transform, which rejects it
            else:
                still.append(waiting)
        self._waiting = still
        if not still:
            self._node.destroy_timer(self._timer)
            self._timer = None

    def _connected(self, source: str, base: str) -> bool:
        """Say whether tf2 has heard transforms joining the two frames, at any time."""
        return bool(self._buffer.can_transform(base, source, Time()))


def apply_transform(transform: Any, x: Any, y: Any, z: Any) -> Tuple[Any, Any, Any]:
    """
    Rotate (x, y, z) by the transform's quaternion, translate.

    Floats or numpy arrays (a whole path at once): the arithmetic is the same.

    This is what tf2_geometry_msgs' ``do_transform_point`` computes; that
    module is not a dependency here (it is not available everywhere this
    package runs), and the frame tests check this against tf2 end to end.
    """
    q, t = transform.rotation, transform.translation
    # v' = v + 2 w (u x v) + 2 u x (u x v), with u the quaternion's vector part
    cx = q.y * z - q.z * y
    cy = q.z * x - q.x * z
    cz = q.x * y - q.y * x
    return (x + 2.0 * (q.w * cx + q.y * cz - q.z * cy) + t.x,
            y + 2.0 * (q.w * cy + q.z * cx - q.x * cz) + t.y,
            z + 2.0 * (q.w * cz + q.x * cy - q.y * cx) + t.z)
