"""
When a finished motion starts at its controller: a little ahead, or where the stream is.

A motion that goes whole (a JointTrajectory) is stamped with its start,
``START_DELAY_NS`` ahead, so that the controller has it before it begins and
continues the move under way where the plan does.  The controller jumps a
trajectory whose start has passed to where it should be by then, so one that
took the node too long to plan (a collector pass, a busy machine) is planned
again from a later start; and until the start the controller interpolates
from its own state to the first point, so that segment is checked too.  A
stream's motion starts at the last cycle it has streamed
(``Transport.begin``): it neither leads nor jumps.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Callable, Optional, Tuple, TypeVar

from twobone_ik_ros.motion.bounds import Bounds, Envelope
from twobone_ik_ros.motion.limit_check import (
    check_motion, controller_approach, LimitRefusal, start_position)
from twobone_ik_ros.motion.planning import ArmState, Timed
from twobone_ik_ros.motion.samples import Row, Samples
from twobone_ik_ros.motion.tracking import ArmTracker
from twobone_ik_ros.outputs.transport import FinishedMotion, Transport

AnyTimed = TypeVar('AnyTimed', bound=Timed)
#: How far ahead a whole motion starts (its stamp): a DDS hop and a controller
#: period, so that the controller has it before it begins.
START_DELAY_NS = 20_000_000
#: A whole motion planned later than this before its start is planned again
#: from a later one (``plan_and_start``), at most ``PLAN_ATTEMPTS`` times.
LATE_MARGIN_NS = 5_000_000
PLAN_ATTEMPTS = 3


def plan_and_start(plan: Callable[[int], Optional[AnyTimed]], clock: Any, tracker: ArmTracker,
                   transport: Transport, bounds: Bounds, now_ns: int
                   ) -> Optional[Tuple[AnyTimed, FinishedMotion, int]]:
    """
    Plan a motion with ``plan(begin)`` at ``now_ns``; return it, finished, and when it ends.

    ``plan`` plans from the arm's state at ``begin``, checks (raising to
    refuse) and records the motion in ``tracker``; None: no state.  The end
    is on ``clock``'s time (ns), as ``now_ns``, the time the caller read.  A
    stream's motion begins where the stream is; a whole one
    ``START_DELAY_NS`` ahead, and is planned again from a later start when
    planning took the node past ``begin - LATE_MARGIN_NS``.  The later start
    leads by twice what the late attempt took: lateness delays the move, it
    does not jump it.  A motion not sent is undone in the tracker.  Should
    the controller's way in to the first point leave the limits
    (``_way_in_within``), the motion starts now instead (no lead): the
    controller then has no such segment and takes the checked motion where
    it is due.
    """
    whole = transport.whole
    lead = START_DELAY_NS if whole else 0
    attempts = 0
    now = now_ns
    while True:
        begin = now + lead if whole else transport.begin()
        before = tracker.state(now) if lead else None  # the controller's, as far as known
        motion = plan(begin)
        if motion is None:
            return None
        points = motion.points()  # checked by ``plan``, which refuses by raising
        if before is not None and not _way_in_within(before, points, lead, bounds):
            tracker.undo()
            lead = 0
            now = clock.now().nanoseconds
            continue
        attempts += 1
        if not lead:
            break
        planned = clock.now().nanoseconds
        if planned <= begin - LATE_MARGIN_NS or attempts == PLAN_ATTEMPTS:
            break
        tracker.undo()
        # a host this slow is slow again: the next start leads by twice what this took
        lead = START_DELAY_NS + 2 * (planned - now)
        now = planned
    finished = FinishedMotion(points, begin, 2 if motion.needs_accelerations else 1, motion,
                              None if whole else Envelope(bounds, start_position(points)))
    return motion, finished, begin + round(motion.duration * 1e9)


def _way_in_within(before: ArmState, points: Samples, lead_ns: int, bounds: Bounds) -> bool:
    """
    Tell whether the controller's way from ``before`` to the first point keeps the limits.

    It interpolates a cubic from a state with velocities, a quintic from
    one with accelerations too: both are checked.  Nearly always both lie
    inside the hull of their Bernstein coefficients, and that hull inside
    the limits: that is settled here, in the check's own arithmetic
    (``limit_check``), and any other way in is checked exactly.
    """
    if _hulls_within(before, points.first(), lead_ns / 1e9, bounds):
        return True
    lead = controller_approach(before, points, lead_ns)
    try:
        check_motion(lead, False, bounds, before.position)
        check_motion(lead, True, bounds, before.position)
    except LimitRefusal:
        return False
    return True


def _hulls_within(before: ArmState, first: Row, seconds: float, bounds: Bounds) -> bool:
    """Tell whether both polynomials' Bernstein hulls, ``before`` to ``first``, keep ``bounds``."""
    for joint in (0, 1):
        lower, upper = bounds.lower[joint], bounds.upper[joint]
        p0, p1 = before.position[joint], first[joint]
        v0, v1 = before.velocity[joint] * seconds, first[2 + joint] * seconds
        a0 = before.acceleration[joint] * seconds * seconds
        a1 = first[4 + joint] * seconds * seconds
        hull = (p0, p0 + v0 / 3.0, p1 - v1 / 3.0, p1,  # the cubic's, then the quintic's
                p0 + v0 / 5.0, p0 + 2.0 * v0 / 5.0 + a0 / 20.0, p1 - 2.0 * v1 / 5.0 + a1 / 20.0,
                p1 - v1 / 5.0)
        if min(hull) < lower or max(hull) > upper:
            return False
    return True
