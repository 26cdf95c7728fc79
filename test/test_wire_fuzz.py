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
The node's front door fuzzed: ``TargetReader`` against rclpy's own deserialisation.

Whatever bytes arrive on ``target``, the reader must either return exactly
what ``rclpy.serialization.deserialize_message`` reads from them (stamp,
frame, the three doubles bit for bit) or refuse them (None: the node then
asks rclpy, and counts what rclpy cannot read as ``rejected.malformed``).
Cases: purely random bytes, and serialised targets mutated the ways a broken
or hostile writer would (bytes flipped, cut short, lengths changed, frames
that are not UTF-8 or hold a NUL, an encoding's header changed), 100 000 in
all from fixed seeds, then hypothesis searching the same space.
"""

import random
import struct

from geometry_msgs.msg import PointStamped
from hypothesis import given, settings, strategies
from rclpy.serialization import deserialize_message, serialize_message
from twobone_ik_ros.wire import TargetReader

READER = TargetReader()
FRAMES = ('', 'a', 'base_link', 'frame_of_nine', 'wörld', 'map/odom/base_link_with_more')
CASES = 100_000


def as_rclpy_reads(raw):
    """Return the target rclpy reads from ``raw`` in the reader's form, or None if it cannot."""
    try:
        msg = deserialize_message(raw, PointStamped)
    except Exception:  # noqa: B902  (rclpy's error type differs between distributions)
        return None
    return (msg.header.stamp.sec, msg.header.stamp.nanosec, msg.header.frame_id,
            msg.point.x, msg.point.y, msg.point.z)


def bits(target):
    """Return a target with its doubles as bytes (so NaN == NaN, 0.0 != -0.0)."""
    return target[:3] + tuple(struct.pack('<d', v) for v in target[3:])


def check(raw):
    """Assert the reader reads ``raw`` as rclpy does, or refuses it; return which."""
    read = READER.read(raw)
    if read is None:
        return 'refused'
    expected = as_rclpy_reads(raw)
    assert expected is not None, f'read {read!r} from bytes rclpy cannot read: {raw!r}'
    assert bits(read) == bits(expected), (raw, read, expected)
    return 'read'


def sample(rng):
    msg = PointStamped()
    msg.header.stamp.sec = rng.randint(-2**31, 2**31 - 1)
    msg.header.stamp.nanosec = rng.randint(0, 2**32 - 1)
    msg.header.frame_id = rng.choice(FRAMES)
    msg.point.x, msg.point.y, msg.point.z = (
        rng.choice([rng.uniform(-1e3, 1e3), float('nan'), float('inf'), -0.0, 1e308])
        for _ in range(3))
    return bytearray(serialize_message(msg))


def mutate(rng, raw):
    """Break a serialised target in one of the ways a writer could."""
    how = rng.randrange(8)
    if how == 0:  # flip a few bytes anywhere
        for _ in range(rng.randint(1, 4)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
    elif how == 1:  # cut short
        del raw[rng.randrange(len(raw)):]
    elif how == 2:  # the frame's length field: anything
        struct.pack_into('<I', raw, 12, rng.choice(
            [0, 1, 2, 3, rng.randrange(64), 2**31, 2**32 - 1, rng.randrange(2**32)]))
    elif how == 3:  # frame characters that are not UTF-8, or a NUL among them
        size = struct.unpack_from('<I', raw, 12)[0]
        if size > 1:
            raw[16 + rng.randrange(size - 1)] = rng.choice([0, 0x80, 0xc3, 0xff, 0xfe, 0xed])
    elif how == 4:  # no terminating NUL
        size = struct.unpack_from('<I', raw, 12)[0]
        if size:
            raw[16 + size - 1] = rng.randrange(1, 256)
    elif how == 5:  # another encapsulation header
        raw[0:4] = rng.randbytes(4)
    elif how == 6:  # bytes added at the end
        raw += rng.randbytes(rng.randint(1, 16))
    else:  # spliced: the head of one target with the tail of another
        other = sample(rng)
        cut = rng.randrange(len(raw))
        raw[cut:] = other[cut:]
    return bytes(raw)


def test_the_reader_reads_as_rclpy_or_refuses_100000_random_and_mutated_targets():
    rng = random.Random(21)
    outcomes = {'read': 0, 'refused': 0}
    for i in range(CASES):
        if i % 10 == 0:  # random bytes, often with the right header
            head = b'\x00\x01\x00\x00' if rng.random() < 0.8 else b''
            raw = head + rng.randbytes(rng.randrange(64))
        else:
            raw = mutate(rng, sample(rng))
        outcomes[check(raw)] += 1
    # both ways exercised: a reader that refused everything would pass vacuously
    assert outcomes['read'] > CASES // 10 and outcomes['refused'] > CASES // 10, outcomes


@settings(max_examples=1500, deadline=None)
@given(strategies.binary(max_size=80), strategies.booleans())
def test_the_reader_reads_as_rclpy_or_refuses_what_hypothesis_finds(data, with_header):
    check((b'\x00\x01\x00\x00' if with_header else b'') + data)


@settings(max_examples=1500, deadline=None)
@given(strategies.integers(0, 2**32 - 1), strategies.binary(max_size=40),
       strategies.binary(min_size=24, max_size=40))
def test_frames_of_any_bytes_and_length_are_read_as_rclpy_reads_them(size, chars, tail):
    check(b'\x00\x01\x00\x00' + struct.pack('<iII', 7, 8, size) + chars + tail)
