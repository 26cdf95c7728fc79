"""
The parameter table as rclpy declarations: typed descriptors, and integers taken as doubles.

Every parameter is declared with its type (``ros2 param describe`` shows it,
and rclpy refuses a value of another type with its own message) and, for a
double, its range.  What the type cannot say (a choice, a frame id, a pair
of limits) the node's ``validate`` judges.  One leniency, the same in the
launch files (``parameter_table.as_double``): a double given as an integer
(``r1:=2``, ``shoulder_limits:=[-3, 3]``) is the double it means.  At start
the overrides are read before the declarations; at runtime a pre-set
callback turns it into a double before rclpy's type check (Iron on: Humble
has no pre-set callbacks, so there rclpy refuses ``ros2 param set
/twobone_ik r1 2`` as of the wrong type, and ``r1 2.0`` is the way).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Dict, Iterable, List

from rcl_interfaces.msg import FloatingPointRange, ParameterDescriptor, ParameterType
from rclpy.node import Node
from rclpy.parameter import Parameter
from twobone_ik_ros.model.config import IKConfig, validate
from twobone_ik_ros.model.parameter_table import (
    as_double, PARAMETER_NAMES, PARAMETERS, ParameterSpec)
from twobone_ik_ros.ros.rclpy_workarounds import parameter_overrides

#: the table's kinds as ROS parameter types
TYPES = {'double': ParameterType.PARAMETER_DOUBLE, 'string': ParameterType.PARAMETER_STRING,
         'double_array': ParameterType.PARAMETER_DOUBLE_ARRAY,
         'string_array': ParameterType.PARAMETER_STRING_ARRAY}


def declare_parameters(node: Node) -> IKConfig:
    """Declare every parameter on ``node`` and return them validated (ValueError if not)."""
    _take_integer_overrides_as_doubles(node)
    for spec in PARAMETERS:
        node.declare_parameter(spec.name, spec.default, descriptor(spec))
    config = validate({name: node.get_parameter(name).value for name in PARAMETER_NAMES})
    if hasattr(node, 'add_pre_set_parameters_callback'):  # Iron on
        node.add_pre_set_parameters_callback(doubles_as_doubles)
    return config


def _take_integer_overrides_as_doubles(node: Node) -> None:
    """
    Turn the overrides that give a double as an integer (``-p r1:=2``) into that double.

    rclpy checks an override's type when the parameter is declared and runs
    no callback first, and has no public view of the overrides
    (``rclpy_workarounds.parameter_overrides``): read here before the declarations.
    """
    overrides: Dict[str, Any] = parameter_overrides(node)
    for parameter in integers_as_doubles(list(overrides.values())):
        overrides[parameter.name] = parameter


def descriptor(spec: ParameterSpec) -> Any:
    """Build the rcl_interfaces ParameterDescriptor for ``spec``: its type, range and rule."""
    text = f'{spec.description} Constraints: {spec.constraints}.'
    ranges = [] if spec.limits is None else [
        FloatingPointRange(from_value=spec.limits[0], to_value=spec.limits[1], step=0.0)]
    return ParameterDescriptor(description=text, additional_constraints=spec.constraints,
                               type=TYPES[spec.kind], floating_point_range=ranges)


def integers_as_doubles(parameters: Iterable[Parameter[Any]]) -> List[Parameter[Any]]:
    """Return those of ``parameters`` that hold integers for a double (array), as doubles."""
    doubled = []
    for parameter in parameters:
        value = as_double(parameter.name, parameter.value)
        if value is not parameter.value:
            kind = (Parameter.Type.DOUBLE if isinstance(value, float)
                    else Parameter.Type.DOUBLE_ARRAY)
            doubled.append(Parameter(parameter.name, kind, value))
    return doubled


def doubles_as_doubles(parameters: List[Parameter[Any]]) -> List[Parameter[Any]]:
    """Pre-set callback: ``ros2 param set /twobone_ik r1 2`` stores the double 2.0."""
    doubled = {p.name: p for p in integers_as_doubles(parameters)}
    return [doubled.get(p.name, p) for p in parameters]


def describe(config: IKConfig) -> str:
    """Return ``config`` as ``name=value`` pairs, for the node's log."""
    return ', '.join(f'{key}={value}' for key, value in config.as_parameters().items())
