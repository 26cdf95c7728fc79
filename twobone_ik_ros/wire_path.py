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
A path in and its trajectory out as arrays and bytes, without message objects.

Why: rclpy turns every pose of a nav_msgs/Path into five Python objects and
every point of a JointTrajectory into three.  For a 10 000-pose path that
is about 0.5 s of deserialising and 0.17 s of building and converting the
answer, against about 15 ms for solving and timing all of it; a 200 000-pose
path held every target behind it for about 10 s.  Poses and points are
records of one shape, so numpy reads and writes them all at once
(``benchmarks/bench_path.py``, README "Performance").

The same rules as ``wire`` (classic little-endian CDR, alignment counted
from the end of the 4-byte encapsulation header), the same self-check on
samples that rclpy serialised at start, and the same way out: whatever is
not in the checked form is left to rclpy (``PathReader.read`` returns None,
``TrajectoryWriter.usable`` is False), so what these return is exactly what
rclpy reads or writes (fuzzed in the suite).

- ``PathReader`` reads the path's header, the first pose's header and every
  pose's position and stamp.  After the first pose (whose start depends on
  the header's frame) every pose starts 8-aligned, so when their frame_ids
  all have one length (the usual case: one frame for all) they are records
  of one stride; paths whose pose frames differ in length go to rclpy.
- ``TrajectoryWriter`` writes a JointTrajectory with a zero stamp, an empty
  frame and points of positions (velocities and accelerations when given)
  and time_from_start: after the first point every point starts at the
  same alignment, so those are records of one stride too.
