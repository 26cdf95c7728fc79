"""
Targets in: every PointStamped on ``target`` counted, and brought into the base frame.

Targets come serialised and are read with ``rclpy.serialization``, so that
bytes that are no PointStamped are counted (``rejected.malformed``): a typed
subscription's take drops them without a word (seen on Fast DDS).  A target
in another frame waits for its transform (``frames``) while the node goes on.
Where rclpy passes message info (Iron on), the gaps in each publisher's
sequence numbers are counted as ``lost``; the middleware's own
``message_lost`` event as ``lost.dds``, except on Fast DDS, where taking it
can deadlock (``ros.qos_events``).  That event is the one handled: rclpy's
default QoS and type mismatch handlers would be two more entities, and the
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
from twobone_ik_ros.ros.rclpy_workarounds import accept_message_info_pairs

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
        self._config = config
        with_info = hasattr(Subscription, 'CallbackType')  # no message info before Iron
        counters.lost_dds_refused = message_lost_refusal()
        taking = subscription(
            node, 'target', self.on_numbered if with_info else self.on_serialized,
            qos_overriding_options=QoSOverridingOptions.with_default_policies(),
            event_callbacks=QUIET_SUBSCRIPTION if counters.lost_dds_refused else
            SubscriptionEventCallbacks(message_lost=self._on_message_lost,
                                       use_default_callbacks=False),
            raw=True)
        if with_info:
            accept_message_info_pairs(taking)

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
        """Read a target from its bytes; what rclpy cannot read is counted malformed."""
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
