"""
The parameter table is the one place of each parameter: the files and the code follow it.

``bringup.generated`` writes the parameter file, the XML launch file and
README's table from the tables; here each file in the tree must be what its
function gives (``python3 scripts/generate.py`` mends them).  The table's
other columns are held against the code: its fields are ``IKConfig``'s and
the solver's, and what it says a runtime change does is what the code does
(a change of a MODEL parameter, and of no other, changes the URDF; of a
LIMITS parameter, and of no other, the limits a move is planned within).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import dataclasses
import os

from helpers import ROOT
from parts import marks
import pytest
from twobone_ik_ros.bringup.generated import FILES
from twobone_ik_ros.model.checks import InRange, OneOf
from twobone_ik_ros.model.config import IKConfig, validate
from twobone_ik_ros.model.parameter_table import (
    DEFAULTS, DESCRIPTION_PARAMETERS, MODEL_PARAMETERS, PARAMETERS, Runtime, SOLVER_PARAMETERS)
from twobone_ik_ros.model.urdf import config_urdf
from twobone_ik_ros.outputs.base import arm_limits

#: a valid value other than the default, where the check does not give one (``changed``)
CHANGED = {
    'r1': 1.5, 'r2': 0.5, 'base_frame': 'base', 'frame_prefix': 'left/',
    'joint_names': ['a', 'b'], 'shoulder_limits': [-1.0, 1.0], 'elbow_limits': [-2.0, 2.0],
    'robot_state_publisher': 'rsp', 'tip_link': 'tool0',
}


def changed(spec):
    """Return a valid value of ``spec`` other than its default."""
    check = spec.check
    if isinstance(check, InRange):
        return (check.low + check.high) / 2.0
    if isinstance(check, OneOf):
        return next(choice for choice in check.choices if choice != spec.default)
    return CHANGED[spec.name]


#: the files made (in part) from twobone_ik.launch.py's arguments, read with the launch library
FROM_THE_LAUNCH_FILE = ('launch/twobone_ik.launch.xml', 'README.md')


@pytest.mark.parametrize('name', [
    pytest.param(name, marks=marks('ros_launch') if name in FROM_THE_LAUNCH_FILE else ())
    for name in FILES])
def test_each_generated_file_is_what_its_table_gives(name):
    with open(os.path.join(ROOT, name), encoding='utf-8') as current:
        text = current.read()
    assert FILES[name](text) == text, f'{name} lags its table: run python3 scripts/generate.py'


def test_the_tables_rows_are_the_configurations_fields():
    derived = {'solver', 'arm', 'values', 'problem', 'limit_sources'}  # not parameters
    fields = {field.name for field in dataclasses.fields(IKConfig)} - derived
    assert sorted(fields | set(SOLVER_PARAMETERS)) == sorted(spec.name for spec in PARAMETERS)


def test_every_default_is_valid_and_each_row_round_trips():
    config = validate(DEFAULTS)
    assert config.as_parameters() == DEFAULTS
    for spec in PARAMETERS:
        value = changed(spec)
        assert value != spec.default
        after = validate(dict(DEFAULTS, **{spec.name: value})).as_parameters()
        assert after == dict(config.as_parameters(), **{spec.name: value}), spec.name


@pytest.mark.parametrize('spec', PARAMETERS, ids=lambda spec: spec.name)
def test_what_the_table_says_a_runtime_change_does_is_what_the_code_does(spec):
    before = validate(DEFAULTS)
    after = validate(dict(DEFAULTS, **{spec.name: changed(spec)}))
    model = config_urdf(before) != config_urdf(after) or before.frame_prefix != after.frame_prefix
    assert model == (Runtime.MODEL in spec.runtime) == (spec.name in MODEL_PARAMETERS)
    assert (arm_limits(before) != arm_limits(after)) == (Runtime.LIMITS in spec.runtime)
    assert (before.output != after.output) == (Runtime.OUTPUT in spec.runtime)
    assert (Runtime.DESCRIPTION in spec.runtime) == (spec.name in DESCRIPTION_PARAMETERS)
    if spec.name in DESCRIPTION_PARAMETERS:  # the chain read from robot_description changes
        urdf = config_urdf(before)
        chain = dict(DEFAULTS, tip_link='tool0')
        if spec.name == 'tip_link':  # the node's own arm, then the same arm read from its URDF
            assert validate(chain, urdf).arm != before.arm
        else:  # a chain that starts at another link is another arm (and here: none at all)
            assert validate(dict(chain, base_frame='link1'), urdf).arm != \
                validate(chain, urdf).arm


def test_every_output_and_part_of_the_node_has_its_row_in_the_interface():
    """The topics the outputs name (``Output.topic``) are rows of ``model.interface``."""
    from twobone_ik_ros.model.interface import endpoint, INTERFACE, Output, Role
    for output in Output:
        role = Role.SENDS_GOALS if output is Output.FOLLOW_JOINT_TRAJECTORY else Role.PUBLISHES
        assert endpoint(output.topic, role).type.split('/')[0] in (
            'sensor_msgs', 'std_msgs', 'trajectory_msgs', 'control_msgs'), output
    assert len({(row.name, row.role) for row in INTERFACE}) == len(INTERFACE)
