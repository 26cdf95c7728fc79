#!/usr/bin/env python3
"""
Solve a batch: a thousand targets on a circle in one call, on arrays.

    python3 examples/02_solve_a_batch.py

``solve_batch`` does, row by row, the arithmetic ``solve`` does for one
target, so each row's elbow is the scalar answer to the last bit (the
angles come from numpy's arctan2, within an ulp of libm's); the batch is
what a path or an offline study wants.  Here a circle that leaves the arm's
reach on one side: the rows beyond it are clamped (or rejected, with
``unreachable='reject'``).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import numpy as np
from twobone_ik_ros.solver import Status, TwoBoneIK


def main() -> None:
    arm = TwoBoneIK(r1=1.0, r2=0.7)
    angles = np.linspace(0.0, 2.0 * np.pi, 1000, endpoint=False)
    targets = np.column_stack((0.6 + 1.2 * np.cos(angles), 1.2 * np.sin(angles)))
    result = arm.solve_batch(targets)
    tips = np.column_stack((
        arm.r1 * np.cos(result.theta1) + arm.r2 * np.cos(result.theta1 + result.theta2),
        arm.r1 * np.sin(result.theta1) + arm.r2 * np.sin(result.theta1 + result.theta2)))
    solved = result.status == Status.SOLVED
    print(f'{len(targets)} targets: {np.count_nonzero(solved)} solved, '
          f'{np.count_nonzero(result.status == Status.CLAMPED)} clamped')
    print(f'largest distance from tip to target where solved: '
          f'{np.max(np.hypot(*(tips[solved] - targets[solved]).T)):.3g} m')
    one = arm.solve(*targets[17])
    print(f"row 17's elbow is the scalar solver's: {one.elbow == tuple(result.elbow[17])}")


if __name__ == '__main__':
    main()
