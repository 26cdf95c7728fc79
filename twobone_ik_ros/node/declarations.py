"""
The parameter table as rclpy declarations: descriptors, and integers taken as doubles.

Every parameter is declared from ``model.parameter_table.PARAMETERS`` with dynamic
typing, so whatever a user sends reaches ``validate``, and a double given as
an integer (``r1:=2``, ``ros2 param set /twobone_ik r1 2``) is stored as the
double it means: before it is set where rclpy has pre-set callbacks (Iron
on), just after it is set on Humble.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Iterable, List

from rcl_interfaces.msg import FloatingPointRange, ParameterDescriptor, SetParametersResult
from rclpy.node import Node
from rclpy.parameter import Parameter
from twobone_ik_ros.model.config import IKConfig, validate
from twobone_ik_ros.model.parameter_table import (
    as_double, PARAMETER_NAMES, PARAMETERS, ParameterSpec)


def declare_parameters(node: Node) -> IKConfig:
    """Declare every parameter on ``node`` and return them validated (ValueError if not)."""
    for spec in PARAMETERS:
        node.declare_parameter(spec.name, spec.default, descriptor(spec))
    values = {name: node.get_parameter(name).value for name in PARAMETER_NAMES}
    config = validate(values)
    # r1:=2 arrives as an INTEGER; store it as the double it means
    node.set_parameters(integers_as_doubles(node.get_parameters(PARAMETER_NAMES)))
    if hasattr(node, 'add_pre_set_parameters_callback'):  # Iron on
        node.add_pre_set_parameters_callback(doubles_as_doubles)
    else:  # Humble
        node.add_on_set_parameters_callback(
            lambda parameters: store_doubles_once_set(node, parameters))
    return config


def descriptor(spec: ParameterSpec) -> Any:
    """
    Build the rcl_interfaces ParameterDescriptor for ``spec``.

    Every parameter is declared with dynamic typing, so that whatever a user
    sends reaches ``validate``: ``r1:=1`` (an INTEGER) is accepted and stored
    as a double (see ``as_double``), and a value of the wrong type is refused
    with a reason that names the parameter, which rclpy's own type check does
    not say.
    """
    text = f'{spec.description} Constraints: {spec.constraints}.'
    ranges = [] if spec.limits is None else [
        FloatingPointRange(from_value=spec.limits[0], to_value=spec.limits[1], step=0.0)]
    return ParameterDescriptor(description=text, additional_constraints=spec.constraints,
                               dynamic_typing=True, floating_point_range=ranges)


def integers_as_doubles(parameters: Iterable[Parameter[Any]]) -> List[Parameter[Any]]:
    """Return those of ``parameters`` that hold an integer for a double, as that double."""
    return [Parameter(p.name, Parameter.Type.DOUBLE, float(p.value))
            for p in parameters if as_double(p.name, p.value) is not p.value]


def doubles_as_doubles(parameters: List[Parameter[Any]]) -> List[Parameter[Any]]:
    """Pre-set callback: ``ros2 param set /twobone_ik r1 2`` stores the double 2.0."""
    doubled = {p.name: p for p in integers_as_doubles(parameters)}
    return [doubled.get(p.name, p) for p in parameters]


def store_doubles_once_set(node: Node, parameters: List[Parameter[Any]]) -> SetParametersResult:
    """
    On-set callback (Humble, which has no pre-set one): store integers set as doubles after.

    The set goes on as it came (this callback refuses nothing; the node's
    own validation decides); a one-shot timer then stores as a double each
    of those parameters that still holds an integer, that is, whose set
    succeeded.  The next callback the node runs is that timer: a reader
    that asks after the set's answer reads the double.
    """
    names = [p.name for p in integers_as_doubles(parameters)]
    if names:
        timers: List[Any] = []

        def store() -> None:
            node.destroy_timer(timers[0])
            node.set_parameters(integers_as_doubles(node.get_parameters(names)))

        timers.append(node.create_timer(0.0, store))
    return SetParametersResult(successful=True)


def describe(config: IKConfig) -> str:
    """Return ``config`` as ``name=value`` pairs, for the node's log."""
    return ', '.join(f'{key}={value}' for key, value in config.as_parameters().items())
