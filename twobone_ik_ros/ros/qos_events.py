"""
QoS event callbacks, from wherever this rclpy keeps them, and the "none at all" settings.

rclpy gives every publisher and subscription two default QoS event handlers
(incompatible QoS, incompatible type), two more entities each for the
executor; the node's are created ``QUIET``, and it finds a peer that cannot
match in the graph instead (``node.qos_watch``).  The one event the node
takes, ``message_lost`` of its targets, is not taken on Fast DDS, where
taking it can deadlock the process (ros2/rmw_fastrtps#890, doc/reliability.md);
there the gaps in the publishers' sequence numbers still count every target
lost.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from typing import Optional

try:
    from rclpy.event_handler import PublisherEventCallbacks, SubscriptionEventCallbacks
except ImportError:  # Humble: the same classes under their older module name
    from rclpy.qos_event import (  # type: ignore[no-redef]
        PublisherEventCallbacks, SubscriptionEventCallbacks)

#: the middlewares whose ``message_lost`` event can deadlock the process (see above)
MESSAGE_LOST_DEADLOCKS = ('rmw_fastrtps_cpp', 'rmw_fastrtps_dynamic_cpp')


def message_lost_refusal() -> Optional[str]:
    """Return why the ``message_lost`` event is not taken on this middleware, or None."""
    from rclpy.utilities import get_rmw_implementation_identifier

    rmw = get_rmw_implementation_identifier()
    if rmw in MESSAGE_LOST_DEADLOCKS:
        return f'not read: {rmw} can deadlock on it (ros2/rmw_fastrtps#890)'
    return None


#: ``event_callbacks`` for a publisher or subscription without any handler
QUIET_PUBLISHER = PublisherEventCallbacks(use_default_callbacks=False)
QUIET_SUBSCRIPTION = SubscriptionEventCallbacks(use_default_callbacks=False)

__all__ = ['message_lost_refusal', 'MESSAGE_LOST_DEADLOCKS', 'PublisherEventCallbacks',
           'QUIET_PUBLISHER', 'QUIET_SUBSCRIPTION', 'SubscriptionEventCallbacks']
