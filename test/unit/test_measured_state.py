"""
What the arm measurably does wins over what the node commanded it to do.

An arm whose measured state disagrees with the motion the node commanded (a
paused simulator, a lagging controller, an arm already at the goal) is planned
from what it does: its positions over time give its velocity where its joint
states carry none, and an arm measured still is at rest.  The case that lost a
target: joint_trajectory, elbow closest, targets stepping round a circle of
radius 1.2 (r1 1.0, r2 0.6, default limits), an arm whose joint states carry
positions only and that stands at each answered goal at once.  Also a path
through an exact half turn, which either way round is as short: it goes the
way that keeps it within the limits.  Pure: the tracker and the path planner,
with the one limit check every command passes.
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
from twobone_ik_ros.model.config import validate
from twobone_ik_ros.model.parameter_table import DEFAULTS
from twobone_ik_ros.motion.bounds import Bounds
from twobone_ik_ros.motion.joint_paths import plan_path
from twobone_ik_ros.motion.limit_check import check_motion, start_position
from twobone_ik_ros.motion.planning import Limits, Planner
from twobone_ik_ros.motion.tracking import ArmTracker, TRACKING_WINDOW_S
from twobone_ik_ros.solver import forward, TwoBoneIK

pytest.importorskip('ruckig', reason='ruckig plans the moves (requirements/runtime.txt)')

NS = 1_000_000_000
#: joint_state_broadcaster's period: the arm's states come this often
STATE_NS = 10_000_000


def default_tracker():
    config = validate(DEFAULTS)
    limits = Limits.of(config.max_joint_velocity, config.max_joint_acceleration,
                       config.max_joint_jerk)
    bounds = Bounds.of(config.shoulder_limits, config.elbow_limits)
    return ArmTracker(Planner(limits, config.min_move_time)), bounds


def checker(bounds):
    def check(motion):
        points = motion.points()
        check_motion(points, motion.needs_accelerations, bounds, start_position(points))
    return check


def test_an_arm_standing_at_each_answered_goal_loses_no_target_round_a_circle():
    """60 targets round the circle; the arm is at each goal at once, positions only."""
    solver = TwoBoneIK(1.0, 0.6, elbow='closest')
    tracker, bounds = default_tracker()
    check = checker(bounds)
    now = 5 * NS
    arm = (0.0, 0.0)
    tracker.measure(arm, None, now)
    for step in range(60):
        angle = 2.0 * math.pi * step / 60
        result = solver.solve(1.2 * math.cos(angle), 1.2 * math.sin(angle), arm)
        goal = (result.theta1, result.theta2)
        motion = tracker.move(goal, now, check)  # raises LimitRefusal: the target lost
        assert motion is not None
        # the arm is at the goal in its next state: the next target comes as it is heard there
        now += STATE_NS
        tracker.measure(goal, None, now)
        start = tracker.state(now)
        assert start.velocity == (0.0, 0.0) and start.acceleration == (0.0, 0.0), step
        arm = goal


def test_positions_over_time_give_the_velocity_and_a_still_arm_is_at_rest():
    tracker, _ = default_tracker()
    tracker.measure((0.0, 1.0), None, 1 * NS)
    tracker.measure((0.01, 0.985), None, 1 * NS + STATE_NS)
    state = tracker.state(1 * NS + STATE_NS)
    assert state.velocity == pytest.approx((1.0, -1.5))
    assert state.acceleration == (0.0, 0.0)  # the node's own motion's is not the arm's
    tracker.measure((0.01, 0.985), None, 1 * NS + 2 * STATE_NS)
    assert tracker.state(1 * NS + 2 * STATE_NS).velocity == (0.0, 0.0)  # still: at rest
    # faster than twice the limit is a jump (the arm was put there), not a velocity
    tracker.measure((0.5, 0.985), None, 1 * NS + 3 * STATE_NS)
    assert tracker.state(1 * NS + 3 * STATE_NS).velocity == (0.0, 0.0)
    # a measured velocity is taken as it is; a stamp that goes back estimates nothing
    tracker.measure((0.51, 0.985), (0.5, 0.25), 1 * NS + 4 * STATE_NS)
    assert tracker.state(1 * NS + 4 * STATE_NS).velocity == (0.5, 0.25)
    tracker.measure((0.52, 0.985), None, 1 * NS)
    assert tracker.state(1 * NS).velocity == (0.0, 0.0)


def test_an_arm_that_follows_the_move_is_planned_from_the_move():
    """The measured sample is older than the command: within the window, the move is the start."""
    tracker, bounds = default_tracker()
    tracker.measure((0.0, 0.0), None, 1 * NS)
    motion = tracker.move((1.0, -0.5), 1 * NS, checker(bounds))
    halfway = 1 * NS + round(motion.duration / 2 * NS)
    near = motion.at(motion.duration / 2 - 0.01).position  # 10 ms behind the command
    tracker.measure(near, None, halfway)
    assert tracker.state(halfway) == motion.at(motion.duration / 2)


def test_a_state_heard_long_ago_is_judged_against_the_move_at_its_stamp():
    """
    A node not scheduled for half a second has only a state half a second old.

    It followed the move then: the move now is the start, not that state
    (which is far from the move now: planned from it, the retarget stepped
    the arm back to where it had been, test_late_node).  One that did not
    follow the move at its stamp still decides.  One that is where the move
    is now follows it, whatever its stamp (a stream that held cycles).
    """
    tracker, bounds = default_tracker()
    tracker.measure((0.0, 0.0), None, 1 * NS)
    motion = tracker.move((2.0, -1.5), 1 * NS, checker(bounds))
    assert motion.duration > 1.0
    heard = 1 * NS + round(0.3 * NS)
    tracker.measure(motion.at(0.3).position, None, heard)
    later = heard + round(0.5 * NS)  # the node comes back half a second on
    far = max(abs(a - b) for a, b in zip(motion.at(0.3).position, motion.at(0.8).position))
    assert far > TRACKING_WINDOW_S * tracker.planner.limits.velocity
    assert tracker.state(later) == motion.at(0.8)
    # a stream that held the arm 0.5 s moved its move that much later: a state heard while it
    # held is where the move is now, not where the shifted move was at the state's stamp
    tracker.delay(round(0.5 * NS))
    tracker.measure(motion.at(0.3).position, None, later - round(0.1 * NS))
    assert tracker.state(later) == motion.at(0.3)
    tracker.measure((0.5, 0.5), None, later)  # the arm did not follow: it decides
    assert tracker.state(later).position == (0.5, 0.5)


def test_a_path_through_an_exact_half_turn_goes_the_way_that_keeps_the_limits():
    solver = TwoBoneIK(1.0, 0.7, unreachable='reject')
    _, last = forward(1.0, 0.7, 3.0, -0.2)
    poses = np.array([(1.7, 0.0), (-1.7, 0.0), last])
    plan = plan_path(solver, poses, None, (0.0, 0.0), DEFAULTS['max_joint_velocity'],
                     DEFAULTS['min_move_time'])
    assert not plan.rejected, f'pose {plan.rejected_index} is {plan.rejected}'
    shoulder = plan.positions[:, 0]
    assert shoulder[-1] == pytest.approx(3.0) and np.all(np.abs(shoulder) <= math.pi)
    # on to the other side of the half turn: that way round
    _, other = forward(1.0, 0.7, -3.0, -0.2)
    plan = plan_path(solver, np.array([(1.7, 0.0), (-1.7, 0.0), other]), None, (0.0, 0.0),
                     DEFAULTS['max_joint_velocity'], DEFAULTS['min_move_time'])
    assert not plan.rejected and plan.positions[-1, 0] == pytest.approx(-3.0)
