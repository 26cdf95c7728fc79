"""
The node's front doors fuzzed: ``TargetReader`` and ``JointStateReader`` against rclpy's own.

Whatever bytes arrive on ``target``, the reader must either return exactly
what ``rclpy.serialization.deserialize_message`` reads from them (stamp,
frame, the three doubles bit for bit) or refuse them (None: the node then
asks rclpy, and counts what rclpy cannot read as ``rejected.malformed``).
Cases: purely random bytes, and serialised targets mutated the ways a broken
or hostile writer would (bytes flipped, cut short, lengths changed, frames
that are not UTF-8 or hold a NUL, an encoding's header changed), 100 000 in
all from fixed seeds, then hypothesis searching the same space.  The same
for what a controller output reads on ``joint_states`` (stamp, names,
positions and velocities; the efforts must be readable too), 50 000 cases,
with sequence lengths and names broken as well.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import random
import struct

from fuzzing import checker, HEADER, mutate, odd_size, rclpy_reading, tally
from geometry_msgs.msg import PointStamped
from hypothesis import given, settings, strategies
from rclpy.serialization import serialize_message
from sensor_msgs.msg import JointState
from twobone_ik_ros.ros.wire import JointStateReader, TargetReader

READER = TargetReader()
FRAMES = ('', 'a', 'base_link', 'frame_of_nine', 'wörld', 'map/odom/base_link_with_more')
CASES = 100_000


def target_of(msg):
    """Return a PointStamped in the reader's form."""
    return (msg.header.stamp.sec, msg.header.stamp.nanosec, msg.header.frame_id,
            msg.point.x, msg.point.y, msg.point.z)


def bits(target):
    """Return a target with its doubles as bytes (so NaN == NaN, 0.0 != -0.0)."""
    return target[:3] + tuple(struct.pack('<d', v) for v in target[3:])


check = checker(READER, rclpy_reading(PointStamped, target_of), bits)


def sample(rng):
    msg = PointStamped()
    msg.header.stamp.sec = rng.randint(-2**31, 2**31 - 1)
    msg.header.stamp.nanosec = rng.randint(0, 2**32 - 1)
    msg.header.frame_id = rng.choice(FRAMES)
    msg.point.x, msg.point.y, msg.point.z = (
        rng.choice([rng.uniform(-1e3, 1e3), float('nan'), float('inf'), -0.0, 1e308])
        for _ in range(3))
    return bytearray(serialize_message(msg))


# The ways that know the layout: header (4), stamp (8), the frame's length (4), its characters.
def frame_length(rng, raw, other):
    struct.pack_into('<I', raw, 12, odd_size(rng))


def frame_not_utf8(rng, raw, other):
    """Frame characters that are not UTF-8, or a NUL among them."""
    size = struct.unpack_from('<I', raw, 12)[0]
    if size > 1:
        raw[16 + rng.randrange(size - 1)] = rng.choice([0, 0x80, 0xc3, 0xff, 0xfe, 0xed])


def frame_without_nul(rng, raw, other):
    size = struct.unpack_from('<I', raw, 12)[0]
    if size:
        raw[16 + size - 1] = rng.randrange(1, 256)


def cases(rng):
    for i in range(CASES):
        if i % 10 == 0:  # random bytes, often with the right header
            yield (HEADER if rng.random() < 0.8 else b'') + rng.randbytes(rng.randrange(64))
        else:
            yield mutate(rng, sample, (frame_length, frame_not_utf8, frame_without_nul))


def test_the_reader_reads_as_rclpy_or_refuses_100000_random_and_mutated_targets():
    tally(check, cases(random.Random(21)))


@settings(max_examples=1500, deadline=None)
@given(strategies.binary(max_size=80), strategies.booleans())
def test_the_reader_reads_as_rclpy_or_refuses_what_hypothesis_finds(data, with_header):
    check((HEADER if with_header else b'') + data)


@settings(max_examples=1500, deadline=None)
@given(strategies.integers(0, 2**32 - 1), strategies.binary(max_size=40),
       strategies.binary(min_size=24, max_size=40))
def test_frames_of_any_bytes_and_length_are_read_as_rclpy_reads_them(size, chars, tail):
    check(HEADER + struct.pack('<iII', 7, 8, size) + chars + tail)


JOINTS = JointStateReader()
NAMES = ('', 'a', 'shoulder_joint', 'elbow_joint', 'jöint', 'wrist_3_joint_of_a_long_arm')
VALUES = (0.5, -0.0, float('nan'), float('inf'), 1e308, -2.5)


def joints_of(msg):
    """Return a JointState in the reader's form."""
    return (msg.header.stamp.sec, msg.header.stamp.nanosec, list(msg.name),
            tuple(msg.position), tuple(msg.velocity))


def joint_bits(joints):
    """Return a joint state with its doubles as bytes."""
    return joints[:3] + tuple(tuple(struct.pack('<d', v) for v in values)
                              for values in joints[3:])


check_joints = checker(JOINTS, rclpy_reading(JointState, joints_of), joint_bits)


def joint_sample(rng):
    msg = JointState()
    msg.header.stamp.sec = rng.randint(-2**31, 2**31 - 1)
    msg.header.stamp.nanosec = rng.randint(0, 2**32 - 1)
    msg.header.frame_id = rng.choice(FRAMES)
    msg.name = [rng.choice(NAMES) for _ in range(rng.randrange(4))]
    msg.position, msg.velocity, msg.effort = (
        [rng.choice(VALUES + (rng.uniform(-4.0, 4.0),)) for _ in range(rng.randrange(4))]
        for _ in range(3))
    return bytearray(serialize_message(msg))


def some_length(rng, raw, other):
    """Change a 4-aligned word of the payload (often a length: the frame's, a name's, a list's)."""
    words = (len(raw) - 4) // 4
    if words:
        struct.pack_into('<I', raw, 4 + 4 * rng.randrange(words), odd_size(rng))


def some_byte_odd(rng, raw, other):
    """Change a byte the way that breaks a string: not UTF-8, a NUL, or where the NUL belongs."""
    raw[4 + rng.randrange(len(raw) - 4)] = rng.choice([0, 0x80, 0xc3, 0xff, 1])


def joint_cases(rng):
    for i in range(CASES // 2):
        if i % 10 == 0:
            yield (HEADER if rng.random() < 0.8 else b'') + rng.randbytes(rng.randrange(96))
        else:
            yield mutate(rng, joint_sample, (some_length, some_byte_odd))


def test_joint_states_read_as_rclpy_or_refused_50000_random_and_mutated():
    tally(check_joints, joint_cases(random.Random(22)))


@settings(max_examples=1500, deadline=None)
@given(strategies.binary(max_size=120), strategies.booleans())
def test_joint_states_read_as_rclpy_or_refused_what_hypothesis_finds(data, with_header):
    check_joints((HEADER if with_header else b'') + data)
