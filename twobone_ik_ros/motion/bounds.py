"""
The interval each joint must stay in, and what a stream may command of one motion.

Pure (no numpy).  ``Bounds`` are the two joints' limits as intervals, with
the position a controller's goal is held at (``inside``: ``MARGIN`` within
them).  ``Envelope`` is the check of a motion that is sent as it runs (a
stream), position by position: what ``limit_check`` allowed.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import NamedTuple, Optional, Tuple

from twobone_ik_ros.ik.geometry import JointLimits
from twobone_ik_ros.motion.angles import Angles

#: How far inside its limits a controller's goal on (or a rounding past) a limit is
#: put (``Bounds.inside``): the controller's own float evaluation of a polynomial that
#: ends on a limit lands a few ulps past it (``test_limit_edges`` found it); from this
#: far inside it does not.
MARGIN = 1e-13


class Bounds(NamedTuple):
    """
    The interval each joint must stay in: (shoulder, elbow) lower and upper ends.

    Position limits, in rad; ``planning.Limits`` are the speed limits
    (velocity, acceleration, jerk) a motion is planned within.
    """

    lower: Tuple[float, float]
    upper: Tuple[float, float]

    @classmethod
    def of(cls, shoulder: JointLimits, elbow: JointLimits) -> 'Bounds':
        """Return the bounds of the two joints' limits."""
        return cls((shoulder.lower, elbow.lower), (shoulder.upper, elbow.upper))

    def around(self, start: Optional[Angles]) -> 'Bounds':
        """Return these bounds widened to ``start`` (None: unchanged): the arm may come back."""
        if start is None:
            return self
        return Bounds((min(self.lower[0], start[0]), min(self.lower[1], start[1])),
                      (max(self.upper[0], start[0]), max(self.upper[1], start[1])))

    def clamp(self, position: Angles) -> Angles:
        """Return ``position`` held within these bounds: the nearest position within."""
        return (min(max(position[0], self.lower[0]), self.upper[0]),
                min(max(position[1], self.lower[1]), self.upper[1]))

    def inside(self, position: Angles) -> Angles:
        """
        Return ``position`` held ``MARGIN`` inside these bounds: a controller's goal.

        A position further inside is itself; one on a limit, or past it, the
        nearest position ``MARGIN`` inside (the middle of bounds narrower than that).
        """
        return (_within(position[0], self.lower[0], self.upper[0]),
                _within(position[1], self.lower[1], self.upper[1]))

    def narrowed(self) -> 'Bounds':
        """Return these bounds ``MARGIN`` narrower at each end (``inside``)."""
        return Bounds(self.inside(self.lower), self.inside(self.upper))

    def holds(self, joint: int, value: float) -> bool:
        """Tell whether ``value`` of ``joint`` is within these bounds (ends included)."""
        return self.lower[joint] <= value <= self.upper[joint]


class Envelope:
    """
    Where each joint may go, position after position, along one motion that is sent as it runs.

    A stream (``forward_command``) publishes the motion at the controller's
    cycles, not the points the check bounded: ``admit`` holds each position
    to what the check allowed (the difference is ruckig's rounding, at most
    micro-radians), so that what is sent is what was checked.  A joint that
    starts outside the limits may come back within ``Bounds.around`` its
    start; once a position of it is inside, the limits hold.
    """

    def __init__(self, bounds: Bounds, start: Optional[Angles]) -> None:
        """Bound a motion that starts at ``start`` (None: the limits from the first position)."""
        self._bounds = bounds
        self._allowed = bounds.around(start)

    def admit(self, position: Angles) -> Angles:
        """Return ``position`` held within the envelope, which it narrows where it is inside."""
        bounds, allowed = self._bounds, self._allowed
        for joint in (0, 1):
            if allowed != bounds and bounds.holds(joint, position[joint]):
                allowed = Bounds(_put(allowed.lower, joint, bounds.lower[joint]),
                                 _put(allowed.upper, joint, bounds.upper[joint]))
        self._allowed = allowed
        return allowed.clamp(position)


def _within(value: float, lower: float, upper: float) -> float:
    """Return ``value`` held ``MARGIN`` inside [lower, upper] (their middle if that is less)."""
    if upper - lower <= 2.0 * MARGIN:
        return 0.5 * (lower + upper)
    return min(max(value, lower + MARGIN), upper - MARGIN)


def _put(pair: Tuple[float, float], index: int, value: float) -> Tuple[float, float]:
    return (value, pair[1]) if index == 0 else (pair[0], value)
