"""
Driving an arm: where the node's solutions go, and how the arm moves.

``outputs`` publishes for each value of the ``output`` parameter (``goals``
for the action) and reads the arm's state, ``libraries`` imports what the
controller outputs need; ``planning``, ``tracking`` and ``path_timing``
time moves and paths within the joints' limits and ``motion`` in joint
space, ``limit_check`` checks everything that leaves the node against the
joint limits, ``cycles`` finds a controller's cycles for a stream (all
pure); ``feedback`` (pure) and ``arrival`` say how each move ended;
``commands`` and ``trajectory_wire`` build the controller messages.
The node hands solutions and plans here; nothing here imports the node.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.
