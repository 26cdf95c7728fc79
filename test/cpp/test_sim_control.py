"""
The real controllers on a simulator's clock: control.launch.py use_sim_time:=true.

controller_manager (mock hardware, ``ros2_control_node`` that waits for the
first ``/clock``), its controllers and the IK node all run on a ``/clock`` the
test publishes (``sim_clock``), as they would beside Gazebo, Isaac or Webots.
For each controller output, in one launch:

- at real-time factors 0.5 and 2, every target is reached and answered on
  ``reached`` with its stamp; each move takes, in simulated time, its
  plan's duration within one controller cycle; and the arm's velocity and
  acceleration, measured in simulated time as test_smooth_motion measures
  them on wall time (a forward_command arm per controller cycle, as its
  node's commands are: a cycle's length on a simulator's clock varies by a
  clock step), stay within the limits;
- the clock paused for three seconds in the middle of a move: the arm holds,
  no move fails, the arm's state does not go stale, no command jumps; the
  move resumes and ends where it was going;
- the clock jumped back (a reset simulation) in the middle of a move: the
  move ends as ``moves.failed.clock_jumped``, the next target is answered on
  the new time, and nothing raised in the node.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import itertools
import os
import time

from geometry_msgs.msg import PointStamped
from helpers import seconds
import numpy as np
import pytest
from sim_clock import SimClock, STEP_NS
from test_smooth_motion import (
    around_worst_acceleration, command_indices, command_ratios, controller_states, judged,
    late_steps, measured_motion, moving_steps, ROUNDING, stamped_positions, time_optimal,
    took_in_time, UPDATE_RATE_HZ, worst_ratios)
from twobone_ik_ros.model.interface import Output

pytestmark = pytest.mark.ros  # controlled_arm's real case carries the parts

LIMITS = {'max_joint_velocity': 1.5, 'max_joint_acceleration': 4.0, 'max_joint_jerk': 0.0}
START_S = 1000.0
PERIOD = 1.0 / UPDATE_RATE_HZ
#: two targets at each real-time factor, each a move of about a second
PHASES = ((0.5, [(1.2, 0.9), (-0.4, 1.3)]), (2.0, [(1.5, -0.6), (0.3, -1.2)]))
#: a long move (the shoulder turns about 2.5 rad), paused, then one jumped back
LONG = [(-1.1, -0.9), (1.0, 0.9)]
_marks = itertools.count(700_000)


def diagnostics(arm):
    return arm.probe.latest_diagnostics(timeout=10.0)[1]


def send_marked(arm, x, y):
    """Send a target stamped with a mark of ours; return the mark (``reached`` answers it)."""
    mark = next(_marks)
    msg = PointStamped()
    msg.header.stamp.sec = mark
    msg.point.x, msg.point.y = float(x), float(y)
    arm.probe.target_pub.publish(msg)
    return mark


def answered(arm, mark):
    return any(m.header.stamp.sec == mark for m in arm.reached)


def reach(arm, x, y, timeout=60.0):
    """
    Send the target until ``reached`` answers it; return the arm where it ended.

    Sent again (another mark) after 10 s of wall time unanswered: a command
    published while the controller's subscription was being matched is lost.
    """
    deadline = time.monotonic() + timeout
    while True:
        mark = send_marked(arm, x, y)
        if arm.probe.spin_until(lambda: answered(arm, mark),
                                max(0.0, min(10.0, deadline - time.monotonic()))):
            break
        assert time.monotonic() < deadline, f'({x}, {y}) was not reached: {diagnostics(arm)}'
    return settled(arm)


def settled(arm, samples=5, timeout=30.0):
    """Return where the arm stands once its last ``samples`` joint states are the same."""
    def still():
        last = arm.probe.joint_states[-samples:]
        return len(last) == samples and len({tuple(m.position) for m in last}) == 1
    assert arm.probe.spin_until(still, timeout), 'the arm did not come to rest'
    return arm.measured()


def simulated(arm, since):
    """Return the arm's joint states since index ``since``: simulated stamps, positions."""
    return stamped_positions(arm.probe.joint_states[since:])


def move_seconds(times, positions, start, goal):
    """
    Return a move's simulated seconds and how far its cycles strayed from one period.

    The seconds: the last sample at ``start`` to the first at ``goal``, less one
    period (mock hardware reports each command a cycle late, at both ends alike,
    and the samples come once a cycle).  The stray: ros2_control_node wakes at
    the first ``/clock`` past its cycle's time, a clock step or more late on a
    busy host, so either end's stamp can be that much off the cycle it stands for.
    """
    at_start = np.all(positions == np.asarray(start), axis=1)
    left = np.flatnonzero(at_start & np.concatenate((~at_start[1:], [False])))[0]
    arrived = left + np.flatnonzero(np.all(np.abs(positions[left:] - goal) <= 1e-9, axis=1))[0]
    stray = float(np.max(np.abs(np.diff(times[max(left - 1, 0):arrived + 2]) - PERIOD)))
    return float(times[arrived] - times[left]) - PERIOD, stray


