"""
What control.launch.py computes: the controller an output commands, and its remaps.

control.launch.py starts the node (``twobone_ik.launch.py``, resolved by
``launch_config``) with ros2_control's controller_manager, the joint state
broadcaster and the controller the output commands (``DEFAULT_CONTROLLERS``,
from the outputs' table, ``model.interface.Output``), or the one
``controller`` names: each a function the launch tests call alone.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, Optional, Tuple

from twobone_ik_ros.bringup.launch_config import (
    controller_remappings, defaults_of, LaunchError, resolve_launch, ResolvedLaunch,
    temporary_file)
from twobone_ik_ros.model.dependencies import findable
from twobone_ik_ros.model.interface import Output
import yaml

#: The controller control.launch.py commands for each controller output unless
#: ``controller`` names another: its row's, a name config/controllers.yaml gives.
DEFAULT_CONTROLLERS = {output: output.controller for output in Output if output.controller}
#: Where to get what control.launch.py starts besides this package.
ROS2_CONTROL_HINT = 'install ros-$ROS_DISTRO-ros2-control and ros-$ROS_DISTRO-ros2-controllers'


def __getattr__(name: str) -> Any:
    """``CONTROL_DEFAULTS``: what control.launch.py declares over twobone_ik.launch.py."""
    if name == 'CONTROL_DEFAULTS':
        return defaults_of('control.launch.py')
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')


def controllers_joints_file(joints: Tuple[str, str]) -> str:
    """Write the package's controllers' joints as the arm's: a parameters file, removed at exit."""
    sections = {f'/**/{controller}': {'ros__parameters': {'joints': list(joints)}}
                for controller in set(DEFAULT_CONTROLLERS.values())}
    return temporary_file(yaml.safe_dump(sections), 'twobone_ik_controllers_', '.yaml')


def controller_joints(resolved: ResolvedLaunch) -> Optional[Tuple[str, str]]:
    """Return the joints the package's controllers.yaml must name for this arm (None: its own)."""
    return resolved.config.joint_names if resolved.from_file else None


@dataclass(frozen=True)
class ResolvedControl:
    """What control.launch.py starts besides ``twobone_ik.launch.py`` (``launch``)."""

    launch: ResolvedLaunch
    controller_manager: str
    #: the commanded controller, passed on as the ``controller`` argument
    controller: str
    #: controllers to spawn (activated): the broadcaster, then the commanded one
    spawn: Tuple[str, ...]
    packages: Tuple[Tuple[str, str], ...]
    #: pass robot_description as a parameter too (Humble's controller_manager reads that)
    description_parameter: bool


def resolve_control(values: Mapping[str, str], ros_distro: str,
                    importable: Callable[[str], bool] = findable) -> ResolvedControl:
    """Resolve control.launch.py's arguments; raise LaunchError if the arm cannot be driven."""
    resolved = resolve_launch(values, importable)
    output = resolved.config.output
    if not output.drives_controller:
        raise LaunchError('control.launch.py drives a controller: output must be one of '
                          + ', '.join(output.value for output in DEFAULT_CONTROLLERS))
    controller = values['controller']
    if not controller:  # the yaml's controller, remapped as if it had been given
        controller = DEFAULT_CONTROLLERS[output]
        resolved = replace(resolved, remappings=resolved.remappings
                           + controller_remappings(output, controller))
    if values['robot_state_publisher'] == 'false' or values['ros2_control'] != 'true':
        raise LaunchError('control.launch.py needs robot_state_publisher:=true and '
                          'ros2_control:=true: controller_manager reads the URDF it publishes')
    if resolved.from_file and '<ros2_control' not in resolved.robot_description:
        raise LaunchError(f'description_file {values["description_file"]!r} has no '
                          '<ros2_control> block: controller_manager needs one (its hardware and '
                          "the joints' interfaces)")
    manager = (f'/{resolved.namespace}/controller_manager' if resolved.namespace
               else '/controller_manager')
    return ResolvedControl(
        launch=resolved, controller_manager=manager, controller=controller,
        spawn=('joint_state_broadcaster', controller.strip('/').rsplit('/', 1)[-1]),
        packages=(('controller_manager', ROS2_CONTROL_HINT),) + resolved.packages,
        description_parameter=ros_distro == 'humble')
