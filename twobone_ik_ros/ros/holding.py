"""
A node that can keep a subscription from its executor for a while: its messages wait unread.

A controller output's joint states come every controller cycle, and each
would wake the node's thread, though nothing needs them while a move runs
(``outputs.joint_state_input``).  Every executor serves the subscriptions
the node lists (``Node.subscriptions``: rclpy's executors and the lean one
gather their wait sets from it, rclpy's EventsExecutor registers and clears
its callbacks from it on each ``wake``).  So a subscription held back is
left out of that list and the executor woken to see it: no wake comes for
its messages, which wait in its reader (its depth's worth, the newest kept)
until its owner takes them (``ros.executor.take``), and the executor serves
it again once it is put back.  Destroying the node or the subscription is
rclpy's as ever: its own list keeps every subscription.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Iterator, List

from rclpy.node import Node


class HoldingNode(Node):
    """An rclpy node whose executor serves its subscriptions but those held back."""

    def __init__(self, node_name: str, **kwargs: Any) -> None:
        """Create the node: nothing held back."""
        self._held_back: List[Any] = []  # before Node.__init__, which may subscribe /clock
        super().__init__(node_name, **kwargs)

    @property
    def subscriptions(self) -> Iterator[Any]:
        """Return the subscriptions the node's executor serves: all but those held back."""
        held = self._held_back
        for subscription in super().subscriptions:
            if not held or subscription not in held:
                yield subscription

    def hold_back(self, subscription: Any, held: bool) -> None:
        """Keep ``subscription`` from the executor (``held``), or give it back; then wake it."""
        if held == (subscription in self._held_back):
            return
        if held:
            self._held_back.append(subscription)
        else:
            self._held_back.remove(subscription)
        executor = self.executor
        if executor is not None:
            executor.wake()

    def destroy_subscription(self, subscription: Any) -> bool:
        """Destroy ``subscription``, held back or not."""
        if subscription in self._held_back:
            self._held_back.remove(subscription)
        return bool(super().destroy_subscription(subscription))
