"""
``colcon test`` as a ROS developer runs it, with what package.xml declares for the tests.

A fresh workspace holds the package as a user's ``src/`` would (its docs
too), colcon builds it and ``colcon test --packages-select twobone_ik_ros``
runs pytest there as colcon runs it (setup.cfg's options, colcon's junit
report), on a share of the suite that needs each kind of test dependency:
the linters, the docs (Sphinx and MyST), the solver, the parameter files
and the launch resolution.  ``colcon test-result`` must count no failure.
The whole suite under ``colcon test`` is the same pytest run as
``scripts/test``, which CI runs on every lane already.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import shutil
import subprocess
import sys

from conftest import NOT_SOURCE, PACKAGE
from helpers import ROOT
import pytest

pytestmark = [pytest.mark.build, pytest.mark.ros]

#: one file of each kind of test dependency the package declares
SHARE = ('test/meta/test_flake8.py', 'test/meta/test_pep257.py', 'test/meta/test_copyright.py',
         'test/meta/test_docs.py', 'test/unit/test_solver.py', 'test/ros/test_parameter_file.py',
         'test/ros/test_launch_files.py')


def test_colcon_test_passes_in_a_users_workspace(tmp_path, ros_install):
    source = tmp_path / 'src' / PACKAGE
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        *(pattern for pattern in NOT_SOURCE if pattern != 'doc')))
    colcon = [sys.executable, '-m', 'colcon']
    built = subprocess.run(colcon + ['build', '--event-handlers', 'console_direct-'],
                           cwd=tmp_path, capture_output=True, text=True)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    tested = subprocess.run(
        colcon + ['test', '--packages-select', PACKAGE, '--event-handlers', 'console_direct+',
                  '--pytest-args', *SHARE, '-p', 'no:randomly'],
        cwd=tmp_path, capture_output=True, text=True)
    output = tested.stdout[-6000:] + tested.stderr[-3000:]
    assert tested.returncode == 0, output
    result = subprocess.run(colcon + ['test-result', '--all', '--verbose'], cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + output
    summary = result.stdout.strip().splitlines()[-1]
    assert ' 0 errors, 0 failures' in summary and not summary.startswith('Summary: 0 tests'), \
        result.stdout
