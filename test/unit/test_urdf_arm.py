"""
A user's arm from its URDF, without ROS: the chain read, the arm derived, the refusals.

Each convention of ``urdf_arms`` gives the arm's lengths, names and limits
(the geometry is held to pinocchio in ``test_urdf_pinocchio``); the
parameters narrow the file's limits, never widen them; every refusal names
what is wrong, and the URDF reader refuses any bytes (fuzzed) with its own
error, never another.
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
import sys

from hypothesis import given, settings, strategies
import pytest
from twobone_ik_ros.model.config import validate
from twobone_ik_ros.model.parameter_table import DEFAULTS
from twobone_ik_ros.model.planar_arm import PlanarArm
from twobone_ik_ros.model.urdf import arm_urdf
from twobone_ik_ros.model.urdf_chain import DescriptionError, read_chain
from urdf_arms import ARMS, REFUSED


def arm_of(arm):
    return PlanarArm.from_chain(read_chain(arm.urdf, arm.base, arm.tip))


def configured(arm, **parameters):
    config = validate(dict(DEFAULTS, base_frame=arm.base, tip_link=arm.tip, **parameters),
                      arm.urdf)
    assert not config.problem, config.problem
    return config


@pytest.mark.parametrize('name', list(ARMS))
def test_each_convention_gives_the_arms_lengths_names_and_limits(name):
    arm = ARMS[name]()
    config = configured(arm)
    assert config.joint_names == arm.joints
    assert config.arm.r1 == pytest.approx(arm.r1, abs=1e-12)
    assert config.arm.r2 == pytest.approx(arm.r2, abs=1e-12)
    for limits, bound in zip(arm.limits, (config.shoulder_limits, config.elbow_limits)):
        expected = (-math.pi, math.pi) if limits is None else limits  # continuous: one turn
        assert (bound.lower, bound.upper) == pytest.approx(expected)


def test_the_node_own_urdf_read_back_is_the_node_own_arm_bit_for_bit():
    config = validate(dict(DEFAULTS, tip_link='tool0'), arm_urdf())
    own = validate(DEFAULTS)
    assert not config.problem and config.arm.from_description
    assert not config.solver.constants.mapped  # joints about +z, links along +x: no map
    assert (config.arm.u, config.arm.v, config.arm.n) == ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    rng = random.Random(7)
    for _ in range(1000):
        x, y = rng.uniform(-1.8, 1.8), rng.uniform(-1.8, 1.8)
        assert config.solver.solve(*config.arm.project(x, y, rng.uniform(-1, 1))) == \
            own.solver.solve(x, y)


def test_a_parameter_narrows_a_limit_of_the_file_and_never_widens_one():
    arm = ARMS['mounted in a larger tree']()  # a1 [-3, 3] at 1.5 rad/s, a2 [-2.6, 2.6] at 2.5
    config = configured(arm)
    assert config.max_joint_velocity == 1.5  # the slower joint's: both keep their own
    assert 'a1 [-3, 3] rad (urdf), 1.5 rad/s (urdf)' in config.limit_sources
    narrowed = configured(arm, shoulder_limits=[-1.0, 4.0], max_joint_velocity=0.5)
    assert (narrowed.shoulder_limits.lower, narrowed.shoulder_limits.upper) == (-1.0, 3.0)
    assert narrowed.max_joint_velocity == 0.5
    assert 'a1 [-1, 3] rad (parameter), 0.5 rad/s (parameter)' in narrowed.limit_sources
    wider = configured(arm, elbow_limits=[-3.0, 3.0], max_joint_velocity=9.0)
    assert (wider.elbow_limits.lower, wider.elbow_limits.upper) == (-2.6, 2.6)
    assert wider.max_joint_velocity == 1.5
    with pytest.raises(ValueError, match="leaves nothing of joint 'a1'"):
        validate(dict(DEFAULTS, base_frame=arm.base, tip_link=arm.tip,
                      shoulder_limits=[3.5, 4.0]), arm.urdf)


def test_a_continuous_joint_takes_the_parameter_or_one_turn():
    arm = ARMS['y axes, links along z, tool plane off (RRBot)']()
    assert 'joint1 [-3.14159265, 3.14159265] rad (default (continuous))' in \
        configured(arm).limit_sources
    turns = configured(arm, shoulder_limits=[-6.0, 6.0])
    assert turns.shoulder_limits.multi_turn and turns.shoulder_limits.upper == 6.0


@pytest.mark.parametrize('name', list(REFUSED))
def test_each_description_the_node_cannot_use_is_refused_with_what_is_wrong(name):
    description, tip, words = REFUSED[name]
    config = validate(dict(DEFAULTS, base_frame='base', tip_link=tip), description)
    assert config.problem, name
    for word in words:
        assert word in config.problem, config.problem


def test_without_a_description_the_configuration_waits_for_one():
    config = validate(dict(DEFAULTS, tip_link='tool0'))
    assert config.problem == "no robot_description yet (tip_link 'tool0')"


def test_the_solver_batch_and_scalar_agree_for_a_mapped_elbow():
    arm = arm_of(ARMS['zero pose off link 1 (origin rpy)']())
    config = configured(ARMS['zero pose off link 1 (origin rpy)'](), elbow='closest',
                        elbow_limits=[-2.0, 2.5])
    assert config.solver.constants.mapped and arm.offset == pytest.approx(0.7)
    rng = random.Random(3)
    points = [(rng.uniform(-1.8, 1.8), rng.uniform(-1.8, 1.8)) for _ in range(2000)]
    previous = (0.4, -1.1)
    batch = config.solver.solve_batch(points, previous)
    for row, point in enumerate(points):
        one = config.solver.solve(*point, previous)
        assert int(batch.status[row]) == one.status
        if one.theta1 is not None:
            assert (batch.theta1[row], batch.theta2[row]) == pytest.approx(
                (one.theta1, one.theta2), abs=1e-12)
            assert -2.0 <= one.theta2 <= 2.5


# ------------------------------------------------------------------ the reader, fuzzed

_GOOD = ARMS['mounted in a larger tree']().urdf


def _refuses_or_reads(text):
    try:
        PlanarArm.from_chain(read_chain(text, 'arm_base', 'flange'))
    except DescriptionError as error:
        assert str(error)
        return 'refused'
    return 'read'


def test_20000_mutations_of_a_urdf_are_read_or_refused_with_its_own_error():
    rng = random.Random(2026)
    outcomes = {'read': 0, 'refused': 0}
    pieces = ['<', '>', '/', '"', '=', ' ', 'joint', 'link', 'origin', 'xyz', 'rpy', 'axis',
              '1e309', 'nan', '-', '&amp;', '&x;', '<!DOCTYPE r [<!ENTITY x "y">]>', '\x00',
              '\ud800', 'revolute', 'prismatic', 'mimic', 'limit', '0 0 0']
    for _ in range(20000):
        text = list(_GOOD)
        for _ in range(rng.randint(1, 5)):
            at = rng.randrange(len(text))
            choice = rng.random()
            if choice < 0.4:
                text[at] = rng.choice(pieces)
            elif choice < 0.7:
                del text[at:at + rng.randint(1, 40)]
            else:
                text.insert(at, rng.choice(pieces))
        outcomes[_refuses_or_reads(''.join(text))] += 1
    assert outcomes['read'] and outcomes['refused'], outcomes


@settings(max_examples=500, deadline=None)
@given(strategies.text(max_size=400))
def test_any_text_is_read_or_refused_with_its_own_error(text):
    _refuses_or_reads(text)
    _refuses_or_reads('<robot name="r">' + text + '</robot>')


def test_entities_are_refused_before_they_expand():
    bomb = ('<?xml version="1.0"?><!DOCTYPE robot [<!ENTITY a "aaaaaaaaaa">'
            '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><robot name="&b;"/>')
    with pytest.raises(DescriptionError, match='entity'):
        read_chain(bomb, 'a', 'b')


def test_without_urdf_parser_py_a_description_is_refused_in_one_line(monkeypatch):
    """The display needs ROS and numpy alone; a user's arm says what to install."""
    monkeypatch.setitem(sys.modules, 'urdf_parser_py', None)  # import fails as if missing
    with pytest.raises(DescriptionError, match='needs urdf_parser_py .*urdfdom-py') as refused:
        read_chain(_GOOD, 'arm_base', 'flange')
    assert '\n' not in str(refused.value)
