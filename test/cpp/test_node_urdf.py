"""
A user's arm from its URDF, on the graph: the real robot_state_publisher and controller_manager.

Every arm of ``urdf_arms`` stands in one tree, the park (prefixed names, one
mock hardware system), launched as a user launches theirs: a xacro file with
an argument (``description_file``, ``description_args``) and ``tip_link``.
The node is moved from arm to arm at runtime (``tip_link`` and
``base_frame`` set together).  For each arm, targets are made from random
joint positions within the limits by pinocchio's forward kinematics, then
moved off the tool's plane along the joints' axis: the tip's TF, as the
real robot_state_publisher publishes it for the node's answer (or for the
arm's measured state under the real controllers), must land on the point
pinocchio gave.  Also: a new description at runtime, and each description
the node cannot use, refused while the node goes on.
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
import time

from geometry_msgs.msg import PointStamped
from parts import CONTROLLED_ARM, marks
import pytest
from rclpy.qos import DurabilityPolicy, QoSProfile
from rclpy.time import Time
from ros_harness import assert_stopped, NodeProcess, unique_name
from std_msgs.msg import String
from twobone_ik_ros.model.config import validate
from twobone_ik_ros.model.parameter_table import DEFAULTS
from urdf_arms import park, park_controllers, park_xacro, pinocchio_points, REFUSED
import yaml

pinocchio = pytest.importorskip('pinocchio', reason='pinocchio (PyPI pin) is a test dependency')
pytestmark = [pytest.mark.ros, *marks(*CONTROLLED_ARM, 'tf2')]

#: targets per arm
TARGETS = 6
#: the tip on the target, by robot_state_publisher's TF (m): the node's display, the controllers'
ON_TARGET, ON_TARGET_CONTROLLED = 1e-9, 1e-6
SHIFT = 0.25  # the xacro argument: the first arm's place along x


class Pinocchio:
    """Forward kinematics of a URDF by pinocchio: the tool where the joints put it."""

    def __init__(self, urdf):
        """Build the model once."""
        self.model = pinocchio.buildModelFromXML(urdf)
        self.data = self.model.createData()

    def points(self, arm, positions):
        """Return the elbow link's and the tip's positions in the arm's base frame."""
        return pinocchio_points(self.model, self.data, arm, positions)


def targets(arm, urdf, fk, rng, count=TARGETS):
    """
    Return ``count`` (target, where the tip must go): pinocchio's tip at random joint positions.

    Each target is moved off the tool's plane along the joints' axis (that part
    plays no part).  The positions are drawn within the joints' limits, away
    from the links being folded or stretched.
    """
    config = validate(dict(DEFAULTS, base_frame=arm.base, tip_link=arm.tip), urdf)
    bounds = [(-3.0, 3.0) if limits is None else (max(limits[0], -3.0), min(limits[1], 3.0))
              for limits in arm.limits]
    chosen = []
    while len(chosen) < count:
        positions = [rng.uniform(low, high) for low, high in bounds]
        if abs(math.sin(config.arm.planar(*positions)[1])) < 0.2:
            continue  # near a boundary of the workspace: a clamp's rounding would show
        tip = fk.points(arm, positions)[1]
        off = rng.uniform(-1.0, 1.0)
        target = tuple(p + off * n for p, n in zip(tip, config.arm.n))
        chosen.append((target, tip))
    return chosen


def frames(namespace, arm):
    """Return the TF frames of the arm's base, elbow link and tip (prefixed '<namespace>/')."""
    return tuple(f'{namespace}/{link}' for link in (arm.base, arm.elbow_link, arm.tip))


def point_at(viewer, base, link, stamp, timeout=10.0):
    """Return ``link``'s origin in ``base`` from tf2 at ``stamp`` (robot_state_publisher's)."""
    buffer = viewer.tf_buffer
    assert viewer.spin_until(lambda: buffer.can_transform(base, link, stamp), timeout), \
        f'no transform {base} -> {link} at {stamp}'
    translation = buffer.lookup_transform(base, link, stamp).transform.translation
    return translation.x, translation.y, translation.z


