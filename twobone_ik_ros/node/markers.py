"""
RViz markers for the arm: a pure function of the arm, its angles and a target.

Namespaces and ids are fixed (``MARKER_IDS``) so that each publication
replaces the previous one in RViz instead of piling up; sizes scale with the
arm so a 5 cm arm and a 5 m arm both look right.  Everything is drawn in
the plane the tool moves in (``PlanarArm.place`` at its ``tip_height``):
the base frame's XY for the node's own arm, wherever a URDF puts it else.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import math
from typing import Dict, Iterable, List, Optional, Tuple

from geometry_msgs.msg import Point
from std_msgs.msg import ColorRGBA
from twobone_ik_ros.model.planar_arm import PlanarArm
from twobone_ik_ros.solver import forward, Status
from visualization_msgs.msg import Marker

NS_LINKS = 'links'
NS_JOINTS = 'joints'
NS_TARGET = 'target'
NS_WORKSPACE = 'workspace'
#: (namespace, id) of every marker; the outer workspace circle is id 0, the inner id 1,
#: the reachable annulus between them id 2
MARKER_IDS = ((NS_LINKS, 0), (NS_JOINTS, 0), (NS_TARGET, 0), (NS_WORKSPACE, 0),
              (NS_WORKSPACE, 1), (NS_WORKSPACE, 2))

CIRCLE_SEGMENTS = 72
LINK_COLOUR = (0.15, 0.45, 0.9, 1.0)
JOINT_COLOUR = (0.95, 0.95, 0.95, 1.0)
WORKSPACE_COLOUR = (0.6, 0.6, 0.6, 0.6)
#: faint: it is there to be clicked on (RViz's Publish Point picks the surface under the cursor)
REACH_COLOUR = (0.6, 0.6, 0.6, 0.12)
TARGET_COLOURS: Dict[Status, Tuple[float, float, float, float]] = {
    Status.SOLVED: (0.1, 0.8, 0.25, 1.0),
    Status.CLAMPED: (1.0, 0.6, 0.0, 1.0),
    Status.REJECTED: (0.9, 0.1, 0.1, 1.0),
}


def arm_markers(frame_id: str, arm: PlanarArm, angles: Tuple[float, float],
                target: Optional[Tuple[float, float]], target_status: Status) -> List[Marker]:
    """
    Draw the arm at ``angles`` (its joints' positions) and the target (if any): what moves.

    Everything is in ``frame_id``, stamped zero so that RViz uses the
    latest transform; the target is given in the arm's plane.  Its colour
    tells what the solver did with it: green solved, orange clamped, red
    rejected.  The node sends these with ``workspace_markers`` (built once
    per configuration) in one array.
    """
    size = arm.r1 + arm.r2
    links = _marker(frame_id, NS_LINKS, 0, Marker.LINE_STRIP, LINK_COLOUR)
    links.scale.x = 0.025 * size
    links.points = _points(arm, ((0.0, 0.0),) * 3)
    joints = _marker(frame_id, NS_JOINTS, 0, Marker.SPHERE_LIST, JOINT_COLOUR)
    joints.scale.x = joints.scale.y = joints.scale.z = 0.05 * size
    joints.points = _points(arm, ((0.0, 0.0),) * 3)
    goal = _marker(frame_id, NS_TARGET, 0, Marker.SPHERE, TARGET_COLOURS[target_status])
    goal.scale.x = goal.scale.y = goal.scale.z = 0.06 * size
    markers = [links, joints, goal]
    move_arm_markers(markers, arm, angles, target, target_status)
    return markers


def move_arm_markers(markers: List[Marker], arm: PlanarArm, angles: Tuple[float, float],
                     target: Optional[Tuple[float, float]], target_status: Status) -> None:
    """
    Move markers made by ``arm_markers`` to new angles and a new target, in place.

    The node redraws the arm many times a second; changing a few numbers in
    messages it already has costs a fraction of building new ones.
    """
    links, joints, goal = markers
    theta1, theta2 = arm.planar(angles[0], angles[1])
    elbow, tip = forward(arm.r1, arm.r2, theta1, theta2)
    height = arm.tip_height
    for points in (links.points, joints.points):
        points[1].x, points[1].y, points[1].z = arm.place(elbow[0], elbow[1], height)
        points[2].x, points[2].y, points[2].z = arm.place(tip[0], tip[1], height)
    goal.action = Marker.ADD if target is not None else Marker.DELETE
    colour = TARGET_COLOURS[target_status]
    goal.color.r, goal.color.g, goal.color.b, goal.color.a = colour
    if target is not None:
        position = goal.pose.position
        position.x, position.y, position.z = arm.place(float(target[0]), float(target[1]),
                                                       height)


def workspace_markers(frame_id: str, arm: PlanarArm) -> List[Marker]:
    """
    Build the circles r1 + r2 (id 0) and ``|r1 - r2|`` (id 1), and the annulus (id 2).

    All in the arm's plane; the annulus is a faint surface between the
    circles, so that a Publish Point click anywhere on it in RViz is a
    point of the plane the arm reaches.
    """
    markers = []
    r1, r2 = arm.r1, arm.r2
    outer, inner = r1 + r2, abs(r1 - r2)
    for marker_id, radius in enumerate((outer, inner)):
        circle = _marker(frame_id, NS_WORKSPACE, marker_id, Marker.LINE_STRIP, WORKSPACE_COLOUR)
        circle.scale.x = 0.005 * (r1 + r2)
        circle.points = _points(arm, _circle(radius))
        markers.append(circle)
    annulus = _marker(frame_id, NS_WORKSPACE, 2, Marker.TRIANGLE_LIST, REACH_COLOUR)
    annulus.scale.x = annulus.scale.y = annulus.scale.z = 1.0
    rims = list(zip(_circle(outer), _circle(inner)))
    corners = []
    for (out_a, in_a), (out_b, in_b) in zip(rims, rims[1:]):
        corners += [out_a, out_b, in_a, in_a, out_b, in_b]
    annulus.points = _points(arm, corners)
    markers.append(annulus)
    return markers


def _marker(frame_id: str, ns: str, marker_id: int, kind: int,
            colour: Tuple[float, float, float, float], action: int = Marker.ADD) -> Marker:
    marker = Marker(ns=ns, id=marker_id, type=kind, action=action)
    marker.header.frame_id = frame_id
    marker.pose.orientation.w = 1.0
    marker.color = ColorRGBA(r=colour[0], g=colour[1], b=colour[2], a=colour[3])
    return marker


def _points(arm: PlanarArm, xy: Iterable[Tuple[float, float]]) -> List[Point]:
    """Return the points of the arm's plane (the tool's) at the plane coordinates ``xy``."""
    placed = (arm.place(float(x), float(y), arm.tip_height) for x, y in xy)
    return [Point(x=float(px), y=float(py), z=float(pz)) for px, py, pz in placed]


def _circle(radius: float) -> Iterable[Tuple[float, float]]:
    step = 2.0 * math.pi / CIRCLE_SEGMENTS
    return ((radius * math.cos(i * step), radius * math.sin(i * step))
            for i in range(CIRCLE_SEGMENTS + 1))
