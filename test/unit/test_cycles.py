"""A stream's commands land one per controller cycle (``motion/cycles``), without ROS."""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import random

import pytest
from twobone_ik_ros.motion.cycles import (
    ControllerCycles, cycles_skipped, GRID_QUANTILE, LATEST, next_cycle_at, NEXT_CYCLE_CUTOFF,
    PACED_WITHIN_NS, PUBLISH_AFTER, WINDOW)

PERIOD = 10_000_000


def heard(phase, lateness, count=WINDOW, start=1_795_000_000 * 10**9):
    cycles = ControllerCycles()
    for k in range(count):
        cycles.heard(start + phase + k * PERIOD + lateness(), 0)
    return cycles


def test_next_on_is_the_first_point_of_the_grid_at_or_after():
    assert next_cycle_at(3, 10, 3) == 3
    assert next_cycle_at(3, 10, 4) == 13
    assert next_cycle_at(3, 10, -8) == -7
    assert next_cycle_at(13, 10, 0) == 3


@pytest.mark.parametrize('phase', [0, 4_777_000, PERIOD - 30_000])
def test_the_grid_is_the_early_edge_of_the_stamps_and_the_lateness_their_spread(phase):
    rng = random.Random(phase)
    lateness = [rng.randrange(20_000, 100_000) for _ in range(WINDOW)]
    lateness[7] = 1_900_000  # a cycle that woke up late
    cycles = heard(phase, iter(lateness).__next__)
    found, late = cycles.grid(PERIOD)
    edge = sorted(lateness)[int(GRID_QUANTILE * WINDOW)]
    assert found == (phase + edge) % PERIOD  # across the wrap too
    assert late == max(lateness) - edge


@pytest.mark.parametrize('phase', [0, 4_777_000, PERIOD - 30_000])
@pytest.mark.parametrize('late', [0.45, 0.6, 0.74, 0.9, 0.99])
@pytest.mark.parametrize('where', [0, 13, WINDOW - 1])
def test_cycles_that_woke_up_most_of_a_period_late_do_not_move_the_grid(phase, late, where):
    """
    A cycle late by more than half a period, wrapped, looks early: it must not be the grid.

    Taken for the grid, one such cycle moved it by up to half a period for the
    next WINDOW cycles, and with it the time each streamed position is for
    (a jump where it came and where it went).  Up to a tenth of the window,
    even the last stamp heard, may be that late, by up to 0.99 of a period.
    """
    rng = random.Random(where)
    lateness = [rng.randrange(20_000, 100_000) for _ in range(WINDOW)]
    outliers = [where, (where + 11) % WINDOW, (where + 23) % WINDOW]
    for index in outliers:
        lateness[index] = round(late * PERIOD)
    cycles = heard(phase, iter(lateness).__next__)
    found, _ = cycles.grid(PERIOD)
    assert 20_000 <= (found - phase) % PERIOD < 100_000  # among the cycles on time
    # so a stream's positions are for the controller's real cycles
    publish = cycles.publish_time(1_796_000_000 * 10**9, PERIOD)
    assert 20_000 <= (cycles.content_time(publish, PERIOD) - phase) % PERIOD < 100_000


def test_only_recent_stamps_count_and_none_means_phase_zero():
    assert ControllerCycles().grid(PERIOD) == (0, 0)
    cycles = heard(1_000_000, lambda: 0)
    for k in range(WINDOW):  # the controller restarted on another grid
        cycles.heard(1_796_000_000 * 10**9 + 6_000_000 + k * PERIOD, 0)
    assert cycles.grid(PERIOD) == (6_000_000, 0)
    cycles.forget()
    assert cycles.grid(PERIOD) == (0, 0)


