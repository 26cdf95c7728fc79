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
Copyright and licence headers, as in the ament_python template.

ament_copyright is not published on PyPI, so where it cannot be imported
(the PyPI-wheel environment) the same rule is checked directly: every Python
source carries a copyright line and the Apache-2.0 notice.
"""

import os
import re

from helpers import ROOT
import pytest

SOURCE_FOLDERS = ('twobone_ik_ros', 'test', 'launch', 'benchmarks')
COPYRIGHT = re.compile(r'^# Copyright \d{4}(-\d{4})? .+$', re.MULTILINE)
LICENSE = 'Licensed under the Apache License, Version 2.0'


def python_sources():
    yield os.path.join(ROOT, 'setup.py')
    for folder in SOURCE_FOLDERS:
        for directory, _, files in os.walk(os.path.join(ROOT, folder)):
            yield from (os.path.join(directory, f) for f in sorted(files) if f.endswith('.py'))


@pytest.mark.copyright
@pytest.mark.linter
def test_copyright():
    try:
        from ament_copyright.main import main
    except ImportError:
        missing = []
        for path in python_sources():
            with open(path, encoding='utf-8') as source:
                head = source.read(2000)
            if not (COPYRIGHT.search(head) and LICENSE in head):
                missing.append(os.path.relpath(path, ROOT))
        assert not missing, 'no copyright/licence header in: ' + ', '.join(missing)
    else:
        rc = main(argv=['.', 'test'])
        assert rc == 0, 'Found errors'
