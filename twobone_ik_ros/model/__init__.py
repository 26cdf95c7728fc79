"""
The arm as configured: the parameter table and its validation, and the URDF it implies.

``parameter_table`` (the table: a row per parameter), ``checks`` (what a
parameter's values pass), ``config`` (``validate``: the values into an
``IKConfig``), ``urdf`` (the node's own arm as a URDF), ``urdf_chain`` (a
user's URDF read into the chain between two links) and ``planar_arm`` (that
chain as the solver's plane, lengths and joint map); also ``dependencies``,
the controller outputs' libraries and how a user gets them, ``interface``,
the table of the node's topics, services and actions, and ``tally``,
the counts by reason that the node and the arm side both report on
``/diagnostics``.

Pure Python (the solver below it, no ROS import), so the node, the launch
files, the tools and the tests all derive from one table.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.
