"""
The package's parts import only downward, and the pure ones nothing of ROS.

``LAYERS`` is the rule doc/design.md's map of the parts describes: each part with the
parts it may import.  The imports are read from the source (``ast``, every
import statement, those inside functions too), so a lazy import cannot hide
an upward dependency.  The launch files and the tests may use any part.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import ast
import os
import subprocess
import sys
from typing import Dict, Iterator, Set, Tuple

from helpers import ROOT
import pytest

PACKAGE = os.path.join(ROOT, 'twobone_ik_ros')

#: part -> the parts it may import (a part always uses itself)
LAYERS: Dict[str, Set[str]] = {
    'ik': set(),
    'solver': {'ik'},
    'model': {'ik', 'solver'},
    'motion': {'ik', 'solver', 'model'},
    'ros': {'ik', 'solver', 'model'},
    'outputs': {'ik', 'solver', 'model', 'motion', 'ros'},
    'node': {'ik', 'solver', 'model', 'motion', 'ros', 'outputs'},
    'bringup': {'ik', 'solver', 'model'},
    'tools': {'ik', 'solver', 'model', 'motion', 'ros', 'outputs', 'node', 'bringup'},
}
#: what runs without ROS: whole parts, and single modules of other parts
PURE_PARTS = {'ik', 'solver', 'model', 'motion'}
PURE_MODULES = {'tools.target_patterns', 'tools.render'}
#: what a pure module may import besides the standard library and the package
PURE_EXTRAS = {'lxml', 'numpy', 'PIL', 'ruckig', 'scipy', 'toppra', 'urdf_parser_py'}


def modules() -> Iterator[Tuple[str, str]]:
    """Yield (dotted name inside the package, path) of every module of the package."""
    for folder, _, files in os.walk(PACKAGE):
        for name in sorted(files):
            if name.endswith('.py'):
                path = os.path.join(folder, name)
                dotted = os.path.relpath(path, PACKAGE)[:-3].replace(os.sep, '.')
                yield dotted.replace('.__init__', '').replace('__init__', ''), path


def imported(path: str) -> Set[str]:
    """Return every module name ``path`` imports, at any depth of its code."""
    names: Set[str] = set()
    for node in ast.walk(ast.parse(open(path, encoding='utf-8').read(), path)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f'{path}: relative import (the rule reads absolute ones)'
            if node.module:
                names.add(node.module)
    return names


def part_of(dotted: str) -> str:
    """Return the part a module (dotted, inside the package) belongs to."""
    return dotted.split('.')[0]


ALL = sorted(modules())


def test_every_module_is_in_a_part():
    """``ls twobone_ik_ros/`` shows the parts: no module lies beside them but the solver."""
    loose = [name for name, _ in ALL if name and part_of(name) not in LAYERS]
    assert not loose, f'modules outside every part of LAYERS: {loose}'
    assert set(LAYERS) == {part_of(name) for name, _ in ALL if name}, 'a part has no module'


@pytest.mark.parametrize('name,path', ALL, ids=[name or '__init__' for name, _ in ALL])
def test_imports_go_downward(name, path):
    """Each module imports only its own part and the parts below it."""
    if not name:
        return
    part = part_of(name)
    allowed = LAYERS[part] | {part}
    wrong = sorted(module for module in imported(path)
                   if module.startswith('twobone_ik_ros.')
                   and part_of(module[len('twobone_ik_ros.'):]) not in allowed)
    assert not wrong, f'{name} ({part}) imports above or beside its layer: {wrong}'


PURE = [(name, path) for name, path in ALL
        if name and (part_of(name) in PURE_PARTS or name in PURE_MODULES)]


@pytest.mark.parametrize('name,path', PURE, ids=[name for name, _ in PURE])
def test_pure_modules_import_nothing_of_ros(name, path):
    """The solver, the model and the pure builders import the standard library and numpy."""
    foreign = sorted(module for module in imported(path)
                     if module.split('.')[0] not in sys.stdlib_module_names
                     and module.split('.')[0] not in PURE_EXTRAS
                     and not module.startswith('twobone_ik_ros'))
    assert not foreign, f'{name} is pure but imports {foreign}'


def test_the_solver_runs_without_ros():
    """Importing and using the solver in a fresh interpreter loads no ROS module."""
    code = ('import sys; from twobone_ik_ros.solver import TwoBoneIK; '
            'import twobone_ik_ros.model.urdf; '
            'r = TwoBoneIK(1.0, 0.5).solve(1.2, 0.3); assert r.theta1 is not None; '
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'rclpy', 'rosidl_parser', 'rpyutils', 'launch'} or m.endswith('_msgs')))")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         cwd=os.path.dirname(PACKAGE), check=True)
    assert out.stdout.strip() == '[]', out.stdout + out.stderr


#: the longest module docstring (lines): what the module is for; the reasoning lives in doc/
DOCSTRING_LINES = 15
#: solver.py documents the method itself, as the package promises (README, doc/solver.md)
LONG_DOCSTRINGS = {'solver'}


@pytest.mark.parametrize('name,path', ALL, ids=[name or '__init__' for name, _ in ALL])
def test_module_docstrings_say_what_a_module_is_for_in_a_few_lines(name, path):
    docstring = ast.get_docstring(ast.parse(open(path, encoding='utf-8').read(), path))
    assert docstring, f'{name} has no docstring'
    lines = len(docstring.splitlines())
    assert name in LONG_DOCSTRINGS or lines <= DOCSTRING_LINES, \
        f'{name}: a docstring of {lines} lines (the reasons belong in doc/)'
