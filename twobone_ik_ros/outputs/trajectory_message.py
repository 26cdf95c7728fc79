"""
A JointTrajectory message from arrays or rows, and a Duration: pure builders, as ``markers`` is.

What joint_trajectory_controller checks: every joint named, at least one
point, ``positions`` of that size, ``time_from_start`` strictly increasing,
a zero stamp meaning "start now", the last point's velocities zero; it joins
points linearly, by cubics or by quintics as they carry positions,
velocities and accelerations.  A move's few points go into one message
filled again (``fill_rows``): making a point's objects anew was most of what
an action's goal cost the node.  Arrays go in as ``array.array``, which the
generated setters take without looking at each value.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import array
from typing import List, Optional, Sequence

from builtin_interfaces.msg import Duration
import numpy as np
import numpy.typing as npt
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint
from twobone_ik_ros.motion.samples import Row

_NS = 1_000_000_000


def duration(nanoseconds: int) -> Duration:
    """Return ``nanoseconds`` as a builtin_interfaces Duration."""
    seconds, rest = divmod(int(nanoseconds), _NS)
    return Duration(sec=seconds, nanosec=rest)


def joint_trajectory(joint_names: Sequence[str], positions: npt.ArrayLike,
                     times_ns: npt.ArrayLike, velocities: Optional[npt.ArrayLike] = None,
                     accelerations: Optional[npt.ArrayLike] = None) -> JointTrajectory:
    """
    Return a JointTrajectory through ``positions`` (N, joints) at ``times_ns`` from now.

    ``velocities`` and ``accelerations`` (N, joints), when given, fill the
    points' fields of those names.

    The message is built once per move or path; its points are made from
    plain lists (``tolist``), the fastest way rclpy's generated classes take
    them.
    """
    msg = JointTrajectory()
    msg.joint_names = list(joint_names)
    rows = np.asarray(positions, dtype=np.float64).tolist()
    seconds, nanoseconds = np.divmod(np.asarray(times_ns, dtype=np.int64), _NS)
    points: List[JointTrajectoryPoint] = []
    append = points.append
    for row, sec, nanosec in zip(rows, seconds.tolist(), nanoseconds.tolist()):
        point = JointTrajectoryPoint()
        point.positions = row
        point.time_from_start = Duration(sec=sec, nanosec=nanosec)
        append(point)
    for field, values in (('velocities', velocities), ('accelerations', accelerations)):
        if values is not None:
            for point, row in zip(points, np.asarray(values, dtype=np.float64).tolist()):
                setattr(point, field, row)
    msg.points = points
    return msg


def fill_rows(msg: JointTrajectory, pool: List[JointTrajectoryPoint], times_ns: Sequence[int],
              rows: Sequence[Row], derivatives: int, stamp_ns: int) -> JointTrajectory:
    """
    Fill ``msg`` (two joints, named already) with ``rows`` at ``times_ns``, stamped ``stamp_ns``.

    ``derivatives``: 0 positions only, 1 velocities too, 2 accelerations
    too (``samples.Row`` holds all three).  The points are ``pool``'s, kept
    from one move to the next, more made when a move has more.  Return ``msg``.
    """
    while len(pool) < len(rows):
        pool.append(JointTrajectoryPoint())
    empty = array.array('d')
    for point, row, time_ns in zip(pool, rows, times_ns):
        point.positions = array.array('d', row[0:2])
        point.velocities = array.array('d', row[2:4]) if derivatives else empty
        point.accelerations = array.array('d', row[4:6]) if derivatives > 1 else empty
        point.time_from_start.sec, point.time_from_start.nanosec = divmod(time_ns, _NS)
    msg.points = pool[:len(rows)]
    msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(stamp_ns, _NS)
    return msg
