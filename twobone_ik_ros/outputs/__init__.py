"""
Where the node's solutions go: a mode per value of the ``output`` parameter.

``base`` is the interface every mode has (``OutputMode``), with two kinds
under it: ``joint_states`` (``JointStatesOutput``, a display) and
``controller`` (``ControllerOutput``, an arm driven through ros2_control:
moves planned, checked and recorded), which hands each finished motion to
its transport (``transport``): ``forward_command`` (``CommandStream``, a
stream of positions), ``joint_trajectory`` (``TrajectoryTopic``, one
JointTrajectory per motion on the topic) or ``follow_joint_trajectory``
(``TrajectoryGoals``, one goal per motion), each module named after its
value.  ``modes`` pairs each value with what builds it (``MODES``) and
swaps the mode when the parameter changes.  What they use: ``arrival``
(how each move ended), ``joint_state_input`` (the arm's joint states),
``streaming`` (positions over time), the message builders ``positions``,
``trajectory_message`` and ``trajectory_wire``, and ``libraries``
(a controller output's libraries, imported when it comes into force).  The
motion itself is planned in ``motion``, without ROS.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.
