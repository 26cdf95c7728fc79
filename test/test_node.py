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
The node in its own process, driven over loopback DDS by a probe node.

One node process serves the whole module (started with the package's YAML
parameter file and r1/r2 overridden as integers, as ``r1:=2`` would be); the
tests run in order and leave its parameters as they found them.
"""

import math
import os
import random

import pytest

from ros_harness import all_finite, NodeProcess, Probe
from twobone_ik_ros.diagnostics import REJECT_REASONS
from twobone_ik_ros.solver import forward, TwoBoneIK

pytestmark = pytest.mark.ros

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PARAMS_FILE = os.path.join(ROOT, 'config', 'twobone_ik.yaml')
R1, R2 = 2, 1  # integers on purpose: they must be accepted as doubles


@pytest.fixture(scope='module')
def node():
    process = NodeProcess('twobone_ik_ros.node',
                          ros_args=['--params-file', PARAMS_FILE, '-p', f'r1:={R1}',
                                    '-p', f'r2:={R2}'])
    yield process
    process.stop()


@pytest.fixture(scope='module')
def probe(node):
    probe = Probe()
    try:
        probe.wait_for_node()
    except AssertionError:
        pytest.fail('node did not start:\n' + node.output())
    yield probe
    probe.close()


class StampIds:
    """Unique header stamps, so each answer can be matched to its target."""

    next_id = 1

    @classmethod
    def take(cls):
        cls.next_id += 1
        return cls.next_id


def random_reachable(rng, r1, r2):
    inner, outer = abs(r1 - r2), r1 + r2
    d = math.sqrt(rng.uniform(inner ** 2, outer ** 2))
    phi = rng.uniform(-math.pi, math.pi)
    return d * math.cos(phi), d * math.sin(phi)


def test_integer_lengths_from_the_command_line_are_doubles(probe):
    values = probe.get_parameters('r1', 'r2', 'elbow', 'joint_names')
    assert values['r1'] == R1 and values['r2'] == R2
    assert values['elbow'] == 'up' and values['joint_names'] == ['shoulder_joint', 'elbow_joint']


@pytest.mark.parametrize('elbow', ['up', 'down', 'closest'])
def test_published_angles_reach_200_random_targets(probe, elbow):
    assert probe.set_parameters(elbow=elbow)[0].successful
    rng = random.Random(f'targets-{elbow}')
    # the node remembers the arm's last angles across a change of preference
    previous = tuple(probe.joint_states[-1].position) if probe.joint_states else None
    for _ in range(200):
        x, y = random_reachable(rng, R1, R2)
        answer = probe.solve(x, y, StampIds.take())
        assert answer is not None, f'no joint_states for target ({x}, {y})'
        assert list(answer.name) == ['shoulder_joint', 'elbow_joint']
        theta1, theta2 = answer.position
        _, tip = forward(R1, R2, theta1, theta2)
        assert math.dist(tip, (x, y)) <= 1e-9
        if elbow == 'up':
            assert theta2 <= 0.0 or theta2 == math.pi
        elif elbow == 'down':
            assert theta2 >= 0.0
        else:
            expected = TwoBoneIK(R1, R2, elbow='closest').solve(x, y, previous)
            assert (theta1, theta2) == pytest.approx((expected.theta1, expected.theta2),
                                                     abs=1e-12)
        previous = (theta1, theta2)
    assert probe.set_parameters(elbow='up')[0].successful


def test_elbow_topic_matches_the_angles(probe):
    stamp = StampIds.take()
    answer = probe.solve(1.2, 1.9, stamp)
    assert probe.spin_until(lambda: any(e.header.stamp.sec == stamp for e in probe.elbows))
    elbow = next(e for e in probe.elbows if e.header.stamp.sec == stamp)
    assert elbow.header.frame_id == 'base_link'
    expected, _ = forward(R1, R2, *answer.position)
    assert (elbow.point.x, elbow.point.y) == pytest.approx(expected, abs=1e-9)


def test_unstamped_target_gets_the_node_clock(probe):
    count = len(probe.joint_states)
    probe.send(1.0, 1.0, stamp_id=None)
    assert probe.spin_until(lambda: len(probe.joint_states) > count)
    stamp = probe.joint_states[-1].header.stamp
    assert stamp.sec > 1_000_000_000  # wall time, not zero


def test_empty_frame_id_means_the_base_frame(probe):
    count = len(probe.joint_states)
    probe.send(1.0, 1.0, frame_id='')
    assert probe.spin_until(lambda: len(probe.joint_states) > count)


def test_out_of_reach_target_is_clamped_onto_the_ray(probe):
    answer = probe.solve(30.0, 40.0, StampIds.take())
    _, tip = forward(R1, R2, *answer.position)
    assert tip == pytest.approx((3 * 0.6, 3 * 0.8), abs=1e-9)


def test_reject_policy_publishes_nothing_and_counts_it(probe):
    assert probe.set_parameters(unreachable='reject')[0].successful
    _, before = probe.latest_diagnostics()
    stamp = StampIds.take()
    probe.send(30.0, 40.0, stamp_id=stamp)
    probe.send(0.1, 0.0, stamp_id=stamp)
    probe.spin_for(0.5)
    assert not any(js.header.stamp.sec == stamp for js in probe.joint_states)
    status, after = probe.latest_diagnostics()
    assert int(after['rejected.too_far']) == int(before['rejected.too_far']) + 1
    assert int(after['rejected.too_close']) == int(before['rejected.too_close']) + 1
    assert status.level == b'\x01'  # WARN while targets are being rejected
    assert probe.set_parameters(unreachable='clamp')[0].successful


@pytest.mark.parametrize('point', [(math.nan, 1.0, 0.0), (math.inf, 0.0, 0.0),
                                   (1.0, -math.inf, 0.0), (1e308, 1e308, 0.0),
                                   (1.0, 1e308, 0.0), (1.0, 1.0, math.nan)])
def test_bad_numbers_are_dropped_counted_and_never_published(probe, point):
    _, before = probe.latest_diagnostics()
    stamp = StampIds.take()
    probe.send(*point, stamp_id=stamp)
    probe.spin_for(0.3)
    assert not any(js.header.stamp.sec == stamp for js in probe.joint_states)
    _, after = probe.latest_diagnostics()
    reason = 'out_of_range' if all(math.isfinite(v) for v in point) else 'non_finite'
    assert int(after[f'rejected.{reason}']) == int(before[f'rejected.{reason}']) + 1
    assert all_finite(probe.joint_states + probe.elbows + probe.markers)


def test_target_in_an_unknown_frame_is_rejected_naming_both_frames(probe, node):
    _, before = probe.latest_diagnostics()
    stamp = StampIds.take()
    probe.send(1.0, 1.0, frame_id='camera_link', stamp_id=stamp)
    probe.spin_for(0.3)
    assert not any(js.header.stamp.sec == stamp for js in probe.joint_states)
    _, after = probe.latest_diagnostics()
    assert int(after['rejected.unknown_frame']) == int(before['rejected.unknown_frame']) + 1
    assert probe.spin_until(lambda: "'camera_link'" in node.output()
                            and "'base_link'" in node.output(), 5.0)


@pytest.mark.parametrize('changes, named', [
    ({'r1': -1.0}, 'r1'), ({'r2': 0.0}, 'r2'), ({'r1': 'long'}, 'r1'),
    ({'elbow': 'sideways'}, 'elbow'), ({'unreachable': 'ignore'}, 'unreachable'),
    ({'joint_names': ['only_one']}, 'joint_names'), ({'base_frame': ''}, 'base_frame'),
    ({'shoulder_limits': [1.0, -1.0]}, 'shoulder_limits'),
    ({'elbow_limits': [-4.0, 4.0]}, 'elbow_limits'),
])
def test_invalid_runtime_change_is_refused_with_its_name(probe, changes, named):
    before = probe.get_parameters(*changes)
    result = probe.set_parameters(**changes)[0]
    assert not result.successful and named in result.reason
    assert probe.get_parameters(*changes) == before


def test_valid_runtime_change_applies_to_the_next_target_and_redraws(probe):
    count = len(probe.markers)
    assert probe.set_parameters(r1=3)[0].successful  # an integer, too
    assert probe.spin_until(lambda: len(probe.markers) > count, 2.0)
    outer = next(m for m in probe.markers[-1].markers if m.ns == 'workspace' and m.id == 0)
    assert max(math.hypot(p.x, p.y) for p in outer.points) == pytest.approx(3 + R2)
    answer = probe.solve(3.5, 0.5, StampIds.take())
    _, tip = forward(3.0, R2, *answer.position)
    assert tip == pytest.approx((3.5, 0.5), abs=1e-9)
    assert probe.set_parameters(r1=R1, joint_names=['a', 'b'])[0].successful
    answer = probe.solve(1.0, 1.0, StampIds.take())
    assert list(answer.name) == ['a', 'b']
    assert probe.set_parameters(joint_names=['shoulder_joint', 'elbow_joint'])[0].successful


def test_joint_limits_are_respected_at_runtime(probe):
    assert probe.set_parameters(elbow_limits=[0.0, math.pi])[0].successful
    answer = probe.solve(1.0, 1.5, StampIds.take())
    assert answer.position[1] >= 0.0  # switched to the down branch
    assert probe.set_parameters(elbow_limits=[-math.pi, math.pi])[0].successful


def test_markers_have_stable_ids_and_are_visible(probe):
    assert probe.spin_until(lambda: probe.markers, 2.0)
    latest = probe.markers[-1].markers
    keys = {(m.ns, m.id) for m in latest}
    assert keys == {('links', 0), ('joints', 0), ('target', 0), ('workspace', 0),
                    ('workspace', 1)}
    assert all(m.color.a > 0 and m.header.frame_id == 'base_link' for m in latest)


def test_diagnostics_add_up(probe):
    status, values = probe.latest_diagnostics()
    received = int(values['received'])
    total = int(values['solved']) + int(values['clamped']) + int(values['rejected'])
    assert received == total
    assert int(values['rejected']) == sum(int(values[f'rejected.{r}']) for r in REJECT_REASONS)
    assert values['param.r1'] == str(float(R1))


def send_mixed(probe, count, pace_every=None):
    """Send ``count`` targets, every third non-finite and every third huge."""
    rng = random.Random(f'mixed-{count}')
    for i in range(count):
        kind = i % 3
        if kind == 0:
            probe.send(*random_reachable(rng, R1, R2))
        elif kind == 1:
            probe.send(math.nan, 1.0)
        else:
            probe.send(1e308, -1e308)
        if pace_every and i % pace_every == pace_every - 1:
            probe.spin_for(0.005)


def diagnostics_delta(before, after):
    return {key: int(after[key]) - int(before[key]) for key in after
            if not key.startswith('param.')}


def test_paced_mixed_targets_are_all_received_and_counted_exactly(probe):
    _, before = probe.latest_diagnostics()
    send_mixed(probe, 3000, pace_every=5)
    probe.spin_for(1.5)
    _, after = probe.latest_diagnostics()
    delta = diagnostics_delta(before, after)
    assert delta['received'] == 3000
    assert delta['solved'] + delta['clamped'] == 1000
    assert delta['rejected.non_finite'] == 1000 and delta['rejected.out_of_range'] == 1000


def test_flood_of_20000_with_a_third_bad_leaves_the_node_alive_and_counting(probe, node):
    _, before = probe.latest_diagnostics()
    send_mixed(probe, 20_000)  # as fast as the probe can publish
    probe.spin_for(2.0)
    _, after = probe.latest_diagnostics()
    delta = diagnostics_delta(before, after)
    received = delta['received']
    # targets beyond the depth-10 queue are dropped by DDS before the node
    # sees them (keep-last: the newest target wins); each received one counts
    print(f'flood: sent 20000, the node received {received}')
    assert 0 < received <= 20_000
    assert received == delta['solved'] + delta['clamped'] + delta['rejected']
    assert delta['rejected'] == sum(delta[f'rejected.{r}'] for r in REJECT_REASONS)
    assert received == (delta['solved'] + delta['clamped'] + delta['rejected.non_finite']
                        + delta['rejected.out_of_range'])
    assert node.process.poll() is None
    assert probe.solve(1.0, 1.0, StampIds.take()) is not None  # still answering
    assert all_finite(probe.joint_states + probe.elbows + probe.markers)


def test_sigint_stops_the_node_with_exit_code_zero(node, probe):
    assert node.interrupt() == 0, node.output()
