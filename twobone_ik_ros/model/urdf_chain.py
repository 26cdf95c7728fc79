"""
The kinematic chain between two links of a URDF, read as robot_state_publisher reads it.

``read_chain(text, base_link, tip_link)`` walks the tree from ``tip_link``
up to ``base_link`` and returns the joints in between, each with its
origin, axis, type and limits: what a KDL chain is made of; ``planar_arm``
turns it into the arm the solver works on.  URDF's rules as urdfdom applies
them (``<origin>`` defaults to zero, rpy about the parent's fixed axes,
``<axis>`` defaults to ``1 0 0`` and is normalised, a revolute joint needs a
``<limit>``).  Anything that stops the chain from being read raises
``DescriptionError`` naming the links and joints and what is wrong, whatever
the bytes (fuzzed in the suite); a document that declares entities is
refused (expanding them makes a small message huge).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from dataclasses import dataclass
import math
import re
from typing import Dict, List, Optional, Tuple
from xml.etree import ElementTree
from xml.parsers import expat

Vector = Tuple[float, float, float]

#: the joint types of URDF; the first two turn, the rest do not or move otherwise
TURNING = ('revolute', 'continuous')
JOINT_TYPES = TURNING + ('fixed', 'prismatic', 'floating', 'planar')
#: a decimal number as urdfdom reads one (no Python-only forms such as 1_000)
_NUMBER = re.compile(r'[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z')


class DescriptionError(ValueError):
    """A robot description the node cannot use; the message says which part and why."""


@dataclass(frozen=True)
class Limit:
    """A joint's ``<limit>``: position bounds (None for a continuous joint) and velocity."""

    lower: Optional[float]
    upper: Optional[float]
    #: rad/s; None where the file gives none or 0 (no limit)
    velocity: Optional[float]


@dataclass(frozen=True)
class Joint:
    """One joint of the chain, as the file gives it."""

    name: str
    kind: str
    parent: str
    child: str
    xyz: Vector
    rpy: Vector
    #: the unit axis in the joint's frame
    axis: Vector
    limit: Limit
    mimic: Optional[str]

    @property
    def turns(self) -> bool:
        """Tell whether the joint is revolute or continuous."""
        return self.kind in TURNING


@dataclass(frozen=True)
class Chain:
    """The joints from ``base`` down to ``tip``, in order."""

    base: str
    tip: str
    joints: Tuple[Joint, ...]
    #: the robot's name (the ``<robot name>``)
    robot: str


def read_chain(text: str, base_link: str, tip_link: str) -> Chain:
    """Return the chain from ``base_link`` down to ``tip_link`` of the URDF ``text``."""
    root = _parse(text)
    links = set()
    for element in root.findall('link'):
        name = element.get('name')
        if not name:
            raise DescriptionError('robot_description: a <link> has no name')
        if name in links:
            raise DescriptionError(f'robot_description: link {name!r} is defined twice')
        links.add(name)
    by_child: Dict[str, Joint] = {}
    names = set()
    for element in root.findall('joint'):
        joint = _joint(element)
        if joint.name in names:
            raise DescriptionError(f'robot_description: joint {joint.name!r} is defined twice')
        names.add(joint.name)
        for end in (joint.parent, joint.child):
            if end not in links:
                raise DescriptionError(
                    f'robot_description: joint {joint.name!r} names link {end!r}, '
                    'which is not defined')
        if joint.child in by_child:
            raise DescriptionError(
                f'robot_description: link {joint.child!r} is the child of two joints, '
                f'{by_child[joint.child].name!r} and {joint.name!r}')
        by_child[joint.child] = joint
    robot = root.get('name', '')
    for role, link in (('base_frame', base_link), ('tip_link', tip_link)):
        if link not in links:
            raise DescriptionError(
                f'robot_description of {robot!r} has no link {link!r} ({role}); its links: '
                + _listed(sorted(links)))
    chain: List[Joint] = []
    link = tip_link
    while link != base_link:
        above = by_child.get(link)
        if above is None:
            raise DescriptionError(
                f'tip_link {tip_link!r} is not below base_frame {base_link!r} in the tree of '
                f'robot_description {robot!r} (it hangs from {_root_of(tip_link, by_child)!r})')
        chain.append(above)
        link = above.parent
        if len(chain) > len(by_child):
            raise DescriptionError(f'robot_description: the joints above {tip_link!r} form a loop')
    chain.reverse()
    return Chain(base_link, tip_link, tuple(chain), robot)


