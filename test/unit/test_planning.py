"""
Moves planned within the limits (``motion/planning``, ``motion/tracking``), without ROS.

The controller's side is modelled by the interpolation joint_trajectory_controller
uses between two points: a cubic when they carry positions and velocities, a
quintic when they carry accelerations too.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math
import random

import numpy as np
import pytest
from twobone_ik_ros.motion.planning import ArmState, Limits, Planner, Unplanned
from twobone_ik_ros.motion.tracking import ArmTracker


def ANYTHING(motion):
    """Refuse nothing: these tests are about where moves start, not the limits."""


LIMITS = Limits.of(1.5, 4.0, 0.0)
JERK_LIMITS = Limits.of(1.5, 4.0, 30.0)


def hermite(start, end, duration):
    """Return the polynomial joint_trajectory_controller interpolates between two points."""
    p0, v0, a0 = start
    p1, v1, a1 = end
    t = duration
    if a0 is None:  # cubic
        c2 = (3.0 * (p1 - p0) - (2.0 * v0 + v1) * t) / t ** 2
        c3 = (2.0 * (p0 - p1) + (v0 + v1) * t) / t ** 3
        return np.polynomial.Polynomial([p0, v0, c2, c3])
    matrix = np.array([[t ** 3, t ** 4, t ** 5], [3 * t ** 2, 4 * t ** 3, 5 * t ** 4],
                       [6 * t, 12 * t ** 2, 20 * t ** 3]])
    rest = np.linalg.solve(matrix, [p1 - (p0 + v0 * t + 0.5 * a0 * t * t),
                                    v1 - (v0 + a0 * t), a1 - a0])
    return np.polynomial.Polynomial([p0, v0, 0.5 * a0, *rest])


def interpolated(points, accelerations):
    """
    Return (times, positions) of the controller's interpolation of ``points``, every 1 ms.

    Between two points each joint is ``hermite``'s polynomial: a cubic, or a
    quintic when the points carry ``accelerations``.
    """
    seconds = points.times_ns / 1e9
    at = np.arange(0.0, seconds[-1], 1e-3)
    segment = np.clip(np.searchsorted(seconds, at, side='right') - 1, 0, len(seconds) - 2)
    commanded = np.empty((len(at), 2))
    for i in np.unique(segment):
        rows = segment == i
        for joint in range(2):
            ends = [(points.positions[k, joint], points.velocities[k, joint],
                     points.accelerations[k, joint] if accelerations else None)
                    for k in (i, i + 1)]
            curve = hermite(*ends, seconds[i + 1] - seconds[i])
            commanded[rows, joint] = curve(at[rows] - seconds[i])
    return at, commanded


def moves(limits, count, seed):
    """Yield (planned move, its start) from states met mid-way through other moves."""
    rng = random.Random(seed)
    planner = Planner(limits)
    for _ in range(count):
        first = planner.plan(ArmState((rng.uniform(-3, 3), rng.uniform(-3, 3))),
                             (rng.uniform(-3, 3), rng.uniform(-3, 3)))
        start = first.at(rng.uniform(0.0, first.duration))
        yield planner.plan(start, (rng.uniform(-3, 3), rng.uniform(-3, 3))), start


@pytest.mark.parametrize('limits', [LIMITS, JERK_LIMITS], ids=['no jerk limit', 'jerk limit'])
def test_the_controllers_interpolation_between_the_points_follows_the_plan_and_the_limits(
        limits):
    """
    Sampled as a 1 kHz controller would, the interpolation is the plan and keeps the limits.

    Velocities and accelerations are differences of the 1 kHz samples: what
    the joints are commanded to do (between two points microseconds apart
    the polynomial itself swings with ruckig's rounding, and no controller
    samples it there).
    """
    jerk = math.isfinite(limits.jerk)
    worst = np.zeros(3)
    for motion, start in moves(limits, 150, seed=limits.jerk):
        points = motion.points()
        assert points.times_ns[0] == 0 and np.all(np.diff(points.times_ns) > 0)
        assert tuple(points.positions[0]) == start.position
        assert tuple(points.positions[-1]) == motion.goal  # exactly the solution
        assert not points.velocities[-1].any() and not points.accelerations[-1].any()
        at, commanded = interpolated(points, jerk)
        plan = np.array([motion.at(t).position for t in at])
        velocity = np.diff(commanded, axis=0) / 1e-3
        acceleration = np.diff(velocity, axis=0) / 1e-3
        worst = np.maximum(worst, [np.max(np.abs(commanded - plan)),
                                   np.max(np.abs(velocity)), np.max(np.abs(acceleration))])
    assert worst[0] <= 1e-6
    assert worst[1] <= limits.velocity * (1 + 1e-6)
    assert worst[2] <= limits.acceleration * (1 + 1e-3)


@pytest.mark.parametrize('distance', [0.01, 0.1, 1.0, 3.0])
def test_a_move_from_rest_is_time_optimal(distance):
    def fastest(d, v=LIMITS.velocity, a=LIMITS.acceleration):
        return d / v + v / a if d >= v * v / a else 2.0 * math.sqrt(d / a)
    motion = Planner(LIMITS).plan(ArmState((0.5, -1.0)), (0.5 + distance, -1.0 - distance / 2))
    assert motion.duration == pytest.approx(fastest(distance), rel=1e-9)
    jerk_limited = Planner(JERK_LIMITS).plan(ArmState((0.5, -1.0)), (0.5 + distance, -1.0))
    assert jerk_limited.duration >= motion.duration
    assert Planner(LIMITS, min_duration=5.0).plan(ArmState((0.0, 0.0)),
                                                  (distance, 0.0)).duration == 5.0


def test_both_joints_arrive_together_and_the_end_is_the_goal_at_rest():
    motion = Planner(LIMITS).plan(ArmState((0.0, 0.0), (1.0, -0.5)), (2.0, 0.1))
    end = motion.at(motion.duration)
    assert end == ArmState((2.0, 0.1))
    almost = motion.at(motion.duration - 0.05)
    assert all(0.0 < abs(g - p) for g, p in zip((2.0, 0.1), almost.position))


def test_what_ruckig_refuses_is_unplanned_with_a_reason():
    with pytest.raises(Unplanned) as nan:
        Planner(LIMITS).plan(ArmState((math.nan, 0.0)), (1.0, 0.0))
    with pytest.raises(Unplanned):
        Planner(LIMITS).plan(ArmState((0.0, 0.0)), (math.inf, 0.0))
    assert nan.value.reason == 'refused_input'
    # a result ruckig's binding has no name for (-101: a move too long), not a ValueError
    with pytest.raises(Unplanned) as long:
        Planner(Limits.of(0.001, 2.0, 0.0)).plan(ArmState((0.0, 0.0)), (7.7, 0.0))
    assert long.value.reason == 'unnamed_result'


def test_a_retarget_continues_from_the_move_under_way():
    tracker = ArmTracker(Planner(LIMITS))
    tracker.measure((0.0, 0.0), None)
    first = tracker.move((2.0, -1.0), 0, ANYTHING)
    halfway = int(first.duration / 2 * 1e9)
    tracker.measure(first.at(halfway / 1e9 - 0.01).position, None)  # a sample 10 ms old
    second = tracker.move((-1.0, 0.5), halfway, ANYTHING)
    assert second.start == first.at(halfway / 1e9)  # the move, not the older sample
    # once the move is over, the measurement decides
    tracker.measure((-0.9, 0.4), (0.0, 0.0))
    later = int(halfway + second.duration * 1e9) + 1
    assert tracker.state(later) == ArmState((-0.9, 0.4))
    # a measurement far from the move (the arm did not follow) decides too
    third = tracker.move((1.0, 1.0), later, ANYTHING)
    tracker.measure((3.0, 3.0), None)
    state = tracker.state(later + int(third.duration * 0.5e9))
    assert state.position == (3.0, 3.0)


def test_a_move_planned_again_from_a_later_start_continues_the_one_sent():
    """What the output does when a trajectory was made too late for its start."""
    tracker = ArmTracker(Planner(LIMITS))
    tracker.measure((0.0, 0.0), None)
    sent = tracker.move((2.0, -1.0), 0, ANYTHING)
    tracker.measure(sent.at(0.29).position, None)  # the arm follows it
    late = tracker.move((-1.0, 0.5), 300_000_000, ANYTHING)
    tracker.undo()  # not sent: the first move is still what the arm does
    again = tracker.move((-1.0, 0.5), 310_000_000, ANYTHING)
    assert again.start == sent.at(0.31) and again.start != late.at(0.01)


def test_a_stale_state_with_no_move_planned_yet_is_still_a_start():
    """
    Once the arm was heard, a move is planned (and stamped), even when its state went stale.

    The first move can be one point sent before the arm's state was known (no
    move recorded); a stale measurement then must not make the next move a
    point again (a zero-stamped trajectory after the arm was heard).
    """
    tracker = ArmTracker(Planner(LIMITS))
    assert not tracker.known and tracker.move((1.0, 0.0), 0, ANYTHING) is None
    tracker.measure((0.5, -0.5), (0.1, 0.0))
    tracker.forget_measurement()
    assert tracker.known and tracker.measured is None
    assert tracker.state(0) == ArmState((0.5, -0.5))  # where it was last heard, at rest
    move = tracker.move((1.0, 0.0), 0, ANYTHING)
    assert move is not None and move.start == ArmState((0.5, -0.5))
    # with a move planned, a stale state plans from the move, as before
    tracker.forget_measurement()
    assert tracker.state(10**10) == ArmState((1.0, 0.0))
    tracker.forget()
    assert not tracker.known and tracker.state(0) is None
