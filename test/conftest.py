"""
The one place that fences in the test session's ROS traffic and sets it up.

Every ROS process a test starts inherits these variables: discovery stays on
loopback, and the session talks in a DDS domain of its own, so two test runs
on one machine (or a user's robot on the same network) never hear each other.

``ros_install`` builds this package with colcon once per session and puts it,
with the rviz2 stand-in (``test/stand_ins``), on ``AMENT_PREFIX_PATH``, so
that ``ros2 launch twobone_ik_ros ...`` runs the package as a user's
workspace would.  Every other package a test starts is the real one.  A test
that needs a ROS part PyPI has no wheel for carries that part's marker
(``parts.PARTS``): it runs where the part is installed and is skipped,
counted by part, where it is not; ``TWOBONE_REQUIRE`` makes those skips
failures.  ``TWOBONE_NO_SKIP=1`` (set by ``.ci/run``) turns every other
skip into a failure.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import faulthandler
import inspect
import os
import shutil
import signal
import subprocess
import sys
import tempfile

import pytest

_DOMAIN_ID = os.environ.get('TWOBONE_TEST_DOMAIN_ID') or str(1 + os.getpid() % 101)
os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
if os.environ.get('ROS_DISTRO', 'humble') == 'humble':  # Humble reads this one instead
    os.environ['ROS_LOCALHOST_ONLY'] = '1'
os.environ['ROS_DOMAIN_ID'] = _DOMAIN_ID
os.environ.pop('ROS_STATIC_PEERS', None)
os.environ['ROS_LOG_DIR'] = tempfile.mkdtemp(prefix='twobone_ik_test_log_')
from helpers import ROOT  # noqa: E402, I100  (after the environment above)
# a launch_pytest launch that never becomes ready fails its test in bounded time
from launch_guard import pytest_fixture_setup  # noqa: E402, F401  (a hook: pytest finds it here)
import parts  # noqa: E402
os.environ['PYTHONPATH'] = os.pathsep.join(
    [ROOT] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p])
# Twice in CI runs on Jazzy (code of 6089cf2 and of fe28c0f) the test process ended
# mid-file without a word (the second time within a second of a probe sending a target
# and spinning, test_node_frames' late transform); a SIGTERM, or exit() from C code, ends
# Python so. For a SIGTERM, say where each thread was (then end as before).
faulthandler.register(signal.SIGTERM, all_threads=True, chain=True)
NO_SKIP = os.environ.get('TWOBONE_NO_SKIP') == '1'
PACKAGE = 'twobone_ik_ros'
NOT_SOURCE = ('.git', '.venv', 'build', 'install', 'log', '__pycache__', '.hypothesis',
              '.mypy_cache', '.pytest_cache', '*.egg-info', 'doc')
#: package -> executable -> stand-in script in test/stand_ins (rviz2 alone:
#: every other package a test starts is the real one)
STAND_INS = {
    'rviz2': {'rviz2': 'rviz2.py'},
}
_held_back = {}  # part -> the tests skipped for want of it
REQUIRED = parts.required(os.environ.get('TWOBONE_REQUIRE', ''))


def pytest_configure(config):
    """Refuse a part marker that ``parts.PARTS`` and setup.cfg do not both know."""
    registered = {line.split(':')[0].strip() for line in config.getini('markers')}
    unregistered = set(parts.PARTS) - registered
    if unregistered:
        raise pytest.UsageError(f'setup.cfg registers no marker {", ".join(unregistered)}')


def pytest_collection_modifyitems(config, items):
    """Check that every test asking for a fixture carries the parts it starts."""
    unmarked = []
    for item in items:
        for fixture, needed in parts.FIXTURE_PARTS.items():
            if fixture in getattr(item, 'fixturenames', ()):
                lacking = [part for part in needed if item.get_closest_marker(part) is None]
                if lacking:
                    unmarked.append(f'{item.nodeid} uses {fixture}: mark it {", ".join(lacking)}')
    if unmarked:
        raise pytest.UsageError('tests without the markers of their parts (test/parts.py):\n'
                                + '\n'.join(unmarked))


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector, name, obj):
    """
    Where launch_pytest is missing, collect its tests (generators) as plain tests.

    launch_pytest's plugin collects a test marked ``launch(fixture=...)``; without
    it pytest refuses a test that yields.  Collected plainly, such a test is
    skipped by its ``ros_launch`` marker before it could run.
    """
    if (inspect.isgeneratorfunction(obj) and collector.funcnamefilter(name)
            and any(mark.name == 'launch' for mark in getattr(obj, 'pytestmark', ()))
            and parts.missing('ros_launch')):
        return pytest.Function.from_parent(collector, name=name)
    return None


def pytest_runtest_setup(item):
    """Skip a test whose parts are missing (counted per part), or fail it if one is required."""
    lacking = {marker: gone for marker in parts.PARTS
               if item.get_closest_marker(marker) is not None and (gone := parts.missing(marker))}
    if not lacking:
        return
    why = '; '.join(f'needs {marker} ({parts.PARTS[marker].what}): {", ".join(gone)} not found'
                    for marker, gone in lacking.items())
    required = sorted(set(lacking) & REQUIRED)
    if required:
        pytest.fail(f'{why}, and TWOBONE_REQUIRE names {", ".join(required)}', pytrace=False)
    for marker in lacking:
        _held_back.setdefault(marker, []).append(item.nodeid)
    pytest.skip(f'{PART_SKIP}{why}')


#: how a skip for a missing part begins (``TWOBONE_NO_SKIP`` lets those through)
PART_SKIP = 'part missing: '


def pytest_terminal_summary(terminalreporter, config):
    """Say, one line per missing part, how many tests it held back (each it is one part of)."""
    for marker, held in sorted(_held_back.items()):
        terminalreporter.write_line(
            f'part {marker} missing: {len(held)} tests held back '
            f'({parts.PARTS[marker].what}; doc/testing.md says where they run)')


def pytest_report_header(config):
    """Show where this session's DDS traffic goes."""
    return (f'ROS_DOMAIN_ID={_DOMAIN_ID} '
            f'ROS_AUTOMATIC_DISCOVERY_RANGE={os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"]}'
            + (' ROS_LOCALHOST_ONLY=1' if os.environ.get('ROS_LOCALHOST_ONLY') == '1' else '')
            + (' TWOBONE_NO_SKIP=1 (a skip fails)' if NO_SKIP else ''))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI, a skipped test is a failed one: it hides a missing component."""
    outcome = yield
    report = outcome.get_result()
    if NO_SKIP and report.skipped and not hasattr(report, 'wasxfail') \
            and PART_SKIP not in str(report.longrepr):
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
    Build the package with colcon and install the rviz2 stand-in; return the install prefix.

    Both go on ``AMENT_PREFIX_PATH`` for every process started afterwards.
    """
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
    # what sourcing the workspace's setup script would add
    site = next((install / 'lib').glob('python3*/site-packages'))
    os.environ['PYTHONPATH'] = os.pathsep.join([str(site), os.environ['PYTHONPATH']])
    os.environ['AMENT_PREFIX_PATH'] = os.pathsep.join(
        [str(install), str(stand_ins)]
        + [p for p in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep) if p])
    return install


