"""The package and the examples type-check cleanly (mypy, settings in setup.cfg)."""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import os

from helpers import ROOT
import pytest


@pytest.mark.linter
@pytest.mark.mypy
def test_mypy():
    api = pytest.importorskip('mypy.api', reason='mypy is a test dependency of the venv only')
    # --no-incremental: a stale .mypy_cache has been seen to report errors
    # about NamedTuple fields that a clean run does not (seen with mypy 2.4)
    stdout, stderr, status = api.run(
        ['--no-incremental', '--config-file', os.path.join(ROOT, 'setup.cfg'),
         os.path.join(ROOT, 'twobone_ik_ros'), os.path.join(ROOT, 'examples')])
    assert status == 0, stdout + stderr
