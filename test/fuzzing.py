"""
What the byte readers' fuzz tests share: the rule they are held to and the ways bytes break.

The rule: a reader of serialised messages returns exactly what rclpy's own
deserialisation gives (compared bit for bit) or refuses (None).  The ways
bytes break are those of any serialised message; each reader's test adds the
ways that know its layout (a length field, where its frames are).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from rclpy.serialization import deserialize_message

#: the CDR little-endian encapsulation header every serialised message starts with
HEADER = b'\x00\x01\x00\x00'


def rclpy_reading(msg_type, form):
    """Return ``reads(raw)``: the ``msg_type`` rclpy reads from ``raw``, in ``form`` (or None)."""
    def reads(raw):
        try:
            msg = deserialize_message(raw, msg_type)
        except Exception:  # noqa: B902  (rclpy's error type differs between distributions)
            return None
        return form(msg)
    return reads


def checker(reader, rclpy_reads, canonical):
    """
    Return ``check(raw)``: assert ``reader`` reads ``raw`` as rclpy does, or refuses it.

    ``rclpy_reads(raw)`` is rclpy's reading in the reader's form (None when
    rclpy cannot read the bytes); ``canonical`` makes both comparable bit for
    bit (NaN == NaN, 0.0 != -0.0).  ``check`` returns 'read' or 'refused'.
    """
    def check(raw):
        read = reader.read(raw)
        if read is None:
            return 'refused'
        expected = rclpy_reads(raw)
        assert expected is not None, f'read {read!r} from bytes rclpy cannot read: {raw!r}'
        assert canonical(read) == canonical(expected), (raw, read, expected)
        return 'read'
    return check


def flip_bytes(rng, raw, other):
    for _ in range(rng.randint(1, 4)):
        raw[rng.randrange(len(raw))] = rng.randrange(256)


def cut_short(rng, raw, other):
    del raw[rng.randrange(len(raw)):]


def other_header(rng, raw, other):
    raw[0:4] = rng.randbytes(4)


def bytes_added(rng, raw, other):
    raw += rng.randbytes(rng.randint(1, 32))


def spliced(rng, raw, other):  # the head of one message with the tail of another
    cut = rng.randrange(len(raw))
    raw[cut:] = other[cut:]


COMMON = (flip_bytes, cut_short, other_header, bytes_added, spliced)

#: what a 4-byte length or count field is set to: small, odd, huge
ODD_SIZES = (0, 1, 2, 3, 4, 63, 2**31, 2**32 - 1)


def odd_size(rng):
    """Return a value for a length field: one of ``ODD_SIZES`` or a random one."""
    return rng.choice(ODD_SIZES + (rng.randrange(64), rng.randrange(2**32)))


def mutate(rng, sample, special=()):
    """Return a serialised ``sample(rng)`` broken in one of the common or ``special`` ways."""
    raw = sample(rng)
    how = rng.choice(COMMON + tuple(special))
    how(rng, raw, sample(rng))
    return bytes(raw)


def tally(check, raws):
    """Check all ``raws``; assert both outcomes are common (refusing all would pass vacuously)."""
    outcomes = {'read': 0, 'refused': 0}
    for raw in raws:
        outcomes[check(raw)] += 1
    total = sum(outcomes.values())
    assert min(outcomes.values()) > total // 10, outcomes
    return outcomes
