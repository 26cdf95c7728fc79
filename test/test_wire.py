"""The serialised per-target messages against what rclpy.serialization makes and reads."""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math
import random

from geometry_msgs.msg import PointStamped
from rclpy.serialization import deserialize_message, serialize_message
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from twobone_ik_ros.outputs.positions import fill_command, fill_joint_state
from twobone_ik_ros.ros.wire import SerializedMessage, TargetReader


def point_stamped(sec, nanosec, frame, x, y, z):
    msg = PointStamped()
    msg.header.stamp.sec, msg.header.stamp.nanosec = sec, nanosec
    msg.header.frame_id = frame
    msg.point.x, msg.point.y, msg.point.z = x, y, z
    return msg


def test_the_reader_reads_what_the_middleware_serialised_for_every_frame_length():
    reader = TargetReader()
    assert reader.usable
    rng = random.Random(3)
    for length in range(0, 20):
        for _ in range(20):
            values = (rng.randint(-2**31, 2**31 - 1), rng.randint(0, 999_999_999),
                      ''.join(rng.choice('abc_/xyz019') for _ in range(length)),
                      rng.uniform(-1e3, 1e3), rng.uniform(-1e3, 1e3), rng.uniform(-1, 1))
            assert reader.read(serialize_message(point_stamped(*values))) == values
    assert reader.read(serialize_message(point_stamped(0, 0, 'wörld', 1.0, 2.0, 3.0))) == (
        0, 0, 'wörld', 1.0, 2.0, 3.0)
    inf = reader.read(serialize_message(point_stamped(1, 2, '', math.inf, -math.inf, 0.0)))
    assert inf == (1, 2, '', math.inf, -math.inf, 0.0)
    nan = reader.read(serialize_message(point_stamped(1, 2, '', math.nan, 0.0, 0.0)))
    assert math.isnan(nan[3])


def test_the_reader_leaves_other_encodings_and_short_data_to_rclpy():
    reader = TargetReader()
    raw = serialize_message(point_stamped(1, 2, 'base_link', 1.0, 2.0, 3.0))
    assert reader.read(b'\x00\x00' + raw[2:]) is None  # big-endian CDR
    assert reader.read(b'\x00\x07' + raw[2:]) is None  # XCDR2
    assert reader.read(raw[:-1]) is None
    assert reader.read(raw[:10]) is None
    assert reader.read(b'') is None


def test_rewritten_joint_states_read_back_as_the_values_written():
    rng = random.Random(4)
    for names in (['shoulder_joint', 'elbow_joint'], ['a', 'bc'], ['arm/j1', 'arm/joint_two_']):
        msg = JointState()
        msg.name = names
        msg.position = [0.0, 0.0]
        wire = SerializedMessage(msg, fill_joint_state)
        assert wire.usable
        for _ in range(200):
            values = (rng.randint(0, 2**31 - 1), rng.randint(0, 999_999_999),
                      rng.uniform(-7, 7), rng.uniform(-7, 7))
            written = wire.write(*values)
            fill_joint_state(msg, *values)
            # equal as messages: padding bytes are whatever the serialiser left there
            assert deserialize_message(written, JointState) == msg


def test_rewritten_commands_read_back_as_the_values_written():
    msg = Float64MultiArray()
    msg.data = [0.0, 0.0]
    wire = SerializedMessage(msg, fill_command, stamped=False)
    assert wire.usable
    rng = random.Random(5)
    for _ in range(200):
        a, b = rng.uniform(-7, 7), rng.uniform(-7, 7)
        written = wire.write(0, 0, a, b)
        fill_command(msg, 0, 0, a, b)
        assert deserialize_message(written, Float64MultiArray) == msg


def test_a_message_whose_values_cannot_be_found_is_not_rewritten():
    msg = JointState()
    msg.name = ['a', 'b']
    msg.position = [0.0, 0.0]
    assert not SerializedMessage(msg, lambda *_: None).usable  # the markers never landed
    # the stamp looked for in a message that has none
    command = Float64MultiArray()
    command.data = [0.0, 0.0]
    assert not SerializedMessage(command, fill_command, stamped=True).usable