@pytest.mark.parametrize('lateness', [0, 300_000, 4_500_000])
def test_a_command_is_published_after_the_cycle_before_and_well_before_its_own(lateness):
    cycles = heard(2_000_000, lambda: 0)
    cycles.heard(1_795_000_000 * 10**9 + 2_000_000 + WINDOW * PERIOD + lateness, 0)
    for after in range(0, 3 * PERIOD, 700_000):
        publish = cycles.publish_time(after, PERIOD)
        cycle = cycles.content_time(publish, PERIOD)
        assert after <= publish < after + PERIOD
        assert (cycle - 2_000_000) % PERIOD == 0  # on the controller's grid
        # after the cycle before (and its lateness), and at least half a period before its own
        since = publish - (cycle - PERIOD)
        assert since == min(lateness + PUBLISH_AFTER * PERIOD, LATEST * PERIOD)
        assert cycle - publish >= (1 - LATEST) * PERIOD


def test_a_sample_and_hold_controller_takes_every_command_on_its_own_cycle():
    """
    Simulate forward_command_controller: each cycle writes the last command that reached it.

    Cycles wake up late by up to 0.3 ms, the commands take up to 4 ms to
    reach it; each carries the motion at the cycle ``content_time`` names.
    Every cycle writes the motion at itself: no stand-still, no double step.
    """
    rng = random.Random(1)
    phase = 6_416_000
    cycles = heard(phase, lambda: rng.randrange(0, 300_000))
    wakes = [1_795_000_000 * 10**9 + phase + k * PERIOD for k in range(WINDOW, WINDOW + 500)]
    arrivals = []
    publish = cycles.publish_time(wakes[0], PERIOD)
    while publish < wakes[-1]:
        arrivals.append((publish + rng.randrange(50_000, 4_000_000),
                         cycles.content_time(publish, PERIOD)))
        publish = cycles.publish_time(publish + PERIOD // 2, PERIOD)
    arrivals.sort()
    written, held = [], None
    for wake in wakes:
        read = wake + rng.randrange(0, 300_000)
        while arrivals and arrivals[0][0] <= read:
            held = arrivals.pop(0)[1]
        written.append(held)
    grid = cycles.grid(PERIOD)[0]
    assert written[1:] == [next_cycle_at(grid, PERIOD, wake) for wake in wakes[1:]]


@pytest.mark.parametrize('before', [0.9, 0.5, 0.3, 0.25, 0.15, 0.01, 0.0])
def test_a_command_published_in_the_last_part_of_a_period_is_for_the_cycle_after(before):
    """
    Published well before a cycle, a command is for it; in the period's last half, the next.

    A late tick's command for its own cycle could reach the controller
    after it, and the next command, on time, would be taken at the cycle
    after: two cycles of motion in one.  Carrying the cycle after, the arm
    holds a cycle and then takes it, one cycle on (the stream advances one
    period per command).
    """
    cycles = heard(3_000_000, lambda: 0)
    cycle = 1_796_000_000 * 10**9 + 3_000_000
    published = cycle - round(before * PERIOD)
    expected = cycle if before >= 1.0 - NEXT_CYCLE_CUTOFF else cycle + PERIOD
    assert cycles.content_time(published, PERIOD) == expected
    assert cycles.content_time(cycle + 1, PERIOD) == cycle + PERIOD


def test_a_cycle_has_run_once_its_stamp_is_heard_or_its_lateness_has_passed():
    """
    What a stream waits for before its next command: the cycle its last one is for.

    Here the stamps are heard on another clock than theirs (``heard``'s
    second argument): the stream cannot wait on them alone (``paced``).
    """
    cycles = heard(3_000_000, lambda: 0)
    cycles.heard(1_796_000_000 * 10**9 + 3_000_000 + 2_000_000, 0)  # a cycle 2 ms late
    cycle = 1_796_000_000 * 10**9 + 3_000_000 + 5 * PERIOD
    lateness = cycles.grid(PERIOD)[1]
    assert 0 < lateness <= LATEST * PERIOD
    assert not cycles.has_run(cycle, cycle - 1, PERIOD)
    assert not cycles.has_run(cycle, cycle + lateness, PERIOD)
    assert cycles.has_run(cycle, cycle + lateness + 1, PERIOD)
    cycles.heard(cycle + 100_000, 0)  # its stamp: it ran, however early that is told
    assert cycles.has_run(cycle, cycle + 100_000, PERIOD)
    # a command that went out late (the thread taken away after its tick began) is waited
    # for by time: never a second within ``NEXT_CYCLE_CUTOFF`` of a period of it
    cycles.sent(cycle + 200_000, PERIOD)
    cutoff = round(NEXT_CYCLE_CUTOFF * PERIOD)
    assert not cycles.has_run(cycle, cycle + 200_000 + cutoff - 1, PERIOD)
    assert cycles.has_run(cycle, cycle + 200_000 + round(NEXT_CYCLE_CUTOFF * PERIOD), PERIOD)


def test_where_a_state_comes_each_cycle_a_stream_waits_for_the_one_that_took_its_command():
    """
    However late: a controller stalled for 50 cycles is waited for, not written 50 commands.

    The cycle that takes a command is the first heard ``NEXT_CYCLE_CUTOFF`` of a
    period after it was sent; its stamp lets the stream go on.  States
    silent for ``PACED_WITHIN_NS`` (a broadcaster gone) leave the stream to
    the grid's times, not waiting for ever.
    """
    start = 1_796_000_000 * 10**9
    cycles = ControllerCycles()
    for k in range(WINDOW):
        cycles.heard(start + k * PERIOD, start + k * PERIOD + 300_000)
    heard_last = start + (WINDOW - 1) * PERIOD + 300_000
    assert cycles.paced(PERIOD, heard_last)
    assert not cycles.paced(PERIOD // 2, heard_last)  # a stream twice as fast as the states
    assert not cycles.paced(PERIOD, heard_last + PACED_WITHIN_NS + 1)  # the states stopped
    sent = start + WINDOW * PERIOD - PERIOD // 2 + 1  # just after a cycle's middle
    cycles.sent(sent, PERIOD)
    later = sent + 50 * PERIOD
    assert not cycles.has_run(0, later, PERIOD)  # nothing heard: it stalled
    assert cycles.has_run(0, heard_last + PACED_WITHIN_NS + 1, PERIOD)  # by the grid's times
    cycles.heard(start + WINDOW * PERIOD, later)  # the cycle right after: too soon
    assert not cycles.has_run(0, later, PERIOD)
    cycles.heard(start + (WINDOW + 1) * PERIOD, later)
    assert cycles.has_run(0, later, PERIOD)
    cycles.sent(later, PERIOD)
    cycles.forget()  # another arm: nothing is waited for
    assert cycles.has_run(0, later, PERIOD)


def test_the_cycles_skipped_between_two_commands_are_whole_periods():
    """A grid that moved by less than half a period is the same; the same cycle is -1."""
    assert cycles_skipped(0, PERIOD, PERIOD) == 0
    assert cycles_skipped(0, PERIOD + PERIOD // 3, PERIOD) == 0
    assert cycles_skipped(0, 16 * PERIOD, PERIOD) == 15
    assert cycles_skipped(0, 0, PERIOD) == -1
    assert cycles_skipped(0, PERIOD // 3, PERIOD) == -1


def test_on_a_simulators_clock_the_next_cycle_is_a_period_after_the_last():
    """ros2_control_node on sim time: a cycle a clock step late moves every later one."""
    cycles = ControllerCycles()
    cycles.follows_last = True
    ms = PERIOD // 10
    for stamp in (0, 10, 20, 32, 42, 52):  # ms: the cycle at 30 woke at 32
        cycles.heard(stamp * ms, 0)
    assert cycles.grid(PERIOD) == (2 * ms, 0)
    assert cycles.content_time(53 * ms, PERIOD) == 62 * ms
    # a timer on the clock step of the last cycle heard: the one after it, not that one
    assert cycles.content_time(52 * ms, PERIOD) == 62 * ms
