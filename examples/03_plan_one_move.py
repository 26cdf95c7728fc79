#!/usr/bin/env python3
"""
Plan one move within limits: from a target's solution to the next, as the node does.

    python3 examples/03_plan_one_move.py

A controller output moves the arm between solutions along a time-optimal
motion within the joints' velocity, acceleration and jerk limits, planned by
ruckig (``pip install ruckig``: one line says so when it is missing), and
checks it against the joint limits before it sends it, between the points
too.  Pure Python: no ROS.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import sys

import numpy as np
from twobone_ik_ros.motion.bounds import Bounds
from twobone_ik_ros.motion.limit_check import check_motion, start_position
from twobone_ik_ros.motion.planning import ArmState, Limits, Planner
from twobone_ik_ros.solver import JointLimits, TwoBoneIK


def main() -> int:
    try:
        import ruckig  # noqa: F401
    except ImportError:
        print('03_plan_one_move needs ruckig: pip install ruckig', file=sys.stderr)
        return 2
    arm = TwoBoneIK(r1=1.0, r2=0.7)
    start, goal = arm.solve(1.2, 0.5), arm.solve(-0.3, 1.1)
    assert start.theta1 is not None and start.theta2 is not None  # both are within reach
    assert goal.theta1 is not None and goal.theta2 is not None
    planner = Planner(Limits.of(velocity=1.0, acceleration=5.0, jerk=50.0))
    move = planner.plan(ArmState((start.theta1, start.theta2)), (goal.theta1, goal.theta2))
    points = move.points()  # what a joint_trajectory_controller would get: its knots
    print(f'the move takes {move.duration:.3f} s over {len(points.times_ns)} points')
    print(f'fastest joint speed {np.max(np.abs(points.velocities)):.4f} rad/s (limit 1), '
          f'largest acceleration {np.max(np.abs(points.accelerations)):.4f} rad/s^2 '
          '(limit 5)')
    bounds = Bounds.of(JointLimits(-np.pi, np.pi), JointLimits(-np.pi, np.pi))
    check_motion(points, move.needs_accelerations, bounds, start_position(points))  # raises if not
    print('within the joint limits, between the points too')
    return 0


if __name__ == '__main__':
    sys.exit(main())
