"""
The joint limits at their edges, without ROS.

An arm outside its limits (measured there, or the limits changed under it),
limits changed while it moves (``ArmTracker.replan_within``), a retarget from a state
beyond the limits (a stop, then the move), what a stream sends
(``Envelope``), single points, and the libraries' failures (toppra finding
no timing, ruckig's results without a name).  The rule every test measures:
a joint outside its limits goes no further out than where it started, and
once inside it stays inside (``allowed_excursion``).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math

from controller_model import followed
from hypothesis import given, HealthCheck, settings, strategies as st
import numpy as np
import pytest
from twobone_ik_ros.motion.bounds import Bounds, Envelope, MARGIN
from twobone_ik_ros.motion.joint_paths import plan_path
from twobone_ik_ros.motion.limit_check import (
    at_rest, check_motion, controller_approach, LimitRefusal, motion_excursion, start_position)
from twobone_ik_ros.motion.path_timing import (
    PathMotion, run_path, spline_peaks, time_poses)
from twobone_ik_ros.motion.planning import ArmState, Limits, MotionSequence, Planner, Unplanned
from twobone_ik_ros.motion.samples import Samples
from twobone_ik_ros.motion.tracking import ArmTracker
from twobone_ik_ros.solver import forward, TwoBoneIK

PI = math.pi
BOUNDS = Bounds((-PI, -PI), (PI, PI))


def allowed_excursion(positions, bounds, start):
    """
    Return how far (rad) ``positions`` (N, 2), in order, leave what the rule allows.

    A joint that starts outside ``bounds`` may stay between its start and
    them until its first position inside; from there on, within them.
    """
    worst = 0.0
    for joint in (0, 1):
        p = np.asarray(positions)[:, joint]
        lower, upper = bounds.lower[joint], bounds.upper[joint]
        inside = (p >= lower) & (p <= upper)
        entry = int(np.argmax(inside)) if inside.any() else len(p)
        low = np.full(p.shape, lower)
        high = np.full(p.shape, upper)
        low[:entry] = min(lower, start[joint])
        high[:entry] = max(upper, start[joint])
        worst = max(worst, float(np.max(np.maximum(low - p, p - high))))
    return max(worst, 0.0)


def excursions(motion, bounds, start):
    """
    Return how far (rad) what is sent along ``motion`` leaves what the rule allows.

    Three figures: the points a trajectory carries; a stream's positions
    (``Motion.at`` every ms, through the ``Envelope`` the output holds them
    to); the controller's curve between the points (``controller_model``).
    All three must be 0: goals on a limit are put ``MARGIN`` inside it, where
    the controller's own rounding does not reach past it.
    """
    points = motion.points()
    envelope = Envelope(bounds, start)
    streamed = [envelope.admit(motion.at(t).position)
                for t in np.linspace(0.0, motion.duration, 1000)]
    return (allowed_excursion(points.positions, bounds, start),
            allowed_excursion(streamed, bounds, start),
            allowed_excursion(followed(points, motion.needs_accelerations), bounds, start))


def within_the_rule(motion, bounds, start):
    """Assert ``excursions`` are 0; return them."""
    found = excursions(motion, bounds, start)
    assert found == (0.0, 0.0, 0.0)
    return found


def check_with(bounds):
    """Return the output's check of a planned motion (``outputs._check_planned``)."""
    def check(motion):
        points = motion.points()
        check_motion(points, motion.needs_accelerations, bounds, start_position(points))
    return check


# ------------------------------------------------------------------ outside the limits


def test_a_joint_back_inside_is_held_to_the_limits_for_the_rest_of_the_motion():
    """The shoulder measured at 1.2 with its upper limit at 1.0: back in, then out again."""
    bounds = Bounds((-1.0, -PI), (1.0, PI))
    times = np.array([0, 10**9, 2 * 10**9, 3 * 10**9], np.int64)
    out_again = at_rest(times, np.array([[1.2, 0.0], [0.9, 0.0], [1.05, 0.0], [0.8, 0.0]]))
    excursion = motion_excursion(out_again, False, bounds, velocities=False, start=(1.2, 0.0))
    assert excursion is not None and (excursion.position, excursion.limit) == (1.05, 1.0)
    back = at_rest(times, np.array([[1.2, 0.0], [1.1, 0.0], [0.9, 0.0], [0.8, 0.0]]))
    assert motion_excursion(back, False, bounds, velocities=False, start=(1.2, 0.0)) is None
    further = at_rest(times, np.array([[1.2, 0.0], [1.3, 0.0], [0.9, 0.0], [0.8, 0.0]]))
    assert motion_excursion(further, False, bounds, velocities=False,
                            start=(1.2, 0.0)).position == 1.3