def switch_arm(viewer, arm):
    """Point the node at another arm of the park: tip_link and base_frame in one change."""
    results = viewer.set_parameters(base_frame=arm.base, tip_link=arm.tip)
    assert all(result.successful for result in results), results
    viewer.diagnostics_when(lambda values: values.get('arm.problem') == 'none'
                            and f'-> {arm.tip} ' in values.get('arm', ''))


@pytest.fixture
def park_launch(tmp_path, launches, probe):
    """Launch the park from a xacro file (twobone_ik.launch.py); return namespace, viewer, arms."""
    xacro_file = tmp_path / 'park.urdf.xacro'
    xacro_file.write_text(park_xacro())
    params = tmp_path / 'params.yaml'
    params.write_text(yaml.safe_dump({'/**': {'ros__parameters': {'joint_state_rate': 0.0}}}))
    namespace = unique_name('park')
    _, arms = park()
    first = next(iter(arms.values()))
    launches('twobone_ik.launch.py', f'namespace:={namespace}', f'description_file:={xacro_file}',
             f'description_args:=shift:={SHIFT}', f'tip_link:={first.tip}',
             f'base_frame:={first.base}', f'params_file:={params}')
    viewer = probe(namespace=f'/{namespace}', tf=True)
    viewer.wait_for_node(timeout=60.0)
    return namespace, viewer, arms


def test_every_arm_puts_its_tip_on_each_target_by_robot_state_publishers_tf(park_launch):
    namespace, viewer, arms = park_launch
    urdf, _ = park(repr(SHIFT))
    fk = Pinocchio(urdf)
    rng = random.Random('park')
    publisher = viewer.target_pub
    stamp_ns = time.time_ns()
    worst = 0.0
    # the first answer is sent again until it comes back as TF: the node seeing
    # the viewer (wait_for_node) does not mean robot_state_publisher sees the
    # node's joint_states yet (Kilted CI, busy: the first answer lost)
    heard = False
    for name, arm in arms.items():
        switch_arm(viewer, arm)
        base, elbow_link, tip = frames(namespace, arm)
        for target, expected in targets(arm, urdf, fk, rng):
            for attempt in range(1 if heard else 6):
                stamp_ns += 200_000_000  # robot_state_publisher takes one state per 50 ms
                msg = PointStamped()
                msg.header.frame_id = base  # TF's name of the base link (the namespace's prefix)
                msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(stamp_ns, 1_000_000_000)
                msg.point.x, msg.point.y, msg.point.z = target
                publisher.publish(msg)
                stamp = Time(nanoseconds=stamp_ns)
                if heard or viewer.spin_until(
                        lambda: viewer.tf_buffer.can_transform(base, tip, stamp), 10.0):
                    break
            heard = True
            at = point_at(viewer, base, tip, stamp)
            worst = max(worst, math.dist(at, expected))
            assert math.dist(at, expected) <= ON_TARGET, (name, target, at, expected)
            elbow = next((m for m in viewer.elbows if m.header.stamp == msg.header.stamp), None)
            if elbow is not None:  # the node publishes elbow while someone subscribes
                assert math.dist((elbow.point.x, elbow.point.y, elbow.point.z),
                                 point_at(viewer, base, elbow_link, stamp)) <= ON_TARGET
    print(f'joint_states: worst tip error {worst:.3g} m over {len(arms)} arms')
    assert viewer.elbows, 'the node published no elbow'
    values = viewer.latest_diagnostics()[1]
    assert values['internal_errors'] == '0' and values['rejected'] == '0', values


def test_a_new_description_at_runtime_is_the_arm_from_then_on(park_launch):
    namespace, viewer, arms = park_launch
    arm = next(iter(arms.values()))  # its elbow 0.9 m out: reach 1.5 m
    switch_arm(viewer, arm)
    urdf, _ = park(repr(SHIFT))
    assert urdf.count('xyz="0.9 0.0 0.0"') >= 1
    longer = urdf.replace('xyz="0.9 0.0 0.0"', 'xyz="1.2 0.0 0.0"', 1)  # reach 1.8 m
    changed = validate(dict(DEFAULTS, base_frame=arm.base, tip_link=arm.tip), longer)
    assert changed.arm.r1 == pytest.approx(1.2)
    goal = (1.6, 0.3)  # beyond the old reach, within the new
    started = time.monotonic()
    result = viewer.set_parameters(node_name=f'/{namespace}/robot_state_publisher',
                                   robot_description=longer)
    assert result[0].successful, result
    first, stamp_id = None, 1000
    while first is None and time.monotonic() - started < 20.0:
        stamp_id += 1
        answer = viewer.solve(*goal, stamp_id, frame_id=f'{namespace}/{arm.base}', timeout=0.05)
        if answer is not None and math.dist(changed.solver.forward(*answer.position)[1],
                                            goal) < 1e-9:
            first = time.monotonic() - started
    assert first is not None, 'the node did not take the new description'
    print(f'a new description to the first answer on it: {first * 1000:.0f} ms')


