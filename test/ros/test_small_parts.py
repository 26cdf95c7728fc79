"""
The small pure parts, each against what it is for.

The counts by reason (``model.tally``), warnings with their repeats held
back (``node.throttle``), a callback that raises (``node.guard``), the
solver's vocabulary and its batch path (``ik``), a spline's exact peaks
(``motion.splines``), the serialised form's rules (``ros.cdr``), a
position's messages filled in place (``outputs.positions``), a transform
applied to points (``node.frames``) and a controller output's libraries
(``outputs.libraries``).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math
import struct
from types import SimpleNamespace

from helpers import assert_batch_rows_match_scalar
import numpy as np
import pytest
from twobone_ik_ros.ik.batch import new_batch_result, solve_batch
from twobone_ik_ros.ik.vocabulary import enum_value, Reason, Status, UnreachablePolicy
from twobone_ik_ros.model.tally import ReasonCounter
from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.motion.splines import clamped_spline, spline_peaks
from twobone_ik_ros.node.frames import apply_transform
from twobone_ik_ros.node.guard import CallbackGuard
from twobone_ik_ros.node.throttle import ThrottledWarnings
from twobone_ik_ros.ros.cdr import align, read_string, U32
from twobone_ik_ros.solver import TwoBoneIK


class Logger:
    """Keeps what was logged, by level."""

    def __init__(self):
        self.lines = []

    def warning(self, text):
        self.lines.append(('warning', text))

    def error(self, text):
        self.lines.append(('error', text))


def test_a_tally_counts_each_reason_and_what_came_since_it_was_last_asked():
    tally = ReasonCounter(['too_far', 'non_finite'])
    tally.add('too_far')
    tally.add('too_far')
    assert tally.take_recent() == {'too_far': 2}
    tally.add('non_finite')
    assert tally.counts == {'too_far': 2, 'non_finite': 1} and tally.total == 3
    assert tally.take_recent() == {'non_finite': 1} and tally.take_recent() == {}
    assert tally.describe(tally.counts) == 'too_far 2, non_finite 1'
    with pytest.raises(KeyError):
        tally.add('unknown')


def test_a_repeated_warning_is_held_back_and_counted_in_the_next():
    logger = Logger()
    now = [0.0]
    warnings = ThrottledWarnings(logger, period_s=3600.0, clock=lambda: now[0])
    for _ in range(3):
        warnings.warn('too_far', lambda: 'out of reach')
    assert logger.lines == [('warning', 'out of reach')]
    now[0] = 3600.0  # the period has passed
    warnings.warn('too_far', lambda: 'out of reach')
    assert logger.lines[-1] == ('warning', 'out of reach (2 more too_far target(s) since the '
                                'last such warning)')


def test_a_callback_that_raises_is_counted_and_its_kind_logged_once():
    logger = Logger()
    guard = CallbackGuard(logger, period_s=3600.0)

    def callback(value):
        return 1 / value
    guarded = guard.wrap(callback, refuse=lambda error: 'refused')
    assert guarded(2) == 0.5
    assert [guarded(0) for _ in range(3)] == ['refused'] * 3
    assert guard.count == 3
    assert len(logger.lines) == 1 and 'ZeroDivisionError' in logger.lines[0][1]
    assert guarded.__name__ == 'callback'  # rclpy reads the callback's own signature


def test_the_vocabulary_names_each_outcome_once():
    assert len({reason.label for reason in Reason}) == len(Reason)
    assert Status.REJECTED != Status.SOLVED
    assert enum_value(UnreachablePolicy, 'clamp', 'unreachable') is UnreachablePolicy.CLAMP
    with pytest.raises(ValueError, match="unreachable must be one of 'clamp', 'reject'"):
        enum_value(UnreachablePolicy, 'ignore', 'unreachable')


def test_the_batch_path_answers_each_row_as_the_scalar_solver_does():
    ik = TwoBoneIK(1.0, 0.7)
    points = np.array([[1.2, 0.4], [0.1, 0.1], [5.0, 0.0], [-0.9, 0.6]])
    out = new_batch_result(len(points))
    assert solve_batch(ik.constants, points, None, out) is out
    assert_batch_rows_match_scalar(ik, points, out)  # elbows to the bit, angles to libm's


def test_a_splines_peaks_are_exact_inside_its_pieces():
    times = np.array([0.0, 1.0, 2.0])
    spline = clamped_spline(times, np.array([[0.0], [1.0], [0.0]]))
    velocity, acceleration, _ = spline_peaks(spline)
    samples = np.linspace(0.0, 2.0, 20001)
    assert velocity == pytest.approx(np.abs(spline(samples, 1)).max(), rel=1e-6)
    assert acceleration == pytest.approx(np.abs(spline(samples, 2)).max(), rel=1e-6)


def test_the_cdr_rules_read_strings_as_rclpy_would_or_refuse_them():
    def cdr(raw):
        return memoryview(U32.pack(len(raw)) + raw)
    assert read_string(cdr(b'base_link\0'), 0) == ('base_link', 14)
    assert read_string(cdr(b''), 0) == ('', 4)
    assert read_string(cdr(b'no_nul'), 0)[0] is None  # a C string ends with its NUL
    assert read_string(cdr(b'a\0b\0'), 0)[0] is None  # ... and at the first one
    assert read_string(cdr(b'\xff\xfe\0'), 0)[0] is None  # not UTF-8
    assert read_string(memoryview(struct.pack('<I', 99)), 0)[0] is None  # past the end
    assert [align(offset, 8) for offset in (0, 1, 8, 9)] == [0, 8, 8, 16]


def test_a_position_is_one_message_filled_in_place():
    from twobone_ik_ros.outputs.positions import PositionMessages
    messages = PositionMessages()
    messages.name(['a', 'b'])
    first = messages.command(0.1, 0.2)
    assert messages.command(0.3, 0.4) is first and list(first.data) == [0.3, 0.4]
    from builtin_interfaces.msg import Time
    joints = messages.joint_state(0.5, 0.6, Time(sec=1, nanosec=2))
    assert list(joints.position) == [0.5, 0.6] and joints.name == ['a', 'b']


def test_a_transform_is_applied_to_a_point_and_to_arrays_alike():
    half = math.sqrt(0.5)  # a quarter turn about z, then (1, 2, 3) on
    transform = SimpleNamespace(rotation=SimpleNamespace(x=0.0, y=0.0, z=half, w=half),
                                translation=SimpleNamespace(x=1.0, y=2.0, z=3.0))
    assert apply_transform(transform, 1.0, 0.0, 0.0) == pytest.approx((1.0, 3.0, 3.0))
    xs, ys, zs = apply_transform(transform, np.array([1.0, 0.0]), np.array([0.0, 1.0]),
                                 np.zeros(2))
    assert xs == pytest.approx([1.0, 0.0]) and ys == pytest.approx([3.0, 2.0])


def test_the_arm_state_is_an_angles_pair():
    from twobone_ik_ros.motion.planning import Limits, Planner
    from twobone_ik_ros.motion.tracking import ArmTracker
    tracker = ArmTracker(Planner(Limits(1.0, 5.0, 0.0), 0.1))
    tracker.measure((0.25, -0.5), 10)
    measured: Angles = tracker.measured
    assert measured == (0.25, -0.5) and all(isinstance(angle, float) for angle in measured)


def test_a_controller_output_needs_its_libraries_and_a_display_none():
    from twobone_ik_ros.model.interface import Output
    from twobone_ik_ros.outputs.libraries import importable, require
    require(Output.JOINT_STATES)  # nothing to import
    require(Output.FORWARD_COMMAND)  # ruckig, toppra, scipy, matplotlib: in this venv
    assert importable('ruckig') and not importable('no_such_module_at_all')
