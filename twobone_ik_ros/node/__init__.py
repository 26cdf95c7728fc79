"""
The IK node (``node``) and what it alone uses.

``node`` is the wiring; its parts: targets in (``targets``) and in other
frames (``frames``), paths (``paths``), the parameters' declarations
(``declarations``), a user's robot_description in (``description``),
robot_state_publisher's model of the node's own arm (``robot_model``), RViz
markers (``markers``, drawn when due by ``drawing``), counters and
diagnostics (``diagnostics``), peers that can never match a topic
(``qos_watch``), throttled warnings (``throttle``) and the callback guard
(``guard``).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.
