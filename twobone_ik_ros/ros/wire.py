"""
The per-target messages in their serialised form, without rclpy message objects.

Why: at 1 kHz the node's own work (the solve, the counters) is a few
microseconds a target, while rclpy building a PointStamped out of Python
objects and turning the JointState back into C costs more, and far more on a
busy machine where every wake-up starts with cold caches: a relay that read
and wrote the serialised form used 11 % less CPU per target than the same
relay with message objects, and lost fewer targets beside two CPU-bound
processes (benchmarks/bench_node.py, doc/performance.md).

rclpy supports both ends (every distribution since Eloquent): a subscription
with ``raw=True`` hands over the serialised bytes, and ``Publisher.publish``
takes bytes.  What the bytes look
like is the middleware's business, so nothing here assumes it blindly:

- ``TargetReader`` reads the classic little-endian CDR that ROS 2's
  middlewares use for PointStamped (a 4-byte encapsulation header
  ``00 01 00 00``; then stamp, the frame as a length-prefixed string, and the
  point aligned to 8 bytes).  It checks itself on a sample serialised by
  the middleware in use (``rclpy.serialization``); for anything else (other
  encodings, and strings that rclpy would read as other characters than
  their bytes) it returns None and the caller deserialises with rclpy, so
  what it does return is exactly what rclpy reads (fuzzed in the suite).
- ``JointStateReader`` reads a JointState the same way (stamp, names,
  positions and velocities; the efforts are checked, not kept): the arm's
  state, which a controller output takes at the broadcaster's rate.
- ``SerializedMessage`` serialises one message with marker values, finds
  where the stamp and the two doubles landed, and checks that rewriting
  them gives what ``deserialize_message`` reads back as those values.
  Otherwise it is not usable and the caller publishes the object.
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
from typing import Any, Callable, List, Optional, Tuple

from geometry_msgs.msg import PointStamped
from rclpy.serialization import deserialize_message, serialize_message
from sensor_msgs.msg import JointState

#: encapsulation header of little-endian classic CDR (XCDR1) with no options:
#: what the middlewares write; other options (Fast CDR reads padding bits from
#: them) are left to rclpy
CDR_LE = b'\x00\x01\x00\x00'
ENCAPSULATION = 4  # bytes before the payload; alignment counts from its end
U32 = struct.Struct('<I')
_XYZ = struct.Struct('<ddd')
STAMP = struct.Struct('<iI')
_PAIR = struct.Struct('<dd')
#: the stamp of the samples a reader checks itself on
_SAMPLE_STAMP = (1_700_000_000, 123_456_789)
# marker values no real message carries in the same bytes
_MARK_STAMP = (0x5EC0_5EC0, 0x0AB0_0AB0)
_MARK_PAIR = (1.2345678901234567e-300, -2.3456789012345678e-299)

#: stamp sec, stamp nanosec, frame_id, x, y, z
Target = Tuple[int, int, str, float, float, float]
#: stamp sec, stamp nanosec, names, positions, velocities
Joints = Tuple[int, int, List[str], Tuple[float, ...], Tuple[float, ...]]


class TargetReader:
    """Read a serialised PointStamped; None when it is not in the form checked at start."""

    def __init__(self) -> None:
        """Check the reader on samples serialised by the middleware in use."""
        self.usable = True
        samples = []
        for frame in ('', 'a', 'base_link', 'frame_of_nine'):  # every alignment of the point
            sample = PointStamped()
            sample.header.stamp.sec, sample.header.stamp.nanosec = _SAMPLE_STAMP
            sample.header.frame_id = frame
            sample.point.x, sample.point.y, sample.point.z = 0.5, -1.25, 3.0
            samples.append((sample, (*_SAMPLE_STAMP, frame, 0.5, -1.25, 3.0)))
        self.usable = _reads_all(self.read, samples)

    def read(self, raw: bytes) -> Optional[Target]:
        """Return the target in ``raw``, or None if it is not little-endian classic CDR."""
        if not self.usable or raw[:4] != CDR_LE or len(raw) < ENCAPSULATION + 12:
            return None
        sec, nanosec = STAMP.unpack_from(raw, ENCAPSULATION)
        payload = memoryview(raw)[ENCAPSULATION:]
        frame, end = read_string(payload, 8)
        point = end + (-end) % 8
        if frame is None or len(payload) < point + 24:
            return None
        x, y, z = _XYZ.unpack_from(payload, point)
        return sec, nanosec, frame, x, y, z


class JointStateReader:
    """Read a serialised JointState; None when it is not in the form checked at start."""

    def __init__(self) -> None:
        """Check the reader on samples serialised by the middleware in use."""
        self.usable = True
        #: the last state's frame and names: their bytes, where they end, the names read
        self._heading: Tuple[bytes, int, List[str]] = (b'', 0, [])
        samples = []
        for frame, names, positions, velocities, efforts in (
                ('', ['a', 'bc'], [0.5, -1.25], [], []),
                ('x', ['shoulder_joint', 'elbow_joint'], [0.5, -1.25], [3.0, -0.0], [1.0]),
                ('base', ['j'], [], [2.0], []),
                ('frame_of_nine', [], [], [], [7.0, 8.0]),
                ('seven77', ['', 'abcd', 'abc'], [1.0, 2.0, 3.0], [], [4.0])):
            sample = JointState(name=names, position=positions, velocity=velocities,
                                effort=efforts)
            sample.header.stamp.sec, sample.header.stamp.nanosec = _SAMPLE_STAMP
            sample.header.frame_id = frame
            samples.append((sample, (*_SAMPLE_STAMP, names, tuple(positions),
                                     tuple(velocities))))
        self.usable = _reads_all(self.read, samples)

    def read(self, raw: bytes) -> Optional[Joints]:
        """Return the joint state in ``raw``, or None if it is not little-endian classic CDR."""
        if not self.usable or raw[:4] != CDR_LE or len(raw) < ENCAPSULATION + 12:
            return None
        payload = memoryview(raw)[ENCAPSULATION:]
        size = len(payload)
        sec, nanosec = STAMP.unpack_from(payload, 0)
        heading, at, names = self._heading
        if not at or raw[ENCAPSULATION + 8:ENCAPSULATION + at] != heading:
            # the same frame and names as the last state (a broadcaster's every one) are read
            # from the same bytes: read once
            found = _heading(payload, size)
            if found is None:
                return None
            at, names = found
            self._heading = (raw[ENCAPSULATION + 8:ENCAPSULATION + at], at, names)
        arrays = []
        for _ in range(3):  # position, velocity, effort
            at = align(at, 4)
            if at + 4 > size:
                return None
            (count,) = U32.unpack_from(payload, at)
            at += 4
            if count:
                at = align(at, 8)
                if 8 * count > size - at:
                    return None
                arrays.append(struct.unpack_from(f'<{count}d', payload, at))
                at += 8 * count
            else:
                arrays.append(())
        return sec, nanosec, names, arrays[0], arrays[1]


def _heading(payload: memoryview, size: int) -> Optional[Tuple[int, List[str]]]:
    """Return where a JointState's frame and names end in ``payload``, and the names."""
    frame, at = read_string(payload, 8)
    if frame is None:
        return None
    at = align(at, 4)
    if at + 4 > size:
        return None
    (count,) = U32.unpack_from(payload, at)
    at += 4
    if 4 * count > size - at:  # each name takes 4 bytes at least
        return None
    names = []
    for _ in range(count):
        name, at = read_string(payload, align(at, 4))
        if name is None:
            return None
        names.append(name)
    return at, names


