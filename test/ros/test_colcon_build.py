"""
A real ``colcon build`` of the package, and a check of what it installs.

The package is copied into a fresh workspace (as a user's ``src/`` would hold
it) and built with colcon; the install tree must hold everything ``ros2
launch`` and ``ros2 run`` look for, and an installed executable must start and
answer on the ROS graph.
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

from ros_harness import Probe

pytestmark = [pytest.mark.build, pytest.mark.ros]

PACKAGE = 'twobone_ik_ros'
EXECUTABLES = ('twobone_ik_node', 'target_publisher', 'twobone_ik_demo')
DATA_FILES = ('package.xml', 'launch/twobone_ik.launch.py', 'launch/twobone_ik.launch.xml',
              'launch/demo.launch.py', 'config/twobone_ik.yaml', 'rviz/twobone_ik.rviz',
              'urdf/twobone_arm.urdf')


@pytest.fixture
def install(ros_install):
    """Return the colcon build of the whole session (see conftest.py)."""
    return ros_install


def test_install_tree_has_the_ament_index_marker(install):
    marker = install / 'share' / 'ament_index' / 'resource_index' / 'packages' / PACKAGE
    assert marker.is_file(), f'missing {marker}'


@pytest.mark.parametrize('relative', DATA_FILES)
def test_install_tree_has_the_data_file(install, relative):
    installed = install / 'share' / PACKAGE / relative
    assert installed.is_file(), f'missing share/{PACKAGE}/{relative}'


@pytest.mark.parametrize('name', EXECUTABLES)
def test_install_tree_has_the_executable(install, name):
    executable = install / 'lib' / PACKAGE / name
    assert executable.is_file() and os.access(executable, os.X_OK), \
        f'missing lib/{PACKAGE}/{name}'


def test_installed_node_starts_and_answers_on_the_graph(install):
    site = next((install / 'lib').glob('python3*/site-packages'))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(site)] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep)
                       if p and os.path.abspath(p) != ROOT]))
    where = subprocess.run([sys.executable, '-c', f'import {PACKAGE}; print({PACKAGE}.__file__)'],
                           env=env, cwd=str(install), capture_output=True, text=True).stdout
    assert where.startswith(str(site)), f'the package imports from {where}, not the install tree'
    process = subprocess.Popen([str(install / 'lib' / PACKAGE / 'twobone_ik_node'),
                                '--ros-args', '-r', '__node:=installed_ik'],
                               env=env, cwd=str(install), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    probe = Probe(node_name='installed_ik', name='colcon_probe')
    try:
        probe.wait_for_node()
        answer = probe.solve(1.2, 0.4, stamp_id=7)
        assert answer is not None and len(answer.position) == 2
    finally:
        probe.close()
        process.terminate()
        process.communicate(timeout=10)
