"""
Launch support: what the launch files compute, as plain Python the tests call.

``launch_config`` (the launch arguments' table, their resolution into what to
start), ``control_config`` (the control launch's additions), ``parameter_file`` (a parameter file
read as rcl reads it), ``rviz_config`` (RViz's view and grid on the arm's
plane) and ``generated`` (the files derived from the tables: the parameter
file, the XML launch file, the README's tables).
Above the node's parts and beside them: the node never imports it.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.
