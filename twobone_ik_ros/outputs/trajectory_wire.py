"""
JointTrajectory messages written as bytes from arrays; a finished motion as one.

rclpy turns every point of a JointTrajectory into three Python objects, which
for a long trajectory costs far more than timing the path (``bench_path``,
doc/performance.md); after the first point every point starts at one
alignment, so the points are numpy records of one stride.
``TrajectoryWriter`` writes a stamp, an empty frame and the points by the
rules of ``ros.cdr``, and checks itself against ``deserialize_message`` on
samples when made: if any differs, ``usable`` is False and the caller
publishes message objects (``trajectory_message``), so what it writes is
what rclpy would (fuzzed in the suite).  ``TrajectoryMessages`` writes a
finished motion for two named joints: as bytes for the topic where the
writer is usable, as the message an action's goal carries.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import functools
import struct
from typing import Any, List, Mapping, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt
from rclpy.serialization import deserialize_message
from trajectory_msgs.msg import JointTrajectory
from twobone_ik_ros.motion.samples import Row
from twobone_ik_ros.outputs.trajectory_message import fill_rows, joint_trajectory
from twobone_ik_ros.outputs.transport import FinishedMotion
from twobone_ik_ros.ros.cdr import align, CDR_LE, ENCAPSULATION, STAMP, U32

_E = ENCAPSULATION  # offsets in the payload are counted after it
_NS = 1_000_000_000


class TrajectoryWriter:
    """Serialise JointTrajectory messages for ``joint_names`` from arrays."""

    def __init__(self, joint_names: Sequence[str]) -> None:
        """Lay out the fixed part; check the writer against rclpy on samples."""
        self._names = list(joint_names)
        joints = len(self._names)
        head = bytearray(CDR_LE)
        head += STAMP.pack(0, 0) + U32.pack(1) + b'\0'  # start now, no frame
        head += _padding(head, 4)
        head += U32.pack(joints)
        for name in self._names:
            head += _padding(head, 4)
            text = name.encode()
            head += U32.pack(len(text) + 1) + text + b'\0'
        head += _padding(head, 4)
        self._head = bytes(head)
        self.usable = True
        rng = np.random.default_rng(1)
        for count in (1, 2, 3, 6, FEW + 1):  # the few points' layout and the arrays'
            for derivatives in (0, 1, 2):
                positions = rng.normal(size=(count, joints))
                times = np.cumsum(rng.integers(1, 3 * _NS, count))
                extra: List[Optional[npt.NDArray[Any]]] = [
                    rng.normal(size=(count, joints)) if i < derivatives else None
                    for i in range(2)]
                stamp = int(rng.integers(1, 2**31)) * _NS + count if count % 2 else 0
                expected = joint_trajectory(self._names, positions, times, *extra)
                expected.header.stamp.sec, expected.header.stamp.nanosec = divmod(stamp, _NS)
                written = self.write(positions, times, extra[0], extra[1], stamp)
                if deserialize_message(written, JointTrajectory) != expected or (
                        joints == 2 and count <= FEW and self.write_rows(
                            times.tolist(), _rows(positions, *extra), derivatives,
                            stamp) != written):
                    self.usable = False
                    return

    def write(self, positions: npt.ArrayLike, times_ns: npt.ArrayLike,
              velocities: Optional[npt.ArrayLike] = None,
              accelerations: Optional[npt.ArrayLike] = None, stamp_ns: int = 0) -> bytes:
        """
        Return the trajectory through ``positions`` (N, joints) at ``times_ns`` from its start.

        The start is ``stamp_ns`` (header.stamp, nanoseconds of ROS time), or
        now, when the controller takes it, for 0.  A move's few points are
        packed by one ``struct`` layout of their records (``_layout``: numpy's
        cost per call is most of the time for them), a path's many as arrays
        of records.
        """
        columns = [np.asarray(positions, dtype=np.float64)]
        for values in (velocities, accelerations):
            if values is not None:
                columns.append(np.asarray(values, dtype=np.float64))
        count, joints = columns[0].shape
        if count > FEW:
            return self._records(columns, times_ns, stamp_ns)
        head = self._head
        if stamp_ns:
            head = head[:_E] + STAMP.pack(*divmod(stamp_ns, _NS)) + head[_E + STAMP.size:]
        fields: List[Any] = [count]
        rows = [column.tolist() for column in columns]
        empty = [0] * (4 - len(rows))
        for index, time_ns in enumerate(np.asarray(times_ns, dtype=np.int64).tolist()):
            for values in rows:
                fields.append(joints)
                fields += values[index]
            fields += empty
            fields += divmod(time_ns, _NS)
        return head + _layout(len(head), count, joints, len(columns)).pack(*fields)

    def write_rows(self, times_ns: List[int], rows: Sequence[Row], derivatives: int,
                   stamp_ns: int = 0) -> bytes:
        """
        Return the trajectory of two joints' few ``rows`` (``samples.Row``) at ``times_ns``.

        What ``write`` writes for them (the same layout), from plain floats:
        a move's points as the planner made them.  ``derivatives``: 0 positions
        only, 1 velocities too, 2 accelerations too.
        """
        head = self._head
        if stamp_ns:
            head = head[:_E] + STAMP.pack(*divmod(stamp_ns, _NS)) + head[_E + STAMP.size:]
        count = len(times_ns)
        fields: List[Any] = [count]
        empty = [0] * (3 - derivatives)
        for time_ns, row in zip(times_ns, rows):
            fields += (2, row[0], row[1])
            if derivatives:
                fields += (2, row[2], row[3])
                if derivatives > 1:
                    fields += (2, row[4], row[5])
            fields += empty
            fields += divmod(time_ns, _NS)
        return head + _layout(len(head), count, 2, derivatives + 1).pack(*fields)

    def _records(self, columns: List[npt.NDArray[np.float64]], times_ns: npt.ArrayLike,
                 stamp_ns: int) -> bytes:
        """Return the trajectory of many points, written as arrays of numpy records."""
        count, joints = columns[0].shape
        seconds, nanoseconds = np.divmod(np.asarray(times_ns, dtype=np.int64), _NS)
        start = len(self._head) - _E + 4  # the first point, after the count
        first = _point_dtype(start, joints, len(columns))
        rest = _point_dtype(start + first.itemsize, joints, len(columns))
        buffer = np.zeros(_E + start + first.itemsize + max(count - 1, 0) * rest.itemsize,
                          np.uint8)
        buffer[:len(self._head)] = np.frombuffer(self._head, np.uint8)
        if stamp_ns:
            stamp = STAMP.pack(*divmod(stamp_ns, _NS))
            buffer[_E:_E + STAMP.size] = np.frombuffer(stamp, np.uint8)
        buffer[len(self._head):len(self._head) + 4] = np.frombuffer(U32.pack(count), np.uint8)
        for dtype, at, rows in ((first, start, slice(0, 1)),
                                (rest, start + first.itemsize, slice(1, count))):
            points: npt.NDArray[Any] = np.ndarray(
                max(rows.stop - rows.start, 0), dtype, buffer, _E + at)
            for i, values in enumerate(columns):
                points[f'size{i}'] = joints
                points[f'values{i}'] = values[rows]
            points['sec'] = seconds[rows]
            points['nanosec'] = nanoseconds[rows]
        return buffer.tobytes()


def _rows(positions: npt.NDArray[Any], *extra: Optional[npt.NDArray[Any]]) -> List[Row]:
    """Return two joints' positions (and what ``extra`` has) as rows, zeros for the rest."""
    still = np.zeros_like(positions)
    columns = [positions] + [still if values is None else values for values in extra]
    return [tuple(row) for row in np.concatenate(columns, axis=1).tolist()]  # type: ignore[misc]


