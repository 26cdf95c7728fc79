"""
Peers that can never talk to the node: a QoS or a type that cannot match one of its topics.

rclpy reports such a peer through two QoS event handlers on each publisher
and subscription; the node creates its entities without them, since each
handler is one more entity in every wait of the executor, a cost paid per
message (``ros.qos_events``).  The same facts are in the ROS graph, which
DDS discovery keeps up to date: ``QosWatch.check``, called by the node's
housekeeping, compares each peer of each of the node's topics, one topic a call,
with the node's own endpoint there, both as the graph has them
(``rclpy.qos.qos_check_compatible``, rmw's check, and the type), and logs each
peer that cannot match once, with what does not match, and counts it for
``/diagnostics``.  No message pays for it.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Iterator, List, Optional, Set, Tuple

from rclpy.qos import qos_check_compatible, QoSCompatibility

#: rclpy's own topics on every node, not the node's interface
RCLPY_TOPICS = ('/rosout', '/parameter_events')


class QosWatch:
    """Each peer that cannot match one of the node's topics: logged once, counted."""

    def __init__(self, node: Any) -> None:
        """Watch the publishers and subscriptions ``node`` has at each check."""
        self._node = node
        self._told: Set[Tuple[str, Tuple[int, ...]]] = set()
        #: the topics still to look at in this sweep (taken from the end)
        self._pending: List[Tuple[str, bool]] = []
        #: peers found that cannot match, since start
        self.incompatible = 0

    def check(self) -> None:
        """
        Look at the peers of the next of the node's topics; tell each new mismatch.

        One topic a call (the node's housekeeping calls it once a second,
        with the diagnostics): a sweep of every topic at once took 2.4 ms of
        the node's thread, and a command stream woken that late steps (CI:
        a forward_command path at 9.9 times its acceleration limit); one
        topic took 0.06 ms.
        """
        if not self._pending:
            self._pending = list(self._topics())
            if not self._pending:
                return
        topic, publishes = self._pending.pop()
        node = self._node
        name, namespace = node.get_name(), node.get_namespace()
        publishers = node.get_publishers_info_by_topic(topic)
        subscriptions = node.get_subscriptions_info_by_topic(topic)
        ours, peers = (publishers, subscriptions) if publishes else (subscriptions, publishers)
        # the node's endpoint as the graph has it: its QoS in the same terms as the peer's
        own = next((endpoint for endpoint in ours if endpoint.node_name == name
                    and endpoint.node_namespace == namespace), None)
        if own is None:
            return
        for peer in peers:
            key = (topic, tuple(peer.endpoint_gid))
            if key in self._told:
                continue
            problem = mismatch(own, peer) if publishes else mismatch(peer, own)
            if problem is not None:
                self._told.add(key)
                self.incompatible += 1
                side = 'subscription' if publishes else 'publisher'
                who = f"{peer.node_namespace.rstrip('/')}/{peer.node_name}"
                node.get_logger().warning(
                    f'{topic}: the {side} of {who} can never match this node: {problem}')

    def _topics(self) -> Iterator[Tuple[str, bool]]:
        """Yield (topic, whether the node publishes it) for each of the node's own topics."""
        for publisher in self._node.publishers:
            if publisher.topic_name not in RCLPY_TOPICS:
                yield publisher.topic_name, True
        for subscription in self._node.subscriptions:
            if subscription.topic_name not in RCLPY_TOPICS:
                yield subscription.topic_name, False


def mismatch(publisher: Any, subscription: Any) -> Optional[str]:
    """Return what keeps two endpoints of the graph from matching, or None if nothing does."""
    if publisher.topic_type != subscription.topic_type:
        return (f'the publisher has type {publisher.topic_type}, the subscription '
                f'{subscription.topic_type}')
    compatibility, reason = qos_check_compatible(publisher.qos_profile,
                                                 subscription.qos_profile)
    if compatibility == QoSCompatibility.ERROR:
        return f'incompatible QoS: {reason.strip()}'
    return None
