"""
A path read from its bytes into arrays, without message objects.

rclpy turns every pose of a nav_msgs/Path into five Python objects, which
for a long path costs more than solving and timing all of it (``bench_path``,
doc/performance.md); poses are records of one shape, so numpy reads them all
at once.  ``PathReader`` reads the path's header, the first pose's header
and every pose's position and stamp by the rules of ``cdr``; after the first
pose every pose starts 8-aligned, so when their frame_ids have one length
they are records of one stride.  It checks itself on samples rclpy
serialised when it is made, and leaves whatever is not in the checked form
to rclpy (``read`` returns None), so what it returns is what rclpy reads
(fuzzed in the suite).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import struct
from typing import Any, NamedTuple, Optional, Tuple

from geometry_msgs.msg import PoseStamped
from nav_msgs.msg import Path
import numpy as np
import numpy.typing as npt
from rclpy.serialization import serialize_message
from twobone_ik_ros.ros.cdr import align, CDR_LE, ENCAPSULATION, read_string, STAMP, U32

_E = ENCAPSULATION  # offsets in the payload are counted after it
_XYZ = struct.Struct('<ddd')
_POSE_TAIL = 56  # position and orientation: seven doubles
_SMALLEST_POSE = 12 + _POSE_TAIL  # stamp, an empty frame's length, no padding
_NS = 1_000_000_000

#: (stamp sec, stamp nanosec, frame_id) of a header
Stamped = Tuple[int, int, str]


class PathData(NamedTuple):
    """What the node uses of a nav_msgs/Path."""

    header: Stamped
    #: the first pose's header (None without poses): the path's frame when its own is empty
    first: Optional[Stamped]
    #: (N, 3) positions
    points: npt.NDArray[np.float64]
    #: (N,) pose stamps in nanoseconds
    stamps_ns: npt.NDArray[np.int64]

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

    def answer_stamp(self) -> Optional[Tuple[int, int]]:
        """Return the stamp that answers the path: its own, else its frame header's, or None."""
        for sec, nanosec, _ in (self.header, self.frame_header()):
            if sec or nanosec:
                return sec, nanosec
        return None


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
        at = align(at, 4)
        if header is None or at + 4 > len(payload):
            return None
        (count,) = U32.unpack_from(payload, at)
        at += 4
        if count == 0:
            return PathData(header, None, np.empty((0, 3)), np.empty(0, np.int64))
        if count * _SMALLEST_POSE > len(payload) - at:
            return None  # a count its bytes cannot hold (and nothing allocated for it)
        first, at = _read_header(payload, at)
        position = align(at, 8)
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
            (size,) = U32.unpack_from(payload, at + 8)
            xyz = align(12 + size, 8)
            stride = xyz + _POSE_TAIL
            if at + (count - 1) * stride > len(payload):
                return None
            # the last byte of each pose's frame: its NUL (Cyclone DDS refuses a string without)
            rest = np.frombuffer(payload, np.dtype({
                'names': ['sec', 'nanosec', 'size', 'last', 'xyz'],
                'formats': ['<i4', '<u4', '<u4', 'u1', ('<f8', (3,))],
                'offsets': [0, 4, 8, 12 + max(size - 1, 0), xyz], 'itemsize': stride}),
                count - 1, at)
            if not np.all(rest['size'] == size):
                return None  # pose frames of several lengths: not one stride
            if size and np.any(rest['last']):
                return None  # a pose frame without its terminating NUL
            points[1:] = rest['xyz']
            stamps[1:] = rest['sec'].astype(np.int64) * _NS + rest['nanosec']
        return PathData(header, first, points, stamps)


def _read_header(payload: memoryview, at: int) -> Tuple[Optional[Stamped], int]:
    """Read a std_msgs/Header at ``at`` (4-aligned); None if rclpy would read it otherwise."""
    if at + 12 > len(payload):
        return None, at
    sec, nanosec = STAMP.unpack_from(payload, at)
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
