"""
Paths timed within the limits (``motion/path_timing``), without ROS.

The controller's interpolation of the points is modelled as in
``test_planning``; the time-optimal reference is toppra's own duration for
the same path (its constraints held at its grid points only, so a shade
faster than any timing that holds them everywhere).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math

import numpy as np
import pytest
from test_planning import interpolated, JERK_LIMITS, LIMITS
from twobone_ik_ros.motion.path_timing import (
    _toppra_trajectory, spline_peaks, start_path, time_poses)
from twobone_ik_ros.motion.planning import ArmState, Planner

_S = np.linspace(0.0, 1.0, 50)
_RNG = np.random.default_rng(1)
PATHS = {
    'wave': np.column_stack((1.2 * np.sin(3 * _S), np.cos(2 * _S))),
    'three poses on a line': np.array([[0.0, 0.0], [1.0, 0.5], [2.0, 1.0]]),
    'sparse corners': np.array([[0.0, 0.0], [1.0, -1.0], [0.5, 1.5], [2.0, 0.0]]),
    'circle': np.column_stack((0.5 * np.cos(np.linspace(0, 2 * np.pi, 200)),
                               0.5 * np.sin(np.linspace(0, 2 * np.pi, 200)))),
    'random walk': np.cumsum(_RNG.normal(0.0, 0.05, (100, 2)), axis=0),
}


def time_path(positions, offsets_s, start, planner):
    """Time the poses, then run them from ``start``: the node's two steps (``outputs``)."""
    return start_path([time_poses(positions, offsets_s, planner.limits)], start, planner)


def spline_of(motion):
    """Return the spline of a one-part path's motion (its last piece)."""
    return motion.pieces[-1].spline


def check_followed_within(motion, limits):
    """Assert the controller's interpolation is the motion and keeps the limits; return it."""
    assert motion.needs_accelerations
    points = motion.points()
    assert np.all(np.diff(points.times_ns) > 0)
    assert tuple(points.positions[-1]) == motion.goal
    assert not points.velocities[-1].any()
    at, commanded = interpolated(points, True)
    plan = np.array([motion.at(t).position for t in at])
    assert np.max(np.abs(commanded - plan)) <= 1e-6
    velocity = np.diff(commanded, axis=0) / 1e-3
    acceleration = np.diff(velocity, axis=0) / 1e-3
    assert np.max(np.abs(velocity)) <= limits.velocity * (1 + 1e-6)
    assert np.max(np.abs(acceleration)) <= limits.acceleration * (1 + 1e-3)
    return points


@pytest.mark.parametrize('name', PATHS)
def test_a_path_is_timed_near_optimal_within_the_limits_through_its_poses(name):
    path = PATHS[name]
    planner = Planner(LIMITS)
    motion = time_path(path, None, None, planner)
    check_followed_within(motion, LIMITS)
    velocity, acceleration, _ = spline_peaks(spline_of(motion))
    assert velocity <= LIMITS.velocity * (1 + 1e-9)
    assert acceleration <= LIMITS.acceleration * (1 + 1e-9)
    assert motion.goal == tuple(path[-1]) and motion.at(0.0).position == tuple(path[0])
    assert not motion.retimed
    # every pose on the timed curve (toppra's geometry, sampled every 20 ms)
    dense = np.array([motion.at(t).position for t in np.arange(0.0, motion.duration, 1e-3)])
    gaps = [np.min(np.max(np.abs(dense - pose), axis=1)) for pose in path]
    assert max(gaps) <= 0.01
    optimal = _toppra_trajectory(path, LIMITS).duration
    print(f"{name}: {motion.duration / optimal:.4f} x toppra's duration, poses within "
          f'{max(gaps):.2g} rad')
    assert motion.duration <= 1.1 * optimal  # time-optimal or within 1.1x


def test_stamps_the_limits_allow_are_kept_exactly():
    path = PATHS['three poses on a line']
    motion = time_path(path, [0.0, 2.0, 4.0], None, Planner(LIMITS))
    assert not motion.retimed and motion.stretch == 1.0 and motion.duration == 4.0
    for t, pose in zip((0.0, 2.0, 4.0), path):
        assert motion.at(t).position == pytest.approx(tuple(pose), abs=1e-12)


@pytest.mark.parametrize('limits', [LIMITS, JERK_LIMITS], ids=['no jerk limit', 'jerk limit'])
def test_stamps_beyond_the_limits_are_stretched_to_the_first_limit_reached(limits):
    path = PATHS['sparse corners']
    motion = time_path(path, [0.0, 0.01, 0.02, 0.03], None, Planner(limits))
    assert motion.retimed and motion.stretch > 10.0
    peaks = spline_peaks(spline_of(motion)) / np.array(limits)
    assert max(peaks[0], math.sqrt(peaks[1]), peaks[2] ** (1 / 3)) == pytest.approx(1.0, rel=1e-9)
    check_followed_within(motion, limits)


def test_a_moving_arm_is_brought_to_the_first_pose_then_follows():
    path = PATHS['wave']
    start = ArmState((1.0, -1.0), (1.2, 0.8))
    motion = time_path(path, None, start, Planner(LIMITS))
    points = check_followed_within(motion, LIMITS)
    assert tuple(points.positions[0]) == start.position
    assert tuple(points.velocities[0]) == start.velocity
    assert tuple(path[0]) in {tuple(p) for p in points.positions}


def test_a_path_of_one_place_is_a_move_there():
    motion = time_path([[0.3, 0.2]] * 5, None, ArmState((0.0, 0.0)), Planner(LIMITS))
    assert motion.goal == (0.3, 0.2) and not motion.retimed
    check_followed_within(motion, LIMITS)
