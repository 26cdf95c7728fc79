#!/usr/bin/env python3
"""
The cost of planning one controller move, against the node's per-target cost before it.

In one process, on the same targets, rounds interleaved:

- baseline (the node per target before it planned moves): solve the target, time
  the move by the velocity limit (``joint_paths.move_time``) and serialise the
  one-point JointTrajectory it published;
- move: the same solve, then plan the move from the state the node tracks
  (``ArmTracker.move``: ruckig from the previous move evaluated mid-way),
  its points at the knots (``Motion.points``), the check that they and the
  controller's interpolation stay within the joint limits
  (``limit_check.check_planned``) and the trajectory written as bytes
  (``TrajectoryWriter``), as ``output:=joint_trajectory`` does now;
- plan only: ``ArmTracker.move`` and ``Motion.points``.

Medians of the per-round means.  The last line is for scripts: ``plan_us``, the
median microseconds of planning one move (move minus baseline), and ``move_ratio``,
move over baseline:

    plan_us=<us> move_ratio=<ratio>

Run: scripts/bench bench_plan [--rounds 15] [--targets 2000] [--jerk 0] [--write]
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import argparse
import math
import os
import statistics
import sys
import time

import numpy as np
from rclpy.serialization import serialize_message
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from twobone_ik_ros.model.parameter_table import DEFAULTS  # noqa: E402
from twobone_ik_ros.motion.bounds import Bounds  # noqa: E402
from twobone_ik_ros.motion.joint_paths import move_time  # noqa: E402
from twobone_ik_ros.motion.limit_check import check_planned  # noqa: E402
from twobone_ik_ros.motion.planning import Limits, Planner  # noqa: E402
from twobone_ik_ros.motion.tracking import ArmTracker  # noqa: E402
from twobone_ik_ros.outputs.trajectory_message import duration  # noqa: E402
from twobone_ik_ros.outputs.trajectory_wire import TrajectoryWriter  # noqa: E402
from twobone_ik_ros.solver import TwoBoneIK  # noqa: E402
from twobone_ik_ros.tools.harness import result_options, results  # noqa: E402

NAMES = DEFAULTS['joint_names']


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=15)
    parser.add_argument('--targets', type=int, default=2000)
    parser.add_argument('--jerk', type=float, default=DEFAULTS['max_joint_jerk'])
    result_options(parser)
    options = parser.parse_args()
    rng = np.random.default_rng(2026)
    radius = (DEFAULTS['r1'] + DEFAULTS['r2']) * np.sqrt(rng.uniform(0.05, 0.95, options.targets))
    angle = rng.uniform(-math.pi, math.pi, options.targets)
    targets = list(zip((radius * np.cos(angle)).tolist(), (radius * np.sin(angle)).tolist()))
    solver = TwoBoneIK(DEFAULTS['r1'], DEFAULTS['r2'])
    bounds = Bounds.of(solver.shoulder_limits, solver.elbow_limits)
    velocity, minimum = DEFAULTS['max_joint_velocity'], DEFAULTS['min_move_time']
    limits = Limits.of(velocity, DEFAULTS['max_joint_acceleration'], options.jerk)
    writer = TrajectoryWriter(NAMES)
    message = JointTrajectory(joint_names=list(NAMES), points=[JointTrajectoryPoint()])
    point = message.points[0]
    point.positions = [0.0, 0.0]

    def baseline():
        previous = (0.0, 0.0)
        for x, y in targets:
            result = solver.solve(x, y)
            goal = (result.theta1, result.theta2)
            point.positions[0], point.positions[1] = goal
            point.time_from_start = duration(
                round(move_time(previous, goal, velocity, minimum) * 1e9))
            serialize_message(message)
            previous = goal

    goals = [(r.theta1, r.theta2) for r in (solver.solve(x, y) for x, y in targets)]

    def check(motion):  # what the node's output does (``outputs._check_planned``)
        check_planned(motion, bounds)

    def unchecked(motion):
        pass

    def moves(write=True, solve=True):
        tracker = ArmTracker(Planner(limits, minimum))
        tracker.measure((0.0, 0.0), None)
        now = 0
        for (x, y), goal in zip(targets, goals):
            if solve:
                result = solver.solve(x, y)
                goal = (result.theta1, result.theta2)
            motion = tracker.move(goal, now, check if write else unchecked)
            points = motion.points()
            if write:  # as the node writes a move's few points (``TrajectoryMessages``)
                writer.write_rows(*points.rows(), 2 if options.jerk > 0.0 else 1, now)
            now += int(motion.duration * 0.5e9)  # the next target comes mid-way

    cases = {'baseline: solve, time, serialise one point': baseline,
             'move: solve, plan, points, check, write': moves,
             'plan only: plan, points': lambda: moves(write=False, solve=False)}
    means = {name: [] for name in cases}
    for _ in range(options.rounds):
        for name, function in cases.items():
            start = time.perf_counter()
            function()
            means[name].append((time.perf_counter() - start) / len(targets))
    median = {name: statistics.median(values) for name, values in means.items()}
    base = median['baseline: solve, time, serialise one point']
    with results('bench_plan', options):
        print(f'{len(targets)} targets, max_joint_jerk={options.jerk:g}, '
              f'median of {options.rounds} interleaved rounds')
        print(f'  {"what":44s} {"us/target":>10s} {"x baseline":>11s}')
        for name, seconds in median.items():
            print(f'  {name:44s} {seconds * 1e6:10.1f} {seconds / base:11.2f}')
        move = median['move: solve, plan, points, check, write']
        print(f'plan_us={(move - base) * 1e6:.1f} move_ratio={move / base:.2f}')


if __name__ == '__main__':
    main()
