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


"""
The one place that fences in the test session's ROS traffic and sets it up.

Every ROS process a test starts inherits these variables: discovery stays on
loopback, and the session talks in a DDS domain of its own, so two test runs
on one machine (or a user's robot on the same network) never hear each other.

``ros_install`` builds this package with colcon once per session and puts it,
with the stand-ins for the C++ packages (``test/stand_ins``), on
``AMENT_PREFIX_PATH``, so that ``ros2 launch twobone_ik_ros ...`` runs the
package as a user's workspace would.  ``TWOBONE_NO_SKIP=1`` (set by
``.ci/run``) turns every skip into a failure: in CI, nothing may be missing.
"""

import os
import shutil
import subprocess
import sys
import tempfile

import pytest

_DOMAIN_ID = os.environ.get('TWOBONE_TEST_DOMAIN_ID') or str(1 + os.getpid() % 101)
os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
os.environ['ROS_DOMAIN_ID'] = _DOMAIN_ID
os.environ.pop('ROS_STATIC_PEERS', None)
os.environ['ROS_LOG_DIR'] = tempfile.mkdtemp(prefix='twobone_ik_test_log_')
from helpers import ROOT  # noqa: E402, I100  (after the environment above)
os.environ['PYTHONPATH'] = os.pathsep.join(
    [ROOT] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p])
NO_SKIP = os.environ.get('TWOBONE_NO_SKIP') == '1'
PACKAGE = 'twobone_ik_ros'
NOT_SOURCE = ('.git', '.venv', 'build', 'install', 'log', '__pycache__', '.hypothesis',
              '.mypy_cache', '.pytest_cache', '*.egg-info', 'doc')
#: package -> executable -> stand-in script in test/stand_ins
STAND_INS = {
    'robot_state_publisher': {'robot_state_publisher': 'robot_state_publisher.py'},
    'rviz2': {'rviz2': 'rviz2.py'},
    'tf2_ros': {'static_transform_publisher': 'static_transform_publisher.py'},
}


def pytest_report_header(config):
    """Show where this session's DDS traffic goes."""
    return (f'ROS_DOMAIN_ID={_DOMAIN_ID} '
            f'ROS_AUTOMATIC_DISCOVERY_RANGE={os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"]}'
            + (' TWOBONE_NO_SKIP=1 (a skip fails)' if NO_SKIP else ''))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI, a skipped test is a failed one: it hides a missing component."""
    outcome = yield
    report = outcome.get_result()
    if NO_SKIP and report.skipped and not hasattr(report, 'wasxfail'):
        report.outcome = 'failed'
        report.longrepr = f'skipped, and TWOBONE_NO_SKIP=1 forbids it: {report.longrepr}'


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    """Fail a module skipped as a whole, in CI, for the same reason."""
    outcome = yield
    report = outcome.get_result()
    if NO_SKIP and report.skipped:
        report.outcome = 'failed'
        report.longrepr = f'skipped, and TWOBONE_NO_SKIP=1 forbids it: {report.longrepr}'


@pytest.fixture(scope='session')
def ros_install(tmp_path_factory):
    """
    Build the package with colcon and install the stand-ins; return the install prefix.

    Both go on ``AMENT_PREFIX_PATH`` for every process started afterwards
    (``STAND_IN_PREFIX`` in the environment names the stand-ins' prefix, so a
    test can take them away again).
    """
    from ros_harness import require_ros_tools
    require_ros_tools()
    workspace = tmp_path_factory.mktemp('colcon_ws')
    shutil.copytree(ROOT, workspace / 'src' / PACKAGE, ignore=shutil.ignore_patterns(*NOT_SOURCE))
    colcon = [sys.executable, '-m', 'colcon']
    listed = subprocess.run(colcon + ['list'], cwd=workspace, capture_output=True, text=True)
    assert '(ros.ament_python)' in listed.stdout, \
        'colcon does not see an ament_python package:\n' + listed.stdout + listed.stderr
    build = subprocess.run(colcon + ['build', '--event-handlers', 'console_direct-'],
                           cwd=workspace, capture_output=True, text=True)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    install = workspace / 'install' / PACKAGE
    stand_ins = tmp_path_factory.mktemp('stand_ins')
    for package, executables in STAND_INS.items():
        marker = stand_ins / 'share' / 'ament_index' / 'resource_index' / 'packages' / package
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text('')
        for executable, script in executables.items():
            path = stand_ins / 'lib' / package / executable
            path.parent.mkdir(parents=True, exist_ok=True)
            source = os.path.join(ROOT, 'test', 'stand_ins', script)
            path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{source}" "$@"\n')
            path.chmod(0o755)
    os.environ['STAND_IN_PREFIX'] = str(stand_ins)
    # what sourcing the workspace's setup script would add
    site = next((install / 'lib').glob('python3*/site-packages'))
    os.environ['PYTHONPATH'] = os.pathsep.join([str(site), os.environ['PYTHONPATH']])
    os.environ['AMENT_PREFIX_PATH'] = os.pathsep.join(
        [str(install), str(stand_ins)]
        + [p for p in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep) if p])
    return install