@pytest.fixture(scope='session')
def rosdep(tmp_path_factory):
    """Return the real rosdep on the ros/rosdistro snapshot, updated (``rosdep_tool``)."""
    from rosdep_tool import Rosdep
    return Rosdep(tmp_path_factory.mktemp('rosdep'))


@pytest.fixture(params=[parts.on('real')])
def controllers(request):
    """
    Say which controllers ``controlled_arm`` starts: ``real`` (ros2_control) or ``stand_in``.

    The real ones by default; a test the stand-in serves too parametrizes this
    fixture itself with ``parts.on('stand_in', ...)`` and ``parts.on('real', ...)``.
    """
    return request.param


@pytest.fixture
def controlled_arm(ros_install, controllers):
    """Start ros2_control arms (``control_harness.ControlledArm``); stop them at the end."""
    from control_harness import ControlledArm
    arms = []

    def make(*args, **kwargs):
        arms.append(ControlledArm(*args, controllers=controllers, **kwargs))
        return arms[-1]

    yield make
    for arm in arms:
        if arm.launch.process.poll() is None:
            arm.close()


@pytest.fixture
def launches(ros_install):
    """Start ``ros2 launch twobone_ik_ros ...`` as a user types it; stop what still runs."""
    from ros_harness import LaunchProcess
    started = []

    def start(launch_file, *arguments, env=None, group=False):
        launch = LaunchProcess(launch_file, *arguments, env=env, group=group)
        started.append(launch)
        return launch
    yield start
    for launch in started:
        launch.stop()


@pytest.fixture
def probe():
    """Make probes (``ros_harness.Probe`` arguments); close them at the end."""
    from ros_harness import Probe
    probes = []

    def make(**kwargs):
        probes.append(Probe(**kwargs))
        return probes[-1]
    yield make
    for made in probes:
        made.close()
