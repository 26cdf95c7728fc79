"""
Nothing the node commands leaves the joint limits: paths and moves, without ROS.

A path goes through the node's own steps (``joint_paths.plan_path``, then each
part timed by ``path_timing.time_poses`` and run from the arm's state by
``path_timing.run_path``, which the output checks with ``limit_check``), and
what a controller makes of the points is sampled as joint_trajectory_controller
computes it (``controller_model``: every millisecond and at every point), as
is a move's.  Property tests draw the arm, its limits (within +-pi and
multi-turn), its speeds, the arm's state (mid-way through a move planned
within the limits) and the paths; the largest excursion past a limit they
measure is printed, and must be 0.  A full circle round the base is followed under
both policies.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math

from controller_model import excursion, followed, sample
from hypothesis import given, HealthCheck, settings, strategies as st
import numpy as np
import pytest
from twobone_ik_ros.motion.bounds import Bounds, MARGIN
from twobone_ik_ros.motion.joint_paths import plan_path
from twobone_ik_ros.motion.limit_check import check_motion, LimitRefusal, motion_excursion
from twobone_ik_ros.motion.path_timing import run_path, time_poses
from twobone_ik_ros.motion.planning import ArmState, Limits, Planner
from twobone_ik_ros.solver import forward, TwoBoneIK

PI = math.pi
TWO_PI = 2.0 * PI
#: a full circle: 1000 poses of radius 1.1 around the base, the arm at (0, -1)
CIRCLE = 1.1 * np.column_stack((np.cos(np.linspace(0.0, TWO_PI, 1000)),
                                np.sin(np.linspace(0.0, TWO_PI, 1000))))
AT_REST = ArmState((0.0, -1.0))


def bounds_of(solver):
    return Bounds.of(solver.shoulder_limits, solver.elbow_limits)


def parts_of(plan, limits):
    """Time each part of a plan as the node does (``outputs._run_path``)."""
    return [time_poses(plan.positions[begin:end],
                       (plan.times_ns[begin:end] - plan.times_ns[begin]) / 1e9
                       if plan.stamped else None, limits)
            for begin, end in plan.parts]


def run(solver, points, state, planner, stamps_ns=None):
    """Return (plan, motion) as the node makes them for a controller output."""
    plan = plan_path(solver, points, stamps_ns, state.position, planner.limits.velocity, 0.1)
    if plan.rejected:
        return plan, None
    return plan, run_path(parts_of(plan, planner.limits), state, planner, bounds_of(solver))


def controller_excursion(motion, bounds, start):
    """Return how far past the limits the controller takes the arm along ``motion`` (rad)."""
    points = motion.points()
    return excursion(followed(points, motion.needs_accelerations), bounds.around(start))


# ------------------------------------------------------------------ the circle


def test_the_circle_under_clamp_is_split_at_the_wrap_and_followed_within_the_limits():
    solver = TwoBoneIK(1.0, 0.7, unreachable='clamp')
    planner = Planner(Limits.of(1.0, 1.0, 0.0))
    plan, motion = run(solver, CIRCLE, AT_REST, planner)
    assert plan.rejected == '' and len(plan.parts) == 2
    assert [(s.pose, s.reason, s.joint) for s in plan.splits] == [(393, 'wrap', 0)]
    bounds = bounds_of(solver)
    assert excursion(plan.positions, bounds) == 0.0  # its own timing, points and joins
    worst = controller_excursion(motion, bounds, AT_REST.position)
    points = motion.points()
    shoulder = points.positions[:, 0]
    print(f'circle, clamp: {len(plan.parts)} parts, {motion.duration:.2f} s, shoulder '
          f'{shoulder.min():.4f} to {shoulder.max():.4f}, excursion {worst}')
    assert worst == 0.0
    end = forward(1.0, 0.7, *points.positions[-1])[1]
    assert end == pytest.approx(tuple(CIRCLE[-1]), abs=1e-12)
    # each part ends at rest: the join from the pose before the wrap to the one after
    before = solver.solve(*CIRCLE[392])
    rests = [i for i in range(len(points.times_ns))
             if not points.velocities[i].any()]
    assert any(tuple(points.positions[i]) == pytest.approx((before.theta1, before.theta2),
                                                           abs=1e-12)  # numpy's atan2, libm's
               for i in rests)


def test_the_circle_under_reject_is_refused_at_the_pose_before_the_wrap():
    solver = TwoBoneIK(1.0, 0.7, unreachable='reject')
    plan, motion = run(solver, CIRCLE, AT_REST, Planner(Limits.of(1.0, 1.0, 0.0)))
    assert (plan.rejected, plan.rejected_index, motion) == ('wrap', 393, None)


@pytest.mark.parametrize('speeds', [(1.0, 1.0, 0.0), (3.0, 5.0, 0.0), (100.0, 5.0, 0.0),
                                    (1.0, 5.0, 50.0)])
def test_the_circle_on_a_multi_turn_shoulder_goes_round_in_one_part(speeds):
    solver = TwoBoneIK(1.0, 0.7, shoulder_limits=(-TWO_PI, TWO_PI))
    planner = Planner(Limits.of(*speeds))
    plan, motion = run(solver, CIRCLE, AT_REST, planner)
    assert plan.splits == () and len(plan.parts) == 1
    shoulder = motion.points().positions[:, 0]
    path_part = shoulder[np.argmin(np.abs(shoulder - plan.positions[0, 0])):]
    assert np.all(np.diff(path_part) >= -1e-9)  # once on the circle: one way round
    assert controller_excursion(motion, bounds_of(solver), AT_REST.position) == 0.0


# ------------------------------------------------------------------ each rule


def test_a_flip_the_limits_force_splits_under_clamp_and_refuses_under_reject():
    # elbow up (theta2 <= 0) but the shoulder may not pass 1.0: where up needs more, down fits
    limits = {'shoulder_limits': (-PI, 1.0)}
    points = [(1.5, 0.0), (1.2, 0.6), (0.9, 0.9), (0.6, 1.2)]
    ups = [TwoBoneIK(1.0, 0.7).solve(*p).theta1 for p in points]
    assert max(ups) > 1.0
    clamp = plan_path(TwoBoneIK(1.0, 0.7, **limits), points, None, None, 1.0, 0.1)
    assert [s.reason for s in clamp.splits] == ['flip'] and clamp.flips == 1
    reject = plan_path(TwoBoneIK(1.0, 0.7, unreachable='reject', **limits), points, None,
                       None, 1.0, 0.1)
    assert reject.rejected == 'flip' and reject.rejected_index == clamp.splits[0].pose


def test_poses_no_branch_fits_are_left_out_under_clamp_and_refuse_under_reject():
    limits = {'shoulder_limits': (-0.5, 0.5), 'elbow_limits': (-PI, 0.0)}
    points = [(1.6, 0.0), (0.0, 1.6), (1.6, 0.1), (1.6, 0.2)]  # the second: no branch fits
    clamp = plan_path(TwoBoneIK(1.0, 0.7, **limits), points, None, None, 1.0, 0.1)
    assert clamp.skipped == 1 and [(s.pose, s.reason) for s in clamp.splits] == [
        (1, 'joint_limits')]
    reject = plan_path(TwoBoneIK(1.0, 0.7, unreachable='reject', **limits), points, None,
                       None, 1.0, 0.1)
    assert (reject.rejected, reject.rejected_index) == ('joint_limits', 1)


def test_the_folded_elbow_at_pi_continues_as_minus_pi():
    """Both are the same folded arm; the limits [-pi, pi] hold both: no split."""
    points = [(0.31, 0.0), (0.3, 0.0), (0.29, 0.0)]  # through |r1 - r2| = 0.3, clamped there
    plan = plan_path(TwoBoneIK(1.0, 0.7), points, None, None, 1.0, 0.1)
    assert plan.splits == () and plan.positions[1, 1] == -PI + MARGIN  # on the limit: inside


def test_a_path_broken_too_often_is_refused():
    back_and_forth = np.concatenate([CIRCLE, CIRCLE] * 40)
    plan = plan_path(TwoBoneIK(1.0, 0.7), back_and_forth, None, None, 1.0, 0.1)
    assert plan.rejected == 'too_many_parts'


def test_a_timing_that_overshoots_a_limit_falls_back_to_monotone_cubics():
    """Along the stretched arm (clamped poses, theta2 = 0) with the elbow limited to <= 0."""
    solver = TwoBoneIK(1.0, 0.7, elbow_limits=(-PI, 0.0))
    far = [(2.0 * math.cos(a), 2.0 * math.sin(a)) for a in np.linspace(0.0, 0.6, 8)]
    near = [(1.2 * math.cos(a), 1.2 * math.sin(a)) for a in np.linspace(0.7, 1.2, 5)]
    points = np.array(far + near + far[::-1])
    planner = Planner(Limits.of(2.0, 5.0, 0.0))
    plan = plan_path(solver, points, None, (0.0, 0.0), 2.0, 0.1)
    parts = parts_of(plan, planner.limits)
    from twobone_ik_ros.motion.path_timing import start_path
    smooth = start_path(parts, ArmState((0.0, 0.0)), planner)
    assert motion_excursion(smooth.points(), True, bounds_of(solver)) is not None
    motion = run_path(parts, ArmState((0.0, 0.0)), planner, bounds_of(solver))
    assert not motion.needs_accelerations  # the monotone cubics
    assert controller_excursion(motion, bounds_of(solver), (0.0, 0.0)) == 0.0


def test_a_move_that_would_overshoot_a_limit_is_refused():
    """A state no plan of ours leads to: at 3.0 rad, 1 rad/s toward pi, 1 rad/s^2 to brake."""
    planner = Planner(Limits.of(1.0, 1.0, 0.0))
    move = planner.plan(ArmState((3.0, 0.0), (1.0, 0.0)), (3.1, 0.0))
    bounds = bounds_of(TwoBoneIK(1.0, 0.7))
    with pytest.raises(LimitRefusal) as refused:
        check_motion(move.points(), False, bounds, move.start.position)
    assert refused.value.excursion.joint == 0
    assert refused.value.excursion.position == pytest.approx(3.5, abs=1e-6)


def test_an_arm_outside_its_limits_may_come_back_but_go_no_further():
    planner = Planner(Limits.of(1.0, 5.0, 0.0))
    bounds = Bounds((-1.0, -1.0), (1.0, 1.0))
    back = planner.plan(ArmState((2.0, 0.0)), (0.5, 0.0))
    check_motion(back.points(), False, bounds, (2.0, 0.0))  # no error
    further = planner.plan(ArmState((2.0, 0.0), (0.5, 0.0)), (0.5, 0.0))  # first away
    with pytest.raises(LimitRefusal):
        check_motion(further.points(), False, bounds, (2.0, 0.0))


def test_the_controller_model_is_the_interpolation_the_plan_follows():
    """``controller_model`` reproduces a planned move between its points (to rounding)."""
    planner = Planner(Limits.of(1.5, 4.0, 30.0))
    move = planner.plan(ArmState((0.2, -0.3), (0.5, 0.1)), (1.5, -1.0))
    points = move.points()
    times = np.arange(0, points.times_ns[-1], 1_000_000)
    commanded = sample(points, times, True, True)
    planned = np.array([move.at(t / 1e9).position for t in times])
    assert np.max(np.abs(commanded - planned)) <= 1e-9


# ------------------------------------------------------------------ property tests


@st.composite
def limits(draw, multi_turn):
    if multi_turn:
        return (draw(st.floats(-4 * PI, -PI - 0.1)), draw(st.floats(PI + 0.1, 4 * PI)))
    lower = draw(st.floats(-PI, PI - 0.5))
    return lower, draw(st.floats(lower + 0.5, PI))


@st.composite
def scenes(draw):
    """Draw an arm, its limits and speeds, a state mid-way through one of its moves, a path."""
    r1, r2 = draw(st.floats(0.4, 1.5)), draw(st.floats(0.3, 1.2))
    solver = TwoBoneIK(r1, r2, elbow=draw(st.sampled_from(['up', 'down', 'closest'])),
                       unreachable=draw(st.sampled_from(['clamp', 'clamp', 'clamp', 'reject'])),
                       shoulder_limits=draw(limits(draw(st.booleans()))),
                       elbow_limits=draw(limits(draw(st.booleans()))))
    jerk = draw(st.sampled_from([0.0, 20.0, 200.0]))
    planner = Planner(Limits.of(draw(st.floats(0.3, 5.0)), draw(st.floats(0.5, 20.0)), jerk))
    bounds = bounds_of(solver)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))

    def inside():
        low, high = np.maximum(bounds.lower, -4 * PI), np.minimum(bounds.upper, 4 * PI)
        return tuple(float(x) for x in rng.uniform(low, high))
    before = planner.plan(ArmState(inside()), inside())
    state = before.at(rng.uniform(0.0, before.duration)) if rng.random() < 0.7 \
        else ArmState(before.goal)
    count = draw(st.integers(2, 120))
    kind = draw(st.sampled_from(['circle around the base', 'arc', 'random walk', 'line']))
    reach = r1 + r2
    if kind == 'circle around the base':
        turns = rng.uniform(0.3, 2.5)
        phis = rng.uniform(-PI, PI) + np.linspace(0.0, turns * TWO_PI, count)
        radius = rng.uniform(0.2, 1.2) * reach
        points = radius * np.column_stack((np.cos(phis), np.sin(phis)))
    elif kind == 'arc':
        phis = np.linspace(rng.uniform(-PI, PI), rng.uniform(-PI, PI), count)
        centre = rng.uniform(-0.5, 0.5, 2) * reach
        points = centre + rng.uniform(0.1, 1.0) * reach * np.column_stack(
            (np.cos(phis), np.sin(phis)))
    elif kind == 'random walk':
        points = rng.uniform(-0.6, 0.6, 2) * reach + np.cumsum(
            rng.normal(0.0, 0.08 * reach, (count, 2)), axis=0)
    else:
        ends = rng.uniform(-1.2, 1.2, (2, 2)) * reach
        points = ends[0] + np.outer(np.linspace(0.0, 1.0, count), ends[1] - ends[0])
    stamps = None
    if rng.random() < 0.3:
        stamps = np.cumsum(rng.uniform(0.001, 0.5, count) * 1e9).astype(np.int64)
    return solver, planner, state, points, stamps


def test_no_path_and_no_arm_state_takes_a_joint_past_its_limits():
    """Property test: what the controller commands stays within the limits (0 rad past)."""
    worst, refused, fallbacks, followed_paths, splits = [0.0], [0], [0], [0], [0]
    reasons = {}

    @settings(max_examples=500, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(scenes())
    def check(scene):
        solver, planner, state, points, stamps = scene
        bounds = bounds_of(solver)
        plan = plan_path(solver, points, stamps, state.position, planner.limits.velocity, 0.1)
        if plan.rejected:
            reasons[plan.rejected] = reasons.get(plan.rejected, 0) + 1
            return
        splits[0] += bool(plan.splits)
        assert excursion(plan.positions, bounds) == 0.0  # own timing: points and joins
        try:
            motion = run_path(parts_of(plan, planner.limits), state, planner, bounds)
        except LimitRefusal:
            refused[0] += 1
            return
        if motion is None:
            return
        followed_paths[0] += 1
        fallbacks[0] += not motion.needs_accelerations
        past = controller_excursion(motion, bounds, state.position)
        streamed = np.array([motion.at(t).position  # forward_command's positions
                             for t in np.linspace(0.0, motion.duration, 400)])
        past = max(past, excursion(streamed, bounds.around(state.position)))
        worst[0] = max(worst[0], past)
        assert past == 0.0

    check()
    print(f'{followed_paths[0]} paths followed ({splits[0]} split, {fallbacks[0]} on monotone '
          f'cubics), {refused[0]} refused by the check, refused by the rules: {reasons}; '
          f'largest excursion past a limit: {worst[0]} rad')
    assert worst[0] == 0.0


def test_no_move_from_a_state_of_ours_takes_a_joint_past_its_limits():
    """Property test: a move to a solution within the limits, from mid-way through another."""
    worst = [0.0]

    @settings(max_examples=300, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(scenes())
    def check(scene):
        solver, planner, state, points, _ = scene
        bounds = bounds_of(solver)
        result = solver.solve(*points[-1], state.position)
        if result.theta1 is None:
            return
        goal = (solver.shoulder_limits.nearest(result.theta1, state.position[0]),
                solver.elbow_limits.nearest(result.theta2, state.position[1]))
        move = planner.plan(state, goal)
        check_motion(move.points(), move.needs_accelerations, bounds,
                     state.position)  # never refused
        past = controller_excursion(move, bounds, state.position)
        worst[0] = max(worst[0], past)
        assert past == 0.0

    check()
    print(f'moves: largest excursion past a limit: {worst[0]} rad')
    assert worst[0] == 0.0
