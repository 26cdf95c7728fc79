# Copyright 2026 The twobone_ik_ros Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""The demo pictures show the arm where the published joint states put it."""

import math

import pytest

from twobone_ik_ros.render import ARM, arm_points, Canvas, draw_frame, Sample, write_pictures
from twobone_ik_ros.solver import forward, TwoBoneIK

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
    assert PIL.Image.open(tmp_path / 'a.png').size == (240 * 6, 240)


def test_nothing_answered_is_an_error(tmp_path):
    with pytest.raises(ValueError, match='no target'):
        write_pictures([Sample((9.0, 9.0))], R1, R2, str(tmp_path / 'a.gif'),
                       str(tmp_path / 'a.png'))
