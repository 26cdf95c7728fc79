"""
The few rules of ROS 2's serialised form that the path reader and trajectory writer use.

Classic little-endian CDR (XCDR1), as the middlewares write it: a 4-byte
encapsulation header ``00 01 00 00``, then the payload, each value aligned
to its size counted from the end of that header, strings as a length, the
bytes and a NUL.  Why paths and trajectories are read and written as bytes
at all: ``ros.wire_path``.
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
from typing import Optional, Tuple

#: encapsulation header of little-endian classic CDR with no options (other options are
#: left to rclpy)
CDR_LE = b'\x00\x01\x00\x00'
ENCAPSULATION = 4  # bytes before the payload; alignment counts from its end
U32 = struct.Struct('<I')
STAMP = struct.Struct('<iI')


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
