"""
The motion core: moves and paths of the arm within its joints' limits, without ROS.

Pure (numpy, ruckig, toppra and scipy; no rclpy, no messages): what the
controller outputs plan, time, check and track, usable alone (``examples/``).
``planning`` plans one move within velocity, acceleration and jerk limits
(ruckig), its points ``samples`` (a move's few as rows, a path's many as
arrays); ``joint_paths`` makes a path's poses continuous in joint space;
``path_timing`` times a path along its geometry (toppra) on ``splines``;
``limit_check`` is the one check of what leaves the node, within ``bounds``;
``tracking`` is the arm's state as the node knows it; ``cycles`` finds a
controller's cycles for a stream; ``ledger`` says how each move ended.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.