def _padding(head: bytearray, size: int) -> bytes:
    """Return the zeros that align the end of ``head`` (a whole message so far) to ``size``."""
    end = len(head) - _E
    return bytes(align(end, size) - end)


#: Up to this many points (a move's: its knots) are packed by one ``struct`` layout.
FEW = 32


@functools.lru_cache(maxsize=256)
def _layout(head: int, count: int, joints: int, sequences: int) -> struct.Struct:
    """
    Return the ``struct`` of what follows a message's head: the count, then ``count`` points.

    The points as ``_point_dtype`` lays them out (the same records, the same
    padding); its fields in order: the count, then per point each of the
    four sequences' length (followed by its values for the first
    ``sequences``) and time_from_start's sec and nanosec.
    """
    parts = ['<I']
    here = head - _E + 4  # the first point's payload offset
    for _ in range(count):
        dtype = _point_dtype(here, joints, sequences)
        at = 0
        fields: Mapping[str, Any] = dtype.fields or {}
        for offset, name in sorted((spec[1], name) for name, spec in fields.items()):
            if offset > at:
                parts.append(f'{offset - at}x')
            if name.startswith('values'):
                parts.append(f'{joints}d')
                at = offset + 8 * joints
            else:
                parts.append('i' if name == 'sec' else 'I')
                at = offset + 4
        if dtype.itemsize > at:
            parts.append(f'{dtype.itemsize - at}x')
        here += dtype.itemsize
    return struct.Struct(''.join(parts))


