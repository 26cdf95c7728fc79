"""
The pieces the launch files are made of beside launch's own: declared arguments, computed values.

``declare`` gives a launch file the arguments of ``bringup.arguments`` with
its own defaults; ``pass_on`` hands every one to an included launch file by
name, so no value depends on which file declared it first; ``Computed`` is a
substitution that runs one of ``launch_config``'s small functions on the
arguments' values when a ``Node`` starts.  Only the launch files import it.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Callable, List, Mapping, Optional, Tuple

from launch import Substitution
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from twobone_ik_ros.bringup.arguments import ARGUMENT_NAMES, ARGUMENTS
from twobone_ik_ros.bringup.launch_config import launch_values


def declare(defaults: Optional[Mapping[str, str]] = None,
            descriptions: Optional[Mapping[str, str]] = None) -> List[DeclareLaunchArgument]:
    """Return a ``DeclareLaunchArgument`` per argument, with these ``defaults`` and texts."""
    defaults = defaults or {}
    descriptions = descriptions or {}
    unknown = set(defaults) - set(ARGUMENT_NAMES)
    if unknown:
        raise ValueError(f'not launch arguments: {sorted(unknown)}')
    return [DeclareLaunchArgument(
        argument.name, default_value=defaults.get(argument.name, argument.default),
        description=descriptions.get(argument.name, argument.description),
        **({'choices': list(argument.choices)} if argument.choices else {}))
        for argument in ARGUMENTS]


def pass_on(**given: Any) -> List[Tuple[str, Any]]:
    """Return every argument's value for ``IncludeLaunchDescription``, ``given`` ones replaced."""
    return [(name, given.get(name, LaunchConfiguration(name))) for name in ARGUMENT_NAMES]


class Computed(Substitution):
    """A value computed from the launch arguments by ``function(values, *args)`` (a string)."""

    def __init__(self, function: Callable[..., str], *args: str) -> None:
        """Keep ``function`` (one of ``launch_config``'s) and its further arguments."""
        super().__init__()
        self.function = function
        self.args = args

    def describe(self) -> str:
        """Name the function, as ``ros2 launch --print`` shows a substitution."""
        return f"Computed({self.function.__name__}{''.join(', ' + a for a in self.args)})"

    def perform(self, context: Any) -> str:
        """Run the function on this launch's argument values."""
        return self.function(launch_values(context), *self.args)
