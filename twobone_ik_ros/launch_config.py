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
What the launch files compute, without importing launch.

``launch`` and ``launch_ros`` are not installable everywhere this package is
tested, so the launch files keep only the wiring; the argument table, the
conversion of argument strings into typed values and the URDF for
robot_state_publisher live here, where tests can reach them.
"""

from __future__ import annotations

from dataclasses import dataclass
import math
from typing import Any, Dict, Mapping, Optional, Tuple

from twobone_ik_ros.parameters import DEFAULTS
from twobone_ik_ros.urdf import arm_urdf


@dataclass(frozen=True)
class LaunchArgument:
    """One ``DeclareLaunchArgument`` of ``launch/twobone_ik.launch.py``."""

    name: str
    default: str
    description: str
    choices: Tuple[str, ...] = ()


BOOLEAN = ('true', 'false')

LAUNCH_ARGUMENTS: Tuple[LaunchArgument, ...] = (
    LaunchArgument('r1', repr(DEFAULTS['r1']), 'Length of link 1 (shoulder to elbow), metres.'),
    LaunchArgument('r2', repr(DEFAULTS['r2']), 'Length of link 2 (elbow to tip), metres.'),
    LaunchArgument('elbow', DEFAULTS['elbow'], 'Elbow branch.', ('up', 'down', 'closest')),
    LaunchArgument('unreachable', DEFAULTS['unreachable'],
                   'What to do with out-of-reach targets.', ('clamp', 'reject')),
    LaunchArgument('base_frame', DEFAULTS['base_frame'],
                   'Frame of the shoulder; the arm moves in its XY plane.'),
    LaunchArgument('namespace', '', 'Namespace of the IK node and robot_state_publisher.'),
    LaunchArgument('target_topic', 'target',
                   'Topic the IK node takes targets from (relative names are namespaced); '
                   "RViz's Publish Point tool is remapped to it."),
    LaunchArgument('rviz', 'false', 'Start RViz with the package configuration.', BOOLEAN),
    LaunchArgument('robot_state_publisher', 'true',
                   "Start robot_state_publisher with the generated URDF (false when the arm's "
                   'own bringup already runs one).', BOOLEAN),
    LaunchArgument('params_file', '',
                   'YAML parameter file for the IK node (for example config/twobone_ik.yaml). '
                   'Its values are applied first; the arguments above override them.'),
)


def node_parameters(values: Mapping[str, str]) -> Dict[str, Any]:
    """
    Typed IK node parameters from launch argument strings.

    ``r1:=1`` arrives as the string '1'; it is passed on as the double 1.0.
    Raises ValueError naming the argument when a length is not a number.
    """
    typed: Dict[str, Any] = {}
    for name in ('r1', 'r2'):
        try:
            typed[name] = float(values[name])
        except ValueError:
            raise ValueError(f'launch argument {name} must be a number, got {values[name]!r}')
    for name in ('elbow', 'unreachable', 'base_frame'):
        typed[name] = values[name]
    return typed


def robot_description(values: Mapping[str, str],
                      file_parameters: Optional[Mapping[str, Any]] = None) -> str:
    """
    Return the URDF for robot_state_publisher, matching the node's arm.

    Joint names and limits are not launch arguments; they come from the
    parameter file when it sets them, so the model and the node agree.
    """
    typed = node_parameters(values)
    params = dict(file_parameters or {})

    def limits(name: str) -> Tuple[float, float]:
        lower, upper = params.get(name, (-math.pi, math.pi))
        return (float(lower), float(upper))

    return arm_urdf(
        typed['r1'], typed['r2'],
        joint_names=tuple(params.get('joint_names', DEFAULTS['joint_names'])),
        shoulder_limits=limits('shoulder_limits'), elbow_limits=limits('elbow_limits'),
        base_frame=typed['base_frame'])


def read_parameter_file(path: str, node_name: str = 'twobone_ik') -> Dict[str, Any]:
    """
    Return the IK node's parameters from a ROS 2 YAML parameter file ('' gives {}).

    Reads the ``/**`` wildcard section and the node's own sections, in the
    order rcl applies them (the more specific name wins).
    """
    if not path:
        return {}
    import yaml

    with open(path, encoding='utf-8') as stream:
        document = yaml.safe_load(stream) or {}
    merged: Dict[str, Any] = {}
    for key in ('/**', node_name, '/' + node_name):
        section = document.get(key) or {}
        merged.update(section.get('ros__parameters') or {})
    return merged
