"""Property-based tests of the solver: geometry, branches, clamping, batch == scalar."""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math

from helpers import assert_batch_rows_match_scalar, reachable_target
from hypothesis import assume, given, settings
from hypothesis import strategies as st
import numpy as np
import pytest

from twobone_ik_ros.ik.scalar import joint_distance
from twobone_ik_ros.solver import Branch, forward, Reason, Status, TwoBoneIK

lengths = st.floats(min_value=1e-3, max_value=1e3)
unit = st.floats(min_value=0.0, max_value=1.0)
angle = st.floats(min_value=-math.pi, max_value=math.pi)


def tolerance(r1, r2):
    return 1e-9 * (r1 + r2)


@settings(max_examples=400, deadline=None)
@given(lengths, lengths, unit, angle, st.sampled_from(['up', 'down']))
def test_reachable_targets_are_met_exactly(r1, r2, fraction, phi, elbow):
    x, y = reachable_target(r1, r2, fraction, phi)
    result = TwoBoneIK(r1, r2, elbow=elbow).solve(x, y)
    tol = tolerance(r1, r2)
    # cos/sin may put a boundary target a rounding error outside: then it is
    # clamped, by no more than that error
    assert result.status is Status.SOLVED or math.dist(result.reached, (x, y)) <= tol
    fk_elbow, tip = forward(r1, r2, result.theta1, result.theta2)
    assert math.dist(tip, (x, y)) <= tol
    assert abs(math.hypot(*result.elbow) - r1) <= tol
    assert abs(math.dist((x, y), result.elbow) - r2) <= tol
    assert math.dist(fk_elbow, result.elbow) <= tol
    if result.status is Status.SOLVED:
        assert result.reached == (x, y)
    assert -math.pi < result.theta1 <= math.pi and -math.pi < result.theta2 <= math.pi


@settings(max_examples=400, deadline=None)
@given(lengths, lengths, unit, angle)
def test_branch_matches_preference(r1, r2, fraction, phi):
    x, y = reachable_target(r1, r2, fraction, phi)
    up = TwoBoneIK(r1, r2, elbow='up').solve(x, y)
    down = TwoBoneIK(r1, r2, elbow='down').solve(x, y)
    assert up.branch is Branch.UP and down.branch is Branch.DOWN
    # theta2 = pi is the folded arm, where both branches coincide
    assert up.theta2 <= 0.0 or up.theta2 == math.pi
    assert down.theta2 >= 0.0
    # up: the elbow is counter-clockwise of the base->target ray (the cross
    # product is |p| times the elbow's signed distance from the ray's line)
    slack = tolerance(r1, r2) * math.hypot(x, y)
    assert x * up.elbow[1] - y * up.elbow[0] >= -slack
    assert x * down.elbow[1] - y * down.elbow[0] <= slack


@settings(max_examples=300, deadline=None)
@given(lengths, lengths, unit, angle, angle, angle)
def test_closest_picks_the_branch_nearest_the_previous_angles(r1, r2, fraction, phi, p1, p2):
    x, y = reachable_target(r1, r2, fraction, phi)
    result = TwoBoneIK(r1, r2, elbow='closest').solve(x, y, previous=(p1, p2))
    up = TwoBoneIK(r1, r2, elbow='up').solve(x, y)
    down = TwoBoneIK(r1, r2, elbow='down').solve(x, y)
    chosen = (result.theta1, result.theta2)
    best = min(joint_distance(up.theta1, up.theta2, p1, p2),
               joint_distance(down.theta1, down.theta2, p1, p2))
    assert joint_distance(*chosen, p1, p2) <= best + 1e-12


def test_a_solver_cannot_be_changed_after_it_is_built():
    ik = TwoBoneIK(1.0, 0.5)
    for name, value in (('elbow', 'down'), ('r1', 2.0), ('solve', None), ('constants', None)):
        with pytest.raises(AttributeError, match='immutable'):
            setattr(ik, name, value)
    assert ik.elbow.value == 'up' and ik.solve(1.2, 0.3).branch is Branch.UP


def test_closest_without_previous_is_up():
    result = TwoBoneIK(1.0, 0.6, elbow='closest').solve(0.9, 0.8)
    assert result.branch is Branch.UP