def test_a_stamped_path_from_a_hair_past_a_limit_stays_inside_once_back():
    """
    A hair past the limit once widened it for the whole motion.

    The arm at 1.000001 with the shoulder's upper limit at 1.0, a stamped path
    that turns at 1.0 (its spline overshoots there): the smooth timing is
    refused, the monotone cubics are within the limits once back.
    """
    bounds = Bounds((-1.0, -PI), (1.0, PI))
    poses = np.array([[1.0, 0.0], [0.6, 0.1], [1.0, 0.2], [0.6, 0.3], [0.2, 0.4]])
    part = time_poses(poses, np.arange(5) * 0.8, Limits.of(3.0, 10.0, 0.0))
    for start in (1.000001, 1.2):
        state = ArmState((start, 0.0))
        motion = run_path([part], state, Planner(Limits.of(3.0, 10.0, 0.0)), bounds)
        within_the_rule(motion, bounds, state.position)
        assert not motion.needs_accelerations  # the monotone fallback took it


# ------------------------------------------------------------------ what is sent


def test_a_stream_sends_no_position_the_check_did_not_allow():
    """A move ending exactly on a limit: ruckig's rounding is held back by the envelope."""
    worst_raw = 0.0
    for limits, start, goal in [
            (Limits.of(1.3, 3.7, 0.0), (0.0, 0.0), (PI, -PI)),
            (Limits.of(1.3, 3.7, 0.0), (3.5, 0.0), (PI, 0.5)),  # from outside, back
            (Limits.of(0.4102437470899441, 2.665255387437387, 500.0),
             (1.8577322444995135, 2.595564806077773), (PI, -PI))]:
        motion = Planner(limits).plan(ArmState(start), goal)
        envelope = Envelope(BOUNDS, start)
        raw = [motion.at(t).position for t in np.arange(0.0, motion.duration + 0.01, 0.001)]
        worst_raw = max(worst_raw, allowed_excursion(raw, BOUNDS, start))
        sent = [envelope.admit(position) for position in raw]
        assert allowed_excursion(sent, BOUNDS, start) == 0.0
        assert np.max(np.abs(np.subtract(sent, raw))) <= 1e-6
    print(f'largest raw excursion of ruckig at(): {worst_raw} rad (held back)')
    assert worst_raw > 0.0  # ruckig's own evaluation does pass the limit, by its rounding


def test_the_controllers_way_to_the_first_point_is_checked():
    """
    Until a trajectory's start the controller interpolates from its own state.

    From 3.135 rad at 2 rad/s toward pi to a first point 20 ms later that has
    turned back: the cubic between them passes pi; the same points from rest
    do not.
    """
    first_point = Samples(np.array([0], np.int64), np.array([[3.135, 0.0]]),
                          np.array([[-2.0, 0.0]]), np.zeros((1, 2)))
    moving = ArmState((3.135, 0.0), (2.0, 0.0))
    with pytest.raises(LimitRefusal):
        check_motion(controller_approach(moving, first_point, 20_000_000), False, BOUNDS,
                     moving.position)
    still = ArmState((3.135, 0.0))
    check_motion(controller_approach(still, first_point, 20_000_000), False, BOUNDS,
                 still.position)


def test_a_single_point_is_checked_against_the_limits_themselves():
    """A one-point trajectory (before the arm is heard) used to pass whatever its value."""
    with pytest.raises(LimitRefusal):
        check_motion(at_rest(np.zeros(1, np.int64), np.array([[3.5, 0.0]])), False, BOUNDS,
                     None)
    check_motion(at_rest(np.zeros(1, np.int64), np.array([[PI, -PI]])), False, BOUNDS, None)


# ------------------------------------------------------------------ a retarget near a limit


#: a state beyond the limits (they were lowered, or it was measured): ruckig's
#: time-optimal move from it passes the shoulder's lower limit, a stop does not
BEYOND = ArmState((-2.7983084770775357, -2.9537825996621043),
                  (-0.21917808089874635, 1.960731028535424),
                  (5.667905557304337, -4.9352749474004165))
BEYOND_LIMITS = Limits(0.9312864556928231, 4.522617413557383, 5.0)
BEYOND_GOAL = (-0.6643033431532577, -1.628733311892924)