def test_each_description_it_cannot_use_is_refused_and_it_goes_on(tmp_path, probe):
    namespace = '/' + unique_name('refuse')
    node = NodeProcess('twobone_ik_ros.node.node', ros_args=[
        '-r', f'__ns:={namespace}', '-p', 'tip_link:=tip', '-p', 'base_frame:=base',
        '-p', "robot_state_publisher:=''"])
    viewer = probe(namespace=namespace)
    try:
        descriptions = viewer.node.create_publisher(
            String, f'{namespace}/robot_description',
            QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL))
        viewer.wait_for_node()
        good, _, _ = REFUSED['no such link']  # the same tree, asked for another tip
        stamp = 0
        for name, (description, tip, words) in [('none yet', (None, 'tip', ['no robot_'])),
                                                *REFUSED.items()]:
            if description is not None:
                assert viewer.set_parameters(tip_link=tip)[0].successful
                descriptions.publish(String(data=description))
            values = viewer.diagnostics_when(
                lambda values: all(word in values.get('arm.problem', '') for word in words))
            before = int(values['rejected.no_arm'])
            stamp += 1
            assert viewer.solve(1.0, 0.3, stamp, frame_id='base', timeout=1.0) is None
            values = viewer.diagnostics_when(
                lambda values: int(values['rejected.no_arm']) == before + 1)
            assert values['internal_errors'] == '0', (name, values)
            # a usable one after it: the node takes it and answers
            assert viewer.set_parameters(tip_link='tip')[0].successful
            descriptions.publish(String(data=good))
            viewer.diagnostics_when(lambda values: values.get('arm.problem') == 'none')
            stamp += 1
            assert viewer.solve(1.0, 0.3, stamp, frame_id='base') is not None, name
        # a tip_link the description does not have: held as its problem, until changed back
        assert viewer.set_parameters(tip_link='nowhere')[0].successful
        viewer.diagnostics_when(lambda values: "no link 'nowhere'" in values['arm.problem'])
        stamp += 1
        assert viewer.solve(1.0, 0.3, stamp, frame_id='base', timeout=1.0) is None
        assert viewer.set_parameters(tip_link='tip')[0].successful
        stamp += 1
        assert viewer.solve(1.0, 0.3, stamp, frame_id='base') is not None
    finally:
        viewer.close()
        assert node.stop() == 0, node.output()
    output = node.output()
    assert 'robot_description cannot be used' in output and 'Traceback' not in output


@pytest.fixture
def park_control(tmp_path, controlled_arm):
    """Launch the park by control.launch.py (its controllers file, trajectories first)."""
    urdf, arms = park()
    description = tmp_path / 'park.urdf'
    description.write_text(urdf)
    controllers = tmp_path / 'park_controllers.yaml'
    controllers.write_text(yaml.safe_dump(park_controllers(arms)))
    first = next(iter(arms.values()))
    arm = controlled_arm('joint_trajectory', {'max_joint_velocity': 4.0,
                                              'max_joint_acceleration': 20.0},
                         arguments=[f'description_file:={description}', f'tip_link:={first.tip}',
                                    f'base_frame:={first.base}',
                                    f'controllers_file:={controllers}',
                                    'controller:=park_trajectory', 'rviz:=false'],
                         controller='park_trajectory', joints=first.joints, tf=True)
    return arm, urdf, arms


_stamps = iter(range(5000, 10_000_000))


