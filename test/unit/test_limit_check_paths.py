"""
The limit check in plain floats (a move's few points) finds what the array check finds.

``limit_check.motion_excursion`` checks up to ``FEW`` points without numpy
and more on arrays; both do the same IEEE operations in the same order.  On
random motions near the limits, with and without velocities and
accelerations, with the arm starting outside them, the two give the same
excursion to the last bit (or both none).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import numpy as np
import pytest
from twobone_ik_ros.motion import limit_check
from twobone_ik_ros.motion.bounds import Bounds
from twobone_ik_ros.motion.samples import Samples


@pytest.mark.parametrize('seed', range(2))
def test_the_float_and_the_array_checks_agree_to_the_last_bit(seed):
    rng = np.random.default_rng(seed)
    found = 0
    for _ in range(600):
        count = int(rng.integers(1, limit_check.FEW + 1))
        times = np.cumsum(rng.integers(1, 400_000_000, count)).astype(np.int64)
        positions = rng.uniform(-1.2, 1.2, (count, 2))
        velocities = rng.normal(0.0, 2.0, (count, 2))
        accelerations = rng.normal(0.0, 8.0, (count, 2))
        points = Samples(times, positions, velocities, accelerations)
        bounds = Bounds((-1.0, -1.1), (1.0, 0.9))
        start = tuple(rng.uniform(-1.5, 1.5, 2)) if rng.random() < 0.3 else None
        for with_velocities in (False, True):
            for with_accelerations in (False, True):
                arguments = (points, with_accelerations, bounds, with_velocities, start)
                few = limit_check._few_excursion(*arguments)
                many = limit_check._many_excursion(*arguments)
                assert few == many, (few, many, arguments)
                found += few is not None
    assert found > 600  # most motions that wide leave the bounds somewhere