@functools.lru_cache(maxsize=64)
def _point_dtype(at: int, joints: int, sequences: int) -> np.dtype[Any]:
    """
    Return the record of one JointTrajectoryPoint starting at payload offset ``at``.

    Cached: building a dtype costs more than writing a move's few points.

    Its fields: for each of positions, velocities, accelerations and effort
    its length, then (when not empty) its doubles, 8-aligned; then
    time_from_start.  The first ``sequences`` have ``joints`` values.  Every
    point ends 4-aligned after at least one sequence of doubles, so all
    points after the first start at one alignment and share one record.
    """
    names: List[str] = []
    formats: List[Any] = []
    offsets: List[int] = []
    here = at
    for i in range(4):
        here = align(here, 4)
        names.append(f'size{i}')
        formats.append('<u4')
        offsets.append(here - at)
        here += 4
        if i < sequences:
            here = align(here, 8)
            names.append(f'values{i}')
            formats.append(('<f8', (joints,)))
            offsets.append(here - at)
            here += 8 * joints
    here = align(here, 4)
    names += ['sec', 'nanosec']
    formats += ['<i4', '<u4']
    offsets += [here - at, here + 4 - at]
    return np.dtype({'names': names, 'formats': formats, 'offsets': offsets,
                     'itemsize': here + 8 - at})


class TrajectoryMessages:
    """Finished motions as JointTrajectory messages for two named joints."""

    def __init__(self) -> None:
        """Name no joint until ``name``."""
        self._names: Tuple[str, str] = ('', '')
        self._writer: Optional[TrajectoryWriter] = None
        #: the message a move's few points fill, and its points (``trajectory_message.fill_rows``)
        self._kept = JointTrajectory()
        self._pool: List[Any] = []

    def name(self, names: Tuple[str, str]) -> None:
        """Name the joints (the writer's layout is made anew only when they change)."""
        if names != self._names:
            self._names = names
            writer = TrajectoryWriter(names)
            self._writer = writer if writer.usable else None
            self._kept.joint_names = list(names)

    def write(self, motion: FinishedMotion) -> Any:
        """Return ``motion`` as bytes, or as the message where the writer is not usable."""
        writer = self._writer
        if writer is None:
            return self.message(motion)
        points = motion.points
        if len(points) <= FEW:
            times, rows = points.rows()
            return writer.write_rows(times, rows, motion.derivatives, motion.start_ns)
        if not motion.derivatives:
            return writer.write(points.positions, points.times_ns, stamp_ns=motion.start_ns)
        return writer.write(points.positions, points.times_ns, points.velocities,
                            points.accelerations if motion.derivatives > 1 else None,
                            motion.start_ns)

    def message(self, motion: FinishedMotion) -> JointTrajectory:
        """
        Return ``motion`` as a JointTrajectory: what an action's goal carries.

        A move's few points fill one message kept for them, which the next
        call fills again: it is sent (serialised) before then.
        """
        points = motion.points
        if len(points) <= FEW:
            times, rows = points.rows()
            return fill_rows(self._kept, self._pool, times, rows, motion.derivatives,
                             motion.start_ns)
        derivatives = motion.derivatives
        msg = joint_trajectory(self._names, points.positions, points.times_ns,
                               points.velocities if derivatives else None,
                               points.accelerations if derivatives > 1 else None)
        msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(motion.start_ns, 1_000_000_000)
        return msg
