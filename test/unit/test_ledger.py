"""Every move ends in exactly one outcome (``motion/ledger``), without ROS."""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import random

from twobone_ik_ros.motion.ledger import ARRIVAL_SLACK_NS, GOAL_RESULTS, MoveLedger


def ended(ledger):
    counters = ledger.counters
    return counters.reached + counters.superseded + counters.failed.total


def test_reached_superseded_no_controller_timed_out():
    ledger = MoveLedger()
    ledger.sent('a', (1.0, 2.0), end_ns=ARRIVAL_SLACK_NS + 90, deadline_ns=10**9,
                connected=True)
    assert ledger.measured((1.0, 2.0), 0.001, now_ns=89) is None  # sooner than it can be
    assert ledger.measured((1.0005, 2.0), 0.001, now_ns=90).stamp == 'a'
    assert ledger.measured((1.0, 2.0), 0.001, now_ns=91) is None  # once only
    ledger.sent('b', (0.0, 0.0), end_ns=0, deadline_ns=200, connected=True)
    ledger.sent('c', (0.5, 0.5), end_ns=0, deadline_ns=300, connected=True)  # b superseded
    assert ledger.measured((0.0, 0.0), 0.001, now_ns=100) is None  # b's end is not c's
    assert ledger.poll(300) is None and ledger.poll(301).stamp == 'c'
    ledger.sent('d', (0.5, 0.5), end_ns=0, deadline_ns=400, connected=False)
    assert ledger.pending is None
    counters = ledger.counters
    assert (counters.sent, counters.reached, counters.superseded) == (4, 1, 1)
    assert counters.failed.counts == {'no_controller': 1, 'rejected': 0, 'aborted': 0,
                                      'timed_out': 1, 'joint_limits': 0, 'unplanned': 0,
                                      'clock_jumped': 0}


def test_the_controllers_word_ends_a_move_unless_it_has_ended():
    ledger = MoveLedger()
    first = ledger.sent('a', (1.0, 2.0), end_ns=0, deadline_ns=10**9, connected=True)
    assert ledger.ended(first, None) and ledger.counters.reached == 1  # the goal succeeded
    assert not ledger.ended(first, 'aborted')  # the first outcome stands
    second = ledger.sent('b', (1.0, 2.0), end_ns=0, deadline_ns=10**9, connected=True)
    third = ledger.sent('c', (0.0, 2.0), end_ns=0, deadline_ns=10**9, connected=True)
    assert not ledger.ended(second, 'aborted')  # replaced: superseded, its cancel no failure
    assert ledger.ended(third, 'rejected')
    assert ledger.sent('d', (0.0, 0.0), end_ns=0, deadline_ns=1, connected=False) is None
    counters = ledger.counters
    assert (counters.sent, counters.reached, counters.superseded) == (4, 1, 1)
    assert counters.failed.counts == {'no_controller': 1, 'rejected': 1, 'aborted': 0,
                                      'timed_out': 0, 'joint_limits': 0, 'unplanned': 0,
                                      'clock_jumped': 0}


def test_every_goal_answer_is_counted_and_ends_its_move_as_the_table_says():
    ledger = MoveLedger()
    for result in GOAL_RESULTS:
        move = ledger.sent(result, (0.0, 0.0), end_ns=0, deadline_ns=10**9, connected=True)
        assert ledger.answered(move, result)
        assert not ledger.answered(move, 'succeeded')  # a late second answer: counted only
    counters = ledger.counters
    assert counters.goals == {'succeeded': 1 + 4, 'rejected': 1, 'aborted': 1, 'canceled': 1}
    assert counters.reached == 1
    assert counters.failed.counts == {'no_controller': 0, 'rejected': 1, 'aborted': 2,
                                      'timed_out': 0, 'joint_limits': 0, 'unplanned': 0,
                                      'clock_jumped': 0}


