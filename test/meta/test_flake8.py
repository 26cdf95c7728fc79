"""
flake8 with ROS 2's configuration, as in the ament_python template.

Run in a fresh interpreter, not in pytest's process as the template does:
flake8 forks its workers, and a fork of this process, which holds the DDS
threads and rclpy objects of earlier tests, can crash in its garbage collector
(a CI run's Jazzy lane did; the pool then waited for the dead worker until CI's
time ran out).
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

from ament_flake8 import main as flake8
from helpers import ROOT
import pytest

# named, not '.', so that the checkout's .venv is not linted
LINTED = ('setup.py', 'twobone_ik_ros', 'test', 'launch', 'benchmarks', 'examples', 'scripts')


@pytest.mark.flake8
@pytest.mark.linter
def test_flake8():
    done = subprocess.run([sys.executable, '-m', flake8.__name__,
                           *(os.path.join(ROOT, p) for p in LINTED)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, 'code style errors / warnings:\n' + done.stdout + done.stderr
