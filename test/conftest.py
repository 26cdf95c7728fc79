"""
The one place that fences in the test session's ROS traffic and sets it up.

Every ROS process a test starts inherits these variables: discovery stays on
loopback, and the session talks in a DDS domain of its own, so two test runs
on one machine (or a user's robot on the same network) never hear each other.

``ros_install`` builds this package with colcon once per session and puts it,
with the rviz2 stand-in (``test/stand_ins``), on ``AMENT_PREFIX_PATH``, so
that ``ros2 launch twobone_ik_ros ...`` runs the package as a user's
workspace would.  robot_state_publisher, static_transform_publisher,
controller_manager and the controllers are the real ones: a test that starts
them is marked ``ros_cpp`` and is skipped, saying how to get them, where they
are not installed (``scripts/test`` builds them from ``../shared/ros2-cpp``).
``--without-cpp-stack=WHY`` deselects those tests instead and says how many
and why at the end (``scripts/test`` on Jazzy, which that build does not
serve).  A test marked ``sros2`` (SROS2 under Enforce) runs on the lanes of
``SECURITY_LANES`` alone and is deselected, counted, elsewhere.
``TWOBONE_NO_SKIP=1`` (set by ``.ci/run``) turns every skip into a
failure: in CI, nothing may be missing.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import faulthandler
import importlib.util
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
#: the C++ packages the ``ros_cpp`` tests start (rclcpp has no wheel)
CPP_PACKAGES = ('robot_state_publisher', 'tf2_ros', 'controller_manager',
                'joint_state_broadcaster', 'forward_command_controller',
                'joint_trajectory_controller', 'controller_manager_msgs')
HOW_TO_GET_CPP = (
    'run the suite as TWOBONE_SHARED=../shared scripts/test (builds them once per machine, '
    '20 to 30 minutes, root for apt-get), or from a shell with a ROS 2 install that has '
    'robot_state_publisher, tf2_ros, ros2_control and ros2_controllers')
_deselected_cpp = []
#: the markers of the tests that need the C++ stack's build on Kilted (control_msgs comes with it)
CPP_STACK_MARKERS = ('ros_cpp', 'control_msgs')
CPP_STACK_PARTS = ('before', 'after')
_other_part = []
#: the lanes whose middleware has the DDS security plugins and sros2 (the Humble lane's Cyclone
#: DDS; the wheels' Fast DDS has none): elsewhere the tests marked ``sros2`` are deselected
SECURITY_LANES = ('humble',)
_deselected_sros2 = []
#: a test marked ``noble`` needs what only the noble lanes' venv has (PyPI's ROS wheels,
#: pinocchio): deselected, counted, on Humble
_deselected_noble = []


#: seconds each file's tests took in a run of their own (the part that needs the C++ stack,
#: on Kilted, idle, ``--durations=0``, 1311 s in all): ``--shard`` spreads the files by
#: them; a file not named here weighs ``SHARD_DEFAULT_S``
SHARD_SECONDS = {
    'test_node_control.py': 400, 'test_late_node.py': 287, 'test_arrival.py': 166,
    'test_node_urdf.py': 164, 'test_sim_control.py': 105, 'test_smooth_motion.py': 77,
    'test_launch.py': 53, 'test_real_stack.py': 47, 'test_node.py': 3, 'test_transports.py': 3,
}
SHARD_DEFAULT_S = 60.0
_other_shards = []


def pytest_addoption(parser):
    parser.addoption('--without-cpp-stack', metavar='WHY', default='',
                     help='deselect the tests marked ros_cpp, and say so with WHY')
    parser.addoption('--shard', metavar='K/N', default=None,
                     help='only the test files of shard K of N (from 1): the files spread over '
                     'N shards of about equal time (SHARD_SECONDS), for N sessions at once')
    parser.addoption('--cpp-stack-part', choices=CPP_STACK_PARTS, default=None,
                     help='before: only the tests that need nothing of the C++ stack (they run '
                     'while it builds); after: only those that need it (ros_cpp, control_msgs)')


def _needs_cpp_stack(item):
    return any(item.get_closest_marker(marker) for marker in CPP_STACK_MARKERS)


def pytest_collection_modifyitems(config, items):
    """
    Deselect, counted, what this run is not for.

    ``ros_cpp`` under ``--without-cpp-stack``, ``sros2`` off its lanes, and one
    side of ``--cpp-stack-part`` (scripts/test runs the part that needs nothing
    of the C++ stack while the stack builds, and the rest after).
    """
    part = config.getoption('--cpp-stack-part')
    if part is not None:
        wanted = part == 'after'
        kept = []
        for item in items:
            (kept if _needs_cpp_stack(item) == wanted else _other_part).append(item)
        if _other_part:
            config.hook.pytest_deselected(items=list(_other_part))
            items[:] = kept
    shard = config.getoption('--shard')
    if shard is not None:
        kept = shard_of(items, *(int(number) for number in shard.split('/')))
        _other_shards.extend(item for item in items if item not in kept)
        if _other_shards:
            config.hook.pytest_deselected(items=list(_other_shards))
            items[:] = [item for item in items if item in kept]
    without_cpp = bool(config.getoption('--without-cpp-stack'))
    for marker, wanted, deselected in (
            ('ros_cpp', without_cpp, _deselected_cpp),
            # control_msgs comes with the C++ stack's build (Humble's build has its own)
            ('control_msgs', without_cpp and importlib.util.find_spec('control_msgs') is None,
             _deselected_cpp),
            ('sros2', os.environ.get('ROS_DISTRO') not in SECURITY_LANES, _deselected_sros2),
            ('noble', os.environ.get('ROS_DISTRO') == 'humble', _deselected_noble)):
        if not wanted:
            continue
        dropped = [item for item in items if item.get_closest_marker(marker)]
        if dropped:
            deselected.extend(dropped)
            config.hook.pytest_deselected(items=dropped)
            items[:] = [item for item in items if item.get_closest_marker(marker) is None]


def shard_of(items, index, count):
    """
    Return the items of shard ``index`` of ``count`` (from 1): whole files, about equal time.

    Each file goes, heaviest first (``SHARD_SECONDS``), to the shard with the
    least time so far: a file's fixtures (a launch, a controller) stay in one
    session, and the shards end at about the same time.
    """
    assert 1 <= index <= count, f'--shard {index}/{count}: K must be from 1 to N'
    files = {}
    for item in items:
        files.setdefault(item.path.name, []).append(item)
    totals = [0.0] * count
    chosen = set()
    for name in sorted(files, key=lambda name: (-SHARD_SECONDS.get(name, SHARD_DEFAULT_S),
                                                name)):
        lightest = totals.index(min(totals))
        totals[lightest] += SHARD_SECONDS.get(name, SHARD_DEFAULT_S)
        if lightest == index - 1:
            chosen.add(name)
    return [item for item in items if item.path.name in chosen]


def pytest_terminal_summary(terminalreporter, config):
    """Say how many ``ros_cpp`` and ``sros2`` tests were deselected, and why."""
    why = config.getoption('--without-cpp-stack')
    if why:
        terminalreporter.write_line(
            f'deselected {len(_deselected_cpp)} tests marked ros_cpp or control_msgs '
            f'(they need the C++ robot_state_publisher, tf2_ros and ros2_control): {why}')
    part = config.getoption('--cpp-stack-part')
    if part is not None:
        terminalreporter.write_line(
            f'deselected {len(_other_part)} tests: the part of the suite '
            + ('that needs the C++ stack runs after its build' if part == 'before'
               else 'that needs nothing of the C++ stack ran while it built'))
    if _deselected_sros2:
        terminalreporter.write_line(
            f'deselected {len(_deselected_sros2)} tests marked sros2: they run on the lanes '
            f'{", ".join(SECURITY_LANES)} (DDS security plugins and sros2)')
    if _deselected_noble:
        terminalreporter.write_line(
            f'deselected {len(_deselected_noble)} tests marked noble: they need the noble '
            "lanes' venv (PyPI's ROS wheels, pinocchio)")


def pytest_runtest_setup(item):
    """Skip a ``ros_cpp`` or ``control_msgs`` test, saying how to get what it needs, if missing."""
    if item.get_closest_marker('control_msgs') and not importlib.util.find_spec('control_msgs'):
        pytest.skip(f'needs control_msgs: {HOW_TO_GET_CPP}')
    if item.get_closest_marker('ros_cpp') is None:
        return
    from ament_index_python.packages import get_package_prefix
    missing = []
    for package in CPP_PACKAGES:
        try:
            get_package_prefix(package)
        except LookupError:
            missing.append(package)
    if missing:
        pytest.skip(f'needs {", ".join(missing)}: {HOW_TO_GET_CPP}')


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
    Build the package with colcon and install the rviz2 stand-in; return the install prefix.

    Both go on ``AMENT_PREFIX_PATH`` for every process started afterwards.
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


@pytest.fixture
def controlled_arm(ros_install):
    """Start real ros2_control arms (``control_harness.ControlledArm``); stop them at the end."""
    from control_harness import ControlledArm
    arms = []

    def make(*args, **kwargs):
        arms.append(ControlledArm(*args, **kwargs))
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
