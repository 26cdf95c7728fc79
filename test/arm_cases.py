# Copyright 2026 The twobone_ik_ros Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.


"""Targets the tests share: points of the reachable annulus (pure, no ROS)."""

import math


def reachable_target(r1, r2, radius_fraction, phi):
    """Map a fraction in [0, 1] onto the reachable annulus along direction phi."""
    inner, outer = abs(r1 - r2), r1 + r2
    d = inner + radius_fraction * (outer - inner)
    return d * math.cos(phi), d * math.sin(phi)


def random_reachable(rng, r1, r2):
    """Draw a reachable target with ``rng`` (a ``random.Random``)."""
    return reachable_target(r1, r2, rng.random(), rng.uniform(-math.pi, math.pi))
