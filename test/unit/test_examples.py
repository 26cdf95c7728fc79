"""
The numbered examples run as a user runs them, and say what they promise.

Each is a script of its own (``python3 examples/NN_*.py`` with the package
on the path); here each runs in a fresh interpreter and its printed lines
are checked, and the one that needs ruckig is run without it: one line,
exit code 2.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import os
import subprocess
import sys

from helpers import ROOT
import pytest

EXAMPLES = os.path.join(ROOT, 'examples')
#: each example, with lines its output must hold
PROMISES = {
    '01_solve_one_target.py': ['status SOLVED', 'the tip from the angles: (1.200000000000, '
                               '0.500000000000)', '(3, 0) is CLAMPED'],
    '02_solve_a_batch.py': ['1000 targets: 773 solved, 227 clamped',
                            "elbow is the scalar solver's: True"],
    '03_plan_one_move.py': ['fastest joint speed 1.0000 rad/s', 'largest acceleration 5.0000',
                            'within the joint limits, between the points too'],
    '04_your_arm_from_urdf.py': ["joints joint1, joint2: r1 0.900 m, r2 1.000 m, the tool's "
                                 "plane 0.200 m off the base's",
                                 'the tip (tool_link) at (1.200000000000, 0.200000000000, '
                                 '2.500000000000)'],
}


def run(*args):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get('PYTHONPATH', ''))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120)


def test_every_example_is_listed_and_short():
    names = sorted(name for name in os.listdir(EXAMPLES) if name.endswith('.py'))
    assert names == sorted(PROMISES)
    for name in names:
        with open(os.path.join(EXAMPLES, name), encoding='utf-8') as source:
            assert len(source.readlines()) <= 90, name


@pytest.mark.parametrize('name', sorted(PROMISES))
def test_the_example_runs_and_says_what_it_promises(name):
    done = run(os.path.join('examples', name))
    assert done.returncode == 0, done.stdout + done.stderr
    for line in PROMISES[name]:
        assert line in done.stdout, done.stdout


def test_the_move_example_without_ruckig_says_so_in_one_line():
    hide = ("import runpy, sys; sys.modules['ruckig'] = None; sys.argv = [sys.argv[1]]; "
            "runpy.run_path(sys.argv[0], run_name='__main__')")
    done = run('-c', hide, os.path.join('examples', '03_plan_one_move.py'))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        '03_plan_one_move needs ruckig: pip install ruckig'], done.stderr
