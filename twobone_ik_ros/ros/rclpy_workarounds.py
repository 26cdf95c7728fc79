"""
The one place the package touches rclpy below its public API, and why.

- ``accept_message_info_pairs``: rclpy 7.1's and 9.1's EventsExecutor calls a
  subscription callback that takes its MessageInfo with one argument, the
  (message, info) pair, and fails (``SystemError: null argument to internal
  routine``); the node needs the info to count the targets lost on the way.
- ``rclpy_error``: rclpy raises rcl's errors as ``RCLError``, which it does not
  export; SROS2 refusing an entity is one, and the node must tell it apart.
- ``parameter_overrides``: rclpy checks an override's type when the parameter
  is declared and has no public view of the overrides; the node turns an
  integer given for a double (``-p r1:=2``) into that double before then.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Dict, Type


def accept_message_info_pairs(subscription: Any) -> None:
    """
    Let ``subscription``'s callback, which takes (message, info), be called either way.

    With the pair as one argument (the EventsExecutor above) or as two
    (rclpy's other executors).  Setting ``callback`` makes rclpy look its
    type up again from the wrapper's signature, so the type is set back.
    """
    callback, kind = subscription.callback, subscription._callback_type

    def either(*taken: Any) -> Any:
        if len(taken) == 1 and isinstance(taken[0], tuple):
            return callback(*taken[0])
        return callback(*taken)

    subscription.callback = either
    subscription._callback_type = kind


def rclpy_error() -> Type[Exception]:
    """Return the exception rclpy raises for an error of rcl (``RCLError``)."""
    from rclpy.impl.implementation_singleton import rclpy_implementation

    return rclpy_implementation.RCLError  # type: ignore[no-any-return]


def parameter_overrides(node: Any) -> Dict[str, Any]:
    """Return ``node``'s parameter overrides by name, to change in place (Humble to Rolling)."""
    return node._parameter_overrides if hasattr(node, '_parameter_overrides') else {}
