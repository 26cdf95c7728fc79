"""
URDFs the suite writes itself: two-link arms of every convention, and ones the node refuses.

``ARMS`` holds one arm per convention a user's file may have (axes +z, -z,
+y, -y; links along z or x; a zero pose that is not along a link; a tool
plane off the base's; continuous and limited joints; prefixed names; the
arm mounted rotated and translated inside a larger tree with a link after
the tip and a third moving joint outside the chain).  ``REFUSED`` holds a
description for each way the node refuses one, with the words its error
must contain.  ``random_arm`` writes a random planar 2R arm (random
origins, parallel axes of random sign, random offsets) for property tests,
``park`` every arm in one tree, and ``pinocchio_points`` an independent
forward kinematics.  Nothing here imports the package: the URDFs are written
from the conventions, not from the code under test.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from dataclasses import dataclass, field
import math
import re


def _numbers(values):
    return ' '.join(repr(float(value)) for value in values)


@dataclass
class Urdf:
    """A URDF written link by link and joint by joint."""

    name: str = 'test_arm'
    parts: list = field(default_factory=list)

    def link(self, name, length=0.0, along='x'):
        """Add a link, with a cylinder along ``along`` of ``length`` when given (for RViz)."""
        if length:
            axis = {'x': '0 1.5707963267948966 0', 'y': '1.5707963267948966 0 0',
                    'z': '0 0 0'}[along]
            half = {'x': (length / 2, 0, 0), 'y': (0, length / 2, 0), 'z': (0, 0, length / 2)}
            self.parts.append(
                f'  <link name="{name}"><visual><origin xyz="{_numbers(half[along])}" '
                f'rpy="{axis}"/><geometry><cylinder length="{length!r}" radius="0.02"/>'
                '</geometry></visual></link>')
        else:
            self.parts.append(f'  <link name="{name}"/>')
        return self

    def joint(self, name, kind, parent, child, xyz=(0, 0, 0), rpy=(0, 0, 0), axis=None,
              limits=(-math.pi, math.pi), velocity=2.0, mimic=None):
        """Add a joint; ``limits`` None writes no <limit> (continuous), else lower and upper."""
        lines = [f'  <joint name="{name}" type="{kind}">',
                 f'    <parent link="{parent}"/>', f'    <child link="{child}"/>',
                 f'    <origin xyz="{_numbers(xyz)}" rpy="{_numbers(rpy)}"/>']
        if axis is not None:
            lines.append(f'    <axis xyz="{_numbers(axis)}"/>')
        if kind in ('revolute', 'prismatic') and limits is not None:
            lines.append(f'    <limit lower="{limits[0]!r}" upper="{limits[1]!r}" '
                         f'effort="10" velocity="{velocity!r}"/>')
        elif kind == 'continuous' and velocity:
            lines.append(f'    <limit effort="10" velocity="{velocity!r}"/>')
        if mimic:
            lines.append(f'    <mimic joint="{mimic}" multiplier="1" offset="0"/>')
        lines.append('  </joint>')
        self.parts.append('\n'.join(lines))
        return self

    def ros2_control(self, joints, starts=None):
        """Add mock hardware with a position command and state interface per joint."""
        lines = [f'  <ros2_control name="{self.name}_system" type="system">',
                 '    <hardware><plugin>mock_components/GenericSystem</plugin></hardware>']
        for index, joint in enumerate(joints):
            start = 0.0 if starts is None else starts[index]
            lines += [f'    <joint name="{joint}">',
                      '      <command_interface name="position"/>',
                      '      <state_interface name="position">',
                      f'        <param name="initial_value">{start!r}</param>',
                      '      </state_interface>', '    </joint>']
        lines.append('  </ros2_control>')
        self.parts.append('\n'.join(lines))
        return self

    def text(self):
        """Return the URDF."""
        return '\n'.join(['<?xml version="1.0"?>', f'<robot name="{self.name}">',
                          *self.parts, '</robot>', ''])


@dataclass(frozen=True)
class Arm:
    """A test arm: its URDF, the chain's ends and joints, and its links' lengths."""

    urdf: str
    base: str
    tip: str
    joints: tuple
    r1: float
    r2: float
    #: the link of the elbow joint's child (its TF is the elbow)
    elbow_link: str
    #: each joint's limits as the file gives them (None: continuous)
    limits: tuple = (None, None)


def planar_z(sign=1.0, prefix='', limits=((-2.5, 2.5), (-2.8, 2.0)), r1=0.9, r2=0.6):
    """Axes +-z, links along x: the node's own convention but for the axis' sign."""
    p = prefix
    urdf = (Urdf(f'{p}z_arm').link(f'{p}base_link').link(f'{p}upper', r1).link(f'{p}fore', r2)
            .link(f'{p}tool0')
            .joint(f'{p}shoulder', 'revolute', f'{p}base_link', f'{p}upper',
                   axis=(0, 0, sign), limits=limits[0])
            .joint(f'{p}elbow', 'revolute', f'{p}upper', f'{p}fore', xyz=(r1, 0, 0),
                   axis=(0, 0, sign), limits=limits[1])
            .joint(f'{p}tool_joint', 'fixed', f'{p}fore', f'{p}tool0', xyz=(r2, 0, 0)))
    return Arm(urdf.text(), f'{p}base_link', f'{p}tool0', (f'{p}shoulder', f'{p}elbow'),
               r1, r2, f'{p}fore', limits)


def rrbot(sign=1.0, continuous=True):
    """
    Return the ros2_control demos' RRBot layout: axes +-y, links along z, zero pose up.

    The two links hang side by side (each joint 0.1 m along y from the
    last), so the tool's plane is 0.2 m off the base's; continuous joints
    unless ``continuous`` is False.
    """
    kind = 'continuous' if continuous else 'revolute'
    limits = None if continuous else (-2.0, 2.0)
    urdf = (Urdf('rrbot').link('world').link('base_link', 2.0, 'z').link('link1', 1.0, 'z')
            .link('link2', 1.0, 'z').link('tool_link')
            .joint('fixed', 'fixed', 'world', 'base_link')
            .joint('joint1', kind, 'base_link', 'link1', xyz=(0, 0.1, 1.95),
                   axis=(0, sign, 0), limits=limits)
            .joint('joint2', kind, 'link1', 'link2', xyz=(0, 0.1, 0.9), axis=(0, sign, 0),
                   limits=limits)
            .joint('tool_joint', 'fixed', 'link2', 'tool_link', xyz=(0, 0, 1.0)))
    return Arm(urdf.text(), 'base_link', 'tool_link', ('joint1', 'joint2'), 0.9, 1.0, 'link2',
               (limits, limits))


def offset_zero():
    """Axes +z, but link 2's zero is turned 0.7 rad off link 1 by its origin's rpy."""
    urdf = (Urdf('offset_arm').link('base').link('a', 1.1).link('b', 0.5).link('tip')
            .joint('j1', 'revolute', 'base', 'a', rpy=(0, 0, 0.3), axis=(0, 0, 1),
                   limits=(-2.0, 2.0))
            .joint('j2', 'continuous', 'a', 'b', xyz=(1.1, 0, 0), rpy=(0, 0, 0.7),
                   axis=(0, 0, 1), limits=None)
            .joint('t', 'fixed', 'b', 'tip', xyz=(0.5, 0, 0.05)))
    return Arm(urdf.text(), 'base', 'tip', ('j1', 'j2'), 1.1, 0.5, 'b',
               ((-2.0, 2.0), None))


def mounted():
    """
    Return a 2R arm inside a larger tree: rotated and translated on a mount, with more beyond.

    world -> cart (a moving wheel elsewhere) and world -> mount (fixed, turned
    about all three axes) -> arm_base; the arm's joints about -x with links
    along y, the elbow's origin also turned; a link after the tip and a third
    moving joint after it (a gripper finger), outside the chain.
    """
    urdf = (Urdf('mounted').link('world').link('cart').link('wheel').link('mount')
            .link('arm_base').link('l1', 0.8, 'y').link('l2', 0.7, 'y').link('flange')
            .link('finger')
            .joint('cart_joint', 'fixed', 'world', 'cart', xyz=(0.5, 0, 0))
            .joint('wheel_joint', 'continuous', 'cart', 'wheel', axis=(0, 1, 0), limits=None)
            .joint('mount_joint', 'fixed', 'world', 'mount', xyz=(0.3, -0.4, 0.9),
                   rpy=(0.4, -0.25, 1.1))
            .joint('base_joint', 'fixed', 'mount', 'arm_base', xyz=(0.05, 0.1, 0.02),
                   rpy=(0, 0, -0.6))
            .joint('a1', 'revolute', 'arm_base', 'l1', xyz=(0.0, 0.0, 0.1), axis=(-1, 0, 0),
                   limits=(-3.0, 3.0), velocity=1.5)
            .joint('a2', 'revolute', 'l1', 'l2', xyz=(0.03, 0.8, 0.0), rpy=(0.2, 0, 0),
                   axis=(-1, 0, 0), limits=(-2.6, 2.6), velocity=2.5)
            .joint('flange_joint', 'fixed', 'l2', 'flange', xyz=(0.02, 0.7, 0.0))
            .joint('finger_joint', 'prismatic', 'flange', 'finger', axis=(0, 0, 1),
                   limits=(0.0, 0.04)))
    return Arm(urdf.text(), 'arm_base', 'flange', ('a1', 'a2'), 0.8, 0.7, 'l2',
               ((-3.0, 3.0), (-2.6, 2.6)))


#: name -> the arm (a function, so that each test gets a fresh one)
ARMS = {
    'z axes, links along x': lambda: planar_z(1.0),
    'minus z axes': lambda: planar_z(-1.0),
    'y axes, links along z, tool plane off (RRBot)': lambda: rrbot(1.0),
    'minus y axes, limited': lambda: rrbot(-1.0, continuous=False),
    'zero pose off link 1 (origin rpy)': offset_zero,
    'prefixed names': lambda: planar_z(1.0, prefix='left_'),
    'mounted in a larger tree': mounted,
}


def _two_joints(extra):
    urdf = (Urdf('refused').link('base').link('a').link('b').link('tip')
            .joint('j1', 'revolute', 'base', 'a', axis=(0, 0, 1))
            .joint('j2', 'revolute', 'a', 'b', xyz=(1, 0, 0), axis=(0, 0, 1))
            .joint('t', 'fixed', 'b', 'tip', xyz=(0.5, 0, 0)))
    for part in extra:
        urdf.parts.append(part)
    return urdf


def _refused(kind='revolute', axis2=(0, 0, 1), length2=(0.5, 0, 0), third=None, mimic=None):
    urdf = (Urdf('refused').link('base').link('a').link('b').link('c').link('tip')
            .joint('j1', 'revolute', 'base', 'a', axis=(0, 0, 1))
            .joint('j2', kind, 'a', 'b', xyz=(1, 0, 0), axis=axis2, mimic=mimic)
            .joint('j3', third or 'fixed', 'b', 'c', xyz=(0.3, 0, 0), axis=(0, 0, 1))
            .joint('t', 'fixed', 'c', 'tip', xyz=length2))
    return urdf.text()


#: name -> (description, tip_link, words its error must contain)
REFUSED = {
    'no such link': (_two_joints([]).text(), 'hand', ['no link', 'hand']),
    'one moving joint': (_refused(kind='fixed'), 'tip', ['1 moving joint', 'j1']),
    'three moving joints': (_refused(third='revolute'), 'tip', ['3 moving joints', 'j3']),
    'a prismatic joint': (_refused(kind='prismatic'), 'tip', ['j2', 'prismatic']),
    'a floating joint': (_refused(kind='floating'), 'tip', ['j2', 'floating']),
    'axes not parallel': (_refused(axis2=(0, 1, 0)), 'tip', ['j1', 'j2', 'not parallel']),
    'a link of zero length': (_refused(length2=(-0.3, 0, 0.4)), 'tip',
                              ['zero length', 'j2']),
    'XML that does not parse': ('<robot name="x"><link name="base"></robot>', 'tip',
                                ['not well-formed']),
    'a mimic joint': (_refused(mimic='j1'), 'tip', ['j2', 'mimic']),
}


def random_arm(rng):
    """
    Return a random planar 2R arm (an ``Arm``): random origins, parallel axes, signs, offsets.

    The shoulder's axis is a random direction in the base frame, reached
    through a fixed joint with a random rpy; the elbow's axis is the same
    line's direction (either sign) seen through another random rpy; every
    origin has a random part along the axis too (the tool's plane off the
    base's), and a fixed joint with a random rotation ends the chain.
    """
    def unit():
        while True:
            w = [rng.uniform(-1, 1) for _ in range(3)]
            norm = math.sqrt(sum(c * c for c in w))
            if 0.2 < norm <= 1.0:
                return [c / norm for c in w]

    def rpy():
        return [rng.uniform(-math.pi, math.pi), rng.uniform(-1.4, 1.4),
                rng.uniform(-math.pi, math.pi)]

    def rotation(angles):
        r, p, y = angles
        cr, sr, cp, sp, cy, sy = (math.cos(r), math.sin(r), math.cos(p), math.sin(p),
                                  math.cos(y), math.sin(y))
        return [[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                [-sp, cp * sr, cp * cr]]

    def times_transposed(m, w):  # m^T w: a vector of the parent frame in the child's
        return [sum(m[row][col] * w[row] for row in range(3)) for col in range(3)]

    def cross(a, b):
        return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]

    # in the shoulder's frame (its axis a1): the elbow's offset across the axis and along it
    a1 = unit()
    across = unit()
    across = cross(a1, across)  # perpendicular to a1
    norm = math.sqrt(sum(c * c for c in across))
    across = [c / norm for c in across]
    r1 = rng.uniform(0.2, 2.0)
    along = rng.uniform(-0.3, 0.3)
    elbow_xyz = [r1 * c + along * a for c, a in zip(across, a1)]
    elbow_rpy = rpy()
    # the elbow's axis, written in its own (turned) frame: the same line, either sign
    sign = rng.choice([1.0, -1.0])
    a2 = times_transposed(rotation(elbow_rpy), [sign * c for c in a1])
    # link 2 in the elbow's frame: across its axis, with a part along it
    other = cross(a2, unit())
    norm = math.sqrt(sum(c * c for c in other))
    r2 = rng.uniform(0.2, 2.0)
    along = rng.uniform(-0.3, 0.3)
    tip_xyz = [r2 * c / norm + along * a for c, a in zip(other, a2)]
    limits = rng.choice([None, (-math.pi, math.pi), (-2.9, 2.7)])
    kind = 'continuous' if limits is None else 'revolute'
    urdf = (Urdf('random').link('root').link('base').link('l1').link('l2').link('tool')
            .joint('mount', 'fixed', 'root', 'base',
                   xyz=[rng.uniform(-1, 1) for _ in range(3)], rpy=rpy())
            .joint('q1', kind, 'base', 'l1', xyz=[rng.uniform(-0.5, 0.5) for _ in range(3)],
                   rpy=rpy(), axis=times_transposed(rotation([0, 0, 0]), a1), limits=limits)
            .joint('q2', kind, 'l1', 'l2', xyz=elbow_xyz, rpy=elbow_rpy, axis=a2,
                   limits=limits)
            .joint('flange', 'fixed', 'l2', 'tool', xyz=tip_xyz, rpy=rpy()))
    return Arm(urdf.text(), 'base', 'tool', ('q1', 'q2'), r1, r2, 'l2', (limits, limits))


_NAMED = re.compile(r'\b(name|link|joint)="([^"]*)"')


def prefixed(arm, prefix):
    """Return the URDF's body (no <robot>) and the arm with every link and joint name prefixed."""
    body = arm.urdf.split('\n', 2)[2].rsplit('</robot>', 1)[0]
    body = _NAMED.sub(lambda match: f'{match.group(1)}="{prefix}{match.group(2)}"', body)
    names = {'base': prefix + arm.base, 'tip': prefix + arm.tip,
             'joints': tuple(prefix + joint for joint in arm.joints),
             'elbow_link': prefix + arm.elbow_link}
    return body, Arm(arm.urdf, r1=arm.r1, r2=arm.r2, limits=arm.limits, **names)


def park(shift='0.0'):
    """
    Return (URDF, arms): every arm of ``ARMS`` in one tree, side by side, and its mock hardware.

    Each arm's names are prefixed ``a<i>_``, its root fixed to ``world`` 4 m
    further along y than the last (the first at x = ``shift``: a xacro
    argument's place, ``park_xacro``).  One mock_components/GenericSystem
    has a position interface for each arm's two joints.  The arms returned
    name their links and joints as the park does.
    """
    parts, arms, joints = ['  <link name="world"/>'], {}, []
    for index, (name, factory) in enumerate(ARMS.items()):
        body, arm = prefixed(factory(), f'a{index}_')
        root = re.search(r'<link name="([^"]*)"', body).group(1)
        x = shift if index == 0 else '0.0'
        parts += [body, f'  <joint name="a{index}_park" type="fixed"><parent link="world"/>'
                  f'<child link="{root}"/><origin xyz="{x} {4.0 * index!r} 0" rpy="0 0 0"/>'
                  '</joint>']
        arms[name] = arm
        joints += arm.joints
    control = Urdf('park').ros2_control(joints).parts[0]
    return '\n'.join(['<?xml version="1.0"?>', '<robot name="park" '
                      'xmlns:xacro="http://www.ros.org/wiki/xacro">', *parts, control,
                      '</robot>', '']), arms


def park_xacro():
    """Return the park as a xacro file whose first arm sits at x = the argument ``shift``."""
    text, _ = park('$(arg shift)')
    return text.replace('<link name="world"/>',
                        '<xacro:arg name="shift" default="0.0"/>\n  <link name="world"/>', 1)


def park_controllers(arms):
    """
    Return a ros2_control controllers file for the park, as a dict for YAML.

    ``park_trajectory``: one joint_trajectory_controller over every arm's
    joints that takes goals for some of them (the IK node names its two);
    ``park_forward_<i>``: one forward_command_controller per arm.
    """
    joints = [joint for arm in arms.values() for joint in arm.joints]
    broadcaster = 'joint_state_broadcaster/JointStateBroadcaster'
    manager = {'update_rate': 100,
               'joint_state_broadcaster': {'type': broadcaster},
               'park_trajectory': {
                   'type': 'joint_trajectory_controller/JointTrajectoryController'}}
    sections = {'/**/park_trajectory': {'ros__parameters': {
        'joints': joints, 'command_interfaces': ['position'], 'state_interfaces': ['position'],
        'allow_partial_joints_goal': True, 'open_loop_control': True,
        'interpolate_from_desired_state': True}}}
    for index, arm in enumerate(arms.values()):
        manager[f'park_forward_{index}'] = {
            'type': 'forward_command_controller/ForwardCommandController'}
        sections[f'/**/park_forward_{index}'] = {'ros__parameters': {
            'joints': list(arm.joints), 'interface_name': 'position'}}
    return {'/**/controller_manager': {'ros__parameters': manager}, **sections}


def pinocchio_points(model, data, arm, positions):
    """
    Return the elbow link's and the tip's positions in the arm's base frame, by pinocchio.

    ``model`` and ``data`` are pinocchio's of the arm's URDF; ``positions``
    its two joints', set as pinocchio sets each kind of joint (a continuous
    one as its cosine and sine).
    """
    import pinocchio
    q = pinocchio.neutral(model)
    for name, angle in zip(arm.joints, positions):
        joint = model.joints[model.getJointId(name)]
        if joint.nq == 2:
            q[joint.idx_q:joint.idx_q + 2] = (math.cos(angle), math.sin(angle))
        else:
            q[joint.idx_q] = angle
    pinocchio.framesForwardKinematics(model, data, q)
    base = data.oMf[model.getFrameId(arm.base)]
    return tuple(tuple(base.actInv(data.oMf[model.getFrameId(link)].translation))
                 for link in (arm.elbow_link, arm.tip))
