"""
Pictures of the arm drawn from what the node published (Pillow, no ROS).

A ``Sample`` is one answered target: the published joint angles and elbow
point, and the target they answer.  The arm is drawn from the published
values only (the tip is the published elbow plus link 2 at the published
angles), never re-solved, so the picture shows what a robot would have done.

A picture reads without the README: ``figure`` puts the panels (``draw_frame``)
under a title with the arm's lengths and the target pattern, labels each
with its time since the first target, gives both axes in metres and adds a
legend of the colours (``LEGEND``).
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


TEXT = (40, 40, 40)
#: what every colour of a picture means, in the order of the legend
LEGEND: Tuple[Tuple[Tuple[int, int, int], str], ...] = (
    (ARM, 'arm at the published angles'),
    (TARGET_REACHED, 'target, reached'),
    (TARGET_CLAMPED, 'target out of reach, clamped'),
    (TARGET_REJECTED, 'target rejected'),
    (WORKSPACE, 'reach: r1 + r2 and |r1 - r2|'),
)
_MARGIN_LEFT, _MARGIN_BOTTOM, _TITLE, _LABEL, _LEGEND_ROW = 46, 30, 26, 20, 20


@dataclass(frozen=True)
class Sample:
    """One target and, unless it was rejected, the node's answer to it."""

    target: Point
    theta1: Optional[float] = None
    theta2: Optional[float] = None
    elbow: Optional[Point] = None
    #: seconds from the first target of the run to this one (by their stamps)
    time: float = 0.0

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
        self.extent = 1.4 * (r1 + r2)  # metres from the centre to an edge
        self.scale = size / (2.0 * self.extent)

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


def axis_ticks(extent: float) -> List[float]:
    """Return round values in metres, about four on each side of 0, within +-``extent``."""
    raw = extent / 4.0
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1.0, 2.0, 5.0, 10.0) if m * power >= raw)
    count = int(extent / step + 1e-9)
    return [k * step for k in range(-count, count + 1)]


def title_text(r1: float, r2: float, pattern: str) -> str:
    """Return the title of a picture: what arm, following what."""
    return f'two-link IK, r1 = {r1:g} m, r2 = {r2:g} m, targets: {pattern}'


def _font(size: int) -> Any:
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)  # Pillow 10.1 on: scalable
    except TypeError:  # older Pillow (Humble's): one bitmap size
        return ImageFont.load_default()


def figure(panels: Sequence[Tuple[Any, float]], r1: float, r2: float, title: str) -> Any:
    """
    Return one picture of ``panels`` (image, time in s) side by side, readable alone.

    Above: ``title``; above each panel its time; left and below: the axes in
    metres; below everything: the legend.
    """
    from PIL import Image, ImageDraw

    size = panels[0][0].size[0]
    canvas = Canvas(r1, r2, size)
    cell = _MARGIN_LEFT + size
    width = max(cell * len(panels), 360)
    rows = _legend_rows(width)
    height = _TITLE + _LABEL + size + _MARGIN_BOTTOM + _LEGEND_ROW * len(rows)
    sheet = Image.new('RGB', (width, height), BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    font, small = _font(14), _font(11)
    draw.text((6, 5), title, fill=TEXT, font=font)
    top = _TITLE + _LABEL
    ticks = axis_ticks(canvas.extent)
    for k, (image, seconds) in enumerate(panels):
        left = k * cell + _MARGIN_LEFT
        sheet.paste(image, (left, top))
        draw.rectangle((left - 1, top - 1, left + size, top + size), outline=WORKSPACE)
        draw.text((left + 4, _TITLE + 3), f't = {seconds:.1f} s', fill=TEXT, font=font)
        for value in ticks:
            x, y = canvas.pixel((value, value))
            label = f'{value:g}'
            draw.line((left + x, top + size, left + x, top + size + 4), fill=TEXT)
            draw.text((left + x, top + size + 6), label, fill=TEXT, font=small, anchor='mt')
            draw.line((left - 5, top + y, left - 1, top + y), fill=TEXT)
            draw.text((left - 7, top + y), label, fill=TEXT, font=small, anchor='rm')
        draw.text((left + size // 2, top + size + 18), 'x [m]', fill=TEXT, font=small,
                  anchor='mt')
        draw.text((left - 40, top + 2), 'y [m]', fill=TEXT, font=small)
    y = top + size + _MARGIN_BOTTOM
    for row in rows:
        x = 8
        for colour, text in row:
            draw.rectangle((x, y + 4, x + 14, y + 14), fill=colour)
            draw.text((x + 19, y + 2), text, fill=TEXT, font=small)
            x += _legend_width(text)
        y += _LEGEND_ROW
    return sheet


def _legend_width(text: str) -> int:
    return 19 + 6 * len(text) + 16  # swatch, text (about 6 px a character at 11 px), gap


def _legend_rows(width: int) -> List[List[Tuple[Tuple[int, int, int], str]]]:
    """Lay the legend's entries out in rows that fit ``width``."""
    rows: List[List[Tuple[Tuple[int, int, int], str]]] = [[]]
    used = 8
    for entry in LEGEND:
        need = _legend_width(entry[1])
        if rows[-1] and used + need > width:
            rows.append([])
            used = 8
        rows[-1].append(entry)
        used += need
    return rows


def write_pictures(samples: Sequence[Sample], r1: float, r2: float, gif_path: str,
                   png_path: str, frames: int = 60, strip: int = 6,
                   pattern: str = 'targets') -> List[int]:
    """
    Write an animated GIF and a PNG strip of evenly spaced answered samples.

    Every picture is a ``figure`` (title with r1, r2 and ``pattern``, times,
    axes in metres, legend).  Returns the indices of the samples drawn in the
    strip, for checking.
    """
    answered = [i for i, s in enumerate(samples) if s.answered]
    if not answered:
        raise ValueError('no target was answered: nothing to draw')

    def pick(count: int) -> List[int]:
        count = min(count, len(answered))
        return [answered[round(k * (len(answered) - 1) / max(1, count - 1))]
                for k in range(count)]

    def panel(index: int, size: int = FRAME_SIZE) -> Tuple[Any, float]:
        image = draw_frame(samples[index], samples[max(0, index - 40):index], r1, r2, size)
        return image, samples[index].time

    title = title_text(r1, r2, pattern)
    images = [figure([panel(i)], r1, r2, title) for i in pick(frames)]
    images[0].save(gif_path, save_all=True, append_images=images[1:], duration=80, loop=0)
    chosen = pick(strip)
    figure([panel(i, 240) for i in chosen], r1, r2, title).save(png_path)
    return chosen
