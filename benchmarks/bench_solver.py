#!/usr/bin/env python3
"""
Solver speed against baselines measured in the same run.

Scalar: microseconds per solve of ``TwoBoneIK.solve`` with every feature on
(joint limits that are checked, clamp policy, the full result), a plain
law-of-cosines solver returning two angles, and an empty function, all called
in the same loop over the same targets; rounds are interleaved so machine
noise hits all alike, and the minimum round of each is reported.

Batch: solves per second at N = 1e6 of ``solve_batch`` and of numpy's two
``arctan2`` calls alone on the same (N, 2) array's columns, the floor for any
output with angles; each allocating its results, then each writing into
arrays allocated once (``out=``), which leaves out the page faults of fresh
memory.  For reference: the floor on contiguous copies of the columns, and
the part of solve_batch's work that no arithmetic can remove (read the
targets, write the six float columns of the result, two ``arctan2`` on
contiguous data), in the same cache-sized blocks.  The last line is for
scripts; its batch ratio is the allocating pair's:

    scalar_ratio=<solver / law-of-cosines> batch_ratio=<solver / arctan2 floor>

(scalar: time ratio, lower is better; batch: throughput ratio, higher is better)

Run: python benchmarks/bench_solver.py [--rounds 15] [--n 1000000]
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
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from twobone_ik_ros.ik.batch import BATCH_BLOCK  # noqa: E402
from twobone_ik_ros.solver import new_batch_result, TwoBoneIK  # noqa: E402
from twobone_ik_ros.tools.harness import result_options, results  # noqa: E402

R1, R2 = 1.0, 0.7


def law_of_cosines(x, y, r1=R1, r2=R2):
    """Textbook baseline: theta2 from acos, theta1 from two atan2; up branch."""
    c = (x * x + y * y - r1 * r1 - r2 * r2) / (2.0 * r1 * r2)
    c = 1.0 if c > 1.0 else -1.0 if c < -1.0 else c
    theta2 = -math.acos(c)
    theta1 = math.atan2(y, x) - math.atan2(r2 * math.sin(theta2), r1 + r2 * math.cos(theta2))
    return theta1, theta2


def empty(x, y):
    """Return nothing: the cost of the call itself."""
    return None


def targets(n, rng):
    """Targets over a disc 10 % wider than the reach: some clamped, most solved."""
    radius = 1.1 * (R1 + R2) * np.sqrt(rng.uniform(0.0, 1.0, n))
    angle = rng.uniform(-math.pi, math.pi, n)
    return np.stack([radius * np.cos(angle), radius * np.sin(angle)], axis=1)


def time_scalar(functions, points, rounds):
    """Minimum over interleaved rounds of seconds per call, for each function."""
    best = {name: math.inf for name in functions}
    for _ in range(rounds):
        for name, (function, extra) in functions.items():
            start = time.perf_counter()
            for x, y in points:
                function(x, y, *extra)
            best[name] = min(best[name], (time.perf_counter() - start) / len(points))
    return best


def reads_writes_and_angles(points, result, block=BATCH_BLOCK):
    """Read the targets, write the result's six float columns, two arctan2: no arithmetic."""
    for start in range(0, len(points), block):
        rows = slice(start, start + block)
        x, y = points[rows, 0], points[rows, 1]
        reached, elbow = result.reached[rows], result.elbow[rows]
        np.copyto(reached[:, 0], x)
        np.copyto(reached[:, 1], y)
        np.copyto(elbow[:, 0], reached[:, 1])
        np.copyto(elbow[:, 1], reached[:, 0])
        np.arctan2(elbow[:, 1], elbow[:, 0], out=result.theta1[rows])
        np.arctan2(elbow[:, 0], elbow[:, 1], out=result.theta2[rows])


def time_batch(functions, rounds):
    """Minimum over interleaved rounds of seconds per call, for each function."""
    best = {name: math.inf for name in functions}
    for _ in range(rounds):
        for name, function in functions.items():
            start = time.perf_counter()
            function()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=15)
    parser.add_argument('--n', type=int, default=1_000_000)
    parser.add_argument('--scalar-targets', type=int, default=20_000)
    result_options(parser)
    options = parser.parse_args()
    rng = np.random.default_rng(2026)
    points = [tuple(p) for p in targets(options.scalar_targets, rng).tolist()]
    limits = {'shoulder_limits': (-3.1, 3.1), 'elbow_limits': (-3.1, 3.1)}
    full = TwoBoneIK(R1, R2, 'up', 'clamp', **limits)
    closest = TwoBoneIK(R1, R2, 'closest', 'clamp', **limits)
    scalar = time_scalar({
        'empty function': (empty, ()),
        'law of cosines (2 angles)': (law_of_cosines, ()),
        'solver, up + limits + clamp': (full.solve, ()),
        'solver, closest + limits + clamp': (closest.solve, ((0.3, -0.5),)),
    }, points, options.rounds)

    batch_points = targets(options.n, rng)
    columns = (np.ascontiguousarray(batch_points[:, 0]), np.ascontiguousarray(batch_points[:, 1]))
    up = TwoBoneIK(R1, R2)
    result, angles = new_batch_result(options.n), (np.empty(options.n), np.empty(options.n))
    scratch = new_batch_result(options.n)
    batch = time_batch({
        'solve_batch (up, clamp)': lambda: up.solve_batch(batch_points),
        'two arctan2 on the same columns (floor)': lambda: (
            np.arctan2(batch_points[:, 1], batch_points[:, 0]),
            np.arctan2(batch_points[:, 0], batch_points[:, 1])),
        'solve_batch, out=': lambda: up.solve_batch(batch_points, out=result),
        'floor, out=': lambda: (
            np.arctan2(batch_points[:, 1], batch_points[:, 0], out=angles[0]),
            np.arctan2(batch_points[:, 0], batch_points[:, 1], out=angles[1])),
        'floor on contiguous copies': lambda: (
            np.arctan2(columns[1], columns[0]), np.arctan2(columns[0], columns[1])),
        'no-arithmetic part of solve_batch, out=': lambda: reads_writes_and_angles(
            batch_points, scratch),
    }, max(3, options.rounds // 3))

    with results('bench_solver', options):
        loc = scalar['law of cosines (2 angles)']
        print(f'scalar, {len(points)} targets, best of {options.rounds} interleaved rounds')
        print(f'  {"what":40s} {"us/solve":>9s} {"x law-of-cosines":>17s}')
        for name, seconds in scalar.items():
            print(f'  {name:40s} {seconds * 1e6:9.3f} {seconds / loc:17.2f}')
        floor = batch['two arctan2 on the same columns (floor)']
        floor_out = batch['floor, out=']
        rounds = max(3, options.rounds // 3)
        print(f'batch, N = {options.n}, best of {rounds} interleaved rounds')
        print(f'  {"what":40s} {"Msolves/s":>9s} {"x floor":>8s} {"x floor, out=":>13s}')
        for name, seconds in batch.items():
            print(f'  {name:40s} {options.n / seconds / 1e6:9.2f} {floor / seconds:8.2f}'
                  f' {floor_out / seconds:13.2f}')
        scalar_ratio = scalar['solver, up + limits + clamp'] / loc
        batch_ratio = floor / batch['solve_batch (up, clamp)']
        print(f'scalar_ratio={scalar_ratio:.3f} batch_ratio={batch_ratio:.3f}')


if __name__ == '__main__':
    main()
