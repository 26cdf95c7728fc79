"""
The two-link arm as the solver sees it: a plane, two lengths and a joint map (pure Python).

The solver works in a plane: link 1 at theta1 from +x, link 2 at theta2
from link 1.  A real arm's URDF puts that plane anywhere, so ``PlanarArm``
is the arm in its base frame: the shoulder's axis ``n`` and a point
``origin`` on it, ``u`` and ``v`` spanning the plane (``u`` along link 1 at
its zero), the links' lengths in the plane and the heights of the elbow's
and tip's planes along ``n``, and the elbow's joint map
(``direction * (theta2 - offset)``).  ``from_chain`` derives it exactly from
a URDF chain with two parallel turning joints (``urdf_chain``); ``in_xy`` is
the node's own arm.  ``project`` takes a point into the plane, ``place`` and
``forward`` bring plane points and joint positions back to 3-D, as
robot_state_publisher's TF has them (doc/your_arm.md).
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
from typing import Any, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from twobone_ik_ros.ik.geometry import forward
from twobone_ik_ros.model.urdf_chain import Chain, DescriptionError, Joint, Limit, Vector

#: Joints' axes that differ by more than this (the sine of the angle) are not parallel.
PARALLEL_TOLERANCE = 1e-9
#: A link shorter than this in the plane (metres) has no direction: refused.
SHORTEST_LINK = 1e-9

Matrix = Tuple[Vector, Vector, Vector]
Point3 = Tuple[float, float, float]
_IDENTITY: Matrix = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
_ZERO: Vector = (0.0, 0.0, 0.0)


@dataclass(frozen=True)
class PlanarArm:
    """A two-link arm in its base frame (see the module docstring)."""

    r1: float
    r2: float
    joint_names: Tuple[str, str]
    #: link 2's angle from link 1 at the elbow's zero, rad (theta1's is 0 by the choice of u)
    offset: float = 0.0
    #: +1.0, or -1.0 where the elbow turns clockwise about the shoulder's axis
    direction: float = 1.0
    origin: Point3 = _ZERO
    u: Vector = (1.0, 0.0, 0.0)
    v: Vector = (0.0, 1.0, 0.0)
    n: Vector = (0.0, 0.0, 1.0)
    elbow_height: float = 0.0
    tip_height: float = 0.0
    #: the file's ``<limit>`` of each joint (None: the node's own arm, no file)
    limits: Optional[Tuple[Limit, Limit]] = None
    #: the links: base, the elbow joint's child, the tip ('' for the node's own arm)
    links: Tuple[str, str, str] = ('', '', '')
    #: the shoulder joint's child link, its axis in that link's frame (the URDF's
    #: ``<axis>``), and how far along it the tool's plane lies from the link's origin: the
    #: plane in a frame that turns about its normal, so stays put (RViz's grid, ``bringup``)
    shoulder_link: str = ''
    shoulder_axis: Vector = (0.0, 0.0, 1.0)
    tool_offset: float = 0.0
    #: the plane is the base frame's XY and the map the identity: nothing to convert
    in_plane: bool = True

    @classmethod
    def in_xy(cls, r1: float, r2: float, joint_names: Tuple[str, str]) -> 'PlanarArm':
        """Return the node's own arm: links along x at zero, joints about z at the origin."""
        return cls(r1, r2, joint_names)

    @classmethod
    def from_chain(cls, chain: Chain) -> 'PlanarArm':
        """Derive the arm of a URDF chain; DescriptionError if it is not a planar 2R arm."""
        moving = [index for index, joint in enumerate(chain.joints) if joint.kind != 'fixed']
        _check_joints(chain, moving)
        first, second = moving
        joints = chain.joints
        rotation, translation = _compose(joints[:first + 1])  # the shoulder's frame at zero
        n = _apply(rotation, joints[first].axis)
        origin = translation
        rotation, translation = _compose(joints[first + 1:second + 1], rotation, translation)
        elbow_axis = _apply(rotation, joints[second].axis)
        elbow = translation
        _, tip = _compose(joints[second + 1:], rotation, translation)
        across = _cross(n, elbow_axis)
        if math.sqrt(_dot(across, across)) > PARALLEL_TOLERANCE:
            raise DescriptionError(
                f'joints {joints[first].name!r} and {joints[second].name!r} between '
                f'{chain.base!r} and {chain.tip!r} turn about axes that are not parallel '
                f'({_text(n)} and {_text(elbow_axis)} in {chain.base!r}): the arm is not planar')
        link1 = _minus(elbow, origin)
        link2 = _minus(tip, elbow)
        along1, along2 = _dot(link1, n), _dot(link2, n)
        in_plane1 = _minus(link1, _times(along1, n))
        in_plane2 = _minus(link2, _times(along2, n))
        r1 = math.sqrt(_dot(in_plane1, in_plane1))
        r2 = math.sqrt(_dot(in_plane2, in_plane2))
        names = (joints[first].name, joints[second].name)
        for length, start, end in ((r1, names[0], names[1]), (r2, names[1], chain.tip)):
            if not length >= SHORTEST_LINK:
                raise DescriptionError(
                    f'the link from {start!r} to {end!r} has length {length:.3g} m across the '
                    f"joints' axis ({chain.base!r} to {chain.tip!r}): a link of zero length")
        u = _times(1.0 / r1, in_plane1)
        v = _cross(n, u)
        base_plane = _dot(origin, n)  # heights from the plane through the base frame's origin
        return cls(
            r1, r2, names,
            offset=math.atan2(_dot(in_plane2, v), _dot(in_plane2, u)),
            direction=1.0 if _dot(n, elbow_axis) > 0.0 else -1.0,
            origin=_minus(origin, _times(base_plane, n)), u=u, v=v, n=n,
            elbow_height=base_plane + along1, tip_height=base_plane + along1 + along2,
            limits=(joints[first].limit, joints[second].limit),
            links=(chain.base, joints[second].child, chain.tip),
            shoulder_link=joints[first].child, shoulder_axis=joints[first].axis,
            tool_offset=along1 + along2, in_plane=False)

    @property
    def from_description(self) -> bool:
        """Tell whether the arm was read from a URDF (``from_chain``)."""
        return self.limits is not None

    def project(self, x: float, y: float, z: float) -> Tuple[float, float]:
        """Return the plane coordinates of the base-frame point (x, y, z)."""
        if self.in_plane:
            return x, y
        o, u, v = self.origin, self.u, self.v
        dx, dy, dz = x - o[0], y - o[1], z - o[2]
        return (dx * u[0] + dy * u[1] + dz * u[2], dx * v[0] + dy * v[1] + dz * v[2])

    def project_points(self, points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Return the plane coordinates (N, 2) of base-frame points (N, 3)."""
        if self.in_plane:
            return points[:, :2]
        shifted = points[:, :3] - np.asarray(self.origin)
        return np.ascontiguousarray(shifted @ np.array([self.u, self.v]).T)

    def place(self, px: float, py: float, height: float = 0.0) -> Point3:
        """Return the base-frame point at plane coordinates (px, py), ``height`` along n."""
        if self.in_plane:
            return (px, py, height)
        o, u, v, n = self.origin, self.u, self.v, self.n
        return (o[0] + px * u[0] + py * v[0] + height * n[0],
                o[1] + px * u[1] + py * v[1] + height * n[1],
                o[2] + px * u[2] + py * v[2] + height * n[2])

    def planar(self, position1: float, position2: float) -> Tuple[float, float]:
        """Return the solver's (theta1, theta2) of the joints' positions."""
        if self.in_plane:
            return position1, position2
        return position1, self.direction * position2 + self.offset

    def forward(self, position1: float, position2: float) -> Tuple[Point3, Point3]:
        """Return the elbow link's and the tip's base-frame positions at these joint positions."""
        theta1, theta2 = self.planar(position1, position2)
        elbow, tip = forward(self.r1, self.r2, theta1, theta2)
        return (self.place(elbow[0], elbow[1], self.elbow_height),
                self.place(tip[0], tip[1], self.tip_height))

    def describe(self) -> str:
        """Return the arm in one line, for the node's log and diagnostics."""
        base, elbow, tip = self.links
        if not self.from_description:
            return f'its own: r1 {self.r1!r} m, r2 {self.r2!r} m in the XY plane'
        return (f'{base} -> {tip} (joints {self.joint_names[0]}, {self.joint_names[1]}; elbow '
                f'link {elbow}): r1 {self.r1:.9g} m, r2 {self.r2:.9g} m, axis {_text(self.n)}, '
                f'tool plane {self.tip_height:.9g} m along it from the base, elbow zero offset '
                f'{self.offset:.9g} rad{", turning clockwise" if self.direction < 0 else ""}')


def _check_joints(chain: Chain, moving: Sequence[int]) -> None:
    """Refuse a chain that is not two turning joints among fixed ones."""
    path = f'between {chain.base!r} and {chain.tip!r}'
    names = [chain.joints[index].name for index in moving]
    for joint in chain.joints:
        if joint.kind not in ('fixed', 'revolute', 'continuous'):
            raise DescriptionError(
                f'joint {joint.name!r} {path} is {joint.kind}: only revolute, continuous and '
                'fixed joints make a two-link planar arm')
        if joint.mimic is not None and joint.kind != 'fixed':
            raise DescriptionError(
                f'joint {joint.name!r} {path} mimics {joint.mimic!r}: a mimic joint cannot be '
                "one of the arm's two joints")
    if len(moving) != 2:
        raise DescriptionError(
            f'the chain {path} has {len(moving)} moving joint{"" if len(moving) == 1 else "s"}'
            + (f' ({", ".join(repr(name) for name in names)})' if names else '')
            + ', not two: tip_link must be the link two turning joints below base_frame')


def _compose(joints: Sequence[Joint], rotation: Matrix = _IDENTITY,
             translation: Vector = _ZERO) -> Tuple[Matrix, Vector]:
    """Return (rotation, translation) after the joints' origins (each at position zero)."""
    for joint in joints:
        local = _rpy(joint.rpy)
        translation = _plus(_apply(rotation, joint.xyz), translation)
        rotation = _matmul(rotation, local)
    return rotation, translation


def _rpy(rpy: Vector) -> Matrix:
    """Return URDF's rotation of roll, pitch, yaw: Rz(yaw) Ry(pitch) Rx(roll)."""
    sr, cr = math.sin(rpy[0]), math.cos(rpy[0])
    sp, cp = math.sin(rpy[1]), math.cos(rpy[1])
    sy, cy = math.sin(rpy[2]), math.cos(rpy[2])
    return ((cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr),
            (sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr),
            (-sp, cp * sr, cp * cr))


def _apply(m: Matrix, w: Vector) -> Vector:
    return (_dot(m[0], w), _dot(m[1], w), _dot(m[2], w))


def _matmul(a: Matrix, b: Matrix) -> Matrix:
    columns = tuple(zip(*b))
    return tuple(tuple(_dot(row, column) for column in columns)  # type: ignore[return-value]
                 for row in a)


def _dot(a: Any, b: Any) -> float:
    return float(a[0] * b[0] + a[1] * b[1] + a[2] * b[2])


def _cross(a: Vector, b: Vector) -> Vector:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _plus(a: Vector, b: Vector) -> Vector:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _minus(a: Vector, b: Vector) -> Vector:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _times(k: float, a: Vector) -> Vector:
    return (k * a[0], k * a[1], k * a[2])


def _text(w: Vector) -> str:
    return ' '.join(f'{c:.6g}' for c in w)
