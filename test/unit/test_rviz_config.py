"""
RViz on the arm's plane: the generated view and grid, held against pinocchio's kinematics.

For each arm of ``urdf_arms.ARMS`` (every convention a user's file may
have: axes +-z, +-y, -x, links along z, a mounted arm), the grid that
``bringup.rviz_config`` puts in the shoulder link's frame must lie in the
plane the tool moves in, as pinocchio places that frame from the URDF, the
view must look along the plane's normal at it, and a point clicked on the
grid within reach must be a target the arm reaches exactly, not clamped.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math
import os

from helpers import ROOT
import numpy as np
import pytest
from twobone_ik_ros.bringup.rviz_config import plane_view, PLANES, rviz_config
from twobone_ik_ros.model.config import validate
from twobone_ik_ros.model.parameter_table import DEFAULTS
from twobone_ik_ros.solver import Status
from urdf_arms import ARMS
import yaml

try:
    import pinocchio
except ImportError:  # the tests here are marked pinocchio: held back where it is missing
    pinocchio = None
pytestmark = pytest.mark.pinocchio


def configured(arm):
    """Return the node's configuration for a user's arm, as the launch validates it."""
    return validate(dict(DEFAULTS, base_frame=arm.base, tip_link=arm.tip), arm.urdf)


def grid_to_base(arm, config, view):
    """Return ``to_base(a, b)``: the base-frame point at (a, b) on the grid, by pinocchio."""
    model = pinocchio.buildModelFromXML(arm.urdf)
    data = model.createData()
    pinocchio.framesForwardKinematics(model, data, pinocchio.neutral(model))
    base = data.oMf[model.getFrameId(arm.base)]
    link = data.oMf[model.getFrameId(view.grid.reference_frame)]
    normal = PLANES.index(view.grid.plane)
    across = [index for index in range(3) if index != normal]

    def to_base(a, b):
        point = np.array(view.grid.offset, dtype=float)
        point[across[0]] += a
        point[across[1]] += b
        return tuple(base.actInv(link.act(point)))
    return to_base


@pytest.mark.parametrize('name', list(ARMS))
def test_the_grid_and_the_view_are_on_the_arms_plane(name):
    arm = ARMS[name]()
    config = configured(arm)
    view = plane_view(config.arm)
    assert view.grid is not None and view.grid.reference_frame == config.arm.shoulder_link
    to_base = grid_to_base(arm, config, view)
    plane_point = np.array(config.arm.place(0.0, 0.0, config.arm.tip_height))
    normal = np.array(config.arm.n)
    for a, b in ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (-0.7, 0.4)):
        assert float(np.dot(np.array(to_base(a, b)) - plane_point, normal)) == \
            pytest.approx(0.0, abs=1e-9), (a, b)
    # the grid's centre is on the shoulder's axis: where the view is centred
    assert to_base(0.0, 0.0) == pytest.approx(view.focal_point, abs=1e-9)
    eye = (math.cos(view.pitch) * math.cos(view.yaw), math.cos(view.pitch) * math.sin(view.yaw),
           math.sin(view.pitch))
    assert eye == pytest.approx(tuple(normal), abs=1e-12)
    assert view.distance > config.arm.r1 + config.arm.r2


@pytest.mark.parametrize('name', list(ARMS))
def test_a_point_clicked_on_the_grid_within_reach_is_reached_without_clamping(name):
    arm = ARMS[name]()
    config = configured(arm)
    view = plane_view(config.arm)
    to_base = grid_to_base(arm, config, view)
    r1, r2 = config.arm.r1, config.arm.r2
    reached = 0
    for fraction, angle in ((0.5, 0.3), (0.9, 2.0), (0.2, -1.0), (0.6, -2.5)):
        radius = abs(r1 - r2) + fraction * (r1 + r2 - abs(r1 - r2))
        clicked = to_base(radius * math.cos(angle), radius * math.sin(angle))
        result = config.solver.solve(*config.arm.project(*clicked))
        if result.status is Status.REJECTED:  # beyond a joint's limits: not the plane's fault
            continue
        assert result.status is Status.SOLVED, (clicked, result)
        _, tip = config.arm.forward(result.theta1, result.theta2)  # the joints' positions
        assert tip == pytest.approx(clicked, abs=1e-9)
        reached += 1
    assert reached >= 2


def test_the_generated_configuration_is_the_packages_with_the_view_and_grid_set():
    arm = ARMS['y axes, links along z, tool plane off (RRBot)']()
    config = configured(arm)
    view = plane_view(config.arm, 'left/')
    with open(os.path.join(ROOT, 'rviz', 'twobone_ik.rviz'), encoding='utf-8') as stream:
        template = yaml.safe_load(stream)
    written = rviz_config(template, view)
    manager = written['Visualization Manager']
    [grid] = [d for d in manager['Displays'] if d['Class'] == 'rviz_default_plugins/Grid']
    assert grid['Reference Frame'] == 'left/' + config.arm.shoulder_link
    assert grid['Plane'] == view.grid.plane == 'XZ'
    current = manager['Views']['Current']
    assert current['Class'] == 'rviz_default_plugins/Orbit'
    assert (current['Yaw'], current['Pitch']) == (view.yaw, view.pitch)
    assert written['Panels'] == template['Panels'] and manager['Tools'] == \
        template['Visualization Manager']['Tools']
