"""
RViz's configuration for the arm being launched: the view and the grid on the arm's plane.

RViz's Publish Point tool publishes the point of the scene under the cursor,
so a click is a target only where something in the arm's plane is under it.
``rviz/twobone_ik.rviz`` looks down on the base frame's XY plane, the node's
own arm's; an arm read from its description moves in the plane normal to its
shoulder's axis, often upright (RRBot).  So the launch writes RViz a
configuration for that arm: the grid in the shoulder link's coordinate plane
that is the arm's (none where the axis is no coordinate axis), and an orbit
view along the plane's normal, centred on the shoulder, showing the whole
reach (doc/your_arm.md).
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
from typing import Any, Dict, Optional, Tuple

from twobone_ik_ros.model.planar_arm import PlanarArm

#: the coordinate plane of a frame normal to each of its axes, as RViz's grid names it
PLANES = ('YZ', 'XZ', 'XY')
#: how much of an axis a unit vector must be to count as that axis
AXIS_TOLERANCE = 1e-9
#: the camera's distance, in reaches (r1 + r2)
DISTANCE_IN_REACHES = 3.0


@dataclass(frozen=True)
class PlaneGrid:
    """RViz's grid in the tool's plane: a coordinate plane of a frame, moved along its normal."""

    reference_frame: str
    plane: str
    offset: Tuple[float, float, float]
    cell_size: float


@dataclass(frozen=True)
class PlaneView:
    """What RViz shows for an arm: the grid (None: no frame has the plane) and the view."""

    grid: Optional[PlaneGrid]
    #: an orbit camera in the fixed frame: its focal point, yaw and pitch (rad), distance
    focal_point: Tuple[float, float, float]
    yaw: float
    pitch: float
    distance: float


def plane_view(arm: PlanarArm, frame_prefix: str = '') -> PlaneView:
    """Return the grid and view on ``arm``'s plane (an arm read from its description)."""
    reach = arm.r1 + arm.r2
    n = arm.n
    grid = None
    axis = arm.shoulder_axis
    index = max(range(3), key=lambda i: abs(axis[i]))
    if arm.shoulder_link and abs(abs(axis[index]) - 1.0) <= AXIS_TOLERANCE:
        offset = [0.0, 0.0, 0.0]
        offset[index] = arm.tool_offset * axis[index]  # the axis is +-1 along it
        grid = PlaneGrid(frame_prefix + arm.shoulder_link, PLANES[index],
                         (offset[0], offset[1], offset[2]), _cell(reach))
    return PlaneView(grid=grid, focal_point=arm.place(0.0, 0.0, arm.tip_height),
                     yaw=math.atan2(n[1], n[0]), pitch=math.asin(max(-1.0, min(1.0, n[2]))),
                     distance=DISTANCE_IN_REACHES * reach)


def _cell(reach: float) -> float:
    """Return a round cell size, about an eighth of the reach (0.25 m for a reach of 2 m)."""
    rough = reach / 8.0
    power = 10.0 ** math.floor(math.log10(rough))
    return min((step * power for step in (1.0, 2.0, 2.5, 5.0, 10.0)),
               key=lambda size: abs(size - rough))


def rviz_config(template: Dict[str, Any], view: PlaneView) -> Dict[str, Any]:
    """Return the package's RViz configuration (``template``, as loaded) set to ``view``."""
    manager = dict(template['Visualization Manager'])
    displays = [dict(display) for display in manager['Displays']]
    for display in displays:
        if display.get('Class') == 'rviz_default_plugins/Grid':
            grid = view.grid
            display['Enabled'] = grid is not None
            display['Value'] = grid is not None
            if grid is not None:
                display['Reference Frame'] = grid.reference_frame
                display['Plane'] = grid.plane
                display['Offset'] = dict(zip('XYZ', grid.offset))
                display['Cell Size'] = grid.cell_size
    manager['Displays'] = displays
    pitch_limit = math.pi / 2 - 0.001  # RViz's orbit camera stops there
    manager['Views'] = dict(manager['Views'], Current={
        'Class': 'rviz_default_plugins/Orbit',
        'Name': 'Current View',
        'Distance': view.distance,
        'Focal Point': dict(zip('XYZ', view.focal_point)),
        'Focal Shape Fixed Size': True,
        'Focal Shape Size': 0.05,
        'Invert Z Axis': False,
        'Near Clip Distance': 0.01,
        'Pitch': max(-pitch_limit, min(pitch_limit, view.pitch)),
        'Target Frame': '<Fixed Frame>',
        'Value': 'Orbit (rviz_default_plugins)',
        'Yaw': view.yaw,
    })
    return dict(template, **{'Visualization Manager': manager})
