"""One named test per edge case the solver must survive with a defined result."""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math

from helpers import assert_batch_rows_match_scalar
import numpy as np
import pytest

from twobone_ik_ros.solver import (
    Branch, forward, new_batch_result, Reason, Status, TwoBoneIK, wrap_angle)

INF, NAN = math.inf, math.nan


def assert_no_nan(result):
    for value in (result.theta1, result.theta2, *(result.elbow or ()), *(result.reached or ())):
        assert value is None or math.isfinite(value)


def assert_on_arm(ik, result, point):
    elbow, tip = forward(ik.r1, ik.r2, result.theta1, result.theta2)
    tol = 1e-12 * (ik.r1 + ik.r2)
    assert math.dist(tip, point) <= tol
    assert abs(math.hypot(*result.elbow) - ik.r1) <= tol


def test_target_at_base_with_equal_links_folds_the_arm():
    ik = TwoBoneIK(1.0, 1.0)
    result = ik.solve(0.0, 0.0)
    assert result.status is Status.SOLVED and result.theta2 == math.pi
    assert result.reached == (0.0, 0.0)
    assert_on_arm(ik, result, (0.0, 0.0))


def test_target_at_base_with_unequal_links_clamps_to_the_inner_circle_along_x():
    ik = TwoBoneIK(1.0, 0.4)
    result = ik.solve(0.0, 0.0)
    assert result.status is Status.CLAMPED and result.reason is Reason.TOO_CLOSE
    assert result.reached == pytest.approx((0.6, 0.0))
    assert result.theta1 == 0.0 and result.theta2 == math.pi


def test_target_at_base_with_longer_second_link_points_the_elbow_away():
    ik = TwoBoneIK(0.4, 1.0)
    result = ik.solve(0.0, 0.0)
    assert result.reached == pytest.approx((0.6, 0.0))
    assert result.elbow == pytest.approx((-0.4, 0.0))
    assert result.theta1 == math.pi and result.theta2 == math.pi


def test_target_at_base_is_rejected_under_reject_policy():
    result = TwoBoneIK(1.0, 0.4, unreachable='reject').solve(0.0, 0.0)
    assert result.status is Status.REJECTED and result.reason is Reason.TOO_CLOSE


@pytest.mark.parametrize('elbow', ['up', 'down'])
def test_target_on_outer_boundary_stretches_the_arm(elbow):
    ik = TwoBoneIK(1.0, 0.5, elbow=elbow)
    result = ik.solve(0.0, 1.5)
    assert result.status is Status.SOLVED
    assert result.theta1 == pytest.approx(math.pi / 2) and result.theta2 == 0.0
    assert_on_arm(ik, result, (0.0, 1.5))


@pytest.mark.parametrize('elbow', ['up', 'down'])
def test_target_on_inner_boundary_folds_the_arm(elbow):
    ik = TwoBoneIK(1.0, 0.5, elbow=elbow)
    result = ik.solve(-0.5, 0.0)
    assert result.status is Status.SOLVED and result.theta2 == math.pi
    assert_on_arm(ik, result, (-0.5, 0.0))


def test_negative_zero_on_the_negative_x_axis_reports_plus_pi():
    result = TwoBoneIK(1.0, 1.0).solve(-2.0, -0.0)
    assert result.theta1 == math.pi


@pytest.mark.parametrize('magnitude', [1e-300, 5e-324])
def test_tiny_target_with_equal_links_is_solved(magnitude):
    ik = TwoBoneIK(1.0, 1.0)
    result = ik.solve(magnitude, magnitude)
    assert result.status is Status.SOLVED and result.theta2 == math.pi
    assert_no_nan(result)
    assert_on_arm(ik, result, (magnitude, magnitude))


def test_tiny_target_with_unequal_links_clamps_along_its_direction():
    result = TwoBoneIK(1.0, 0.5).solve(0.0, -1e-300)
    assert result.status is Status.CLAMPED
    assert result.reached == pytest.approx((0.0, -0.5))


@pytest.mark.parametrize('magnitude', [1e300, 1e308, 1.7976931348623157e308])
def test_huge_target_clamps_along_its_direction(magnitude):
    ik = TwoBoneIK(1.0, 0.5)
    result = ik.solve(-magnitude, magnitude)
    assert result.status is Status.CLAMPED and result.reason is Reason.TOO_FAR
    s = 1.5 / math.sqrt(2.0)
    assert result.reached == pytest.approx((-s, s))
    assert result.theta2 == 0.0
    assert_no_nan(result)


@pytest.mark.parametrize('point', [(NAN, 0.0), (0.0, NAN), (INF, 0.0), (0.0, -INF),
                                   (INF, INF), (NAN, INF)])
@pytest.mark.parametrize('policy', ['clamp', 'reject'])
def test_non_finite_targets_are_rejected(point, policy):
    result = TwoBoneIK(1.0, 0.5, unreachable=policy).solve(*point)
    assert result.status is Status.REJECTED and result.reason is Reason.NON_FINITE
    assert result.theta1 is None


@pytest.mark.parametrize('r1', [0.0, -1.0, NAN, INF, -INF, 1e-60, 1e60, 'a', None, True])
def test_bad_link_length_is_refused_with_its_value(r1):
    with pytest.raises(ValueError) as error:
        TwoBoneIK(r1, 1.0)
    assert 'r1' in str(error.value) and repr(r1) in str(error.value)


