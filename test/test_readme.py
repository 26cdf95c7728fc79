# Copyright 2026 The twobone_ik_ros Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""The README's Python example runs as printed (no ROS needed)."""

import os
import re

from helpers import ROOT


def test_readme_solver_example_runs(capsys):
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as readme:
        text = readme.read()
    example = re.search(r'## The solver in Python.*?```python\n(.*?)```', text, re.S)
    assert example, 'README has no Python example under "The solver in Python"'
    exec(compile(example.group(1), 'README.md', 'exec'), {})  # noqa: S102
    printed = capsys.readouterr().out
    assert printed.startswith('SOLVED UP ')


def test_readme_lists_every_parameter_and_launch_argument():
    from twobone_ik_ros.bringup.launch_config import ARGUMENT_NAMES
    from twobone_ik_ros.model.parameters import PARAMETERS

    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as readme:
        text = readme.read()
    rows = re.findall(r'^\| `([a-z_0-9]+)` \| [^|]+ \| ([^|]+) \|', text, re.M)
    documented = dict(rows)
    for spec in PARAMETERS:
        assert spec.name in documented, f'README has no row for parameter {spec.name}'
        if isinstance(spec.default, float):
            assert documented[spec.name].strip() == repr(spec.default), spec.name
    launch_rows = ' '.join(re.findall(r'^\| (`[a-z_0-9]+`(?:, `[a-z_0-9]+`)*) \|', text, re.M))
    for name in ARGUMENT_NAMES:
        if not name.startswith('base_'):  # base_x, base_y, base_yaw: in the parent_frame row
            assert f'`{name}`' in launch_rows, f'README has no row for launch argument {name}'
