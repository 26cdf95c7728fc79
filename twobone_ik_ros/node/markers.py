"""
RViz markers for the arm: a pure function of the arm, its angles and a target.

Namespaces and ids are fixed (``MARKER_IDS``) so that each publication
replaces the previous one in RViz instead of piling up; sizes scale with the
arm so a 5 cm arm and a 5 m arm both look right.
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
from twobone_ik_ros.solver import forward, Status
from visualization_msgs.msg import Marker

NS_LINKS = 'links'
NS_JOINTS = 'joints'
NS_TARGET = 'target'
NS_WORKSPACE = 'workspace'
#: (namespace, id) of every marker; the outer workspace circle is id 0, the inner id 1
MARKER_IDS = ((NS_LINKS, 0), (NS_JOINTS, 0), (NS_TARGET, 0), (NS_WORKSPACE, 0),
              (NS_WORKSPACE, 1))

CIRCLE_SEGMENTS = 72
LINK_COLOUR = (0.15, 0.45, 0.9, 1.0)
JOINT_COLOUR = (0.95, 0.95, 0.95, 1.0)
WORKSPACE_COLOUR = (0.6, 0.6, 0.6, 0.6)
TARGET_COLOURS: Dict[Status, Tuple[float, float, float, float]] = {
    Status.SOLVED: (0.1, 0.8, 0.25, 1.0),
    Status.CLAMPED: (1.0, 0.6, 0.0, 1.0),
    Status.REJECTED: (0.9, 0.1, 0.1, 1.0),
}


def arm_markers(frame_id: str, r1: float, r2: float, angles: Tuple[float, float],
                target: Optional[Tuple[float, float]], target_status: Status) -> List[Marker]:
    """
    Draw the arm at ``angles`` and the target (if any): the markers that move.

    Everything is in ``frame_id`` at z = 0, stamped zero so that RViz uses the
    latest transform.  The target's colour tells what the solver did with
    it: green solved, orange clamped, red rejected.  The node sends these
    with ``workspace_markers`` (built once per configuration) in one array.
    """
    size = r1 + r2
    links = _marker(frame_id, NS_LINKS, 0, Marker.LINE_STRIP, LINK_COLOUR)
    links.scale.x = 0.025 * size
    links.points = _points(((0.0, 0.0),) * 3)
    joints = _marker(frame_id, NS_JOINTS, 0, Marker.SPHERE_LIST, JOINT_COLOUR)
    joints.scale.x = joints.scale.y = joints.scale.z = 0.05 * size
    joints.points = _points(((0.0, 0.0),) * 3)
    goal = _marker(frame_id, NS_TARGET, 0, Marker.SPHERE, TARGET_COLOURS[target_status])
    goal.scale.x = goal.scale.y = goal.scale.z = 0.06 * size
    markers = [links, joints, goal]
    move_arm_markers(markers, r1, r2, angles, target, target_status)
    return markers


def move_arm_markers(markers: List[Marker], r1: float, r2: float, angles: Tuple[float, float],
                     target: Optional[Tuple[float, float]], target_status: Status) -> None:
    """
    Move markers made by ``arm_markers`` to new angles and a new target, in place.

    The node redraws the arm many times a second; changing a few numbers in
    messages it already has costs a fraction of building new ones.
    """
    links, joints, goal = markers
    elbow, tip = forward(r1, r2, angles[0], angles[1])
    for points in (links.points, joints.points):
        points[1].x, points[1].y = elbow
        points[2].x, points[2].y = tip
    goal.action = Marker.ADD if target is not None else Marker.DELETE
    colour = TARGET_COLOURS[target_status]
    goal.color.r, goal.color.g, goal.color.b, goal.color.a = colour
    if target is not None:
        goal.pose.position.x, goal.pose.position.y = float(target[0]), float(target[1])


def workspace_markers(frame_id: str, r1: float, r2: float) -> List[Marker]:
    """Build the circles r1 + r2 (id 0) and ``|r1 - r2|`` (id 1); only r1, r2 move them."""
    circles = []
    for marker_id, radius in enumerate((r1 + r2, abs(r1 - r2))):
        circle = _marker(frame_id, NS_WORKSPACE, marker_id, Marker.LINE_STRIP, WORKSPACE_COLOUR)
        circle.scale.x = 0.005 * (r1 + r2)
        circle.points = _points(_circle(radius))
        circles.append(circle)
    return circles


def _marker(frame_id: str, ns: str, marker_id: int, kind: int,
            colour: Tuple[float, float, float, float], action: int = Marker.ADD) -> Marker:
    marker = Marker(ns=ns, id=marker_id, type=kind, action=action)
    marker.header.frame_id = frame_id
    marker.pose.orientation.w = 1.0
    marker.color = ColorRGBA(r=colour[0], g=colour[1], b=colour[2], a=colour[3])
    return marker


def _points(xy: Iterable[Tuple[float, float]]) -> List[Point]:
    return [Point(x=float(x), y=float(y), z=0.0) for x, y in xy]


def _circle(radius: float) -> Iterable[Tuple[float, float]]:
    step = 2.0 * math.pi / CIRCLE_SEGMENTS
    return ((radius * math.cos(i * step), radius * math.sin(i * step))
            for i in range(CIRCLE_SEGMENTS + 1))
