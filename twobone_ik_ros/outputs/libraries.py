"""
The controller outputs' libraries, imported when one comes into force.

``require`` imports what ``model.dependencies.NEEDS`` lists for an output
(ruckig, scipy, matplotlib, toppra, and control_msgs for the action) and
refuses the output in one line when one cannot be imported: the node calls
it before a configuration takes effect, at start (exit code 2) and for a
runtime change (the parameter set is refused, the output stays).  Importing
them here, not with the package, keeps the core (``joint_states``) on ROS
and numpy alone, and moves toppra's second of start-up (it loads scipy and
matplotlib) out of the first path's callback.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import importlib

from twobone_ik_ros.model.dependencies import check, NEEDS
from twobone_ik_ros.model.interface import Output
from twobone_ik_ros.motion.path_timing import load_path_timing


def importable(module: str) -> bool:
    """Import ``module``; tell whether that worked (a broken install counts as missing)."""
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def require(output: Output) -> None:
    """Import what ``output`` needs; raise ``MissingLibrary`` (a ValueError) naming what is not."""
    check(output, importable)
    if 'toppra' in NEEDS[output]:
        load_path_timing()  # toppra's logging, set once
