"""Multi-turn joint limits, move times and path plans: the pure functions, without ROS."""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math

from helpers import assert_batch_rows_match_scalar, reachable_target
from hypothesis import given, settings, strategies as st
import numpy as np
import pytest
from twobone_ik_ros.ik.geometry import JointLimits
from twobone_ik_ros.motion.joint_paths import (
    MIN_POINT_SPACING_S, move_time, nearest_angles, plan_path)
from twobone_ik_ros.solver import Branch, forward, Reason, Status, TwoBoneIK

TWO_PI = 2.0 * math.pi
angle = st.floats(-4.0 * math.pi, 4.0 * math.pi)


def test_multi_turn_limits_pick_the_representation_nearest_the_arm():
    limits = JointLimits(-TWO_PI, TWO_PI)
    assert limits.multi_turn and limits.is_full_circle
    assert limits.nearest(-1.0, 5.0) == -1.0 + TWO_PI
    assert limits.nearest(-1.0, -5.5) == -1.0
    assert limits.nearest(-1.0, None) == -1.0
    assert JointLimits(-3.0, 3.0).nearest(-1.0, 5.0) == -1.0  # within [-pi, pi]: unchanged


@settings(max_examples=300, deadline=None)
@given(angle, angle, st.floats(-math.pi, math.pi, exclude_min=True), angle)
def test_the_nearest_representation_is_within_the_limits_and_an_alias(a, b, theta, reference):
    lower, upper = sorted((a, b))
    limits = JointLimits(lower, upper)
    if not limits.admits(theta):
        assert all(not lower <= theta + TWO_PI * k <= upper for k in range(-3, 4))
        return
    chosen = limits.nearest(theta, reference)
    assert lower <= chosen <= upper
    assert math.remainder(chosen - theta, TWO_PI) == pytest.approx(0.0, abs=1e-12)
    others = [theta + TWO_PI * k for k in range(-3, 4) if lower <= theta + TWO_PI * k <= upper]
    assert abs(chosen - reference) <= min(abs(o - reference) for o in others) + 1e-12


@settings(max_examples=150, deadline=None)
@given(st.floats(0.1, 10.0), st.floats(0.1, 10.0), angle, angle, angle, angle,
       st.lists(st.tuples(st.floats(0.0, 1.0), st.floats(-math.pi, math.pi)), min_size=1,
                max_size=40))
def test_batch_and_scalar_agree_under_multi_turn_limits(r1, r2, a, b, c, d, polar):
    ik = TwoBoneIK(r1, r2, elbow='closest', shoulder_limits=tuple(sorted((a, b))),
                   elbow_limits=tuple(sorted((c, d))))
    points = [reachable_target(r1, r2, f, phi) for f, phi in polar]
    previous = (0.3, -0.4)
    assert_batch_rows_match_scalar(ik, points, ik.solve_batch(np.array(points), previous),
                                   previous)


def test_move_time_is_the_slowest_joint_or_the_minimum():
    assert move_time((0.0, 0.0), (1.0, -2.0), 0.5, 0.1) == 4.0
    assert move_time((0.0, 0.0), (0.01, 0.0), 0.5, 0.1) == 0.1
    assert move_time(None, (0.0, 0.0), 1.0, 0.1) == math.pi  # unknown start: the worst case


def test_a_path_keeps_the_arms_branch_and_reaches_every_pose():
    ik = TwoBoneIK(2.0, 1.0, elbow='closest')
    phis = np.linspace(0.0, TWO_PI, 500)
    points = np.column_stack((1.8 + 0.6 * np.cos(phis), 0.4 + 0.6 * np.sin(phis)))
    down = TwoBoneIK(2.0, 1.0, elbow='down').solve(*points[0])
    plan = plan_path(ik, points, None, (down.theta1, down.theta2), 1.0, 0.1)
    assert plan.rejected == '' and plan.branch is Branch.DOWN and plan.flips == 0
    assert np.all(plan.positions[:, 1] > 0.0)
    for (x, y), (t1, t2) in zip(points, plan.positions):
        tip = forward(2.0, 1.0, t1, t2)[1]
        assert math.hypot(tip[0] - x, tip[1] - y) <= 3e-9
    assert np.all(np.diff(plan.times_ns) > 0) and plan.times_ns[0] == round(0.1 * 1e9)


