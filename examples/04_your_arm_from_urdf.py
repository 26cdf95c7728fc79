#!/usr/bin/env python3
"""
Your arm from its URDF: the chain between two links read, a target solved on it.

    python3 examples/04_your_arm_from_urdf.py

The URDF below is written as the ros2_control demos' RRBot is: joints about
+y, links along +z, the arm pointing up at zero, each link 0.1 m beside the
last (the tool's plane is 0.2 m off the base's).  ``validate`` reads the
chain from ``base_frame`` to ``tip_link`` as the node does from
robot_description: the joints' names, the link lengths, the plane and the
limits.  The target's y (along the joints' axis) plays no part: the tip
goes to its projection onto the tool's plane.  No ROS needed.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from twobone_ik_ros.model.config import validate
from twobone_ik_ros.model.parameter_table import DEFAULTS

URDF = """<?xml version="1.0"?>
<robot name="rrbot">
  <link name="world"/> <link name="base_link"/> <link name="link1"/> <link name="link2"/>
  <link name="tool_link"/>
  <joint name="fixed" type="fixed"><parent link="world"/><child link="base_link"/></joint>
  <joint name="joint1" type="continuous"><parent link="base_link"/><child link="link1"/>
    <origin xyz="0 0.1 1.95"/><axis xyz="0 1 0"/></joint>
  <joint name="joint2" type="continuous"><parent link="link1"/><child link="link2"/>
    <origin xyz="0 0.1 0.9"/><axis xyz="0 1 0"/></joint>
  <joint name="tool_joint" type="fixed"><parent link="link2"/><child link="tool_link"/>
    <origin xyz="0 0 1"/></joint>
</robot>
"""


def main() -> None:
    config = validate(dict(DEFAULTS, base_frame='base_link', tip_link='tool_link'), URDF)
    assert not config.problem, config.problem  # it says what is wrong with a chain it refuses
    arm = config.arm
    print(f'joints {config.joint_names[0]}, {config.joint_names[1]}: r1 {arm.r1:.3f} m, '
          f"r2 {arm.r2:.3f} m, the tool's plane {arm.tip_height:.3f} m off the base's")
    target = (1.2, 5.0, 2.5)  # in base_link; its y plays no part
    result = config.solver.solve(*arm.project(*target))
    assert result.theta1 is not None and result.theta2 is not None
    print(f'{result.status.name}: joint1 {result.theta1:.6f} rad, joint2 {result.theta2:.6f} rad')
    elbow, tip = arm.forward(result.theta1, result.theta2)
    print(f'the tip (tool_link) at ({tip[0]:.12f}, {tip[1]:.12f}, {tip[2]:.12f})')


if __name__ == '__main__':
    main()
