#!/usr/bin/env python3
"""
Solve one target: the joint angles that put the tip of a two-link arm on a point.

    python3 examples/01_solve_one_target.py

The solver needs numpy alone (no ROS): links of 1.0 m and 0.7 m, the elbow
up, and the target (1.2, 0.5) in the base frame.  The forward kinematics of
the answer lands back on the target.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from twobone_ik_ros.solver import forward, TwoBoneIK


def main() -> None:
    arm = TwoBoneIK(r1=1.0, r2=0.7, elbow='up')
    result = arm.solve(1.2, 0.5)
    # a refused target (status REJECTED) has no angles: None, never made-up ones
    assert result.theta1 is not None and result.theta2 is not None and result.elbow
    print(f'status {result.status.name}: theta1 {result.theta1:.6f} rad, '
          f'theta2 {result.theta2:.6f} rad, elbow at ({result.elbow[0]:.6f}, '
          f'{result.elbow[1]:.6f})')
    _, tip = forward(arm.r1, arm.r2, result.theta1, result.theta2)
    print(f'the tip from the angles: ({tip[0]:.12f}, {tip[1]:.12f})')

    far = arm.solve(3.0, 0.0)  # beyond reach: clamped onto the ray by default
    assert far.reached is not None
    print(f'(3, 0) is {far.status.name}: the tip goes to ({far.reached[0]:.3f}, '
          f'{far.reached[1]:.3f})')


if __name__ == '__main__':
    main()
