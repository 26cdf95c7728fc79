"""
rclpy plumbing shared by every process of the package and by the node's parts.

How a process runs its node and stops it (``process``), which executor
spins the IK node (``executor_choice``: rclpy's EventsExecutor, else the
lean ``executor`` on its ``wait_set``; what differs by rclpy release:
``rclpy_releases``), a node that keeps a subscription from its executor
(``holding``), the node's clock in nanoseconds (``clock``), an action's
goals on its own services (``goals``), the QoS event settings
(``qos_events``), every endpoint of the node made from its row of the
interface table (``endpoints``), and targets, joint states and paths read and written as
bytes (``wire``, ``wire_path``).  Nothing of the arm or the node.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.
