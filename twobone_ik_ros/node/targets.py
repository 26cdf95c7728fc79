"""
Targets in: every PointStamped on ``target`` read, counted, and brought into the base frame.

Targets come serialised (raw): ``ros.wire.TargetReader`` reads one in the
base frame straight from its bytes, because rclpy's message objects cost
more than the solve; anything else (another encoding, another frame) is
deserialised by rclpy, and what rclpy cannot read either is rejected as
``malformed``.  A target in another frame waits for its transform
(``frames``) while the node goes on.  Where rclpy passes message info
(Iron on), the gaps in each publisher's sequence numbers are counted as
``lost``; the middleware's own ``message_lost`` event as ``lost.dds``, except
on Fast DDS, where taking it can deadlock (``ros.qos_events``).  That event is
the one handled: rclpy's default handlers for QoS and type
mismatches would be two more entities (``ros.qos_events``), and the
publisher's side reports those too.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

from builtin_interfaces.msg import Time
from geometry_msgs.msg import PointStamped
from rclpy.node import Node
from rclpy.qos_overriding_options import QoSOverridingOptions
from rclpy.serialization import deserialize_message
from rclpy.subscription import Subscription
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.node.diagnostics import SequenceGaps, TargetCounters
from twobone_ik_ros.node.frames import apply_transform, Reject, TargetFrames
from twobone_ik_ros.ros.endpoints import subscription
from twobone_ik_ros.ros.qos_events import (
    message_lost_refusal, QUIET_SUBSCRIPTION, SubscriptionEventCallbacks)
from twobone_ik_ros.ros.wire import TargetReader

#: Depth of the target queue: reliable, keep-last; a stream of setpoints wants
#: the newest (override with qos_overrides parameters for a list of targets)

#: solve(x, y, z, stamp): a target in the base frame
Solve = Callable[[float, float, float, Any], None]


class TargetInput:
    """The ``target`` subscription: each target read and counted once, then solved or rejected."""

    def __init__(self, node: Node, config: IKConfig, counters: TargetCounters,
                 frames: TargetFrames, solve: Solve, reject: Reject) -> None:
        """Subscribe on ``node`` for targets in ``config``'s base frame."""
        self._counters = counters
        self._frames = frames
        self._solve = solve
        self._reject = reject
        self._gaps = SequenceGaps()
        self._reader = TargetReader()
        self._stamp = Time()  # the stamp of the target being solved, reused
        self._config = config
        with_info = hasattr(Subscription, 'CallbackType')  # no message info before Iron
        counters.lost_dds_refused = message_lost_refusal()
        subscription(
            node, 'target', self.on_numbered if with_info else self.on_serialized,
            qos_overriding_options=QoSOverridingOptions.with_default_policies(),
            event_callbacks=QUIET_SUBSCRIPTION if counters.lost_dds_refused else
            SubscriptionEventCallbacks(message_lost=self._on_message_lost,
                                       use_default_callbacks=False),
            raw=True)

    def configure(self, config: IKConfig) -> None:
        """Take targets in ``config``'s base frame, and wait for others' transforms as it says."""
        self._config = config

    def on_numbered(self, raw: bytes, info: Optional[Dict[str, Any]]) -> None:
        """Count the targets its publisher sent before this one that never came, then read it."""
        # no info (an executor that gives none), or a sequence None or 0 where the
        # middleware does not number samples: nothing to count
        if info:
            sequence = info.get('publication_sequence_number')
            if sequence:
                writer = info.get('publisher_gid')
                missed = self._gaps.missed(writer['data'] if writer else None, sequence)
                if missed:
                    self._counters.lost += missed
        self.on_serialized(raw)

    def on_serialized(self, raw: bytes) -> None:
        """Solve a target in the base frame straight from its bytes; the rest as messages."""
        target = self._reader.read(raw)
        if target is None or target[2] and target[2] != self._config.frame:
            # another encoding, or another frame (tf2 takes the header); what
            # rclpy cannot read either is not a target
            try:
                msg = deserialize_message(raw, PointStamped)
            except Exception as error:  # noqa: B902  (rclpy's error types differ by distro)
                self._counters.received += 1
                detail = str(error)
                self._reject('malformed', lambda: (
                    f'a message of {len(raw)} bytes on target is not a readable '
                    f'PointStamped: {detail}'))
                return
            self.on_message(msg)
            return
        self._counters.received += 1
        stamp = self._stamp
        stamp.sec, stamp.nanosec = target[0], target[1]
        self._solve(target[3], target[4], target[5], stamp)

    def on_message(self, msg: PointStamped) -> None:
        """Solve a target given as a message, through tf2 when it is in another frame."""
        self._counters.received += 1
        frame = msg.header.frame_id
        config = self._config
        if frame and frame != config.frame:
            point, stamp = msg.point, msg.header.stamp
            self._frames.handle(msg.header, config.transform_timeout, lambda transform: (
                self._solve(*apply_transform(transform, point.x, point.y, point.z), stamp)),
                self._reject)
            return
        self._solve(msg.point.x, msg.point.y, msg.point.z, msg.header.stamp)

    def _on_message_lost(self, info: Any) -> None:
        self._counters.lost_dds += info.total_count_change
