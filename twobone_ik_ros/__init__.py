"""
Analytic two-link (two-bone) inverse kinematics for ROS 2.

The parts, from the bottom up; each imports only the parts below it
(``test/test_architecture.py`` checks it, ``LAYERS`` there is the rule):

- ``solver`` and ``ik/``: the solver, pure numpy, no ROS import, usable alone
  (``solver.py`` is its public face and documents the method).
- ``model/``: the arm as configured: the parameter table, its validation and
  the URDF it implies, and what the controller outputs need (pure Python, no
  ROS import).
- ``motion/``: the motion core: moves and paths within the joints' limits,
  the limit check, the arm's state, a controller's cycles, how moves ended
  (numpy, ruckig, toppra; no ROS import).
- ``ros/``: rclpy plumbing every process of the package shares: running and
  stopping a node, the lean executor, QoS event settings, messages read and
  written as bytes.
- ``outputs/``: where solutions go: ``joint_states`` is a class of its own;
  the controller outputs share one (``controller``: moves planned, checked
  and recorded), each with a transport that sends the finished motion (a
  stream, or trajectories on a topic or as goals), in the module named after
  its value (``outputs/modes.py``).
- ``node/``: the IK node and what it alone uses (frames, markers,
  diagnostics, the robot model, the callback guard).
- ``bringup/``: what the launch files compute (the node never imports it).
- ``tools/``: the demo, the demo target source, pictures and the process
  harness of the demo, benchmarks and tests (nothing imports them).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.