def test_a_retarget_the_direct_move_would_take_past_a_limit_stops_first():
    planner = Planner(BEYOND_LIMITS)
    direct = planner.plan(BEYOND, BEYOND_GOAL)
    assert motion_excursion(direct.points(), True, BOUNDS, start=BEYOND.position) is not None
    tracker = ArmTracker(planner)
    tracker.run(_Hold(BEYOND), 0)  # the arm caught in that state
    motion = tracker.move(BEYOND_GOAL, 0, check_with(BOUNDS))
    assert isinstance(motion, MotionSequence) and tracker.braked == 1
    assert motion.goal == BEYOND_GOAL
    within_the_rule(motion, BOUNDS, BEYOND.position)


def test_a_move_neither_way_can_keep_within_the_limits_is_refused_with_the_first_reason():
    """At 3.0 rad, 1 rad/s toward pi, 1 rad/s^2 to brake: even a stop passes pi."""
    tracker = ArmTracker(Planner(Limits.of(1.0, 1.0, 0.0)))
    tracker.run(_Hold(ArmState((3.0, 0.0), (1.0, 0.0))), 0)
    with pytest.raises(LimitRefusal) as refused:
        tracker.move((3.1, 0.0), 0, check_with(BOUNDS))
    assert refused.value.excursion.position == pytest.approx(3.5, abs=1e-6)
    assert tracker.braked == 0


class _Hold:
    """A motion whose state is ``state`` for a second: the arm caught moving (a test's start)."""

    def __init__(self, state):
        self.state, self.duration, self.goal = state, 1.0, state.position
        self.needs_accelerations = True

    def at(self, seconds):
        return self.state

    def points(self):
        s = self.state
        return Samples(np.array([0, 10**9]), np.array([s.position] * 2),
                       np.array([s.velocity] * 2), np.array([s.acceleration] * 2))


# ------------------------------------------------------------------ limits changed mid-motion


@pytest.mark.parametrize('at_fraction', [0.2, 0.5, 0.8])
def test_new_limits_mid_move_rein_it_in(at_fraction):
    """A move toward 2.5 rad, then shoulder_limits [-1, 1] while it runs."""
    planner = Planner(Limits.of(1.0, 2.0, 0.0))
    tracker = ArmTracker(planner)
    tracker.measure((0.0, 0.0), None)
    move = tracker.move((2.5, -0.5), 0, check_with(BOUNDS))
    now = int(move.duration * at_fraction * 1e9)
    state = tracker.state(now)
    bounds = Bounds((-1.0, -PI), (1.0, PI))
    reined = tracker.replan_within(now, bounds.inside(move.goal), bounds.inside,
                                   check_with(bounds))
    assert reined is not None and tracker.motion is reined
    within_the_rule(reined, bounds, state.position)
    assert reined.goal == (1.0 - MARGIN, -0.5)  # its goal, held inside the new limits


def test_new_limits_mid_path_stop_it_within_them():
    planner = Planner(Limits.of(1.0, 2.0, 0.0))
    part = time_poses(np.array([[0.0, 0.0], [1.0, 0.5], [2.0, 0.0], [2.5, -0.5]]), None,
                      planner.limits)
    path = run_path([part], ArmState((0.0, 0.0)), planner, BOUNDS)
    assert isinstance(path, PathMotion)
    tracker = ArmTracker(planner)
    tracker.run(path, 0)
    bounds = Bounds((-0.5, -PI), (0.5, PI))
    for seconds in np.linspace(0.1, path.duration - 0.1, 7):
        now = int(seconds * 1e9)
        tracker.run(path, 0)
        state = tracker.state(now)
        reined = tracker.replan_within(now, None, bounds.inside, check_with(bounds))
        within_the_rule(reined, bounds, state.position)
        assert reined.at(reined.duration).velocity == (0.0, 0.0)


def test_a_motion_over_is_not_reined():
    tracker = ArmTracker(Planner(Limits.of(1.0, 2.0, 0.0)))
    tracker.measure((0.0, 0.0), None)
    move = tracker.move((0.5, 0.0), 0, check_with(BOUNDS))
    assert tracker.replan_within(int(move.duration * 1e9) + 1, (0.5, 0.0), BOUNDS.inside,
                                 check_with(BOUNDS)) is None


# ------------------------------------------------------------------ the libraries' failures


def test_poses_nanometres_apart_that_toppra_cannot_time_are_timed_another_way():
    limits = Limits.of(1.0, 2.0, 0.0)
    for gap in (2e-9, 5e-9):
        part = time_poses(np.array([[0.3, 0.4], [0.3 + gap, 0.4]]), None, limits)
        velocity, acceleration, _ = spline_peaks(part.spline)
        assert velocity <= limits.velocity * (1 + 1e-9)
        assert acceleration <= limits.acceleration * (1 + 1e-9)
        assert part.goal == (0.3 + gap, 0.4) and not part.needs_accelerations


