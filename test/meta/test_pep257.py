"""pep257 docstring conventions, as in the ament_python template."""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import os

from ament_pep257.main import main
from helpers import ROOT
import pytest

# named, not '.', so that the checkout's .venv is not linted
LINTED = ('setup.py', 'twobone_ik_ros', 'test', 'launch', 'benchmarks', 'examples', 'scripts')


@pytest.mark.linter
@pytest.mark.pep257
def test_pep257():
    rc = main(argv=[os.path.join(ROOT, p) for p in LINTED])
    assert rc == 0, 'Found code style errors / warnings'
