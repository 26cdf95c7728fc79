"""
A parameter file as the launch reads it, held against what rclpy hands a node started with it.

``bringup.parameter_file`` reads the file the way rcl does, so that the
launch validates (and passes on) the values the node will run with.  The
judge is the real thing: rclpy initialised with ``--params-file`` and a node
of each namespace, whose overrides are rcl's parsing and rclpy's matching.
Files are generated from the key forms rcl accepts (and some it refuses),
in random orders and nestings, with values whose type rcl decides by its
own rules rather than YAML's.
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

import pytest
from rclpy_parameters import readings
from twobone_ik_ros.bringup.launch_config import LaunchError, read_parameter_file
from twobone_ik_ros.bringup.parameter_file import ParameterFileError, parameters_for, parse

pytestmark = pytest.mark.ros

NODE = 'twobone_ik'
NAMESPACES = ('', 'arm', 'left/arm')
#: section names: every form rcl accepts for some node, {ns} the namespace of the case
ACCEPTED = ('/**', '/*', '/**/twobone_ik', '**/twobone_ik', '/*/twobone_ik', 'twobone_ik',
            '/twobone_ik', '{ns}/twobone_ik', '/{ns}/twobone_ik', '/{ns}/*', '/{ns}/**',
            '/{ns}/**/twobone_ik', '/**/*', '/**/other', '/*/*/twobone_ik', '/left/**',
            '/**/arm/twobone_ik')
#: values whose type rcl decides otherwise than YAML would (or the same, as a control)
SCALARS = ('2.0', '2', '1e3', '010', '0x1A', '08', 'yes', 'off', 'Y', 'inf', '-.inf', '.nan',
           '"2.0"', "'yes'", 'down', '1_000', '+7', '-0', '0x1p3', '1e999', '.5', '5.', 'null',
           '~', 'True', 'NO')
#: files rcl refuses: the node would not start, so the launch must refuse them too
REFUSED = (
    'twobone_*:\n  ros__parameters:\n    r1: 2.0\n',
    '/arm*/twobone_ik:\n  ros__parameters:\n    r1: 2.0\n',
    '/**:\n  ros__parameters:\n    limits: [1, 2.0]\n',
    '/**:\n  ros__parameters:\n    r1:\n',
    '/**:\n  r1: 2.0\n',
    'ros__parameters:\n  r1: 2.0\n',
    '/**:\n  ros__parameters: &a\n    r1: 2.0\n/x:\n  ros__parameters: *a\n',
    '/a//b:\n  ros__parameters:\n    r1: 2.0\n',
    '/1arm/twobone_ik:\n  ros__parameters:\n    r1: 2.0\n',
    '/arm/:\n  ros__parameters:\n    r1: 2.0\n',
    '**/twobone_ik:\n  ros__parameters:\n    r1: 2.0\n',
    '/**:\n  ros__parameters:\n',
)


def section_text(name, parameters, nested):
    """Write one section, its name nested one key per token when ``nested``."""
    body = ''.join(f'{key}: {value}\n' for key, value in parameters)
    name = name.strip('"')
    tokens = name.strip('/').split('/') if nested and name.count('/') > 1 else [name]
    if nested and name.startswith('/') and tokens != [name]:
        tokens[0] = '/' + tokens[0]
    # a key that starts with '*' would be a YAML alias: such keys are quoted
    tokens = [f'"{token}"' if token.startswith('*') else token for token in tokens]
    lines, indent = [], ''
    for token in tokens:
        lines.append(f'{indent}{token}:')
        indent += '  '
    lines.append(f'{indent}ros__parameters:')
    lines += [f'{indent}  {line}' for line in body.splitlines()]
    return '\n'.join(lines) + '\n'


def generated_files(count, seed=65):
    """Return ``count`` parameter files: a few sections each, in random order and form."""
    rng = random.Random(seed)
    files = []
    for index in range(count):
        namespace = rng.choice(NAMESPACES[1:])
        names = rng.sample(ACCEPTED, rng.randint(1, 4))
        text = ''
        for order, name in enumerate(names):
            parameters = [('r1', f'{order + 1}.5'), ('order', str(order))]
            if rng.random() < 0.5:
                parameters.append((f'value_{order}', rng.choice(SCALARS)))
            if rng.random() < 0.2:
                parameters.append(('limits', rng.choice(('[-1.0, 2.5]', '[1, 2]', "['a', b]"))))
            text += section_text(name.format(ns=namespace), parameters,
                                 nested=rng.random() < 0.3)
        files.append(text)
    return files


def rclpy_reading(path, namespaces):
    """Return {namespace: parameters} rclpy gives a node started with ``path``, or None."""
    return readings([path], namespaces)[0]


def comparable(value):
    """Return ``value`` as both sides can compare it: NaN equal to itself, arrays as lists."""
    if isinstance(value, float) and math.isnan(value):
        return 'nan'
    if isinstance(value, (list, tuple)) or type(value).__name__ == 'array':
        return [comparable(item) for item in value]
    return value


def test_generated_files_read_as_rclpy_hands_them_to_the_node(tmp_path):
    files = generated_files(60)
    paths = []
    for index, text in enumerate(files):
        paths.append(tmp_path / f'p{index}.yaml')
        paths[-1].write_text(text)
    checked = refused = 0
    for text, expected in zip(files, readings(paths, NAMESPACES)):
        try:
            sections = parse(text)
        except ParameterFileError:
            assert expected is None, f'refused a file rclpy reads:\n{text}'
            refused += 1
            continue
        assert expected is not None, f'read a file rclpy refuses:\n{text}'
        for namespace in NAMESPACES:
            ours = {k: comparable(v) for k, v in parameters_for(sections, NODE, namespace).items()}
            theirs = {k: comparable(v) for k, v in expected[namespace].items()}
            assert ours == theirs, f'namespace {namespace!r}:\n{text}'
            checked += 1
    assert checked >= 100, (checked, refused)


@pytest.mark.parametrize('text', REFUSED)
def test_a_file_rcl_refuses_is_refused_by_the_launch_naming_the_path(tmp_path, text):
    path = tmp_path / 'refused.yaml'
    path.write_text(text)
    assert rclpy_reading(path, ('',)) is None  # the node would not start
    with pytest.raises(LaunchError, match=f"params_file '{path}' "):
        read_parameter_file(str(path))


@pytest.mark.parametrize('section, namespace, applies', [
    ('/**/twobone_ik', '', True), ('/**/twobone_ik', 'a/b', True),
    ('/*/twobone_ik', '', False), ('/*/twobone_ik', 'a', True), ('/*/twobone_ik', 'a/b', False),
    ('twobone_ik', 'a', False), ('/a/*', 'a', True), ('/a/**', 'a/b', True),
    ('/**', 'a/b', True), ('/*', 'a', False), ('/*', '', True)])
def test_wildcards_match_the_fully_qualified_name_as_rcl_matches_it(tmp_path, section,
                                                                    namespace, applies):
    path = tmp_path / 'p.yaml'
    path.write_text(section_text(section, [('r1', '2.5')], nested=False))
    expected = rclpy_reading(path, (namespace,))[namespace]
    ours = read_parameter_file(str(path), NODE, namespace)
    assert ours == expected == ({'r1': 2.5} if applies else {})


def test_any_text_is_read_or_refused_with_a_message_never_an_exception():
    rng = random.Random(6565)
    samples = generated_files(20, seed=7) + list(REFUSED)
    alphabet = ':/*-[]{}\'"&!%@#|>\n  \tab01.'
    read = refused = 0
    for _ in range(3000):
        text = list(rng.choice(samples))
        for _ in range(rng.randint(1, 6)):
            position = rng.randrange(len(text) + 1)
            if rng.random() < 0.5 and text:
                del text[min(position, len(text) - 1)]
            else:
                text.insert(position, rng.choice(alphabet))
        try:
            sections = parse(''.join(text))
        except ParameterFileError as error:
            assert str(error), 'a refusal says why'
            refused += 1
        else:
            assert isinstance(sections, tuple)
            read += 1
    assert read and refused, (read, refused)  # the mutations reach both outcomes
