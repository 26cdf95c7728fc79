"""
QoS event callbacks, from wherever this rclpy keeps them, and the "none at all" settings.

rclpy gives every publisher and subscription two default QoS event handlers
(incompatible QoS, incompatible type), two more entities each (their cost:
``executor``): under 1 kHz of targets a profile showed them costing more
per target than the solve.  The node's entities are created ``QUIET``; the
other side of a mismatch still reports it, and the node finds it in the
graph, a topic at a time (``node.qos_watch``), which no message pays for.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

try:
    from rclpy.event_handler import PublisherEventCallbacks, SubscriptionEventCallbacks
except ImportError:  # Humble: the same classes under their older module name
    from rclpy.qos_event import (  # type: ignore[no-redef]
        PublisherEventCallbacks, SubscriptionEventCallbacks)

#: ``event_callbacks`` for a publisher or subscription without any handler
QUIET_PUBLISHER = PublisherEventCallbacks(use_default_callbacks=False)
QUIET_SUBSCRIPTION = SubscriptionEventCallbacks(use_default_callbacks=False)

__all__ = ['PublisherEventCallbacks', 'QUIET_PUBLISHER', 'QUIET_SUBSCRIPTION',
           'SubscriptionEventCallbacks']