def test_a_move_refused_at_the_limits_fails_and_leaves_the_one_under_way():
    ledger = MoveLedger()
    under_way = ledger.sent('a', (1.0, 2.0), end_ns=0, deadline_ns=10**9, connected=True)
    ledger.refused('joint_limits')
    assert ledger.pending is under_way
    assert ledger.measured((1.0, 2.0), 0.001, now_ns=0) is under_way
    counters = ledger.counters
    assert (counters.sent, counters.reached, counters.failed.counts['joint_limits']) == (2, 1, 1)
    assert counters.sent == counters.reached + counters.superseded + counters.failed.total


def test_the_counters_add_up_whatever_happens():
    rng = random.Random(20)
    ledger = MoveLedger()
    moves = []
    for step in range(10_000):
        event = rng.random()
        if event < 0.4:
            end = step + rng.randint(-50, 50)
            move = ledger.sent(step, (rng.random(), rng.random()), end,
                               end + rng.randint(0, 50), rng.random() < 0.9)
            if move is not None:
                moves.append(move)
        elif event < 0.7:
            ledger.measured((rng.random(), rng.random()), 0.3, step + ARRIVAL_SLACK_NS)
        elif event < 0.85 and moves:  # an answer, late or not, to any goal sent
            ledger.ended(rng.choice(moves[-5:]), rng.choice([None, 'rejected', 'aborted']))
        else:
            ledger.poll(step)
        assert ledger.counters.sent == ended(ledger) + (ledger.pending is not None)


def test_a_move_abandoned_on_a_clock_jump_is_failed_once_and_nothing_else_is():
    ledger = MoveLedger()
    ledger.abandon('clock_jumped')  # nothing under way: nothing counted
    move = ledger.sent(None, (0.0, 0.0), 10, 20, True)
    ledger.abandon('clock_jumped')
    assert ledger.pending is None and ledger.counters.failed.counts['clock_jumped'] == 1
    assert not ledger.ended(move, None)  # the controller's word after it changes nothing
    counters = ledger.counters
    assert counters.sent == counters.reached + counters.superseded + counters.failed.total


def test_a_stream_that_held_the_arm_moves_the_end_and_the_deadline_and_says_how_late():
    ledger = MoveLedger()
    ledger.sent('a', (1.0, 2.0), end_ns=ARRIVAL_SLACK_NS + 1000, deadline_ns=2000,
                connected=True)
    ledger.delayed(500, 50)  # the node came 50 cycles late
    ledger.delayed(-3, 0)  # the grid as read moved: no cycle held, no command late
    assert ledger.poll(2400) is None  # its deadline moved with it
    assert ledger.measured((1.0, 2.0), 0.001, now_ns=1400) is None  # not before its new end
    assert ledger.measured((1.0, 2.0), 0.001, now_ns=1497).stamp == 'a'
    counters = ledger.counters
    assert (counters.cycles_held, counters.commands_late) == (50, 1)
    assert (counters.late_last_ns, counters.late_max_ns) == (497, 497)
    ledger.sent('b', (0.0, 0.0), end_ns=0, deadline_ns=10**9, connected=True)
    ledger.delayed(70, 7)
    ledger.sent('c', (0.0, 0.0), end_ns=0, deadline_ns=10**9, connected=True)  # b superseded
    assert counters.late_last_ns == 497  # a superseded move did not end: no lateness of its own
    ledger.delayed(10, 1)
    assert ledger.measured((0.0, 0.0), 0.001, now_ns=ARRIVAL_SLACK_NS) is not None
    assert (counters.late_last_ns, counters.late_max_ns, counters.cycles_held) == (10, 497, 58)
    ledger.delayed(10, 1)  # nothing under way: counted, nothing moved
    assert (counters.cycles_held, counters.commands_late) == (59, 4)


def test_a_move_whose_stream_still_waits_for_the_controller_does_not_time_out_meanwhile():
    ledger = MoveLedger()
    ledger.sent('a', (1.0, 2.0), end_ns=1000, deadline_ns=2000, connected=True)
    assert ledger.poll(2300, held_ns=300) is None  # held 300 so far: its deadline is 2300
    assert ledger.poll(2301, held_ns=300).stamp == 'a'
    assert ledger.counters.failed.counts['timed_out'] == 1