"""

from __future__ import annotations

import struct
from typing import Any, List, NamedTuple, Optional, Sequence, Tuple

from geometry_msgs.msg import PoseStamped
from nav_msgs.msg import Path
import numpy as np
import numpy.typing as npt
from rclpy.serialization import deserialize_message, serialize_message
from trajectory_msgs.msg import JointTrajectory
from twobone_ik_ros.commands import joint_trajectory
from twobone_ik_ros.wire import CDR_LE, read_string

_E = 4  # encapsulation header: offsets in the payload are counted after it
_U32 = struct.Struct('<I')
_STAMP = struct.Struct('<iI')
_XYZ = struct.Struct('<ddd')
_POSE_TAIL = 56  # position and orientation: seven doubles
_SMALLEST_POSE = 12 + _POSE_TAIL  # stamp, an empty frame's length, no padding
_NS = 1_000_000_000

#: (stamp sec, stamp nanosec, frame_id) of a header
Stamped = Tuple[int, int, str]


def _align(offset: int, size: int) -> int:
    return offset + (-offset) % size


class PathData(NamedTuple):
    """What the node uses of a nav_msgs/Path."""

    header: Stamped
    #: the first pose's header (None without poses): the path's frame when its own is empty
    first: Optional[Stamped]
    #: (N, 3) positions
    points: np.ndarray
    #: (N,) pose stamps in nanoseconds
    stamps_ns: np.ndarray

    @classmethod
    def from_message(cls, msg: Path) -> 'PathData':
        """Read a deserialised Path (rclpy's objects): what ``PathReader`` must equal."""
        poses = msg.poses
        points = np.empty((len(poses), 3))
        stamps = np.empty(len(poses), np.int64)
        for i, pose in enumerate(poses):
            position, stamp = pose.pose.position, pose.header.stamp
            points[i] = position.x, position.y, position.z
            stamps[i] = stamp.sec * _NS + stamp.nanosec
        first = _stamped(poses[0].header) if poses else None
        return cls(_stamped(msg.header), first, points, stamps)

    def frame_header(self) -> Stamped:
        """Return the header that names the path's frame (the first pose's if its own is empty)."""
        if not self.header[2] and self.first is not None:
            return self.first
        return self.header


def _stamped(header: Any) -> Stamped:
    return header.stamp.sec, header.stamp.nanosec, header.frame_id


class PathReader:
    """Read a serialised nav_msgs/Path; None when it is not in the form checked at start."""

    def __init__(self) -> None:
        """Check the reader on paths serialised by the middleware in use."""
        self.usable = True
        for path_frame in ('', 'ab', 'base_link'):
            for pose_frame in ('', 'map', 'frame_of_nine'):
                for count in (0, 1, 2, 5):
                    sample = _sample_path(path_frame, pose_frame, count)
                    if not _same(self.read(serialize_message(sample)),
                                 PathData.from_message(sample)):
                        self.usable = False
                        return

    def read(self, raw: bytes) -> Optional[PathData]:
        """Return the path in ``raw``, or None to leave it to rclpy."""
        if not self.usable or raw[:4] != CDR_LE:
            return None
        payload = memoryview(raw)[_E:]
        header, at = _read_header(payload, 0)
        at = _align(at, 4)
        if header is None or at + 4 > len(payload):
            return None
        (count,) = _U32.unpack_from(payload, at)
        at += 4
        if count == 0:
            return PathData(header, None, np.empty((0, 3)), np.empty(0, np.int64))
        if count * _SMALLEST_POSE > len(payload) - at:
            return None  # a count its bytes cannot hold (and nothing allocated for it)
        first, at = _read_header(payload, at)
        position = _align(at, 8)
        if first is None or position + _POSE_TAIL > len(payload):
            return None
        points = np.empty((count, 3))
        stamps = np.empty(count, np.int64)
        points[0] = _XYZ.unpack_from(payload, position)
        stamps[0] = first[0] * _NS + first[1]
        at = position + _POSE_TAIL
        if count > 1:
            if at + 12 > len(payload):
                return None
            (size,) = _U32.unpack_from(payload, at + 8)
            xyz = _align(12 + size, 8)
            stride = xyz + _POSE_TAIL
            if at + (count - 1) * stride > len(payload):
                return None
            rest = np.frombuffer(payload, np.dtype({
                'names': ['sec', 'nanosec', 'size', 'xyz'],
                'formats': ['<i4', '<u4', '<u4', ('<f8', (3,))],
                'offsets': [0, 4, 8, xyz], 'itemsize': stride}), count - 1, at)
            if not np.all(rest['size'] == size):
                return None  # pose frames of several lengths: not one stride
            points[1:] = rest['xyz']
            stamps[1:] = rest['sec'].astype(np.int64) * _NS + rest['nanosec']
        return PathData(header, first, points, stamps)


def _read_header(payload: memoryview, at: int) -> Tuple[Optional[Stamped], int]:
    """Read a std_msgs/Header at ``at`` (4-aligned); None if rclpy would read it otherwise."""
    if at + 12 > len(payload):
        return None, at
    sec, nanosec = _STAMP.unpack_from(payload, at)
    frame, end = read_string(payload, at + 8)
    if frame is None:
        return None, at
    return (sec, nanosec, frame), end


def _same(read: Optional[PathData], expected: PathData) -> bool:
    return (read is not None and read.header == expected.header
            and read.first == expected.first
            and np.array_equal(read.points, expected.points)
            and np.array_equal(read.stamps_ns, expected.stamps_ns))


def _sample_path(path_frame: str, pose_frame: str, count: int) -> Path:
    msg = Path()
    msg.header.frame_id = path_frame
    msg.header.stamp.sec, msg.header.stamp.nanosec = 1_700_000_000, 5
    for i in range(count):
        pose = PoseStamped()
        pose.header.frame_id = pose_frame
        pose.header.stamp.sec, pose.header.stamp.nanosec = 100 + i, 999_999_999 - i
        position = pose.pose.position
        position.x, position.y, position.z = 0.5 + i, -1.25 * i, 3.0 - i
        pose.pose.orientation.w = 1.0
        msg.poses.append(pose)
    return msg


class TrajectoryWriter:
    """Serialise JointTrajectory messages for ``joint_names`` from arrays."""

    def __init__(self, joint_names: Sequence[str]) -> None:
        """Lay out the fixed part; check the writer against rclpy on samples."""
        self._names = list(joint_names)
        joints = len(self._names)
        head = bytearray(CDR_LE)
        head += _STAMP.pack(0, 0) + _U32.pack(1) + b'\0'  # start now, no frame
        head += bytes(_align(len(head) - _E, 4) - (len(head) - _E))
        head += _U32.pack(joints)
        for name in self._names:
            head += bytes(_align(len(head) - _E, 4) - (len(head) - _E))
            text = name.encode()
            head += _U32.pack(len(text) + 1) + text + b'\0'
        head += bytes(_align(len(head) - _E, 4) - (len(head) - _E))
        self._head = bytes(head)
        self.usable = True
        rng = np.random.default_rng(1)
        for count in (1, 2, 3, 6):
            for derivatives in (0, 1, 2):
                positions = rng.normal(size=(count, joints))
                times = np.cumsum(rng.integers(1, 3 * _NS, count))
                extra = [rng.normal(size=(count, joints)) for _ in range(derivatives)]
                expected = joint_trajectory(self._names, positions, times)
                for field, values in zip(('velocities', 'accelerations'), extra):
                    for point, row in zip(expected.points, values.tolist()):
                        setattr(point, field, row)
                written = self.write(positions, times, *extra)
                if deserialize_message(written, JointTrajectory) != expected:
                    self.usable = False
                    return

    def write(self, positions: npt.ArrayLike, times_ns: npt.ArrayLike,
              velocities: Optional[npt.ArrayLike] = None,
              accelerations: Optional[npt.ArrayLike] = None) -> bytes:
        """Return the trajectory through ``positions`` (N, joints) at ``times_ns`` from now."""
        columns = [np.asarray(positions, dtype=np.float64)]
        for values in (velocities, accelerations):
            if values is not None:
                columns.append(np.asarray(values, dtype=np.float64))
        count, joints = columns[0].shape
        seconds, nanoseconds = np.divmod(np.asarray(times_ns, dtype=np.int64), _NS)
        start = len(self._head) - _E + 4  # the first point, after the count
        first = _point_dtype(start, joints, len(columns))
        rest = _point_dtype(start + first.itemsize, joints, len(columns))
        buffer = np.zeros(_E + start + first.itemsize + max(count - 1, 0) * rest.itemsize,
                          np.uint8)
        buffer[:len(self._head)] = np.frombuffer(self._head, np.uint8)
        buffer[len(self._head):len(self._head) + 4] = np.frombuffer(_U32.pack(count), np.uint8)
        for dtype, at, rows in ((first, start, slice(0, 1)),
                                (rest, start + first.itemsize, slice(1, count))):
            points = np.ndarray(max(rows.stop - rows.start, 0), dtype, buffer, _E + at)
            for i, values in enumerate(columns):
                points[f'size{i}'] = joints
                points[f'values{i}'] = values[rows]
            points['sec'] = seconds[rows]
            points['nanosec'] = nanoseconds[rows]
        return buffer.tobytes()


def _point_dtype(at: int, joints: int, sequences: int) -> np.dtype:
    """
    Return the record of one JointTrajectoryPoint starting at payload offset ``at``.

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
        here = _align(here, 4)
        names.append(f'size{i}')
        formats.append('<u4')
        offsets.append(here - at)
        here += 4
        if i < sequences:
            here = _align(here, 8)
            names.append(f'values{i}')
            formats.append(('<f8', (joints,)))
            offsets.append(here - at)
            here += 8 * joints
    here = _align(here, 4)
    names += ['sec', 'nanosec']
    formats += ['<i4', '<u4']
    offsets += [here - at, here + 4 - at]
    return np.dtype({'names': names, 'formats': formats, 'offsets': offsets,
                     'itemsize': here + 8 - at})
