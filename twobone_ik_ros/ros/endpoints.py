"""
Every endpoint of the IK node made from its row of ``model.interface.INTERFACE``.

The node's parts call ``publisher``, ``subscription``, ``client`` and
``action_client`` with an endpoint's name and nothing of its type or QoS.
Every topic's entity is made without rclpy's QoS event handlers
(``qos_events``: the node finds a peer that cannot match in the graph
instead, ``node.qos_watch``).  Types are imported when an endpoint is made, so an
output's optional package (control_msgs) is imported only when that output
comes into force.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import importlib
from typing import Any, Callable

from rclpy.qos import (DurabilityPolicy, qos_profile_sensor_data, qos_profile_services_default,
                       QoSProfile)
from twobone_ik_ros.model.interface import endpoint, Qos, QUEUE_DEPTH, Role
from twobone_ik_ros.ros.qos_events import QUIET_PUBLISHER, QUIET_SUBSCRIPTION


def profile(qos: Qos) -> Any:
    """Return rclpy's QoS profile of a row's ``qos``."""
    if qos is Qos.LATCHED:
        return QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL)
    if qos is Qos.SENSOR_DATA:
        return qos_profile_sensor_data
    if qos is Qos.SERVICE:
        return qos_profile_services_default
    return QoSProfile(depth=QUEUE_DEPTH)


def interface_type(name: str) -> Any:
    """Return the class a graph type name (``pkg/msg/Name``, ``/srv/``, ``/action/``) names."""
    package, kind, type_name = name.split('/')
    return getattr(importlib.import_module(f'{package}.{kind}'), type_name)


def publisher(node: Any, name: str) -> Any:
    """Create the node's publisher ``name``."""
    row = endpoint(name, Role.PUBLISHES)
    return node.create_publisher(interface_type(row.type), row.name, profile(row.qos),
                                 event_callbacks=QUIET_PUBLISHER)


def subscription(node: Any, name: str, callback: Callable[..., Any], **options: Any) -> Any:
    """Create the node's subscription ``name`` (``options``: raw, overrides, other events)."""
    row = endpoint(name, Role.SUBSCRIBES)
    options.setdefault('event_callbacks', QUIET_SUBSCRIPTION)
    return node.create_subscription(interface_type(row.type), row.name, callback,
                                    profile(row.qos), **options)


def client(node: Any, server: str, name: str) -> Any:
    """Create the node's client of the service ``name`` of the node ``server``."""
    row = endpoint(name, Role.CALLS)
    return node.create_client(interface_type(row.type), f'{server}/{row.name}',
                              qos_profile=profile(row.qos))


def action_client(node: Any, name: str) -> Any:
    """Create the node's client of the action ``name`` (imports its package now)."""
    from rclpy.action import ActionClient

    row = endpoint(name, Role.SENDS_GOALS)
    return ActionClient(node, interface_type(row.type), row.name)
