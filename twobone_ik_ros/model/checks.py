"""
The checks a parameter's values pass: what ``validate`` accepts and makes of them.

Each ``Check`` says its rule in words (for ``ros2 param describe`` and the
docs), its range or choices where it has them (declared with the parameter),
and turns a raw value into what the configuration holds, or raises
``ValueError`` naming the parameter and the value.  The table
(``parameter_table``) gives each parameter one.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, List, Optional, Tuple, Type

from twobone_ik_ros.ik.vocabulary import enum_value
from twobone_ik_ros.solver import LINK_LENGTH_RANGE


@dataclass(frozen=True)
class Check:
    """A parameter's values: what ``validate`` accepts and what it makes of them."""

    #: the rule, for ``ros2 param describe`` and the docs
    constraints: str

    @property
    def limits(self) -> Optional[Tuple[float, float]]:
        """Return (from, to) of a double, declared as its FloatingPointRange (or None)."""
        return None

    @property
    def choices(self) -> Tuple[str, ...]:
        """Return the values a string may take (empty: any the rule allows)."""
        return ()

    def __call__(self, name: str, value: Any) -> Any:
        """Return ``value`` as the configuration holds it; ValueError naming ``name`` if bad."""
        raise NotImplementedError


@dataclass(frozen=True)
class InRange(Check):
    """A number within [low, high], held as a float."""

    low: float = 0.0
    high: float = 0.0

    @classmethod
    def of(cls, low: float, high: float, noun: str) -> InRange:
        """Return the check of ``low <= noun <= high``."""
        return cls(f'{low:g} <= {noun} <= {high:g}', low, high)

    @property
    def limits(self) -> Optional[Tuple[float, float]]:
        """Return the range."""
        return (self.low, self.high)

    def __call__(self, name: str, value: Any) -> float:
        """Return the number, or raise naming the range."""
        number = _number(name, value)
        if not self.low <= number <= self.high:
            raise ValueError(
                f'{name} must lie in [{self.low:g}, {self.high:g}], got {number!r}')
        return number


@dataclass(frozen=True)
class Length(Check):
    """A link length: a number here, its range the solver's (``TwoBoneIK`` judges it)."""

    @property
    def limits(self) -> Optional[Tuple[float, float]]:
        """Return the solver's range of link lengths."""
        return LINK_LENGTH_RANGE

    def __call__(self, name: str, value: Any) -> float:
        """Return the number."""
        return _number(name, value)


@dataclass(frozen=True)
class OneOf(Check):
    """One of an enum's values, held as the member."""

    kind: Type[Enum]

    @classmethod
    def of(cls, kind: Type[Enum]) -> OneOf:
        """Return the check of ``kind``'s values."""
        return cls('one of ' + ', '.join(member.value for member in kind), kind)

    @property
    def choices(self) -> Tuple[str, ...]:
        """Return the enum's values."""
        return tuple(member.value for member in self.kind)

    def __call__(self, name: str, value: Any) -> Any:
        """Return the member, or raise naming the choices."""
        return enum_value(self.kind, value, name)


@dataclass(frozen=True)
class FrameId(Check):
    """A tf2 frame id (no leading slash, no spaces); with ``empty``, also ''."""

    empty: bool = False

    def __call__(self, name: str, value: Any) -> str:
        """Return the frame id."""
        if self.empty and value == '':
            return ''
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f'{name} must be a non-empty frame id, got {value!r}')
        if value.startswith('/') or any(c.isspace() for c in value):
            raise ValueError(
                f'{name} must be a tf2 frame id (no leading slash, no spaces), got {value!r}')
        return value


@dataclass(frozen=True)
class NodeName(Check):
    """A node name or ''."""

    def __call__(self, name: str, value: Any) -> str:
        """Return the name."""
        if not isinstance(value, str) or any(c.isspace() for c in value):
            raise ValueError(f'{name} must be a node name or empty, got {value!r}')
        return value


@dataclass(frozen=True)
class NamePair(Check):
    """Two distinct non-empty names."""

    def __call__(self, name: str, value: Any) -> Tuple[str, str]:
        """Return the two names."""
        names = _as_list(value)
        if (names is None or len(names) != 2
                or not all(isinstance(n, str) and n.strip() for n in names)):
            raise ValueError(f'{name} must be two non-empty names, got {value!r}')
        if names[0] == names[1]:
            raise ValueError(f'{name} must be distinct, got {value!r}')
        return (names[0], names[1])


@dataclass(frozen=True)
class AnglePair(Check):
    """[min, max] of a joint: two numbers here, the range the solver's (``JointLimits``)."""

    def __call__(self, name: str, value: Any) -> Tuple[float, float]:
        """Return the two numbers."""
        items = _as_list(value)
        if items is None or len(items) != 2:
            raise ValueError(f'{name} must be two numbers [min, max], got {value!r}')
        return (_number(name, items[0]), _number(name, items[1]))


def _number(name: str, value: Any) -> float:
    """Return a number (not a bool) as a float; raise naming ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f'{name} must be a number, got {value!r}')
    return float(value)


def _as_list(value: Any) -> Optional[List[Any]]:
    """Items of a list, tuple or array.array (rclpy's double arrays); else None."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, array)):
        return None
    return list(value)
