"""The demo pictures show the arm where the published joint states put it."""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math

import pytest

from twobone_ik_ros.solver import forward, TwoBoneIK
from twobone_ik_ros.tools.render import (
    ARM, arm_points, axis_ticks, Canvas, draw_frame, figure, LEGEND, Sample, TARGET_CLAMPED,
    TARGET_REACHED, TARGET_REJECTED, title_text, WORKSPACE, write_pictures)

PIL = pytest.importorskip('PIL', reason='Pillow draws the demo pictures')

R1, R2 = 1.0, 0.7


def published(x, y):
    """Return a sample as the node would publish it for (x, y)."""
    result = TwoBoneIK(R1, R2).solve(x, y)
    return Sample((x, y), result.theta1, result.theta2, result.elbow)


def test_arm_points_are_the_published_elbow_and_the_tip_of_the_published_angles():
    sample = Sample((1.2, 0.3), 0.4, -1.1, (R1 * math.cos(0.4), R1 * math.sin(0.4)))
    shoulder, elbow, tip = arm_points(sample, R2)
    assert shoulder == (0.0, 0.0) and elbow == sample.elbow
    assert tip == pytest.approx(forward(R1, R2, 0.4, -1.1)[1])


def test_the_arm_is_drawn_along_its_links():
    sample = published(1.1, 0.6)
    image = draw_frame(sample, [], R1, R2)
    canvas = Canvas(R1, R2)
    for start, end in zip(arm_points(sample, R2), arm_points(sample, R2)[1:]):
        middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
        assert image.getpixel(canvas.pixel(middle)) == ARM


def test_pictures_are_written_from_answered_samples(tmp_path):
    samples = [published(1.0 + 0.01 * i, 0.2) for i in range(30)] + [Sample((9.0, 9.0))]
    chosen = write_pictures(samples, R1, R2, str(tmp_path / 'a.gif'), str(tmp_path / 'a.png'))
    assert chosen[0] == 0 and chosen[-1] == 29
    gif = PIL.Image.open(tmp_path / 'a.gif')
    assert gif.n_frames > 1
    width, height = PIL.Image.open(tmp_path / 'a.png').size
    assert width > 240 * 6 and height > 240  # six panels and what explains them


def test_a_picture_explains_itself():
    """Every colour drawn has a legend entry whose swatch is in the picture."""
    drawn = {ARM, TARGET_REACHED, TARGET_CLAMPED, TARGET_REJECTED, WORKSPACE}
    assert {colour for colour, _ in LEGEND} == drawn
    panel = draw_frame(published(1.1, 0.6), [], R1, R2, 240)
    picture = figure([(panel, 0.0), (panel, 2.5)], R1, R2, title_text(R1, R2, 'circle'))
    colours = {colour for _, colour in picture.getcolors(1 << 20)}
    assert drawn <= colours
    assert picture.size[0] > 2 * 240 and picture.size[1] > 240
    assert title_text(1.0, 0.7, 'circle') == (
        'two-link IK, r1 = 1 m, r2 = 0.7 m, targets: circle')


@pytest.mark.parametrize('extent', [0.07, 1.0, 2.38, 14.0, 700.0])
def test_axis_ticks_are_round_metres_within_the_panel(extent):
    ticks = axis_ticks(extent)
    step = ticks[1] - ticks[0]
    assert 0.0 in ticks and ticks == sorted(ticks) and -ticks[0] == ticks[-1] <= extent
    assert 2 <= len(ticks) // 2 <= 4
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert min(abs(mantissa - m) for m in (1.0, 2.0, 5.0)) < 1e-9


def test_nothing_answered_is_an_error(tmp_path):
    with pytest.raises(ValueError, match='no target'):
        write_pictures([Sample((9.0, 9.0))], R1, R2, str(tmp_path / 'a.gif'),
                       str(tmp_path / 'a.png'))
