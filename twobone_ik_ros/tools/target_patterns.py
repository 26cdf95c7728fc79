"""
Demo target patterns as pure generators of (x, y), scaled to the arm.

Each pattern sweeps the reachable annulus and, on purpose, leaves it part of
the time (beyond r1 + r2, and inside ``|r1 - r2|`` where there is a hole), so a
demo shows clamping or rejection as well as solving.  No ROS here: the
target_publisher node only paces and publishes what these yield.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import itertools
import math
import random
from typing import Callable, Dict, Iterator, Tuple

Point = Tuple[float, float]


def circle(r1: float, r2: float, rate: float, seed: int = 0) -> Iterator[Point]:
    """Go round the shoulder with a radius that breathes past both boundaries."""
    inner, outer = abs(r1 - r2), r1 + r2
    for i in itertools.count():
        t = i / rate
        radius = inner + (outer - inner) * (0.5 + 0.62 * math.sin(0.7 * t))
        yield radius * math.cos(0.9 * t), radius * math.sin(0.9 * t)


def figure_eight(r1: float, r2: float, rate: float, seed: int = 0) -> Iterator[Point]:
    """Trace a lemniscate a little wider than the reach, through the centre."""
    size = 1.12 * (r1 + r2)
    for i in itertools.count():
        t = 0.6 * i / rate
        yield size * math.cos(t), 0.5 * size * math.sin(2.0 * t)


def random_walk(r1: float, r2: float, rate: float, seed: int = 0) -> Iterator[Point]:
    """Wander with a reproducible random walk that may stray out of reach."""
    rng = random.Random(seed)
    outer = r1 + r2
    bound, step = 1.3 * outer, 1.5 * outer / rate
    x, y = 0.5 * outer, 0.0
    while True:
        x = min(bound, max(-bound, x + rng.gauss(0.0, step)))
        y = min(bound, max(-bound, y + rng.gauss(0.0, step)))
        yield x, y


def step(r1: float, r2: float, rate: float, seed: int = 0) -> Iterator[Point]:
    """Jump once a second between fixed points, two of them out of reach."""
    inner, outer = abs(r1 - r2), r1 + r2
    middle = 0.5 * (inner + outer)
    stops = [(middle, 0.0), (0.0, middle), (-0.9 * outer, 0.3 * outer),
             (1.5 * outer, 1.5 * outer),            # beyond reach
             (0.3 * inner, -0.2 * inner),            # inside the hole (if there is one)
             (0.2 * outer, -0.8 * outer)]
    hold = max(1, round(rate))
    for i in itertools.count():
        yield stops[(i // hold) % len(stops)]


PATTERNS: Dict[str, Callable[..., Iterator[Point]]] = {
    'circle': circle, 'figure_eight': figure_eight, 'random_walk': random_walk, 'step': step,
}


def make_pattern(name: str, r1: float, r2: float, rate: float, seed: int = 0) -> Iterator[Point]:
    """Return the named pattern's generator; ValueError names the known ones."""
    try:
        pattern = PATTERNS[name]
    except KeyError:
        raise ValueError(f'pattern must be one of {", ".join(PATTERNS)}, got {name!r}') from None
    if not (rate > 0.0 and math.isfinite(rate)):
        raise ValueError(f'rate must be a positive number of targets per second, got {rate!r}')
    return pattern(r1, r2, rate, seed)