def test_bad_preference_and_policy_are_refused_with_the_choices():
    with pytest.raises(ValueError, match="'sideways'.*|.*'up', 'down', 'closest'"):
        TwoBoneIK(1.0, 1.0, elbow='sideways')
    with pytest.raises(ValueError, match='unreachable'):
        TwoBoneIK(1.0, 1.0, unreachable='ignore')


@pytest.mark.parametrize('limits', [(1.0, -1.0), (-13.0, 0.0), (0.0, NAN), (1.0,), 'ab'])
def test_bad_joint_limits_are_refused(limits):
    with pytest.raises(ValueError, match='shoulder_limits'):
        TwoBoneIK(1.0, 1.0, shoulder_limits=limits)


def test_preferred_branch_outside_limits_switches_and_says_so():
    ik = TwoBoneIK(1.0, 1.0, elbow='up', elbow_limits=(0.0, math.pi))
    result = ik.solve(1.0, 1.0)
    assert result.branch is Branch.DOWN and result.branch_switched
    assert 0.0 <= result.theta2


def test_no_branch_within_limits_is_rejected():
    ik = TwoBoneIK(1.0, 1.0, shoulder_limits=(2.0, 3.0), elbow_limits=(-0.1, 0.1))
    result = ik.solve(1.0, 1.0)
    assert result.status is Status.REJECTED and result.reason is Reason.JOINT_LIMITS


def test_batch_edge_cases_match_scalar_and_hold_no_nan():
    ik = TwoBoneIK(1.0, 0.5)
    points = np.array([(0.0, 0.0), (1e300, 1e300), (NAN, 1.0), (INF, 0.0), (-1.5, -0.0),
                       (1e-300, 0.0), (1.2, 0.3)])
    assert_batch_rows_match_scalar(ik, points, ik.solve_batch(points))


def test_batch_rejects_wrong_shape():
    with pytest.raises(ValueError, match='shape'):
        TwoBoneIK(1.0, 1.0).solve_batch(np.zeros((3, 3)))


def test_batch_of_zero_targets_is_empty():
    batch = TwoBoneIK(1.0, 1.0).solve_batch(np.zeros((0, 2)))
    assert batch.theta1.shape == (0,) and batch.elbow.shape == (0, 2)


def mixed_targets(n, seed, reachable_rows=0):
    """
    Targets over a disc wider than the reach (at most 2.0 for the arms used here).

    The first ``reachable_rows`` are moved to radius 1.4; a few rare rows
    (non-finite, huge, zero, tiny, -0.0) are placed after them.
    """
    rng = np.random.default_rng(seed)
    radius = 2.0 * np.sqrt(rng.uniform(0.0, 1.0, n))
    radius[:reachable_rows] = 1.4
    angle = rng.uniform(-math.pi, math.pi, n)
    points = np.stack([radius * np.cos(angle), radius * np.sin(angle)], axis=1)
    rare = [(NAN, 0.0), (1e300, -1e300), (0.0, 0.0), (-1.5, -0.0), (1e-300, 0.0)]
    rows = np.linspace(reachable_rows, n - 1, len(rare)).astype(int)
    points[rows] = rare
    return points


@pytest.mark.parametrize('policy', ['clamp', 'reject'])
@pytest.mark.parametrize('r2', [0.5, 1.0])  # r1 == r2 reaches the base through a stand-in
def test_batch_spanning_many_blocks_matches_scalar(policy, r2):
    # 50 000 rows are several blocks of solve_batch; the first 20 000 rows are
    # all reachable, so some blocks take the fast path and others clamp.
    ik = TwoBoneIK(1.0, r2, unreachable=policy)
    points = mixed_targets(50_000, 7, reachable_rows=20_000)
    assert_batch_rows_match_scalar(ik, points, ik.solve_batch(points))


def test_batch_out_is_filled_in_place_and_left_with_no_stale_rows():
    ik = TwoBoneIK(1.0, 0.5, unreachable='reject', shoulder_limits=(-3.0, 3.0))
    result = new_batch_result(30_000)
    first = mixed_targets(30_000, 1)
    second = mixed_targets(30_000, 2) * 0.5  # different rows rejected, clamped, switched
    assert ik.solve_batch(first, out=result) is result
    ik.solve_batch(second, out=result)
    fresh = ik.solve_batch(second)
    for got, want in zip(result, fresh):
        np.testing.assert_array_equal(got, want)


def test_batch_out_that_does_not_fit_is_refused_naming_the_field():
    ik = TwoBoneIK(1.0, 0.5)
    points = np.zeros((4, 2))
    with pytest.raises(ValueError, match='out.theta1 .* shape'):
        ik.solve_batch(points, out=new_batch_result(5))
    wrong = new_batch_result(4)._replace(status=np.zeros(4, np.int64))
    with pytest.raises(ValueError, match='out.status must be a writeable int8'):
        ik.solve_batch(points, out=wrong)
    result = new_batch_result(4)
    with pytest.raises(ValueError, match='out.reached overlaps'):
        ik.solve_batch(result.reached, out=result)
    with pytest.raises(TypeError, match='BatchResult'):
        ik.solve_batch(points, out=tuple(new_batch_result(4)))


def test_wrap_angle_is_in_the_half_open_interval():
    assert wrap_angle(-math.pi) == math.pi
    assert wrap_angle(3 * math.pi) == pytest.approx(math.pi)
    assert wrap_angle(0.5) == 0.5
