"""
What the controller outputs need beyond ROS and numpy, and how a user gets it.

The core (``output`` joint_states: solve, markers, robot model, paths played
back, diagnostics) runs on what a ROS install has.  Driving a controller
needs more: ruckig (each move's profile), toppra and scipy (a path's
timing; toppra imports matplotlib), and for the action output control_msgs.
``LIBRARIES`` is the one table of them: the module, the rosdep key
package.xml declares for it, and the command that installs it.  The node
imports them when a controller output comes into force (``outputs.libraries``),
the launch files look them up before they start anything (``find_spec``:
without importing), and ``test_dependencies`` checks package.xml, the rosdep
rule file and the README against this table.

Pure Python (no ROS): the refusal is built here so that the node and the
launch files say the same one line.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import importlib.util
from typing import Callable, Dict, NamedTuple, Optional, Tuple

from twobone_ik_ros.model.interface import Output

#: Where the README gives the set-up; every refusal points there.
README_SECTION = "README ('In a ROS workspace')"


class Library(NamedTuple):
    """One library a controller output needs."""

    module: str  # what is imported (the first one missing is named)
    package: str  # its name for the user: the PyPI or ROS package
    key: str  # the rosdep key package.xml declares
    install: str  # the command that installs it alone
    purpose: str  # what it is for, in a few words
    #: the library that imports it, when this package does not itself
    imported_by: str = ''


#: Every library of the controller outputs, in the order they are checked.
#: matplotlib is imported by toppra, not by this package: it is declared (and
#: checked first) so that it comes from the distribution, not from pip.
LIBRARIES: Tuple[Library, ...] = (
    Library('ruckig', 'ruckig', 'python3-ruckig-pip', 'pip install ruckig',
            "controller moves' profiles"),
    Library('scipy', 'scipy', 'python3-scipy', 'sudo apt install python3-scipy',
            "paths' splines"),
    Library('matplotlib', 'matplotlib', 'python3-matplotlib',
            'sudo apt install python3-matplotlib', 'toppra imports it', imported_by='toppra'),
    Library('toppra', 'toppra', 'python3-toppra-pip', 'pip install toppra', "paths' timing"),
    Library('control_msgs.action', 'control_msgs', 'control_msgs',
            'sudo apt install ros-$ROS_DISTRO-control-msgs',
            'the follow_joint_trajectory action'),
)
_BY_MODULE: Dict[str, Library] = {library.module: library for library in LIBRARIES}
#: The modules each output needs (its row's ``needs``), by the table's ``module``.
NEEDS: Dict[Output, Tuple[str, ...]] = {output: output.needs for output in Output}


class MissingLibrary(ValueError):
    """An output was asked for whose library is not installed; the message says how to get it."""


def findable(module: str) -> bool:
    """Tell whether ``module`` can be imported, without importing it (its package is)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package that is missing or broken
        return False


def check(output: Output, importable: Callable[[str], bool] = findable) -> None:
    """
    Raise MissingLibrary naming the first library ``output`` needs that ``importable`` refuses.

    One line: the output, the package, what it is for and the command that
    installs it (the README's rosdep commands install them all).  The first
    missing one is named: installing it may show the next.
    """
    for module in NEEDS[output]:
        if not importable(module):
            raise MissingLibrary(refusal(output, _BY_MODULE[module]))


def refusal(output: Output, library: Library) -> str:
    """Return the one line that refuses ``output`` for want of ``library``."""
    return (f'output {output.value} needs {library.package} ({library.purpose}), which is '
            f'not installed: {library.install}, or the rosdep commands of the {README_SECTION}')


def library_of(module: str) -> Optional[Library]:
    """Return the table's row of ``module`` (None for a module it does not list)."""
    return _BY_MODULE.get(module)
