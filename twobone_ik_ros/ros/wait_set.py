"""
A node's entities gathered into an rcl wait set, their handles held.

What the lean executor (``executor``) does when the node's entities change,
not on every wake: every timer, subscription, guard condition, client,
service and waitable of the node, each handle entered (held, as rclpy's
executor holds each for its wait: a handle held is not destroyed under a
wait, its destruction waits until it is let go), and a wait set sized for
them.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from contextlib import ExitStack
from typing import Any, Callable, Dict, List, NamedTuple, Tuple

from twobone_ik_ros.ros.rclpy_releases import INVALID, KINDS, LISTS

#: the wait set's method that adds an entity of each kind
_ADD = {'timer': 'add_timer', 'subscription': 'add_subscription',
        'guard_condition': 'add_guard_condition', 'client': 'add_client',
        'service': 'add_service'}


class Gathered(NamedTuple):
    """A node's entities in a wait set of their size."""

    wait_set: Any
    #: each handle with the wait set's method that adds it, in ``KINDS`` order
    additions: List[Tuple[Callable[[Any], None], Any]]
    #: each kind's entities by their handle's pointer (what the wait set says is ready)
    entities: Dict[str, Dict[int, Any]]
    #: the waitables (an action client, a QoS event handler), entered
    waitables: List[Any]


def gather(node: Any, guard: Any, context: Any, held: ExitStack) -> Gathered:
    """
    Gather ``node``'s entities (None: none) and ``guard``, their handles entered in ``held``.

    A handle destroyed meanwhile is left out.  ``held`` also holds the
    context's handle: the wait set lives in it.
    """
    from rclpy.impl.implementation_singleton import rclpy_implementation
    from rclpy.waitable import NumberOfEntities

    held.enter_context(context.handle)
    lists: Dict[str, List[Any]] = {kind: [] for kind in KINDS}
    waitables: List[Any] = []
    if node is not None:
        for kind in KINDS:
            lists[kind] = list(getattr(node, LISTS[kind]))
        waitables = list(node.waitables)
    lists['guard_condition'].append(guard)
    handles: Dict[str, List[Any]] = {}
    entities: Dict[str, Dict[int, Any]] = {}
    for kind, found in lists.items():
        handles[kind], entities[kind] = [], {}
        for entity in found:
            handle = entity.handle
            try:
                held.enter_context(handle)
                pointer = handle.pointer
            except INVALID:  # destroyed meanwhile
                continue
            handles[kind].append(handle)
            entities[kind][pointer] = entity
    count = NumberOfEntities(len(handles['subscription']), len(handles['guard_condition']),
                             len(handles['timer']), len(handles['client']),
                             len(handles['service']))
    entered = []
    for waitable in waitables:
        try:
            held.enter_context(waitable)
        except INVALID:
            continue
        entered.append(waitable)
        count += waitable.get_num_entities()
    wait_set = rclpy_implementation.WaitSet(
        count.num_subscriptions, count.num_guard_conditions, count.num_timers,
        count.num_clients, count.num_services, count.num_events, context.handle)
    # each wait adds the same handles again (rcl empties the places of those
    # not ready): the adding methods are looked up once, here
    additions = [(getattr(wait_set, _ADD[kind]), handle)
                 for kind in KINDS for handle in handles[kind]]
    return Gathered(wait_set, additions, entities, entered)
