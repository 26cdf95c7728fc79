"""
A launch_pytest launch that fails, or hangs, before ReadyToTest fails its test in bounded time.

launch_pytest waits for ``ReadyToTest`` without a bound; ``launch_guard``
(a hook of this suite's conftest) bounds it.  Each case is a small launch
test of its own, run by pytest in a process of its own with the guard: a
launch file that raises before ReadyToTest fails at once, saying so; one
whose ReadyToTest never comes fails at the bound (here 5 s).
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
import time

from helpers import ROOT
import pytest

pytestmark = pytest.mark.ros_launch

CASES = {
    'raises': ('OpaqueFunction(function=broken)', 'the launch ended before ReadyToTest'),
    'never ready': ('TimerAction(period=600.0, actions=[ready])',
                    'the launch was not ready within 5 s'),
}
BODY = """
import launch
from launch.actions import OpaqueFunction, TimerAction
import launch_pytest
import pytest


def broken(context):
    raise RuntimeError('broken on purpose')


@launch_pytest.fixture
def launched():
    ready = launch_pytest.actions.ReadyToTest()
    return launch.LaunchDescription([{action}, ready] if {raises} else [{action}])


@pytest.mark.launch(fixture=launched)
def test_never_runs():
    pass
"""


@pytest.mark.parametrize('case', list(CASES))
def test_a_launch_that_is_not_ready_fails_its_test_in_bounded_time(tmp_path, case):
    action, reason = CASES[case]
    (tmp_path / 'test_launch.py').write_text(
        BODY.format(action=action, raises=case == 'raises'))
    # as this suite's conftest takes the guard
    (tmp_path / 'conftest.py').write_text('from launch_guard import pytest_fixture_setup\n')
    env = dict(os.environ, TWOBONE_LAUNCH_READY_S='5',
               PYTHONPATH=os.pathsep.join([os.path.join(ROOT, 'test'), os.environ['PYTHONPATH']]))
    started = time.monotonic()
    done = subprocess.run([sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider',
                           '-p', 'no:launch_testing', '-p', 'no:launch_ros', '-q',
                           str(tmp_path / 'test_launch.py')], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    took = time.monotonic() - started
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert 'LaunchNotReady' in output and reason in output, output
    assert took < 60.0, (took, output)
