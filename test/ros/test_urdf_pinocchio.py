"""
The URDF through an independent consumer, pinocchio.

Pinocchio computes the same forward kinematics robot_state_publisher does
with KDL.

For several arms, a node solves 100 targets over DDS; pinocchio, reading the
URDF ``arm_urdf`` generates for robot_state_publisher, puts the frame
``tool0`` on each target for the angles the node published.  Joint names, axes and limits
are what the parameters say.  And the other way round, a user's arm: for every
convention of ``urdf_arms`` and 300 random 2R URDFs, the arm read from the
file (``model.planar_arm``) puts the elbow and the tip where pinocchio does,
and the solver's answers put the tip on each target's projection.
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

from helpers import random_reachable
import numpy as np
import pytest
from ros_harness import NodeProcess, Probe, unique_name
from twobone_ik_ros.model.config import validate
from twobone_ik_ros.model.parameter_table import DEFAULTS
from twobone_ik_ros.model.urdf import arm_urdf
from twobone_ik_ros.solver import Status, TwoBoneIK
from urdf_arms import ARMS as USER_ARMS, pinocchio_points, random_arm

try:
    import pinocchio
except ImportError:  # the tests here are marked pinocchio: held back where it is missing
    pinocchio = None
pytestmark = [pytest.mark.ros, pytest.mark.pinocchio]

ARMS = [(1.0, 0.7, (-math.pi, math.pi), (-math.pi, math.pi)),
        (0.35, 1.2, (-2.5, 2.0), (-math.pi, 0.0)),
        (2.0, 2.0, (-math.pi, math.pi), (-3.0, 3.0))]


@pytest.mark.parametrize('r1, r2, shoulder, elbow', ARMS)
def test_joint_names_axes_and_limits_are_the_parameters(r1, r2, shoulder, elbow):
    model = pinocchio.buildModelFromXML(arm_urdf(r1, r2, ('hip', 'knee'), shoulder, elbow,
                                                 'arm_base'))
    assert list(model.names)[1:] == ['hip', 'knee'] and model.nq == 2
    assert [joint.shortname() for joint in model.joints][1:] == ['JointModelRZ'] * 2
    assert list(model.lowerPositionLimit) == [shoulder[0], elbow[0]]
    assert list(model.upperPositionLimit) == [shoulder[1], elbow[1]]
    frames = [frame.name for frame in model.frames]
    assert {'arm_base', 'link1', 'link2', 'tool0'} <= set(frames)


@pytest.mark.parametrize('r1, r2, shoulder, elbow', ARMS)
def test_tool0_lands_on_each_target_for_the_published_angles(r1, r2, shoulder, elbow):
    model = pinocchio.buildModelFromXML(arm_urdf(r1, r2, ('hip', 'knee'), shoulder, elbow))
    data = model.createData()
    tool = model.getFrameId('tool0')
    namespace = '/' + unique_name('pinocchio')
    node = NodeProcess('twobone_ik_ros.node.node', ros_args=[
        '-r', f'__ns:={namespace}', '-p', f'r1:={r1}', '-p', f'r2:={r2}',
        '-p', 'joint_names:=[hip, knee]', '-p', f'shoulder_limits:={list(shoulder)}',
        '-p', f'elbow_limits:={list(elbow)}', '-p', 'elbow:=closest'])
    probe = Probe(namespace=namespace)
    try:
        probe.wait_for_node()
        rng = random.Random(f'pinocchio-{r1}-{r2}')
        solver = TwoBoneIK(r1, r2, shoulder_limits=shoulder, elbow_limits=elbow)
        targets = []
        while len(targets) < 100:  # reachable, and with a branch within the limits
            target = random_reachable(rng, r1, r2)
            if solver.solve(*target).status is not Status.REJECTED:
                targets.append(target)
        for stamp, target in enumerate(targets, start=1):
            answer = probe.solve(*target, stamp)
            assert answer is not None, f'no answer for {target}'
            q = np.zeros(model.nq)
            for name, angle in zip(answer.name, answer.position):
                q[model.joints[model.getJointId(name)].idx_q] = angle
            assert np.all(q >= model.lowerPositionLimit) and np.all(q <= model.upperPositionLimit)
            pinocchio.framesForwardKinematics(model, data, q)
            position = data.oMf[tool].translation
            assert math.dist(position[:2], target) <= 1e-9 * (r1 + r2)
            assert position[2] == 0.0
    finally:
        probe.close()
        node.stop()


def test_random_arms_answers_land_the_tip_on_the_target_by_pinocchio():
    """300 random 2R URDFs, 10 random reachable targets each: tip within 1e-9 m, by pinocchio."""
    rng = random.Random(55)
    arms = [factory() for factory in USER_ARMS.values()] + [random_arm(rng) for _ in range(300)]
    worst_fk = worst_target = 0.0
    for arm in arms:
        config = validate(dict(DEFAULTS, base_frame=arm.base, tip_link=arm.tip,
                               elbow=rng.choice(['up', 'down', 'closest'])), arm.urdf)
        assert not config.problem, config.problem
        planar = config.arm
        for _ in range(10):
            # a reachable point of the tool's plane, then moved off it along the axis
            radius = rng.uniform(abs(planar.r1 - planar.r2) * 1.001,
                                 (planar.r1 + planar.r2) * 0.999)
            angle = rng.uniform(-math.pi, math.pi)
            x, y = radius * math.cos(angle), radius * math.sin(angle)
            on_plane = planar.place(x, y, planar.tip_height)
            target = planar.place(x, y, planar.tip_height + rng.uniform(-2, 2))
            previous = (rng.uniform(-3, 3), rng.uniform(-3, 3))
            result = config.solver.solve(*planar.project(*target), previous)
            if result.status is Status.REJECTED:  # neither branch within the limits
                assert result.reason.label == 'joint_limits'
                continue
            elbow, tip = planar.forward(result.theta1, result.theta2)
            model = pinocchio.buildModelFromXML(arm.urdf)
            by_pinocchio = pinocchio_points(model, model.createData(), arm,
                                            (result.theta1, result.theta2))
            worst_fk = max(worst_fk, math.dist(elbow, by_pinocchio[0]),
                           math.dist(tip, by_pinocchio[1]))
            worst_target = max(worst_target, math.dist(by_pinocchio[1], on_plane))
    print(f'{len(arms)} arms: worst elbow and tip against pinocchio {worst_fk:.3g} m, '
          f'tip to the target on the plane {worst_target:.3g} m')
    assert worst_fk <= 1e-9 and worst_target <= 1e-9, (worst_fk, worst_target)
