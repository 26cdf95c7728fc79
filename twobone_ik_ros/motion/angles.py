"""
``Angles``: the arm's two joint angles, the pair every layer passes around.

(theta1, theta2): the shoulder's and the elbow's joint angles in radians, as
``solver`` defines them.  Defined once, here: the motion core, the outputs
and the node all take and give it, and measure poses ``apart`` one way (a
move's length, whether the arm is at a goal).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from typing import Tuple

#: (theta1, theta2), radians
Angles = Tuple[float, float]


def apart(first: Angles, second: Angles) -> float:
    """Return how far apart two poses are: the larger of the joints' differences (rad)."""
    return max(abs(first[0] - second[0]), abs(first[1] - second[1]))