def test_a_move_longer_than_ruckig_can_time_is_unplanned_not_an_error():
    tracker = ArmTracker(Planner(Limits.of(0.0005, 1.0, 0.0)))
    tracker.measure((-3.0, 0.0), None)
    with pytest.raises(Unplanned) as unplanned:
        tracker.move((3.0, 0.0), 0, check_with(BOUNDS))  # 12 000 s at 0.5 mrad/s
    assert unplanned.value.reason in ('unnamed_result', 'ErrorExecutionTimeCalculation')
    assert tracker.motion is None  # nothing recorded: the move under way goes on


# ------------------------------------------------------------------ property tests


@st.composite
def changes(draw):
    """Draw speeds, a move under way, the moment, and new limits (positions and speeds)."""
    speeds = st.floats(1e-4, 1e3)
    old = Limits.of(draw(speeds), draw(speeds), draw(st.sampled_from([0.0, 0.0, 1.0, 1e3])))
    new = Limits.of(draw(speeds), draw(speeds), draw(st.sampled_from([0.0, 1.0, 1e3])))
    start = (draw(st.floats(-3.0, 3.0)), draw(st.floats(-3.0, 3.0)))
    goal = (draw(st.floats(-3.0, 3.0)), draw(st.floats(-3.0, 3.0)))
    fraction = draw(st.floats(0.0, 1.0))
    lower = (draw(st.floats(-PI, 2.5)), draw(st.floats(-PI, 2.5)))
    bounds = Bounds(lower, (draw(st.floats(lower[0], PI)), draw(st.floats(lower[1], PI))))
    on_edge = draw(st.booleans())  # the goal on the new limits themselves
    return old, new, start, goal, fraction, bounds, on_edge


