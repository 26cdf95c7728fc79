"""
The kinematic chain between two links of a URDF, read as robot_state_publisher reads it.

``read_chain(text, base_link, tip_link)`` parses the text with ROS's
urdf_parser_py (``urdfdom_py``), walks the tree from ``tip_link`` up to
``base_link`` and returns the joints in between, each with its origin, axis,
type and limits: what a KDL chain is made of; ``planar_arm`` turns it into
the arm the solver works on.  What urdf_parser_py lets through and urdfdom
refuses is refused here too (a revolute joint without ``<limit>``, a name
defined twice, a link that is the child of two joints, a zero axis), and the
walk is bounded (``get_chain`` would loop forever on joints forming a loop).
Anything that stops the chain from being read raises ``DescriptionError``
naming what is wrong, whatever the bytes (fuzzed in the suite); a document
that declares entities is refused (expanding them makes a small message huge).
urdf_parser_py and lxml are imported when a description is read: the display
of the arm r1 and r2 describe needs ROS and numpy alone.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
import math
from typing import Any, Dict, Iterator, List, Optional, Sequence, Set, Tuple

Vector = Tuple[float, float, float]

#: the joint types of URDF; the first two turn, the rest do not or move otherwise
TURNING = ('revolute', 'continuous')
JOINT_TYPES = TURNING + ('fixed', 'prismatic', 'floating', 'planar')


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
    robot = _parse(text)
    links = _unique('link', [link.name for link in robot.links])
    _unique('joint', [joint.name for joint in robot.joints])
    by_child: Dict[str, Joint] = {}
    for element in robot.joints:
        joint = _joint(element)
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
    name = robot.name or ''
    for role, link in (('base_frame', base_link), ('tip_link', tip_link)):
        if link not in links:
            raise DescriptionError(
                f'robot_description of {name!r} has no link {link!r} ({role}); its links: '
                + _listed(sorted(links)))
    chain: List[Joint] = []
    link = tip_link
    while link != base_link:
        above = by_child.get(link)
        if above is None:
            raise DescriptionError(
                f'tip_link {tip_link!r} is not below base_frame {base_link!r} in the tree of '
                f'robot_description {name!r} (it hangs from {_root_of(tip_link, by_child)!r})')
        chain.append(above)
        link = above.parent
        if len(chain) > len(by_child):
            raise DescriptionError(f'robot_description: the joints above {tip_link!r} form a loop')
    chain.reverse()
    return Chain(base_link, tip_link, tuple(chain), name)


@contextmanager
def _quiet(xml_reflection: Any) -> Iterator[None]:
    """
    Keep urdf_parser_py's warnings off stderr while it reads.

    It writes one line per tag or attribute it does not know (a <gazebo>
    block, a vendor's extension), which robot_state_publisher accepts
    silently; the node would print them for every description it is sent.
    """
    said = xml_reflection.on_error
    xml_reflection.on_error = lambda message: None
    try:
        yield
    finally:
        xml_reflection.on_error = said


def _parse(text: str) -> Any:
    """Return urdf_parser_py's robot of ``text``; refuse entities and other roots."""
    if not isinstance(text, str):
        raise DescriptionError('robot_description must be text')
    try:
        from lxml import etree
        from urdf_parser_py import urdf as urdf_parser
        from urdf_parser_py.xml_reflection import core as xml_reflection
    except ImportError as error:
        raise DescriptionError(
            f'reading a URDF needs urdf_parser_py ({error.name} is not installed): sudo apt '
            'install ros-$ROS_DISTRO-urdfdom-py, or the rosdep commands of the README') from None
    # no entities expanded, nothing fetched: the text is all there is
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    try:
        # bytes: lxml refuses a str that carries an encoding declaration, as xacro's output can
        root = etree.fromstring(text.encode('utf-8'), parser)
    except etree.XMLSyntaxError as error:
        raise DescriptionError(f'robot_description is not well-formed XML: {error}') from None
    except (UnicodeError, ValueError) as error:
        raise DescriptionError(f'robot_description is not valid text: {error}') from None
    dtd = root.getroottree().docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise DescriptionError('robot_description declares an XML entity; a URDF needs none')
    if root.tag != 'robot':
        raise DescriptionError(
            f'robot_description is not a URDF: its root element is <{root.tag}>, not <robot>')
    try:
        with _quiet(xml_reflection):
            return urdf_parser.URDF.from_xml(
                root, xml_reflection.Path('robot', tree=etree.ElementTree(root)))
    except Exception as error:  # noqa: B902  (it raises what its readers raise, Exception too)
        raise DescriptionError(f'robot_description is not a URDF urdf_parser_py reads: '
                               f'{type(error).__name__}: {error}') from None


def _unique(kind: str, names: Sequence[Optional[str]]) -> Set[str]:
    """Return the set of ``names``; refuse a missing or a twice-defined one."""
    seen: Set[str] = set()
    for name in names:
        if not name:
            raise DescriptionError(f'robot_description: a <{kind}> has no name')
        if name in seen:
            raise DescriptionError(f'robot_description: {kind} {name!r} is defined twice')
        seen.add(name)
    return seen


def _joint(element: Any) -> Joint:
    """Return our ``Joint`` of one of urdf_parser_py's, with urdfdom's checks."""
    name = element.name
    kind = element.type or ''
    if kind not in JOINT_TYPES:
        raise DescriptionError(f'joint {name!r} has type {kind!r}, which URDF does not define')
    for tag, link in (('parent', element.parent), ('child', element.child)):
        if not link:
            raise DescriptionError(f'joint {name!r} has no <{tag} link="..."/>')
    origin = element.origin
    xyz = _vector(name, 'origin xyz', origin.xyz if origin is not None else None)
    rpy = _vector(name, 'origin rpy', origin.rpy if origin is not None else None)
    axis = _vector(name, 'axis xyz', element.axis, (1.0, 0.0, 0.0))
    norm = math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2])
    if kind in TURNING + ('prismatic',) and not norm > 0.0:
        raise DescriptionError(f'joint {name!r} has the axis 0 0 0, which has no direction')
    if norm > 0.0:
        axis = (axis[0] / norm, axis[1] / norm, axis[2] / norm)
    mimic = element.mimic
    return Joint(name, kind, element.parent, element.child, xyz, rpy, axis,
                 _limit(name, kind, element.limit),
                 (mimic.joint or '?') if mimic is not None else None)