def test_a_multi_turn_shoulder_follows_a_circle_around_the_base_without_unwinding():
    ik = TwoBoneIK(1.0, 0.7, shoulder_limits=(-2 * TWO_PI, 2 * TWO_PI))
    phis = np.linspace(0.0, 1.5 * TWO_PI, 3000)  # one and a half turns
    points = 1.2 * np.column_stack((np.cos(phis), np.sin(phis)))
    plan = plan_path(ik, points, None, (0.0, 0.0), 2.0, 0.1)
    steps = np.abs(np.diff(plan.positions[:, 0]))
    assert steps.max() < 0.01 and plan.splits == () and len(plan.parts) == 1
    assert plan.positions[-1, 0] - plan.positions[0, 0] == pytest.approx(1.5 * TWO_PI, abs=1e-9)
    # two turns of room: two and a half turns need a split (more in test_joint_limits)
    tight = TwoBoneIK(1.0, 0.7, shoulder_limits=(-TWO_PI, TWO_PI))
    longer = np.linspace(0.0, 2.5 * TWO_PI, 5000)
    points = 1.2 * np.column_stack((np.cos(longer), np.sin(longer)))
    split = plan_path(tight, points, None, (0.0, 0.0), 2.0, 0.1)
    assert [s.reason for s in split.splits] == ['wrap'] and len(split.parts) == 2


def test_path_timing_from_increasing_stamps_else_from_the_velocity_limit():
    ik = TwoBoneIK(1.0, 0.7)
    points = [(1.2, 0.0), (1.2, 0.1), (1.2, 0.1), (1.1, 0.3)]
    start = (0.0, 0.0)
    stamped = plan_path(ik, points, [10**9, 2 * 10**9, 3 * 10**9, 5 * 10**9], start, 1.0, 0.5)
    first = stamped.times_ns[0]
    assert list(stamped.times_ns - first) == [0, 10**9, 2 * 10**9, 4 * 10**9]
    assert first == round(move_time(start, tuple(stamped.positions[0]), 1.0, 0.5) * 1e9)
    untimed = plan_path(ik, points, [0, 0, 0, 0], start, 1.0, 0.5)
    steps = np.diff(untimed.times_ns) / 1e9
    expected = np.maximum(np.abs(np.diff(untimed.positions, axis=0)).max(axis=1),
                          MIN_POINT_SPACING_S)  # the repeated pose still takes 1 ms
    assert steps == pytest.approx(expected, abs=2e-9)


def test_a_path_through_an_unreachable_pose():
    points = [(1.2, 0.0), (5.0, 0.0), (1.0, 0.2)]
    rejected = plan_path(TwoBoneIK(1.0, 0.7, unreachable='reject'), points, None, None, 1.0, 0.1)
    assert (rejected.rejected, rejected.rejected_index) == (Reason.TOO_FAR.label, 1)
    assert rejected.positions.shape == (0, 2)
    clamped = plan_path(TwoBoneIK(1.0, 0.7), points, None, None, 1.0, 0.1)
    assert clamped.rejected == '' and clamped.clamped == 1
    assert plan_path(TwoBoneIK(1.0, 0.7), [], None, None, 1.0, 0.1).rejected == 'empty'


def test_nearest_angles_leaves_single_turn_joints_alone():
    ik = TwoBoneIK(1.0, 0.7)
    assert nearest_angles(ik, -1.0, 0.5, (5.0, 5.0)) == (-1.0, 0.5)
    assert ik.solve(1.2, 0.3).status is Status.SOLVED


def test_limits_from_minus_pi_refuse_a_folded_elbow_in_both_paths_when_another_joint_turns():
    """Found by the property above: limits [-pi, 0] took +pi in the scalar path alone."""
    ik = TwoBoneIK(1.0, 1.0, elbow='closest', shoulder_limits=(0.0, 4.0),
                   elbow_limits=(-math.pi, 0.0))
    previous = (0.3, -0.4)
    assert_batch_rows_match_scalar(ik, [(0.0, 0.0)], ik.solve_batch(np.zeros((1, 2)), previous),
                                   previous)
    assert ik.solve(0.0, 0.0, previous).status is Status.REJECTED
