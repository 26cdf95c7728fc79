"""
URDF text for the arm, generated from the same r1, r2 and names as the node.

The launch files call ``arm_urdf`` with their own arguments, so the RobotModel
that robot_state_publisher feeds to RViz always has the link lengths the
solver uses: the model and the markers cannot drift apart.  Pure Python (no
xacro), so it is tested here without a ROS install.

Tree: <base_frame> -> shoulder joint (revolute about z) -> link1 -> elbow
joint (revolute about z, at x = r1) -> link2 -> fixed joint at x = r2 -> tool0.

With ``ros2_control=True`` the URDF also carries a ``<ros2_control>`` block:
mock_components/GenericSystem with a position command and state interface
per joint, limited as the joints are, for controller_manager to run the
arm's controllers without hardware (``launch/control.launch.py``).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import math
from typing import Sequence, Tuple
from xml.sax.saxutils import quoteattr

from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.model.parameter_table import DEFAULTS

TOOL_FRAME = 'tool0'


def config_urdf(config: IKConfig, ros2_control: bool = False) -> str:
    """Return the URDF of the arm a validated node configuration describes."""
    solver = config.solver
    return arm_urdf(config.r1, config.r2, config.joint_names,
                    (solver.shoulder_limits.lower, solver.shoulder_limits.upper),
                    (solver.elbow_limits.lower, solver.elbow_limits.upper), config.base_frame,
                    max_joint_velocity=config.max_joint_velocity, ros2_control=ros2_control)


def arm_urdf(r1: float = DEFAULTS['r1'], r2: float = DEFAULTS['r2'],
             joint_names: Sequence[str] = tuple(DEFAULTS['joint_names']),
             shoulder_limits: Tuple[float, float] = tuple(DEFAULTS['shoulder_limits']),
             elbow_limits: Tuple[float, float] = tuple(DEFAULTS['elbow_limits']),
             base_frame: str = DEFAULTS['base_frame'], robot_name: str = 'twobone_arm',
             max_joint_velocity: float = DEFAULTS['max_joint_velocity'],
             ros2_control: bool = False) -> str:
    """
    Return the URDF of the planar two-link arm as a string.

    The joints' velocity limit is the node's ``max_joint_velocity``.

    Link names are never prefixed here: a second arm gets distinct TF frames
    from robot_state_publisher's ``frame_prefix`` (and the node's parameter of
    the same name), as ROS does for any URDF.
    """
    r1, r2 = float(r1), float(r2)
    if not (r1 > 0.0 and r2 > 0.0 and math.isfinite(r1) and math.isfinite(r2)):
        raise ValueError(f'link lengths must be finite and > 0, got r1={r1!r}, r2={r2!r}')
    if len(joint_names) != 2:
        raise ValueError(f'joint_names must be two names, got {list(joint_names)!r}')
    radius = 0.04 * (r1 + r2)
    shoulder, elbow = joint_names
    return '\n'.join([
        '<?xml version="1.0"?>',
        f'<robot name={quoteattr(robot_name)}>',
        f'  <link name={quoteattr(base_frame)}>',
        _cylinder_visual(length=radius, radius=1.5 * radius, along_z=True, colour='grey'),
        '  </link>',
        _link('link1', r1, radius, 'blue'),
        _link('link2', r2, radius * 0.8, 'light_blue'),
        f'  <link name={quoteattr(TOOL_FRAME)}/>',
        _revolute(shoulder, base_frame, 'link1', 0.0, shoulder_limits, max_joint_velocity),
        _revolute(elbow, 'link1', 'link2', r1, elbow_limits, max_joint_velocity),
        f'  <joint name={quoteattr(TOOL_FRAME + "_joint")} type="fixed">',
        f'    <parent link="link2"/><child link={quoteattr(TOOL_FRAME)}/>',
        f'    <origin xyz="{r2!r} 0 0" rpy="0 0 0"/>',
        '  </joint>',
        '  <material name="grey"><color rgba="0.5 0.5 0.5 1"/></material>',
        '  <material name="blue"><color rgba="0.15 0.45 0.9 1"/></material>',
        '  <material name="light_blue"><color rgba="0.45 0.7 1.0 1"/></material>',
        *([_ros2_control(robot_name, ((shoulder, shoulder_limits), (elbow, elbow_limits)))]
          if ros2_control else []),
        '</robot>',
        '',
    ])


def _link(name: str, length: float, radius: float, colour: str) -> str:
    return '\n'.join([
        f'  <link name={quoteattr(name)}>',
        _cylinder_visual(length=length, radius=radius, along_z=False, colour=colour),
        '  </link>',
    ])


def _cylinder_visual(length: float, radius: float, along_z: bool, colour: str) -> str:
    # A URDF cylinder is centred on its origin and runs along z; a link runs
    # along x from its joint, hence the half-length offset and the pitch.
    origin = '0 0 0" rpy="0 0 0' if along_z else f'{length / 2!r} 0 0" rpy="0 {math.pi / 2!r} 0'
    return '\n'.join([
        '    <visual>',
        f'      <origin xyz="{origin}"/>',
        f'      <geometry><cylinder length="{length!r}" radius="{radius!r}"/></geometry>',
        f'      <material name="{colour}"/>',
        '    </visual>',
    ])


def _ros2_control(name: str, joints: Sequence[Tuple[str, Tuple[float, float]]]) -> str:
    """Return the <ros2_control> block: mock hardware, position in and out per joint."""
    lines = [f'  <ros2_control name={quoteattr(name)} type="system">',
             '    <hardware>',
             '      <plugin>mock_components/GenericSystem</plugin>',
             '    </hardware>']
    for joint, (lower, upper) in joints:
        start = min(max(0.0, float(lower)), float(upper))  # the arm starts stretched along x
        lines += [
            f'    <joint name={quoteattr(joint)}>',
            '      <command_interface name="position">',
            f'        <param name="min">{float(lower)!r}</param>',
            f'        <param name="max">{float(upper)!r}</param>',
            '      </command_interface>',
            '      <state_interface name="position">',
            f'        <param name="initial_value">{start!r}</param>',
            '      </state_interface>',
            '    </joint>']
    lines.append('  </ros2_control>')
    return '\n'.join(lines)


def _revolute(name: str, parent: str, child: str, x: float,
              limits: Tuple[float, float], velocity: float) -> str:
    lower, upper = float(limits[0]), float(limits[1])
    return '\n'.join([
        f'  <joint name={quoteattr(name)} type="revolute">',
        f'    <parent link={quoteattr(parent)}/><child link={quoteattr(child)}/>',
        f'    <origin xyz="{x!r} 0 0" rpy="0 0 0"/>',
        '    <axis xyz="0 0 1"/>',
        f'    <limit lower="{lower!r}" upper="{upper!r}" effort="10.0" '
        f'velocity="{float(velocity)!r}"/>',
        '  </joint>',
    ])
