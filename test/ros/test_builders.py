"""The pure builders: parameters, markers, diagnostics, target patterns."""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import itertools
import math

import pytest
from twobone_ik_ros.model.config import validate, validate_change
from twobone_ik_ros.model.parameter_table import as_double, DEFAULTS, PARAMETERS, SPECS
from twobone_ik_ros.model.planar_arm import PlanarArm
from twobone_ik_ros.motion.ledger import ArmReport, MoveLedger
from twobone_ik_ros.node.diagnostics import (
    build_diagnostics, REJECT_REASONS, REJECTION_TEXT, SequenceGaps, TargetCounters)
from twobone_ik_ros.node.markers import arm_markers, MARKER_IDS, TARGET_COLOURS, workspace_markers
from twobone_ik_ros.solver import (
    ElbowPreference, forward, Reason, Status, UnreachablePolicy)
from twobone_ik_ros.tools.target_patterns import make_pattern, PATTERNS


def test_defaults_validate_and_integers_are_doubles():
    config = validate(dict(DEFAULTS, r1=2, shoulder_limits=[-3, 3]))
    assert config.r1 == 2.0 and isinstance(config.r1, float)
    assert config.solver.shoulder_limits.lower == -3.0
    assert config.as_parameters()['r1'] == 2.0


def test_double_parameters_given_as_integers_become_doubles_and_nothing_else_changes():
    assert as_double('r1', 2) == 2.0 and isinstance(as_double('r1', 2), float)
    assert as_double('joint_state_rate', 0) == 0.0
    for name, value in (('r1', True), ('r1', 'x'), ('elbow', 1), ('joint_names', [1, 2])):
        assert as_double(name, value) is value


def test_the_parameter_table_declares_every_choice_of_the_solver():
    assert SPECS['elbow'].choices == tuple(e.value for e in ElbowPreference)
    assert SPECS['unreachable'].choices == tuple(p.value for p in UnreachablePolicy)
    assert all(spec.default in spec.choices for spec in PARAMETERS if spec.choices)
    assert set(DEFAULTS) == set(validate(DEFAULTS).as_parameters())


def test_every_solver_reason_has_a_counter_and_a_warning_text():
    assert {reason.label for reason in Reason if reason is not Reason.NONE} <= \
        set(REJECTION_TEXT)
    assert REJECT_REASONS == tuple(REJECTION_TEXT)
    assert set(TargetCounters().rejected.counts) == set(REJECT_REASONS)


@pytest.mark.parametrize('name, value', [
    ('joint_state_rate', -1.0), ('transform_timeout', 11.0), ('frame_prefix', '/x'),
    ('robot_state_publisher', 'a b'), ('r1', -1.0), ('r2', 'x'), ('elbow', 'left'),
    ('unreachable', 3), ('base_frame', '/map'),
    ('base_frame', 'a b'), ('joint_names', ['a', 'a']), ('joint_names', 'ab'),
    ('elbow_limits', [0.5]), ('shoulder_limits', [2.0, 1.0]), ('r1', None), ('r1', True)])
def test_invalid_values_are_refused_with_their_name(name, value):
    with pytest.raises(ValueError, match=name):
        validate_change(DEFAULTS, {name: value})


def test_markers_draw_the_arm_where_forward_kinematics_puts_it():
    arm = PlanarArm.in_xy(1.0, 0.5, ('a', 'b'))
    drawn = (arm_markers('base_link', arm, (0.3, -0.8), (1.2, 0.2), Status.CLAMPED)
             + workspace_markers('base_link', arm))
    markers = {(m.ns, m.id): m for m in drawn}
    assert set(markers) == set(MARKER_IDS)
    elbow, tip = forward(1.0, 0.5, 0.3, -0.8)
    links = markers[('links', 0)].points
    assert (links[1].x, links[1].y) == pytest.approx(elbow)
    assert (links[2].x, links[2].y) == pytest.approx(tip)
    target = markers[('target', 0)]
    assert (target.color.r, target.color.g, target.color.b, target.color.a) == \
        pytest.approx(TARGET_COLOURS[Status.CLAMPED])
    outer = markers[('workspace', 0)].points
    assert max(math.hypot(p.x, p.y) for p in outer) == pytest.approx(1.5)
    assert all(m.color.a > 0 and m.header.frame_id == 'base_link' for m in drawn)


def test_no_target_yet_deletes_the_target_marker():
    drawn = arm_markers('base_link', PlanarArm.in_xy(1.0, 0.5, ('a', 'b')), (0.0, 0.0), None,
                        Status.SOLVED)
    target = next(m for m in drawn if m.ns == 'target')
    assert target.action == target.DELETE


