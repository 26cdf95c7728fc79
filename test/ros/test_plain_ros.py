"""
The plain-ROS lane: the installed node on the ROS wheels and numpy alone.

What a stock ROS install has after ``rosdep install`` of the distribution's
packages only: a virtual environment of its own with this distribution's ROS
wheels (``requirements/<distro>.txt``) and numpy, and none of ruckig, toppra,
scipy or matplotlib.  The package is the one colcon installed for the
session (``ros_install``), run by that environment's interpreter with
nothing of the suite's environment but the DDS fence.  The display answers
targets over DDS and stops with 0; a controller output exits 2 with one
line; once the pip keys' packages are installed as the README's second
``rosdep install`` installs them (simulated with the real rosdep, then pip),
it starts.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import os
import re
import subprocess
import sys
import time

from control_harness import path_message
from nav_msgs.msg import Path
import pytest
from ros_harness import assert_stopped
from rosdep_tool import readme_rosdep_installs
from twobone_ik_ros.model.dependencies import LIBRARIES
from twobone_ik_ros.solver import forward
from twobone_ik_ros.tools.harness import log_path, RosProcess

pytestmark = [pytest.mark.ros, pytest.mark.ros_wheels, pytest.mark.rosdistro]
ARM_SIDE = ('ruckig', 'toppra', 'scipy', 'matplotlib')
#: the distribution's Ubuntu release, for the simulation of the README's commands
WHEEL_DISTRO = os.environ.get('ROS_DISTRO', 'kilted')


def _pinned_numpy():
    """Return the numpy pin of the distribution's Ubuntu (the one the suite's venv has)."""
    from helpers import ROOT
    with open(os.path.join(ROOT, 'requirements', 'noble.txt')) as pins:
        return next(line.strip() for line in pins if line.startswith('numpy=='))


def _found(python, env, modules):
    code = ('import importlib.util as u, sys; '
            'print(" ".join(m for m in sys.argv[1:] if u.find_spec(m)))')
    done = subprocess.run([python, '-c', code, *modules], env=env, capture_output=True,
                          text=True, check=True)
    return done.stdout.split()


class PlainRos:
    """A venv with the ROS wheels and numpy, and the environment its node runs in."""

    def __init__(self, folder, install):
        from helpers import ROOT
        self.folder = str(folder)
        subprocess.run([sys.executable, '-m', 'venv', self.folder], check=True)
        self.python = os.path.join(self.folder, 'bin', 'python')
        self.pip([
            '-r', os.path.join(ROOT, 'requirements', f'{WHEEL_DISTRO}.txt'), _pinned_numpy()])
        site = next((install / 'lib').glob('python3*/site-packages'))
        # nothing of the suite's own environment (its venv's library paths, its
        # PYTHONPATH, the wheels' bootstrap guard) but where DDS may go
        self.env = {name: os.environ[name] for name in (
            'HOME', 'ROS_DOMAIN_ID', 'ROS_AUTOMATIC_DISCOVERY_RANGE', 'ROS_LOG_DIR')}
        self.env.update(PATH='/usr/bin:/bin', PYTHONPATH=str(site))
        self.node = str(install / 'lib' / 'twobone_ik_ros' / 'twobone_ik_node')

    def pip(self, arguments):
        done = subprocess.run([self.python, '-m', 'pip', 'install', '-q',
                               '--disable-pip-version-check', *arguments],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr

    def start(self, *parameters, env=None):
        ros_args = [word for parameter in parameters for word in ('-p', parameter)]
        return RosProcess([self.python, self.node, '--ros-args', *ros_args],
                          log_path=log_path('plain_ros_node'), env=env or self.env)


@pytest.fixture(scope='module')
def plain(ros_install, tmp_path_factory):
    lane = PlainRos(tmp_path_factory.mktemp('plain_ros') / 'venv', ros_install)
    assert _found(lane.python, lane.env, ARM_SIDE + ('rclpy', 'numpy')) == ['rclpy', 'numpy']
    return lane


def _wait_for(process, pattern, timeout=30.0):
    deadline = time.monotonic() + timeout
    while not re.search(pattern, process.output()):
        assert process.process.poll() is None, process.output()
        assert time.monotonic() < deadline, process.output()
        time.sleep(0.1)


def test_the_display_runs_on_ros_and_numpy_alone(plain, probe):
    """Targets, a path played back, markers, diagnostics; a controller output refused live."""
    node = plain.start('output:=joint_states')
    try:
        listener = probe()
        listener.wait_for_node()  # its markers and its parameter service are up
        answer = listener.solve(1.2, 0.4, stamp_id=7)
        assert answer is not None and list(answer.name) == ['shoulder_joint', 'elbow_joint']
        print('start-up line:', next(line for line in node.output().splitlines()
                                     if 'ready:' in line)[:120], '...')
        path = listener.node.create_publisher(Path, 'path', 10)
        listener.spin_until(lambda: path.get_subscription_count() > 0)
        path.publish(path_message([(1.5, 0.0), (1.2, 0.5), (0.9, 0.8)]))
        last = listener.spin_until(lambda: listener.joint_states and forward(
            1.0, 0.7, *listener.joint_states[-1].position)[1] == pytest.approx((0.9, 0.8)))
        assert last, 'the path was not played back to its last pose'
        refused = listener.set_parameters(output='joint_trajectory')[0]
        assert not refused.successful and 'needs ruckig' in refused.reason
        assert listener.get_values('output') == {'output': 'joint_states'}
        _, values = listener.latest_diagnostics()
        assert values['paths.followed'] == '1' and values['solved'] == '1'
    finally:
        code = node.interrupt()
    assert_stopped(code, node.output())
    assert 'Traceback' not in node.output()


def test_a_controller_output_is_refused_in_one_line_until_the_pip_keys_are_installed(
        plain, rosdep, tmp_path):
    refused = plain.start('output:=joint_trajectory')
    assert refused.wait() == 2
    lines = [line for line in refused.output().splitlines() if line.strip()]
    print('refusal line:', lines)
    assert len(lines) == 1 and '[FATAL]' in lines[0], lines
    ruckig = next(library for library in LIBRARIES if library.module == 'ruckig')
    assert 'needs ruckig' in lines[0] and ruckig.install in lines[0]
    # what the README's second command installs: the pip keys, after everything else (into
    # a folder of this test's own: the venv stays plain for the module's other tests)
    pip_packages = rosdep.simulate(readme_rosdep_installs()[1], WHEEL_DISTRO)['pip']
    keys = str(tmp_path / 'pip_keys')
    plain.pip(['-U', '--target', keys, *pip_packages])
    env = dict(plain.env, PYTHONPATH=os.pathsep.join((plain.env['PYTHONPATH'], keys)))
    assert _found(plain.python, env, ARM_SIDE) == list(ARM_SIDE)
    assert _found(plain.python, plain.env, ARM_SIDE) == []
    node = plain.start('output:=joint_trajectory', env=env)
    try:
        _wait_for(node, r'ready: .*output=joint_trajectory')
    finally:
        code = node.interrupt()
    assert_stopped(code, node.output())


LAZY_IMPORTS = """
import sys
import rclpy
from rclpy.parameter import Parameter
from twobone_ik_ros.node.node import TwoBoneIKNode

ARM_SIDE = ('ruckig', 'toppra', 'scipy', 'matplotlib')
rclpy.init()
node = TwoBoneIKNode()
node._solve(1.2, 0.4, 0.0, node.get_clock().now().to_msg())
print('display', sorted(m for m in ARM_SIDE if m in sys.modules))
node.set_parameters([Parameter('output', value='joint_trajectory')])
print('controller', sorted(m for m in ARM_SIDE if m in sys.modules))
node.destroy_node()
rclpy.shutdown()
"""


def test_the_suite_venv_node_imports_the_arm_side_only_for_a_controller_output():
    """Where they are installed too: a display never imports them; setting the output does."""
    done = subprocess.run([sys.executable, '-c', LAZY_IMPORTS], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [
        'display []', "controller ['matplotlib', 'ruckig', 'scipy', 'toppra']"], done.stdout
