"""
What control.launch.py computes: the controller an output commands, and its files.

control.launch.py starts the node (``twobone_ik.launch.py``, planned by
``launch_config``) with ros2_control's controller_manager, the joint state
broadcaster and the controller the output commands (``DEFAULT_CONTROLLERS``,
from the outputs' table, ``model.interface.Output``), or the one
``controller`` names.  ``plan_control`` checks; the small functions after it
are what its ``Node`` actions read (``bringup.actions.Computed``).
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
import os
from typing import Callable, Dict, Mapping, Optional, Tuple

from twobone_ik_ros.bringup.launch_config import (
    controller_remappings, enclave, LaunchError, LaunchPlan, plan_launch, planned,
    temporary_file)
from twobone_ik_ros.model.dependencies import findable
from twobone_ik_ros.model.interface import Output
import yaml

#: The controller control.launch.py commands for each controller output unless
#: ``controller`` names another: its row's, a name config/controllers.yaml gives.
DEFAULT_CONTROLLERS = {output: output.controller for output in Output if output.controller}
#: Where to get what control.launch.py starts besides this package.
ROS2_CONTROL_HINT = 'install ros-$ROS_DISTRO-ros2-control and ros-$ROS_DISTRO-ros2-controllers'


@dataclass(frozen=True)
class ControlPlan:
    """What control.launch.py starts besides ``twobone_ik.launch.py`` (``launch``)."""

    launch: LaunchPlan
    controller_manager: str
    #: the commanded controller, passed on as the ``controller`` argument
    controller: str
    #: controllers to spawn (activated): the broadcaster, then the commanded one
    spawn: Tuple[str, ...]
    packages: Tuple[Tuple[str, str], ...]
    #: pass robot_description as a parameter too (Humble's controller_manager reads that)
    description_parameter: bool


def plan_control(values: Mapping[str, str], ros_distro: str,
                 importable: Callable[[str], bool] = findable) -> ControlPlan:
    """Resolve control.launch.py's arguments; raise LaunchError if the arm cannot be driven."""
    return _control_of(values, plan_launch(values, importable), ros_distro)


def _control_of(values: Mapping[str, str], resolved: LaunchPlan, ros_distro: str) -> ControlPlan:
    """Return what control.launch.py starts for the node's plan ``resolved``."""
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
    return ControlPlan(
        launch=resolved, controller_manager=manager, controller=controller,
        spawn=('joint_state_broadcaster', controller.strip('/').rsplit('/', 1)[-1]),
        packages=(('controller_manager', ROS2_CONTROL_HINT),) + resolved.packages,
        description_parameter=ros_distro == 'humble')


def controller_joints(plan: LaunchPlan) -> Optional[Tuple[str, str]]:
    """Return the joints the package's controllers.yaml must name for this arm (None: its own)."""
    return plan.config.joint_names if plan.from_file else None


def planned_control(values: Mapping[str, str]) -> ControlPlan:
    """Return ``plan_control`` for this ROS_DISTRO on the node's plan kept by ``planned``."""
    return _control_of(values, planned(values), os.environ.get('ROS_DISTRO', ''))


def controller(values: Mapping[str, str]) -> str:
    """Return the controller the output commands: ``controller``, else the output's default."""
    return planned_control(values).controller


def spawned(values: Mapping[str, str]) -> str:
    """Return the commanded controller's node name, as its spawner takes it."""
    return planned_control(values).spawn[-1]


def spawner_enclave(values: Mapping[str, str]) -> str:
    """Return the enclave of the commanded controller's spawner."""
    return enclave(values, f'spawner_{spawned(values)}')


def controller_manager(values: Mapping[str, str]) -> str:
    """Return the controller_manager's full name, as the spawners take it."""
    return planned_control(values).controller_manager


def controllers_file(values: Mapping[str, str]) -> str:
    """Return the controllers file: ``controllers_file`` as given, else the package's."""
    from ament_index_python.packages import get_package_share_directory

    return values['controllers_file'] or os.path.join(
        get_package_share_directory('twobone_ik_ros'), 'config', 'controllers.yaml')


def controller_overrides(values: Mapping[str, str]) -> str:
    """
    Write what controller_manager gets after the controllers file; return the file's path.

    The arm's joints for the package's controllers (a description_file's arm,
    no controllers_file), and robot_description on Humble, whose
    controller_manager reads it as a parameter; else no values.
    """
    plan = planned_control(values)
    sections: Dict[str, Dict[str, Dict[str, object]]] = {}
    joints = controller_joints(plan.launch)
    if joints is not None and not values['controllers_file']:
        sections.update({f'/**/{name}': {'ros__parameters': {'joints': list(joints)}}
                         for name in sorted(set(DEFAULT_CONTROLLERS.values()))})
    if plan.description_parameter:
        sections['/**/controller_manager'] = {
            'ros__parameters': {'robot_description': plan.launch.robot_description}}
    return temporary_file(yaml.safe_dump(sections or {'/**': {'ros__parameters': {}}}),
                          'twobone_ik_controllers_', '.yaml')