@pytest.fixture
def sim_arm(controlled_arm):
    """Start the clock first (controller_manager waits for it), then the arm on it."""
    clocks = []

    def start(output):
        clocks.append(SimClock(1.0, START_S))
        arm = controlled_arm(output, LIMITS, arguments=['use_sim_time:=true', 'rviz:=false'])
        # the node on the clock too (its diagnostics stamped in simulated time) before the
        # first move: a move sent while its clock is still at zero ends when the clock starts
        # (``moves.failed.clock_jumped``), and with three lanes at once /clock can reach the
        # node after the controller's joint states have reached the test
        assert arm.probe.spin_until(lambda: arm.probe.diagnostics and seconds(
            arm.probe.diagnostics[-1].header.stamp) >= START_S, 30.0), 'the node has no clock'
        return clocks[-1], arm

    yield start
    for clock in clocks:
        clock.stop()


@pytest.mark.parametrize('output', [output.value for output in Output
                                    if output.drives_controller])
def test_the_controllers_on_a_simulated_clock(sim_arm, output):
    clock, arm = sim_arm(output)
    states = []
    if output != 'forward_command':
        from control_msgs.msg import JointTrajectoryControllerState
        arm.probe.node.create_subscription(
            JointTrajectoryControllerState, f'{arm.namespace}/{arm.controller}/controller_state',
            states.append, 1000)
    reach(arm, 1.2, 0.0)  # from where the arm starts
    report = []

    # -- real-time factors: durations against the plan, velocity and acceleration
    counts = []  # forward_command: (late commands, drifted cycles, moving cycles) per phase
    sent_ratios = []  # forward_command: (step, change of step) between its commands per phase
    judged_cycles = []  # (velocities, accelerations) the bars were judged on per phase
    for rtf, targets in PHASES:
        clock.rtf = rtf
        begin_states, begin_commands = len(arm.probe.joint_states), len(arm.commands)
        durations = []
        for x, y in targets:
            since, before = len(arm.probe.joint_states) - 2, arm.measured()
            goal = reach(arm, x, y)
            took, stray = move_seconds(*simulated(arm, since), before, goal)
            # and how long the stream waited: cycles the node came late for, or that came a
            # clock step late (one period of the motion each, whatever their length); a wait
            # before the arm left counts there too, but not in ``took`` (from its departure)
            durations.append((took, time_optimal(before, goal, LIMITS), arm.stream_lateness(),
                              stray))
        if output == 'forward_command':
            # on simulated time each stamp is its cycle's exact time, but the cycles are no
            # fixed grid: ros2_control_node wakes at the first /clock past its time, a clock
            # step late or not (a busy host: in CI at 2, 136 of 247 cycles), and the node's
            # stream advances one period of its motion per command whatever the cycle's length:
            # the arm is judged per cycle, each joint state one (a state the probe missed: two
            # commands in one, a late take, left out), as the node's commands are
            stamps, positions = simulated(arm, begin_states)
            indices = command_indices(positions, arm.commands, begin_commands - 1)
            late_at = late_steps(positions, indices)
            drifted = int(np.sum(np.abs(np.diff(stamps) - PERIOD) > 1e-6))
            times = took_in_time(stamps[0] + PERIOD * np.arange(len(stamps)), positions, indices)
            velocity, acceleration = worst_ratios(times, positions, LIMITS)
            moving = int(np.sum(moving_steps(positions)))
            late = int(np.sum(late_at))
            counts.append((late, drifted, moving))
            # what the node sent, whenever the controller took it: a period of the motion apart
            sent_ratios.append(command_ratios(arm.commands[begin_commands - 1:], LIMITS, PERIOD))
        else:
            times, positions = measured_motion(*simulated(arm, begin_states),
                                               controller_states(states))
            velocity, acceleration = worst_ratios(times, positions, LIMITS)
            late = 0
        judged_cycles.append((judged(times), judged(times, stride=2)))
        report.append(f'rtf {rtf}: moves {[tuple(round(v, 4) for v in d) for d in durations]} '
                      f's (simulated, planned, waited, stray), worst |velocity| '
                      f'{velocity:.4f} and |acceleration| {acceleration:.4f} of the limits'
                      + (f'; {around_worst_acceleration(times, positions)}'
                         if acceleration > 1.1 else ''))
        dump = os.environ.get('TWOBONE_SIM_DUMP')
        if dump:
            stamps, raw = simulated(arm, begin_states)
            np.savez(f'{dump}-{output}-{rtf}.npz', stamps=stamps, positions=raw,
                     commands=np.array([m.data for m in arm.commands[begin_commands:]])
                     if output == 'forward_command' else np.zeros(0))
        if counts:
            late, drifted, moving = counts[-1]
            report[-1] += (f' ({late} late commands, {drifted} drifted cycles, {moving} moving; '
                           'between commands the largest step {:.4f} and change of step {:.4f} '
                           'of the limits)'.format(*sent_ratios[-1]))
        report[-1] += ' (velocities, accelerations judged: {}, {})'.format(*judged_cycles[-1])
        print(report[-1])
        # each cycle leaves a command 10 / rtf ms of wall time to reach the controller, and
        # controller_manager's executor (not real-time) hands it over or not: its host's
        # doing, counted and left out of the bars on the arm (CI from a fresh clone, at 2: up
        # to 69 of 236)
        if counts:
            assert max(sent_ratios[-1]) <= 1.0 + ROUNDING, report
        # never sooner than planned (a step would make it sooner), later by no more than the
        # node's reported wait (a stream's move with a command late at its end: a cycle more)
        # (a command the controller took late it took with the next: the arm a period ahead,
        # on a cycle's stamps that can be a clock step short: CI at 2, 0.952 s for 0.9741);
        # either end's stamp as far off its cycle as the move's cycles strayed (CI at 2, a
        # trajectory: 0.964 s for 0.9741, its cycles a clock step off)
        slack = PERIOD * (2 if late else 1)
        assert all(planned - slack - PERIOD * late - stray <= took
                   <= planned + waited + slack + stray
                   for took, planned, waited, stray in durations), report
        assert velocity <= 1.02 + ROUNDING and acceleration <= 1.10 + ROUNDING, report
    # the bars on the arm hold on something at each factor: half a second of cycles
    assert all(min(counted) >= 50 for counted in judged_cycles), report
    clock.rtf = 1.0

    # -- paused mid-move: nothing moves, fails or ages; the move then ends where it was going
    start = reach(arm, *LONG[0])
    mark = send_marked(arm, *LONG[1])
    assert arm.probe.spin_until(lambda: abs(arm.measured()[0] - start[0]) > 0.8, 20.0)
    clock.pause()
    arm.probe.spin_for(0.3)  # what was on its way arrives
    held, paused_commands, paused_at = arm.measured(), len(arm.commands), clock.now_s()
    arm.probe.spin_for(3.0)
    during = diagnostics(arm)
    assert arm.measured() == held and len(arm.commands) == paused_commands, 'the arm moved'
    assert during['arm_state.stale'] == 'False', during
    clock.resume()
    assert arm.probe.spin_until(lambda: answered(arm, mark), 30.0), diagnostics(arm)
    after = diagnostics(arm)
    failed = {key: value for key, value in after.items()
              if key.startswith('moves.failed.') and value != '0'}
    assert not failed, failed
    if output == 'forward_command':  # the stream goes on from where it stood: no jump
        last, first = (arm.commands[paused_commands + k].data for k in (-1, 0))
        step = max(abs(a - b) for a, b in zip(last, first))
        # a cycle's worth of motion (and a clock step more, should the controller wake late)
        assert step <= LIMITS['max_joint_velocity'] * (PERIOD + STEP_NS / 1e9) * 1.05, step
    report.append(f'paused at {paused_at:.3f} s for 3 s of wall time mid-move: the arm held at '
                  f'{held}, stale {during["arm_state.stale"]}, no move failed, then reached')

    # -- jumped back mid-move: the move fails as clock_jumped, the next target is answered
    reach(arm, *LONG[0])
    send_marked(arm, *LONG[1])
    moved = arm.measured()
    assert arm.probe.spin_until(lambda: abs(arm.measured()[0] - moved[0]) > 0.5, 20.0)
    jumped_from = clock.now_s()
    clock.jump_to(jumped_from - 2.0)
    values = arm.probe.diagnostics_when(
        lambda values: values.get('moves.failed.clock_jumped') == '1', 20.0)
    heard = len(arm.probe.joint_states)
    # ros2_control_node sleeps on the ROS clock until its old time comes again (2 s)
    assert arm.probe.spin_until(lambda: len(arm.probe.joint_states) > heard + 5, 30.0)
    mark = send_marked(arm, 1.2, -0.3)
    assert arm.probe.spin_until(lambda: answered(arm, mark), 30.0), diagnostics(arm)
    answer = next(m for m in arm.reached if m.header.stamp.sec == mark)
    last_state = seconds(arm.probe.joint_states[-1].header.stamp)
    assert last_state < jumped_from + 10.0, (last_state, jumped_from)
    values = diagnostics(arm)
    assert values['internal_errors'] == '0', values
    report.append(f'jumped back 2 s from {jumped_from:.3f} s mid-move: moves.failed.clock_jumped '
                  f"{values['moves.failed.clock_jumped']}, the next target reached at "
                  f'({answer.point.x:.6f}, {answer.point.y:.6f}) on the new time')
    print(f'{output} on a simulated clock:\n  ' + '\n  '.join(report))
    assert arm.interrupt() == 0, arm.launch.output()