@settings(max_examples=400, deadline=None)
@given(lengths, lengths, st.floats(min_value=1.0 + 1e-9, max_value=1e6), angle)
def test_clamp_too_far_gives_the_nearest_reachable_point(r1, r2, factor, phi):
    d = (r1 + r2) * factor
    x, y = d * math.cos(phi), d * math.sin(phi)
    result = TwoBoneIK(r1, r2).solve(x, y)
    tol = tolerance(r1, r2)
    assert result.status is Status.CLAMPED and result.reason is Reason.TOO_FAR
    phi = math.atan2(y, x)
    nearest = ((r1 + r2) * math.cos(phi), (r1 + r2) * math.sin(phi))
    assert math.dist(result.reached, nearest) <= tol
    assert math.dist(forward(r1, r2, result.theta1, result.theta2)[1], nearest) <= tol
    assert abs(math.hypot(*result.elbow) - r1) <= tol


@settings(max_examples=400, deadline=None)
@given(lengths, lengths, st.floats(min_value=0.0, max_value=1.0 - 1e-9), angle)
def test_clamp_too_close_gives_the_nearest_reachable_point(r1, r2, factor, phi):
    assume(abs(r1 - r2) > 1e-6 * (r1 + r2))
    d = abs(r1 - r2) * factor
    x, y = d * math.cos(phi), d * math.sin(phi)
    result = TwoBoneIK(r1, r2).solve(x, y)
    tol = tolerance(r1, r2)
    assert result.status is Status.CLAMPED and result.reason is Reason.TOO_CLOSE
    if x != 0.0 or y != 0.0:
        phi = math.atan2(y, x)  # of the point built: subnormal x, y round it
        nearest = (abs(r1 - r2) * math.cos(phi), abs(r1 - r2) * math.sin(phi))
        assert math.dist(result.reached, nearest) <= tol
    assert math.dist(forward(r1, r2, result.theta1, result.theta2)[1], result.reached) <= tol
    assert abs(math.hypot(*result.elbow) - r1) <= tol
    assert result.theta2 == math.pi


@settings(max_examples=200, deadline=None)
@given(lengths, lengths, st.floats(min_value=1.0 + 1e-9, max_value=1e6), angle)
def test_reject_policy_returns_no_angles(r1, r2, factor, phi):
    d = (r1 + r2) * factor
    result = TwoBoneIK(r1, r2, unreachable='reject').solve(d * math.cos(phi), d * math.sin(phi))
    assert result.status is Status.REJECTED and result.reason is Reason.TOO_FAR
    assert result.theta1 is None and result.theta2 is None and result.elbow is None


@settings(max_examples=200, deadline=None)
@given(lengths, lengths, st.lists(st.tuples(st.floats(-3e3, 3e3), st.floats(-3e3, 3e3)),
                                  min_size=1, max_size=50),
       st.sampled_from(['up', 'down', 'closest']), st.sampled_from(['clamp', 'reject']))
def test_batch_agrees_with_scalar(r1, r2, points, elbow, policy):
    ik = TwoBoneIK(r1, r2, elbow=elbow, unreachable=policy,
                   shoulder_limits=(-2.5, 2.5), elbow_limits=(-3.0, 3.0))
    previous = (0.3, -0.4)
    batch = ik.solve_batch(np.array(points), previous=previous)
    assert_batch_rows_match_scalar(ik, points, batch, previous)


@settings(max_examples=300, deadline=None)
@given(lengths, lengths, unit, angle, angle, angle, angle, angle)
def test_joint_limits_are_never_violated(r1, r2, fraction, phi, a, b, c, d):
    shoulder, elbow = tuple(sorted((a, b))), tuple(sorted((c, d)))
    x, y = reachable_target(r1, r2, fraction, phi)
    ik = TwoBoneIK(r1, r2, shoulder_limits=shoulder, elbow_limits=elbow)
    result = ik.solve(x, y)
    free = TwoBoneIK(r1, r2)
    up, down = free.solve(x, y), TwoBoneIK(r1, r2, elbow='down').solve(x, y)

    def fits(r):
        return shoulder[0] <= r.theta1 <= shoulder[1] and elbow[0] <= r.theta2 <= elbow[1]

    if result.status is Status.REJECTED:
        assert result.reason is Reason.JOINT_LIMITS
        assert not fits(up) and not fits(down)
    else:
        assert fits(result)
        assert result.branch_switched == (not fits(up))