def test_limits_changed_mid_move_never_take_a_joint_further_out():
    """Property: after new limits, nothing sent leaves what the rule allows (0 rad)."""
    worst, outcomes = np.zeros(3), {}

    @settings(max_examples=300, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(changes())
    def check(change):
        old, new, start, goal, fraction, bounds, on_edge = change
        tracker = ArmTracker(Planner(old))
        tracker.measure(start, None)
        try:
            move = tracker.move(goal, 0, check_with(BOUNDS))
        except Unplanned:
            outcomes['first move unplanned'] = outcomes.get('first move unplanned', 0) + 1
            return
        now = int(move.duration * fraction * 1e9)
        tracker.configure(Planner(new))
        state = tracker.state(now)  # where the node takes the arm to be (its window is new)
        target = bounds.inside((bounds.upper[0], bounds.lower[1]) if on_edge else move.goal)
        # never raises
        reined = tracker.replan_within(now, target, bounds.inside, check_with(bounds))
        kind = 'not moving' if reined is None else type(reined).__name__
        outcomes[kind] = outcomes.get(kind, 0) + 1
        if reined is None:
            return
        found = within_the_rule(reined, bounds, state.position)
        worst[:] = np.maximum(worst, found)

    check()
    print(f'limits changed mid-move: {outcomes}; largest excursion past what the rule '
          f'allows at the points, streamed, in the controller: {worst} rad')


# ------------------------------------------------------------------ path geometry at the edges


def test_a_path_that_turns_back_on_pi_is_no_wrap_and_neither_is_its_mirror():
    """The solver's -pi plus one rounding, taken the short way, lands a rounding past pi."""
    r1, r2, theta2 = 1.064354024785745, 0.6237440565166443, -0.09875652480916083
    turning = [PI - 0.325681555201708, PI - 0.162840777600854, PI]
    for sign in (1.0, -1.0):
        angles = [sign * a for a in turning + turning[-2::-1]]
        points = np.array([forward(r1, r2, a, theta2)[1] for a in angles])
        solver = TwoBoneIK(r1, r2, elbow='up', unreachable='reject')
        plan = plan_path(solver, points, None, None, 1.0, 0.1)
        assert plan.rejected == '' and plan.splits == ()
        assert np.all(np.abs(plan.positions[:, 0]) <= PI)
        assert abs(plan.positions[2, 0]) == pytest.approx(PI, abs=1e-12)


def test_a_pose_at_full_reach_belongs_to_its_neighbours_branch():
    """Elbow up preferred, its limits force down: full reach (theta2 = 0) fits both."""
    solver = TwoBoneIK(1.0, 0.7, elbow='up', elbow_limits=(0.0, PI))
    phis = np.linspace(0.0, 0.6, 7)
    radii = np.array([1.5, 1.5, 1.5, 1.7, 1.5, 1.5, 1.5])  # the fourth at full reach
    points = radii[:, None] * np.column_stack((np.cos(phis), np.sin(phis)))
    plan = plan_path(solver, points, None, None, 1.0, 0.1)
    assert plan.rejected == '' and plan.splits == () and plan.flips == 0
    assert plan.positions[3, 1] == MARGIN  # on the elbow's limit 0: just inside it


def test_poses_outside_the_limits_at_a_path_end_are_counted():
    solver = TwoBoneIK(1.0, 0.7, shoulder_limits=(-0.5, 0.5), elbow_limits=(-PI, 0.0))
    points = [(0.0, 1.6), (1.6, 0.0), (1.6, 0.1), (0.0, 1.6)]  # first and last: none fits
    plan = plan_path(solver, points, None, None, 1.0, 0.1)
    assert plan.rejected == '' and plan.splits == () and plan.skipped == 2


@st.composite
def edge_paths(draw):
    """Draw an arm, limits, an arm state outside, on or inside them, and a path at the edges."""
    r1, r2 = draw(st.floats(0.4, 1.5)), draw(st.floats(0.3, 1.2))
    lower = (draw(st.floats(-PI, 0.0)), draw(st.floats(-PI, 0.0)))
    upper = (draw(st.floats(0.5, PI)), draw(st.floats(0.5, PI)))
    solver = TwoBoneIK(r1, r2, elbow=draw(st.sampled_from(['up', 'down', 'closest'])),
                       unreachable=draw(st.sampled_from(['clamp', 'reject'])),
                       shoulder_limits=(lower[0], upper[0]), elbow_limits=(lower[1], upper[1]))
    speeds = st.floats(1e-3, 1e3)
    planner = Planner(Limits.of(draw(speeds), draw(speeds),
                                draw(st.sampled_from([0.0, 10.0, 1e3]))))
    where = draw(st.sampled_from(['outside', 'on', 'inside']))
    joint = draw(st.integers(0, 1))
    position = [(lower[0] + upper[0]) / 2, (lower[1] + upper[1]) / 2]
    if where != 'inside':
        edge = draw(st.sampled_from([lower[joint], upper[joint]]))
        past = draw(st.floats(1e-9, 0.5)) if where == 'outside' else 0.0
        position[joint] = edge + (past if edge == upper[joint] else -past)
    state = ArmState(tuple(position))
    kind = draw(st.sampled_from(['full reach', 'folded', 'near duplicates', 'mixed']))
    count = draw(st.integers(2, 40))
    phis = draw(st.floats(-PI, PI)) + np.linspace(0.0, draw(st.floats(0.0, 2 * PI)), count)
    if kind == 'full reach':
        radii = np.full(count, r1 + r2)
    elif kind == 'folded':
        radii = np.full(count, max(abs(r1 - r2), 1e-3))
    elif kind == 'near duplicates':
        radii = np.full(count, (r1 + r2) * 0.7)
        phis = phis[0] + np.cumsum(np.full(count, draw(st.sampled_from([1e-12, 1e-9, 1e-7]))))
    else:
        radii = np.array(draw(st.lists(st.sampled_from([r1 + r2, abs(r1 - r2), (r1 + r2) * 0.6]),
                                       min_size=count, max_size=count)))
    points = radii[:, None] * np.column_stack((np.cos(phis), np.sin(phis)))
    return solver, planner, state, points


def test_paths_at_the_edges_keep_the_rule_and_raise_nothing_else():
    """Property: paths on the boundary circles, near duplicates, arms outside or on limits."""
    worst, outcomes = np.zeros(3), {}

    @settings(max_examples=300, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(edge_paths())
    def check(scene):
        solver, planner, state, points = scene
        bounds = Bounds.of(solver.shoulder_limits, solver.elbow_limits)
        plan = plan_path(solver, points, None, state.position, planner.limits.velocity, 0.1)
        if plan.rejected:
            outcomes[plan.rejected] = outcomes.get(plan.rejected, 0) + 1
            return
        parts = [time_poses(plan.positions[begin:end], None, planner.limits)
                 for begin, end in plan.parts]
        try:
            motion = run_path(parts, state, planner, bounds)
        except (LimitRefusal, Unplanned) as refusal:  # the node's answers, counted
            name = type(refusal).__name__
            outcomes[name] = outcomes.get(name, 0) + 1
            return
        outcomes['followed'] = outcomes.get('followed', 0) + 1
        worst[:] = np.maximum(worst, within_the_rule(motion, bounds, state.position))

    check()
    print(f'paths at the edges: {outcomes}; largest excursion past what the rule allows at '
          f'the points, streamed, in the controller: {worst} rad')
