"""
Paths in and trajectories out as bytes (``ros.wire_path``, ``outputs.trajectory_wire``), as rclpy.

``PathReader`` must return exactly what the node would take from rclpy's
deserialised Path (``PathData.from_message``: the two headers, every
position and stamp bit for bit) or refuse (None: the node asks rclpy, and
counts what rclpy cannot read as a malformed path).  Fuzzed like the target
reader: serialised paths mutated as a broken or hostile writer would, 30 000
from a fixed seed, then hypothesis.  ``TrajectoryWriter`` must write what
rclpy deserialises as the message ``trajectory_message.joint_trajectory`` builds, for
any shape and values.
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
from geometry_msgs.msg import PoseStamped
from hypothesis import given, settings, strategies
from nav_msgs.msg import Path
import numpy as np
import pytest
from rclpy.serialization import deserialize_message, serialize_message
from trajectory_msgs.msg import JointTrajectory
from twobone_ik_ros.outputs.trajectory_message import joint_trajectory
from twobone_ik_ros.outputs.trajectory_wire import TrajectoryWriter
from twobone_ik_ros.ros.wire_path import PathData, PathReader

READER = PathReader()
FRAMES = ('', 'a', 'map', 'base_link', 'frame_of_nine', 'wörld')
CASES = 30_000


#: what the node takes from rclpy's Path in some bytes, or None if rclpy cannot read them
as_rclpy_reads = rclpy_reading(Path, PathData.from_message)


def as_bytes(path):
    """Compare bit for bit: NaN == NaN, 0.0 != -0.0."""
    return (path.header, path.first, path.points.tobytes(), path.stamps_ns.tobytes())


check = checker(READER, as_rclpy_reads, as_bytes)


def sample(rng, count=None, mixed=0.1):
    msg = Path()
    msg.header.frame_id = rng.choice(FRAMES)
    msg.header.stamp.sec = rng.randint(-2**31, 2**31 - 1)
    pose_frame = rng.choice(FRAMES)
    for _ in range(rng.randrange(6) if count is None else count):
        pose = PoseStamped()
        # mostly one frame for all poses (the reader's fast form), sometimes not
        pose.header.frame_id = rng.choice(FRAMES) if rng.random() < mixed else pose_frame
        pose.header.stamp.sec = rng.randint(-2**31, 2**31 - 1)
        pose.header.stamp.nanosec = rng.randint(0, 2**32 - 1)
        position = pose.pose.position
        position.x, position.y, position.z = (
            rng.choice([rng.uniform(-1e3, 1e3), float('nan'), float('inf'), -0.0])
            for _ in range(3))
        msg.poses.append(pose)
    return bytearray(serialize_message(msg))


# The ways that know the layout: any 4-byte field (a length, the pose count), where frames are.
def aligned_field(rng, raw, other):
    struct.pack_into('<I', raw, 4 + 4 * rng.randrange((len(raw) - 4) // 4), odd_size(rng))


def not_utf8(rng, raw, other):  # a byte that is not UTF-8, or a NUL, where frames may be
    raw[rng.randrange(4, len(raw))] = rng.choice([0, 0x80, 0xc3, 0xff])


def cases(rng):
    for i in range(CASES):
        if i % 10 == 0:
            yield HEADER + rng.randbytes(rng.randrange(160))
        elif i % 10 == 1:
            yield bytes(sample(rng))  # unbroken
        else:
            yield mutate(rng, sample, (aligned_field, not_utf8))


def test_the_reader_reads_as_rclpy_or_refuses_30000_random_and_mutated_paths():
    tally(check, cases(random.Random(4)))


def test_a_later_pose_frame_without_its_nul_is_refused():
    # Fast DDS reads such a frame, Cyclone DDS refuses the whole path: the reader, which
    # does not keep the later frames, must still refuse it (found on the Humble lane)
    msg = Path(poses=[PoseStamped() for _ in range(3)])
    msg.header.frame_id = 'map'
    for pose in msg.poses:
        pose.header.frame_id = 'frame_of_nine'
    raw = bytearray(serialize_message(msg))
    last = raw.rindex(b'frame_of_nine\x00') + len('frame_of_nine')  # the third pose's
    assert check(bytes(raw)) == 'read'
    raw[last] = ord('x')
    assert READER.read(bytes(raw)) is None


def test_a_path_of_ten_thousand_poses_is_read_as_rclpy_reads_it():
    raw = bytes(sample(random.Random(7), count=10_000, mixed=0.0))
    assert check(raw) == 'read'


def test_poses_whose_frames_differ_in_length_are_left_to_rclpy():
    msg = Path()
    for frame in ('map', 'base_link', 'map'):
        pose = PoseStamped()
        pose.header.frame_id = frame
        msg.poses.append(pose)
    assert READER.read(serialize_message(msg)) is None
    assert as_rclpy_reads(serialize_message(msg)) is not None


@settings(max_examples=1500, deadline=None)
@given(strategies.binary(max_size=200))
def test_the_reader_reads_as_rclpy_or_refuses_what_hypothesis_finds(data):
    check(HEADER + data)


def trajectory(names, positions, times, *derivatives):
    expected = joint_trajectory(names, positions, times)
    for field, values in zip(('velocities', 'accelerations'), derivatives):
        for point, row in zip(expected.points, np.asarray(values).tolist()):
            setattr(point, field, row)
    return expected


@settings(max_examples=400, deadline=None)
@given(strategies.lists(strategies.text(max_size=12), min_size=1, max_size=4),
       strategies.integers(1, 40), strategies.integers(0, 2), strategies.integers(0, 2**32))
def test_the_writer_writes_what_rclpy_reads_as_the_built_message(names, count, derivatives,
                                                                 seed):
    writer = TrajectoryWriter(names)
    if not writer.usable:  # rclpy ends a name at a NUL: the node builds the message then
        assert any('\0' in name for name in names)
        return
    rng = np.random.default_rng(seed)
    positions = rng.normal(size=(count, len(names))) * 10.0 ** rng.integers(-300, 300)
    times = np.cumsum(rng.integers(1, 2**31 - 1, count, dtype=np.int64) * 1000)
    times[times >= 2**31 * 10**9] = 2**31 * 10**9 - 1  # what Duration can hold
    extra = [rng.normal(size=(count, len(names))) for _ in range(derivatives)]
    written = deserialize_message(writer.write(positions, times, *extra), JointTrajectory)
    assert written == trajectory(names, positions, times, *extra)


@pytest.mark.parametrize('count', [1, 2, 10_000])
def test_a_long_trajectory_is_written_as_rclpy_writes_it(count):
    names = ['shoulder_joint', 'elbow_joint']
    positions = np.random.default_rng(count).normal(size=(count, 2))
    times = np.arange(1, count + 1, dtype=np.int64) * 10_000_000
    written = TrajectoryWriter(names).write(positions, times)
    assert deserialize_message(written, JointTrajectory) == trajectory(names, positions, times)
