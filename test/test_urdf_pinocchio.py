"""
The URDF through an independent consumer, pinocchio.

Pinocchio computes the same forward kinematics robot_state_publisher does
with KDL.

For several arms, a node solves 100 targets over DDS; pinocchio, reading the
URDF ``arm_urdf`` generates for robot_state_publisher, puts the frame
``tool0`` on each target for the angles the node published.  Joint names, axes and limits
are what the parameters say.
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
from twobone_ik_ros.model.urdf import arm_urdf
from twobone_ik_ros.solver import Status, TwoBoneIK

pinocchio = pytest.importorskip('pinocchio', reason='pinocchio (PyPI pin) is a test dependency')
pytestmark = pytest.mark.ros

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
