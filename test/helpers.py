"""What many tests share, without ROS: the project's root, targets, batch == scalar, times."""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math
import os

import numpy as np

from twobone_ik_ros.solver import Status

#: the checkout (or the package source copy) the tests run from
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def reachable_target(r1, r2, radius_fraction, phi):
    """Map a fraction in [0, 1] onto the reachable annulus along direction phi."""
    inner, outer = abs(r1 - r2), r1 + r2
    d = inner + radius_fraction * (outer - inner)
    return d * math.cos(phi), d * math.sin(phi)


def random_reachable(rng, r1, r2):
    """Draw a reachable target with ``rng`` (a ``random.Random``)."""
    return reachable_target(r1, r2, rng.random(), rng.uniform(-math.pi, math.pi))


def assert_batch_rows_match_scalar(ik, points, batch, previous=None):
    """
    Check every row of ``batch`` against ``ik.solve`` of the same target.

    The same IEEE operations in the same order give the same bits for the
    elbow and the reached point; only the angles may differ in the last
    place (numpy's arctan2 is not libm's).  Rejected rows hold zeros.
    """
    singles = [ik.solve(x, y, previous) for x, y in np.asarray(points).tolist()]
    for field in ('status', 'reason', 'branch', 'branch_switched'):
        np.testing.assert_array_equal(getattr(batch, field),
                                      [getattr(one, field) for one in singles], field)
    rejected = batch.status == Status.REJECTED
    for field in ('theta1', 'theta2', 'elbow', 'reached'):
        got = getattr(batch, field)
        assert np.isfinite(got).all(), field
        assert not got[rejected].any(), field
        want = [getattr(one, field) for one in singles if one.status is not Status.REJECTED]
        if field.startswith('theta'):
            np.testing.assert_allclose(got[~rejected], want, rtol=0, atol=1e-12, err_msg=field)
        else:
            np.testing.assert_array_equal(np.reshape(got[~rejected], (-1, 2)),
                                          np.reshape(want, (-1, 2)), err_msg=field)


def seconds(time):
    """Return a builtin_interfaces Time or Duration (``sec``, ``nanosec``) in seconds."""
    return time.sec + 1e-9 * time.nanosec