class SerializedMessage:
    """
    A message serialised once; each ``write`` rewrites its stamp and two doubles.

    ``fill(message, sec, nanosec, a, b)`` puts the values where they belong
    (a message without a stamp ignores ``sec`` and ``nanosec``).  Everything
    else in the message (names, frame) is taken as it is when this is made,
    so it is made again when those change.
    """

    def __init__(self, message: Any, fill: Callable[[Any, int, int, float, float], None],
                 stamped: bool = True) -> None:
        """Serialise ``message`` with marker values and check the rewriting."""
        fill(message, *_MARK_STAMP, *_MARK_PAIR)
        template = serialize_message(message)
        self._buffer = bytearray(template)
        self._stamp_at = _unique(template, STAMP.pack(*_MARK_STAMP)) if stamped else None
        self._pair_at = _unique(template, _PAIR.pack(*_MARK_PAIR))
        self.usable = self._pair_at is not None and (not stamped or self._stamp_at is not None)
        if self.usable:  # padding bytes are left as they come: compare what is read back
            fill(message, 7, 8, 0.5, -0.25)
            self.usable = deserialize_message(self.write(7, 8, 0.5, -0.25),
                                              type(message)) == message

    def write(self, sec: int, nanosec: int, a: float, b: float) -> bytes:
        """Return the serialised message with these values."""
        buffer = self._buffer
        if self._stamp_at is not None:
            STAMP.pack_into(buffer, self._stamp_at, sec, nanosec)
        assert self._pair_at is not None
        _PAIR.pack_into(buffer, self._pair_at, a, b)
        return bytes(buffer)


def _reads_all(read: Callable[[bytes], Any], samples: List[Tuple[Any, Any]]) -> bool:
    """Tell whether ``read`` gives what is expected of each (message, expected) serialised."""
    return all(read(serialize_message(message)) == expected for message, expected in samples)


def read_string(payload: memoryview, at: int) -> Tuple[Optional[str], int]:
    """
    Read the CDR string at ``at`` (4-aligned) of ``payload``; return it and where it ends.

    The string is None where rclpy would read other characters than its
    bytes, or nothing: past the end of the payload, no terminating NUL, a
    NUL inside (C strings end there) or not UTF-8 (replacement characters).
    The caller then leaves the message to rclpy.
    """
    if at + 4 > len(payload):
        return None, at
    (size,) = U32.unpack_from(payload, at)
    end = at + 4 + size
    if not size:
        return '', end
    if end > len(payload) or payload[end - 1]:
        return None, end
    chars = bytes(payload[at + 4:end - 1])
    if 0 in chars:
        return None, end
    try:
        return chars.decode(), end
    except UnicodeDecodeError:
        return None, end


def align(offset: int, size: int) -> int:
    """Return ``offset`` (counted from the end of the encapsulation header) aligned to ``size``."""
    return offset + (-offset) % size


def _unique(data: bytes, part: bytes) -> Optional[int]:
    """Return where ``part`` is in ``data`` if it is there exactly once."""
    at = data.find(part)
    return at if at >= 0 and data.find(part, at + 1) < 0 else None
