"""
The node's clock read as whole nanoseconds: the one time every part of the node works in.

The ROS clock of the node (``/clock`` under ``use_sim_time``), as the int that
trajectory stamps, controller cycles and deadlines are kept in, read once
where a part needs it and handed down (``outputs``, ``node.frames``).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from typing import Any


def node_time_ns(node: Any) -> int:
    """Return ``node``'s clock's time now, in nanoseconds."""
    return int(node.get_clock().now().nanoseconds)