def _limit(name: str, kind: str, limit: Any) -> Limit:
    if limit is None:
        if kind in ('revolute', 'prismatic'):
            raise DescriptionError(f'{kind} joint {name!r} has no <limit>')
        return Limit(None, None, None)
    velocity = _number(name, 'limit velocity', limit.velocity)
    if velocity < 0.0:
        raise DescriptionError(f'joint {name!r} has a negative velocity limit {velocity!r}')
    if kind == 'continuous':
        return Limit(None, None, velocity or None)
    lower = _number(name, 'limit lower', limit.lower)
    upper = _number(name, 'limit upper', limit.upper)
    if lower > upper:
        raise DescriptionError(f'joint {name!r} has limits lower {lower!r} > upper {upper!r}')
    return Limit(lower, upper, velocity or None)


def _number(joint: str, what: str, value: Optional[float]) -> float:
    """Return ``value`` (0 when the file gives none); refuse one that is not finite."""
    number = float(value or 0.0)
    if not math.isfinite(number):
        raise DescriptionError(f'joint {joint!r}: {what} {value!r} is not finite')
    return number


def _vector(joint: str, what: str, value: Optional[Sequence[float]],
            default: Vector = (0.0, 0.0, 0.0)) -> Vector:
    if value is None:
        return default
    if len(value) != 3:
        raise DescriptionError(f'joint {joint!r}: {what} is {value!r}, not three numbers')
    x, y, z = (_number(joint, what, part) for part in value)
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
