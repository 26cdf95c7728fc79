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

"""
Pictures of the arm drawn from what the node published (Pillow, no ROS).

A ``Sample`` is one answered target: the published joint angles and elbow
point, and the target they answer.  The arm is drawn from the published
values only (the tip is the published elbow plus link 2 at the published
angles), never re-solved, so the picture shows what a robot would have done.
"""

from __future__ import annotations

from dataclasses import dataclass
import math
from typing import Any, List, Optional, Sequence, Tuple

Point = Tuple[float, float]
FRAME_SIZE = 320
BACKGROUND = (255, 255, 255)
WORKSPACE = (200, 200, 200)
ARM = (38, 115, 230)
JOINT = (40, 40, 40)
TARGET_REACHED = (25, 170, 60)
TARGET_CLAMPED = (255, 150, 0)
TARGET_REJECTED = (225, 30, 30)


@dataclass(frozen=True)
class Sample:
    """One target and, unless it was rejected, the node's answer to it."""

    target: Point
    theta1: Optional[float] = None
    theta2: Optional[float] = None
    elbow: Optional[Point] = None

    @property
    def answered(self) -> bool:
        """Tell whether the node published joint angles for this target."""
        return self.theta1 is not None


def arm_points(sample: Sample, r2: float) -> Tuple[Point, Point, Point]:
    """Shoulder, published elbow, and tip (elbow + link 2 at the published angles)."""
    assert sample.elbow is not None and sample.theta1 is not None and sample.theta2 is not None
    phi = sample.theta1 + sample.theta2
    ex, ey = sample.elbow
    return (0.0, 0.0), (ex, ey), (ex + r2 * math.cos(phi), ey + r2 * math.sin(phi))


class Canvas:
    """World (metres, base frame) to pixel mapping for one frame."""

    def __init__(self, r1: float, r2: float, size: int = FRAME_SIZE) -> None:
        """Fit the workspace with a margin for out-of-reach targets."""
        self.size = size
        self.scale = size / (2.0 * 1.4 * (r1 + r2))

    def pixel(self, point: Point) -> Tuple[int, int]:
        """Pixel of a world point (y up in the world, down in the image)."""
        half = self.size / 2.0
        return (round(half + point[0] * self.scale), round(half - point[1] * self.scale))


def draw_frame(sample: Sample, history: Sequence[Sample], r1: float, r2: float,
               size: int = FRAME_SIZE) -> Any:
    """Return a Pillow image of the arm answering ``sample``, with recent targets."""
    from PIL import Image, ImageDraw

    canvas = Canvas(r1, r2, size)
    image = Image.new('RGB', (size, size), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for radius in (r1 + r2, abs(r1 - r2)):
        cx, cy = canvas.pixel((0.0, 0.0))
        pr = radius * canvas.scale
        draw.ellipse((cx - pr, cy - pr, cx + pr, cy + pr), outline=WORKSPACE, width=2)
    for old in history:
        draw_dot(draw, canvas, old.target, 2, _target_colour(old, r2))
    if sample.answered:
        pixels = [canvas.pixel(p) for p in arm_points(sample, r2)]
        draw.line(pixels, fill=ARM, width=max(3, size // 60))
        for pixel in pixels:
            r = max(3, size // 80)
            draw.ellipse((pixel[0] - r, pixel[1] - r, pixel[0] + r, pixel[1] + r), fill=JOINT)
    draw_dot(draw, canvas, sample.target, max(4, size // 55), _target_colour(sample, r2))
    return image


def draw_dot(draw: Any, canvas: Canvas, point: Point, radius: int,
             colour: Tuple[int, int, int]) -> None:
    """Draw a filled circle at a world point, if it lies on the canvas."""
    x, y = canvas.pixel(point) if all(map(math.isfinite, point)) else (-1, -1)
    if 0 <= x < canvas.size and 0 <= y < canvas.size:
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour)


def _target_colour(sample: Sample, r2: float) -> Tuple[int, int, int]:
    if not sample.answered:
        return TARGET_REJECTED
    tip = arm_points(sample, r2)[2]
    reach = math.hypot(*tip) + 1.0
    return TARGET_REACHED if math.dist(tip, sample.target) <= 1e-6 * reach else TARGET_CLAMPED


def write_pictures(samples: Sequence[Sample], r1: float, r2: float, gif_path: str,
                   png_path: str, frames: int = 60, strip: int = 6) -> List[int]:
    """
    Write an animated GIF and a PNG strip of evenly spaced answered samples.

    Returns the indices of the samples drawn in the strip, for checking.
    """
    from PIL import Image

    answered = [i for i, s in enumerate(samples) if s.answered]
    if not answered:
        raise ValueError('no target was answered: nothing to draw')

    def pick(count: int) -> List[int]:
        count = min(count, len(answered))
        return [answered[round(k * (len(answered) - 1) / max(1, count - 1))]
                for k in range(count)]

    def frame(index: int, size: int = FRAME_SIZE) -> Any:
        return draw_frame(samples[index], samples[max(0, index - 40):index], r1, r2, size)

    images = [frame(i) for i in pick(frames)]
    images[0].save(gif_path, save_all=True, append_images=images[1:], duration=80, loop=0)
    chosen = pick(strip)
    tiles = [frame(i, 240) for i in chosen]
    sheet = Image.new('RGB', (240 * len(tiles), 240), BACKGROUND)
    for k, tile in enumerate(tiles):
        sheet.paste(tile, (240 * k, 0))
    sheet.save(png_path)
    return chosen
