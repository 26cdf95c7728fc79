"""
Tools around the node: the demo, its target source, pictures, the process harness.

``demo`` (the main job: the node with demo targets and its picture),
``target_publisher`` and ``target_patterns`` (the demo's target source and
its shapes), ``render`` (the pictures) and ``harness`` (processes started and
listened to, for the demo, the tests and the benchmarks).

They serve users running the demo and the suite's tests and benchmarks, not
the node: nothing in the runtime parts imports them.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.
