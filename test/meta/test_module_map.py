"""
Every module of the package's parts is imported by a test: the map from module to tests.

``module_map`` reads each test file's imports (``ast``: every import
statement, those inside functions too) and lists, for each module of
``ik/``, ``model/``, ``motion/``, ``ros/``, ``outputs/``, ``node/`` and
``bringup/``, the test files that import it.  A module no test imports is
a module no test exercises directly: the test fails and names it.  Run it
with ``-s`` to see the map.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import ast
import glob
import os

from helpers import ROOT

PARTS = ('ik', 'model', 'motion', 'ros', 'outputs', 'node', 'bringup')


def package_modules():
    """Return the dotted name of every module of ``PARTS`` (their ``__init__`` left out)."""
    found = []
    for part in PARTS:
        for path in sorted(glob.glob(os.path.join(ROOT, 'twobone_ik_ros', part, '*.py'))):
            name = os.path.basename(path)[:-3]
            if name != '__init__':
                found.append(f'twobone_ik_ros.{part}.{name}')
    return found


def imports_of(path):
    """Return every module (and module.name) a file imports, at any depth of its code."""
    names = set()
    for node in ast.walk(ast.parse(open(path, encoding='utf-8').read(), path)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f'{node.module}.{alias.name}' for alias in node.names)
    return names


def module_map():
    """Return module -> the test files (relative to test/) that import it."""
    tests = sorted(glob.glob(os.path.join(ROOT, 'test', '**', 'test_*.py'), recursive=True))
    imported = {path: imports_of(path) for path in tests}
    return {module: [os.path.relpath(path, os.path.join(ROOT, 'test'))
                     for path, names in imported.items() if module in names]
            for module in package_modules()}


def test_every_module_of_the_parts_is_imported_by_a_test():
    found = module_map()
    for module, tests in found.items():
        print(f'{module}: {", ".join(tests) or "NONE"}')
    untested = [module for module, tests in found.items() if not tests]
    assert not untested, f'no test imports {untested}'
    assert len(found) > 50  # the parts are found at all