def reach(viewer, publisher, reached, target, frame_id, timeout=30.0):
    """
    Send ``target`` until a ``reached`` answers it (the measured arm is there).

    Sent again, newly stamped, after 5 s unanswered: a command published while
    the controller's subscription was still being matched reaches nobody.
    """
    deadline = time.monotonic() + timeout
    while True:
        stamp = next(_stamps)
        msg = PointStamped()
        msg.header.frame_id = frame_id
        msg.header.stamp.sec = stamp
        msg.point.x, msg.point.y, msg.point.z = target
        publisher.publish(msg)
        if viewer.spin_until(lambda: any(m.header.stamp.sec == stamp for m in reached),
                             max(0.0, min(5.0, deadline - time.monotonic()))):
            return
        assert time.monotonic() < deadline, f'{target} was not reached'


def tip_on(viewer, base, tip, expected, timeout=10.0):
    """
    Return the tip's latest TF once it is within ON_TARGET_CONTROLLED of ``expected`` and still.

    HoldStill: the same for 0.3 s (robot_state_publisher publishes the measured
    arm 20 times a second), so what is returned is where the arm ended.
    """
    at = [None]
    since = [time.monotonic()]

    def settled():
        now = point_at(viewer, base, tip, Time())
        if now != at[0]:
            at[0], since[0] = now, time.monotonic()
        return (math.dist(now, expected) <= ON_TARGET_CONTROLLED
                and time.monotonic() - since[0] >= 0.3)
    assert viewer.spin_until(settled, timeout), (at[0], expected)
    return at[0]


def test_the_real_controllers_put_every_arms_tip_on_its_targets(park_control):
    controlled, urdf, arms = park_control
    fk = Pinocchio(urdf)
    rng = random.Random('controllers')
    viewer = controlled.probe
    worst = {'joint_trajectory': 0.0, 'forward_command': 0.0}
    for arm in arms.values():  # the park's one trajectory controller, goals for two joints
        switch_arm(viewer, arm)
        base, _, tip = frames(controlled.name, arm)
        for target, expected in targets(arm, urdf, fk, rng, 3):
            reach(viewer, viewer.target_pub, controlled.reached, target, base)
            at = tip_on(viewer, base, tip, expected)
            worst['joint_trajectory'] = max(worst['joint_trajectory'], math.dist(at, expected))
    # one forward_command_controller per arm, each driven by an IK node of its own
    controlled.load(*(f'park_forward_{index}' for index in range(len(arms))))
    controlled.switch(activate=[f'park_forward_{index}' for index in range(len(arms))],
                      deactivate=['park_trajectory'])
    nodes, inputs = [], []
    for index, arm in enumerate(arms.values()):
        nodes.append(NodeProcess('twobone_ik_ros.node.node', ros_args=[
            '-r', f'__ns:={controlled.namespace}', '-r', f'__node:=ik_{index}',
            '-r', f'commands:=park_forward_{index}/commands', '-r', f'target:=target_{index}',
            '-r', f'reached:=reached_{index}', '-p', f'tip_link:={arm.tip}',
            '-p', f'base_frame:={arm.base}', '-p', 'output:=forward_command',
            '-p', "robot_state_publisher:=''", '-p', f'frame_prefix:={controlled.name}/',
            '-p', 'max_joint_velocity:=4.0', '-p', 'max_joint_acceleration:=20.0']))
        answers = []
        viewer.node.create_subscription(PointStamped, f'{controlled.namespace}/reached_{index}',
                                        answers.append, 100)
        inputs.append((viewer.node.create_publisher(
            PointStamped, f'{controlled.namespace}/target_{index}', 100), answers))
    try:
        for (publisher, answers), arm in zip(inputs, arms.values()):
            base, _, tip = frames(controlled.name, arm)
            assert viewer.spin_until(lambda: publisher.get_subscription_count() > 0, 60.0)
            for target, expected in targets(arm, urdf, fk, rng, 3):
                reach(viewer, publisher, answers, target, base)
                at = tip_on(viewer, base, tip, expected)
                worst['forward_command'] = max(worst['forward_command'], math.dist(at, expected))
    finally:
        stopped = [(node.stop(), node) for node in nodes]  # every one, then their codes
        for code, node in stopped:
            assert_stopped(code, node.output())
    print('worst tip error by robot_state_publisher on the real controllers: '
          + ', '.join(f'{output} {error:.3g} m' for output, error in worst.items()))