def test_diagnostics_warn_while_rejecting_and_list_every_counter():
    counters = TargetCounters(received=5, solved=2, clamped=1)
    counters.rejected.add('too_far')
    counters.rejected.add('non_finite')
    counters.rejected.add('too_far')
    array = build_diagnostics('twobone_ik', _zero(), counters, {'r1': 1.0},
                              rejected_recently=counters.rejected.take_recent())
    status = array.status[0]
    values = {kv.key: kv.value for kv in status.values}
    assert status.level == status.WARN
    assert status.message == '3 target(s) rejected since the last report: too_far 2, non_finite 1'
    assert values['received'] == '5' and values['rejected'] == '3'
    assert all(f'rejected.{reason}' in values for reason in REJECT_REASONS)
    assert values['param.r1'] == '1.0'
    assert build_diagnostics('twobone_ik', _zero(), counters, {},
                             rejected_recently=counters.rejected.take_recent()
                             ).status[0].level == status.OK


def test_lost_dds_is_the_count_or_why_the_middleware_event_is_not_taken():
    counters = TargetCounters(lost_dds=4)
    values = {kv.key: kv.value for kv in build_diagnostics(
        'twobone_ik', _zero(), counters, {}).status[0].values}
    assert values['lost.dds'] == '4'
    counters.lost_dds_refused = 'not read: rmw_fastrtps_cpp can deadlock on it'
    values = {kv.key: kv.value for kv in build_diagnostics(
        'twobone_ik', _zero(), counters, {}).status[0].values}
    assert values['lost.dds'] == counters.lost_dds_refused


def test_diagnostics_of_an_arm_name_the_recent_failures_and_the_goals_of_the_action():
    ledger = MoveLedger()
    ledger.sent('a', (0.0, 0.0), 0, 0, connected=False)
    ledger.ended(ledger.sent('b', (0.0, 0.0), 0, 0, connected=True), 'rejected')
    ledger.counters.goals['rejected'] += 1
    recent = ledger.counters.failed.take_recent()
    for goals in (True, False):
        report = ArmReport('0.0 0.0', '0.010', False, ledger.counters, recent, goals)
        status = build_diagnostics('twobone_ik', _zero(), TargetCounters(), {}, report).status[0]
        values = {kv.key: kv.value for kv in status.values}
        assert status.level == status.WARN
        assert status.message.endswith('failed since the last report: no_controller 1, '
                                       'rejected 1'), status.message
        assert values['moves.sent'] == '2' and values['moves.failed.rejected'] == '1'
        assert ('goals.rejected' in values) == goals
        assert values.get('goals.rejected', '1') == '1'
    calm = ArmReport('0.0 0.0', '0.010', False, ledger.counters, {}, True)
    status = build_diagnostics('twobone_ik', _zero(), TargetCounters(), {}, calm).status[0]
    assert status.level == status.OK


def _zero():
    from builtin_interfaces.msg import Time
    return Time()


@pytest.mark.parametrize('name', sorted(PATTERNS))
def test_patterns_sweep_the_workspace_and_leave_it_part_of_the_time(name):
    r1, r2 = 1.0, 0.6
    points = list(itertools.islice(make_pattern(name, r1, r2, 20.0, seed=3), 20 * 60))
    distances = [math.hypot(x, y) for x, y in points]
    inside = sum(abs(r1 - r2) <= d <= r1 + r2 for d in distances)
    assert 0.3 * len(points) < inside < len(points)  # mostly reachable, not always
    assert all(math.isfinite(d) for d in distances)


def test_unknown_pattern_and_bad_rate_are_refused():
    with pytest.raises(ValueError, match='circle'):
        make_pattern('spiral', 1.0, 1.0, 10.0)
    with pytest.raises(ValueError, match='rate'):
        make_pattern('circle', 1.0, 1.0, 0.0)


def test_sequence_gaps_count_skipped_samples_per_writer():
    gaps = SequenceGaps(remembered=2)
    assert [gaps.missed(b'a', n) for n in (5, 6, 9, 10)] == [0, 0, 2, 0]  # first sets the start
    assert gaps.missed(b'b', 1) == 0 and gaps.missed(b'a', 12) == 1  # writers interleave
    assert gaps.missed(b'b', 4) == 2
    assert gaps.missed(b'a', 11) == 0  # reordered or repeated: nothing to count
    assert [gaps.missed(w, 1) for w in (b'c', b'd', b'e')] == [0, 0, 0]
    assert gaps.missed(b'a', 20) == 0  # forgotten beyond two writers: a fresh start
