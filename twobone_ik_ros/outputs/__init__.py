"""
Where the node's solutions go: one class per value of the ``output`` parameter.

``modes`` chooses the class (``MODES``) and swaps it when the parameter
changes; ``base`` is the interface every mode has (``OutputMode``).  The
modes: ``joint_states`` (a display), ``forward_command`` (a stream), and
``joint_trajectory`` and ``follow_joint_trajectory`` (trajectories: a topic,
an action), the three controller outputs on ``controller``'s common ground.
What they use: ``arrival`` (how each move ended), ``streaming`` (positions
over time), ``trajectories`` (the trajectory sent for a motion), the
message builders ``positions``, ``commands`` and ``trajectory_wire``, and
``libraries`` (a controller output's libraries, imported when it comes into
force).  The motion itself is planned in ``motion``, without ROS.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.
