"""
What joint_trajectory_controller commands between two points, to the bit.

ros2_controllers' ``Trajectory::interpolate_between_points`` (4.18): the
times as ``rclcpp::Duration::seconds()`` of
nanosecond differences, the powers of time by repeated products, the
coefficients and the sums in the same order, in float64 as there; a line
between points that carry positions alone, a cubic with velocities, a
quintic with accelerations too.  After the last point, the last point.
numpy does each operation as C++ does (no fused multiply-add), so a sample
is the controller's own value, not an approximation of it.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import numpy as np


def sample(points, times_ns, velocities=True, accelerations=True):
    """Return the positions (len(times_ns), 2) the controller commands at ``times_ns``."""
    t = np.asarray(points.times_ns, dtype=np.int64)
    at = np.asarray(times_ns, dtype=np.int64)
    last = len(t) - 1
    segment = np.clip(np.searchsorted(t, at, side='right') - 1, 0, max(last - 1, 0))
    out = np.empty((len(at), 2))
    after = at >= t[-1]
    for joint in range(2):
        p = points.positions[:, joint]
        if last == 0:
            out[:, joint] = p[0]
            continue
        i = segment
        so_far = (at - t[i]) / 1e9
        between = (t[i + 1] - t[i]) / 1e9
        x1 = so_far
        x2, x3 = x1 * x1, x1 * x1 * x1
        start_pos, end_pos = p[i], p[i + 1]
        if not velocities:
            c1 = (end_pos - start_pos) / between
            value = 1.0 * start_pos + x1 * c1
        elif not accelerations:
            v = points.velocities[:, joint]
            start_vel, end_vel = v[i], v[i + 1]
            big1, big2, big3 = between, between * between, between * between * between
            c2 = (-3.0 * start_pos + 3.0 * end_pos - 2.0 * start_vel * big1
                  - end_vel * big1) / big2
            c3 = (2.0 * start_pos - 2.0 * end_pos + start_vel * big1 + end_vel * big1) / big3
            value = 1.0 * start_pos + x1 * start_vel + x2 * c2 + x3 * c3
        else:
            v = points.velocities[:, joint]
            a = points.accelerations[:, joint]
            start_vel, end_vel, start_acc, end_acc = v[i], v[i + 1], a[i], a[i + 1]
            big1 = between
            big2 = big1 * between
            big3 = big2 * between
            big4 = big3 * between
            big5 = big4 * between
            x4 = x3 * x1
            x5 = x4 * x1
            c2 = 0.5 * start_acc
            c3 = (-20.0 * start_pos + 20.0 * end_pos - 3.0 * start_acc * big2 + end_acc * big2
                  - 12.0 * start_vel * big1 - 8.0 * end_vel * big1) / (2.0 * big3)
            c4 = (30.0 * start_pos - 30.0 * end_pos + 3.0 * start_acc * big2
                  - 2.0 * end_acc * big2 + 16.0 * start_vel * big1
                  + 14.0 * end_vel * big1) / (2.0 * big4)
            c5 = (-12.0 * start_pos + 12.0 * end_pos - start_acc * big2 + end_acc * big2
                  - 6.0 * start_vel * big1 - 6.0 * end_vel * big1) / (2.0 * big5)
            value = (1.0 * start_pos + x1 * start_vel + x2 * c2 + x3 * c3 + x4 * c4 + x5 * c5)
        out[:, joint] = np.where(after, p[-1], value)
    return out


def excursion(positions, bounds):
    """Return how far (rad) ``positions`` (N, 2) go past ``bounds`` at most (0.0: never)."""
    lower, upper = np.asarray(bounds.lower), np.asarray(bounds.upper)
    past = np.maximum(lower - positions, positions - upper)
    return float(max(0.0, past.max()))


#: where in each segment ``followed`` samples, besides at the points themselves
FRACTIONS = (0.07, 0.23, 0.41, 0.5, 0.63, 0.82, 0.95)


def followed(points, accelerations):
    """Return the controller's positions at every point and at ``FRACTIONS`` of each segment."""
    t = np.asarray(points.times_ns, dtype=np.int64)
    inside = (t[:-1, None] + np.outer(np.diff(t), FRACTIONS)).astype(np.int64).ravel()
    return sample(points, np.sort(np.concatenate((t, inside))), True, accelerations)