def _parse(text: str) -> ElementTree.Element:
    """Return the ``<robot>`` element of ``text``; refuse entities and other roots."""
    if not isinstance(text, str):
        raise DescriptionError('robot_description must be text')
    builder = ElementTree.TreeBuilder()
    parser = expat.ParserCreate()
    parser.StartElementHandler = builder.start
    parser.EndElementHandler = builder.end

    def no_entities(*_: object) -> None:
        raise DescriptionError('robot_description declares an XML entity; a URDF needs none')

    parser.EntityDeclHandler = no_entities
    try:
        parser.Parse(text, True)
        root = builder.close()
    except expat.ExpatError as error:
        raise DescriptionError(f'robot_description is not well-formed XML: {error}') from None
    except UnicodeError as error:
        raise DescriptionError(f'robot_description is not valid text: {error}') from None
    except AssertionError:  # TreeBuilder: no element at all
        raise DescriptionError('robot_description holds no XML element') from None
    if root.tag != 'robot':
        raise DescriptionError(
            f'robot_description is not a URDF: its root element is <{root.tag}>, not <robot>')
    return root


def _joint(element: ElementTree.Element) -> Joint:
    name = element.get('name') or ''
    if not name:
        raise DescriptionError('robot_description: a <joint> has no name')
    kind = element.get('type') or ''
    if kind not in JOINT_TYPES:
        raise DescriptionError(f'joint {name!r} has type {kind!r}, which URDF does not define')
    ends = []
    for tag in ('parent', 'child'):
        end = element.find(tag)
        link = end.get('link') if end is not None else None
        if not link:
            raise DescriptionError(f'joint {name!r} has no <{tag} link="..."/>')
        ends.append(link)
    origin = element.find('origin')
    xyz = _vector(name, 'origin xyz', origin.get('xyz') if origin is not None else None,
                  (0.0, 0.0, 0.0))
    rpy = _vector(name, 'origin rpy', origin.get('rpy') if origin is not None else None,
                  (0.0, 0.0, 0.0))
    axis_element = element.find('axis')
    axis = _vector(name, 'axis xyz', axis_element.get('xyz') if axis_element is not None
                   else None, (1.0, 0.0, 0.0))
    norm = math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2])
    if kind in TURNING + ('prismatic',) and not norm > 0.0:
        raise DescriptionError(f'joint {name!r} has the axis 0 0 0, which has no direction')
    if norm > 0.0:
        axis = (axis[0] / norm, axis[1] / norm, axis[2] / norm)
    mimic = element.find('mimic')
    return Joint(name, kind, ends[0], ends[1], xyz, rpy, axis, _limit(name, kind, element),
                 (mimic.get('joint') or '?') if mimic is not None else None)


def _limit(name: str, kind: str, element: ElementTree.Element) -> Limit:
    limit = element.find('limit')
    if limit is None:
        if kind in ('revolute', 'prismatic'):
            raise DescriptionError(f'{kind} joint {name!r} has no <limit>')
        return Limit(None, None, None)
    velocity = _number(name, 'limit velocity', limit.get('velocity'), 0.0)
    if velocity < 0.0:
        raise DescriptionError(f'joint {name!r} has a negative velocity limit {velocity!r}')
    if kind == 'continuous':
        return Limit(None, None, velocity or None)
    lower = _number(name, 'limit lower', limit.get('lower'), 0.0)
    upper = _number(name, 'limit upper', limit.get('upper'), 0.0)
    if lower > upper:
        raise DescriptionError(f'joint {name!r} has limits lower {lower!r} > upper {upper!r}')
    return Limit(lower, upper, velocity or None)


def _number(joint: str, what: str, text: Optional[str], default: float) -> float:
    if text is None:
        return default
    value = text.strip()
    if not _NUMBER.match(value):
        raise DescriptionError(f'joint {joint!r}: {what} is {text!r}, not a number')
    number = float(value)
    if not math.isfinite(number):
        raise DescriptionError(f'joint {joint!r}: {what} {text!r} is not finite')
    return number


def _vector(joint: str, what: str, text: Optional[str], default: Vector) -> Vector:
    if text is None:
        return default
    parts = text.split()
    if len(parts) != 3:
        raise DescriptionError(f'joint {joint!r}: {what} is {text!r}, not three numbers')
    x, y, z = (_number(joint, what, part, 0.0) for part in parts)
    return (x, y, z)


def _root_of(link: str, by_child: Dict[str, Joint]) -> str:
    seen = set()
    while link in by_child and link not in seen:
        seen.add(link)
        link = by_child[link].parent
    return link


def _listed(names: List[str], most: int = 12) -> str:
    shown = ', '.join(names[:most])
    return shown + (f' and {len(names) - most} more' if len(names) > most else '')
