"""
Knowing that the arm got there, on the real controllers.

``control.launch.py`` for real: every target of a sequence is answered by
exactly one ``reached`` with its stamp, on the topic outputs and the
follow_joint_trajectory action (whose goals succeed; a replaced one is
canceled, counted if the node's timer asked for its result before it was
replaced); a target replaced before the arm got there gets none; a
deactivated controller (``switch_controller``) makes moves time out on the
topic, and its action rejects them, and they are reached again once it is
active; with no action server at all
the moves fail as ``no_controller``; a stopped joint_state_broadcaster makes
the arm's state stale in diagnostics within twice ``arm_state_timeout``.
The counters add up in every test: ``moves.sent == reached + superseded +
failed``.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math
import os
import subprocess
import sys
import time

from control_harness import NOT_MATCHED_YET, path_message
from parts import CONTROLLED_ARM, needs, on
import pytest
from ros_harness import unique_name
from twobone_ik_ros.motion.ledger import FAILURES, GOAL_RESULTS
from twobone_ik_ros.solver import forward

pytestmark = pytest.mark.ros

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGETS = [(1.2, 0.9), (-0.4, 1.3), (1.5, -0.6), (0.3, -1.2)]
FAST = {'max_joint_velocity': 3.0, 'max_joint_acceleration': 20.0}


def reached_stamps(arm, since=0):
    return [m.header.stamp.sec for m in arm.reached[since:]]


def counters(arm):
    """Return the moves.* (and goals.*) counters of a fresh diagnostics message, as ints."""
    values = arm.probe.latest_diagnostics()[1]
    moves = {key[len('moves.'):]: int(value) for key, value in values.items()
             if key.startswith('moves.')}
    moves.update({key: int(value) for key, value in values.items()
                  if key.startswith('goals.')})
    failed = sum(moves[f'failed.{reason}'] for reason in FAILURES)
    return moves, failed, values


def wait_for_reached(arm, stamp_id, timeout=20.0):
    assert arm.probe.spin_until(lambda: stamp_id in reached_stamps(arm), timeout), \
        (stamp_id, reached_stamps(arm))
    return next(m for m in arm.reached if m.header.stamp.sec == stamp_id)


def assert_adds_up(arm):
    """Wait until no move is under way; then every move sent ended in one outcome."""
    def settled():
        moves, failed, _ = counters(arm)
        return moves['sent'] == moves['reached'] + moves['superseded'] + failed
    assert arm.probe.spin_until(settled, 15.0), counters(arm)[0]


def goals_answered(arm, since, count):
    """Wait until ``count`` more goals than ``since`` have an answer; return the counters."""
    def answered():
        moves = counters(arm)[0]
        return sum(moves[f'goals.{r}'] - since[f'goals.{r}'] for r in GOAL_RESULTS) >= count
    assert arm.probe.spin_until(answered, 15.0), (since, counters(arm)[0])
    return counters(arm)[0]


@pytest.mark.parametrize('controllers,output', [
    on('real', 'joint_trajectory'), on('real', 'forward_command'),
    on('real', 'follow_joint_trajectory'), on('stand_in', 'joint_trajectory'),
    on('stand_in', 'forward_command')],
    indirect=['controllers'])
def test_every_target_is_reached_once_with_its_stamp_and_a_replaced_one_not(
        controlled_arm, output):
    arm = controlled_arm(output, FAST, arguments=['rviz:=false'])
    # the controller has matched the node's command writer (a target sent before it had
    # went nowhere: timed out, or superseded when reach sends it again)
    arm.reach(0.9, 0.4, resend=NOT_MATCHED_YET)
    assert_adds_up(arm)
    before, failed_before, _ = counters(arm)
    first = len(arm.reached)
    action = output == 'follow_joint_trajectory'
    for i, (x, y) in enumerate(TARGETS, start=1001):
        answered = counters(arm)[0]
        arm.probe.send(x, y, frame_id='', stamp_id=i)
        message = wait_for_reached(arm, i)
        if action:  # the goal's own end, before the next goal replaces it
            goals_answered(arm, answered, 1)
        assert message.header.frame_id == f'{arm.name}/base_link'  # control.launch's prefix
        tolerance = (arm.r1 + arm.r2) * 0.001 * 2  # goal_tolerance 0.001 rad on each joint
        assert math.dist((message.point.x, message.point.y), (x, y)) <= tolerance
    arm.probe.spin_for(0.5)
    assert reached_stamps(arm, first) == list(range(1001, 1001 + len(TARGETS)))
    # replaced on the way: the first gets nothing, the second its reached
    arm.probe.send(-1.0, 0.8, frame_id='', stamp_id=2001)
    arm.probe.spin_for(0.1)
    arm.probe.send(1.1, 0.2, frame_id='', stamp_id=2002)
    wait_for_reached(arm, 2002)
    arm.probe.spin_for(0.5)
    assert 2001 not in reached_stamps(arm)
    if action:
        goals_answered(arm, before, len(TARGETS) + 2)
    # a path is one move, answered with the path's stamp
    path = path_message([(1.1 - 0.02 * i, 0.2 + 0.04 * i) for i in range(11)])
    path.header.stamp.sec = 2003
    arm.path_pub.publish(path)
    message = wait_for_reached(arm, 2003)
    assert math.dist((message.point.x, message.point.y), (0.9, 0.6)) <= (arm.r1 + arm.r2) * 0.002
    assert_adds_up(arm)
    moves, failed, _ = counters(arm)
    assert moves['sent'] - before['sent'] == len(TARGETS) + 3, (before, moves)
    assert moves['reached'] - before['reached'] == len(TARGETS) + 2, (before, moves)
    assert moves['superseded'] - before['superseded'] == 1, (before, moves)
    assert failed == failed_before, (before, moves)
    if action:  # the server's word: all succeeded, one replaced
        moves = goals_answered(arm, before, len(TARGETS) + 2)
        delta = {r: moves[f'goals.{r}'] - before[f'goals.{r}'] for r in GOAL_RESULTS}
        # the replaced goal's cancel is counted if the node asked for its result (at its
        # timer, 10 Hz) in the 0.1 s it stood: asked or not, the move is superseded
        assert delta.pop('canceled') <= 1, (before, moves)
        assert delta == {'succeeded': len(TARGETS) + 2, 'rejected': 0, 'aborted': 0}, \
            (before, moves)
    else:
        assert not any(key.startswith('goals.') for key in moves), moves
    assert arm.interrupt() == 0, arm.launch.output()


def test_a_deactivated_controller_times_moves_out_until_it_is_active_again(controlled_arm):
    arm = controlled_arm('joint_trajectory', dict(FAST, goal_time_tolerance=0.5),
                         arguments=['rviz:=false'])
    arm.reach(0.9, 0.4, resend=NOT_MATCHED_YET)
    arm.switch(deactivate=[arm.controller])
    arm.probe.send(1.2, 0.9, frame_id='', stamp_id=3001)

    def timed_out():
        return counters(arm)[0]['failed.timed_out'] >= 1
    assert arm.probe.spin_until(timed_out, 15.0), counters(arm)[0]
    assert 3001 not in reached_stamps(arm)
    arm.switch(activate=[arm.controller])
    arm.probe.send(-0.4, 1.3, frame_id='', stamp_id=3002)
    wait_for_reached(arm, 3002)
    assert_adds_up(arm)
    assert arm.interrupt() == 0, arm.launch.output()


def test_an_inactive_controller_rejects_goals_until_it_is_active_again(controlled_arm):
    # deactivated while idle: a goal in flight would never end on this
    # joint_trajectory_controller (ros2_controllers#1044: it cancels the goal without
    # a cancel request, which rcl_action refuses; fixed upstream by aborting it), and
    # the node would count it timed_out
    arm = controlled_arm('follow_joint_trajectory', FAST, arguments=['rviz:=false'])
    arm.reach(0.9, 0.4, resend=NOT_MATCHED_YET)
    assert_adds_up(arm)
    before = counters(arm)[0]
    arm.switch(deactivate=[arm.controller])
    seen = len(arm.probe.diagnostics)
    arm.probe.send(1.2, 0.9, frame_id='', stamp_id=5001)
    moves = goals_answered(arm, before, 1)
    delta = {r: moves[f'goals.{r}'] - before[f'goals.{r}'] for r in GOAL_RESULTS}
    assert delta == {'succeeded': 0, 'rejected': 1, 'aborted': 0, 'canceled': 0}, delta
    assert moves['failed.rejected'] - before['failed.rejected'] == 1, moves
    # WARN in the report after the failure (the next one is OK again)
    assert any(d.status[0].level == d.status[0].WARN and 'rejected' in d.status[0].message
               for d in arm.probe.diagnostics[seen:]), arm.probe.diagnostics[seen:]
    assert 5001 not in reached_stamps(arm)
    arm.switch(activate=[arm.controller])
    arm.probe.send(-0.4, 1.3, frame_id='', stamp_id=5002)
    wait_for_reached(arm, 5002)
    assert_adds_up(arm)
    moves = counters(arm)[0]
    assert moves['goals.succeeded'] - before['goals.succeeded'] == 1, moves
    assert arm.interrupt() == 0, arm.launch.output()
    assert 'rejected the goal' in arm.launch.output()


@needs(*CONTROLLED_ARM)
def test_no_action_server_is_no_controller(launches, probe):
    name = unique_name('alone')
    launch = launches('twobone_ik.launch.py', f'namespace:={name}',
                      'output:=follow_joint_trajectory', 'rviz:=false')
    watcher = probe(namespace='/' + name)
    # (no joint_states from a controller output: wait_for_node's test does not apply)
    assert watcher.spin_until(lambda: watcher.target_pub.get_subscription_count() > 0
                              and bool(watcher.diagnostics), 60.0)
    for stamp_id in (6001, 6002):
        watcher.send(1.2, 0.4, frame_id='', stamp_id=stamp_id)

    def failed():
        status, values = watcher.latest_diagnostics()
        return (values['moves.failed.no_controller'] == '2' and values['moves.sent'] == '2'
                and status.level == status.WARN)
    assert watcher.spin_until(failed, 15.0), watcher.latest_diagnostics()
    values = watcher.latest_diagnostics()[1]
    assert all(values[f'goals.{r}'] == '0' for r in GOAL_RESULTS), values
    assert launch.interrupt(timeout=30.0) == 0, launch.output()
    assert 'no action server' in launch.output()


def test_a_silent_arm_is_stale_within_twice_the_timeout_and_fresh_when_it_speaks(
        controlled_arm):
    timeout = 1.5
    arm = controlled_arm('joint_trajectory', dict(FAST, arm_state_timeout=timeout,
                                                  goal_time_tolerance=30.0),
                         arguments=['rviz:=false'])
    arm.reach(0.9, 0.4, resend=NOT_MATCHED_YET)
    arm.switch(deactivate=['joint_state_broadcaster'])
    stopped = time.monotonic()

    def stale():
        status, values = arm.probe.latest_diagnostics()
        return values['arm_state.stale'] == 'True' and status.level == status.WARN
    assert arm.probe.spin_until(stale, 10.0)
    assert time.monotonic() - stopped <= 2 * timeout
    # planned from the commands meanwhile: a target is still commanded
    sent = len(arm.commands)
    arm.probe.send(1.2, 0.9, frame_id='', stamp_id=4001)
    assert arm.probe.spin_until(lambda: len(arm.commands) > sent, 10.0)
    arm.switch(activate=['joint_state_broadcaster'])
    assert arm.probe.spin_until(
        lambda: arm.probe.latest_diagnostics()[1]['arm_state.stale'] == 'False', 10.0)
    wait_for_reached(arm, 4001)  # the arm went there all along; now it is heard again
    _, (x, y) = forward(arm.r1, arm.r2, *arm.measured())
    assert math.dist((x, y), (1.2, 0.9)) < 1e-6
    assert_adds_up(arm)
    assert arm.interrupt() == 0, arm.launch.output()
    assert 'no joint_states for' in arm.launch.output()


def test_the_readme_example_waits_for_the_arm(controlled_arm, tmp_path):
    readme = open(os.path.join(ROOT, 'README.md')).read()
    block = readme.split('<!-- wait-for-arm -->')[1].split('<!-- /wait-for-arm -->')[0]
    script = tmp_path / 'wait_for_arm.py'
    script.write_text(block.split('```python')[1].split('```')[0])
    arm = controlled_arm('joint_trajectory', FAST, arguments=['rviz:=false'])
    arm.reach(0.9, 0.4, resend=NOT_MATCHED_YET)
    done = subprocess.run([sys.executable, str(script), '--ros-args', '-r',
                           f'__ns:={arm.namespace}'], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    x, y = map(float, done.stdout.split()[1:3])
    assert math.dist((x, y), (1.2, 0.4)) <= (arm.r1 + arm.r2) * 0.002
    assert arm.interrupt() == 0, arm.launch.output()
