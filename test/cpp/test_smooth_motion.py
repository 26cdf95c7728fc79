"""
Controller moves and paths on the real controllers keep the joints' limits.

``control.launch.py`` for real (controller_manager at 100 Hz, mock hardware,
joint_state_broadcaster): single moves, moves retargeted mid-way and a
path timed by the node, for both controller outputs.  The arm's measured
joint_states are sampled throughout; velocities and accelerations are
finite differences of the measured positions over the times they were
commanded for (``measured_motion``), and must stay within 1.02
times the velocity limit, 1.10 times the acceleration limit.  A single
move takes at most 1.05 times the time-optimal move (ruckig's, from the
measured state), less the time controller_manager itself did not run.  A
forward_command stream's commands are one period of a motion within the
limits apart (step and change of step), whenever they were taken; the arm
moves on the cycles that take them in time, and the others
(controller_manager's executor, not real-time, was late: its host's doing)
are counted and left out of its bars (doc/motion.md).  They are told by
the commands the arm stepped past (mock hardware mirrors each exactly): a
stand-still at the start of a move, where the arm was at rest anyway, is
one too.  The ratios over the raw stamps are printed beside.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math

from control_harness import in_joint_order, NOT_MATCHED_YET
from helpers import seconds
import numpy as np
from parts import on
import pytest
from ruckig import InputParameter, Result, Ruckig, Trajectory
from twobone_ik_ros.model.parameter_table import DEFAULTS
from twobone_ik_ros.solver import TwoBoneIK

pytestmark = pytest.mark.ros

R1, R2 = DEFAULTS['r1'], DEFAULTS['r2']
LIMITS = {'max_joint_velocity': 1.5, 'max_joint_acceleration': 4.0}
TARGETS = [(1.2, 0.9), (-0.4, 1.3), (1.5, -0.6), (0.3, -1.2)]
#: (the first target, how far the arm has moved towards it (rad), the target that replaces it)
RETARGETS = [((-1.0, 0.8), 0.3, (1.1, 0.2)), ((-0.4, 1.3), 0.05, (1.5, -0.6))]
UPDATE_RATE_HZ = 100.0  # config/controllers.yaml
#: a cycle that ran later than this part of a period after its time on the grid took the
#: command that was there then: the stream's for it or, later, the one for the cycle after
LATE = 0.1
#: what a bar allows above itself: a ratio can meet a bar exactly (a stream's motion sampled
#: where its acceleration is at the limit, over times a clock step apart), and its float
#: rounding must not fail it (CI: 1.1000000000019907 against 1.10)
ROUNDING = 1e-9
#: three quarters of a circle, 60 poses within reach, on the default (up) branch throughout
PATH = [(1.1 + 0.4 * np.cos(a), 0.3 + 0.4 * np.sin(a)) for a in np.linspace(0.0, 1.5 * np.pi, 60)]


def stamped_positions(joint_states):
    """Return (stamps, positions) of the arm as joint_state_broadcaster reported them."""
    return (np.array([seconds(m.header.stamp) for m in joint_states]),
            np.array([in_joint_order(m.name, m.position) for m in joint_states]))


def measured_motion(stamps, positions, states=None):
    """
    Return (times, positions): each position at the time it was commanded for, NaN if unknown.

    Mock hardware reports, at each cycle, what the controller commanded at
    the cycle before.  joint_trajectory_controller commands, at each cycle,
    its trajectory one period after that cycle's time, which it stamps its
    ``controller_state`` with (``states``: their stamps and commands) and
    which the joint state's stamp of the same cycle differs from by up to
    0.1 ms (each controller reads the clock itself): a position's time is
    that of its command (``commanded_times``).  Taking the stamp before +
    a period instead gave up to 1.10 times the acceleration limit; that of a
    joint state that did not reach the probe, 3.8 times.  A forward_command
    stream is evaluated at the controller's cycles on their grid, whatever
    moment each wakes up (``cycle_grid``), and the cycle before takes the
    command published for it only when it runs on time (``LATE``): where the
    cycle before did not reach the probe, or ran late, the time is not known.
    No difference is taken across an unknown time.
    """
    period = 1.0 / UPDATE_RATE_HZ
    if states is not None:
        return commanded_times(stamps, positions, *states) + period, positions
    grid = cycle_grid(stamps)
    known = (np.diff(stamps) < 1.5 * period) & (stamps[:-1] - grid[:-1] <= LATE * period)
    return np.where(known, grid[1:], np.nan), positions[1:]


def controller_states(messages):
    """Return the stamps and commanded positions of joint_trajectory_controller's states."""
    return (np.array([seconds(m.header.stamp) for m in messages]),
            [in_joint_order(m.joint_names, m.output.positions) for m in messages])


def commanded_times(stamps, positions, state_stamps, commands):
    """
    Return the stamp of the controller state whose command each position is (NaN: not heard).

    Matched in order (mock hardware mirrors a command exactly): from the
    states shortly before the first position, each position takes the next
    of the four states after the last match that commanded it.  A position
    none of those commanded (more states than that did not reach the probe)
    is unknown, and the next one is looked for from the states shortly
    before its own stamp again: one gap does not leave the rest unknown.
    """
    times = np.full(len(positions), np.nan)
    following = int(np.searchsorted(state_stamps, stamps[0] - 3.0 / UPDATE_RATE_HZ))
    for index, position in enumerate(map(tuple, positions)):
        for state in range(following, min(following + 4, len(commands))):
            if commands[state] == position:
                times[index], following = state_stamps[state], state + 1
                break
        else:
            following = max(following, int(np.searchsorted(
                state_stamps, stamps[min(index + 1, len(stamps) - 1)] - 3.0 / UPDATE_RATE_HZ)))
    return times


def cycle_grid(stamps, window=33, period=1.0 / UPDATE_RATE_HZ):
    """
    Return the time on the controller's grid of the cycle that each stamp was taken at.

    ros2_control_node wakes up every period on a steady clock and stamps
    each cycle when it runs: never early, often a little late.  The grid is
    the early edge (a low percentile) of the stamps' offsets within a period
    in the ``window`` around each: it follows the ROS clock's slow drift from
    the steady one, and an outlier does not move it.  ``period``: the controller's.
    """
    offsets = (stamps - stamps[0] + period / 2) % period - period / 2
    padded = np.pad(offsets, window // 2, mode='edge')
    edge = np.percentile(np.lib.stride_tricks.sliding_window_view(padded, window), 10, axis=1)
    return stamps - (offsets - edge)


def cycles_between(stamps, period, exact_stamps):
    """
    Return how many controller cycles apart each two neighbouring joint states are.

    Whole cycles: the bar is the velocity limit times the controller's
    period, whatever the moment each cycle ran.  On a simulator's clock the
    stamps are the cycles' exact times (one that came a clock step late is
    still one cycle); on the wall clock, their cycles' times on the grid
    (``cycle_grid``).
    """
    times = stamps if exact_stamps else cycle_grid(stamps, period=period)
    return np.maximum(np.round(np.diff(times) / period), 1.0)


def step_velocities(times, positions):
    """Return each joint's velocity over each step between neighbouring samples (NaN: untimed)."""
    return np.diff(positions, axis=0) / np.diff(times)[:, None]


def worst_ratios(times, positions, limits, stride=2):
    """
    Return the largest |velocity| and |acceleration| over their limits (finite differences).

    Velocities from neighbouring samples; accelerations from velocities
    ``stride`` samples apart.  Samples whose time is not known (NaN) are
    left out (none known: 0).
    """
    velocity = step_velocities(times, positions)
    middle = 0.5 * (times[1:] + times[:-1])
    acceleration = (velocity[stride:] - velocity[:-stride]) / (
        middle[stride:] - middle[:-stride])[:, None]
    return (largest(velocity) / limits['max_joint_velocity'],
            largest(acceleration) / limits['max_joint_acceleration'])


def around_fastest(times, positions, stamps, limits, width=3):
    """
    Return the samples around the fastest step, one line each: to tell a step from its timing.

    Per sample: its joint state's stamp and the time it was taken to be
    commanded for (ms from the first sample; nan: unknown), its position, and
    the velocity of the step to it over the limit: printed where a bar fails.
    """
    velocity = np.abs(step_velocities(times, positions)).max(axis=1)
    if not np.isfinite(velocity).any():
        return 'no step timed'
    at = int(np.nanargmax(velocity)) + 1
    base = stamps[0]
    lines = []
    for index in range(max(at - width, 0), min(at + width + 1, len(positions))):
        ratio = velocity[index - 1] / limits['max_joint_velocity'] if index else float('nan')
        lines.append(f'[{index}] stamp {(stamps[index] - base) * 1e3:.3f} time '
                     f'{(times[index] - base) * 1e3:.3f} position {positions[index][0]:.6f} '
                     f'{positions[index][1]:.6f} velocity {ratio:.4f}')
    return '; '.join(lines)


def largest(values):
    """Return the largest finite |value| (0 if none)."""
    values = np.abs(values)
    return float(values[np.isfinite(values)].max(initial=0.0))


def judged(times, stride=0):
    """Return how many velocities (or accelerations: ``stride``) ``times`` lets be judged."""
    known = np.isfinite(np.diff(times))
    if stride:
        known = known[stride:] & known[:-stride]
    return int(np.sum(known))


def command_indices(positions, commands, rest, ahead=8):
    """
    Return the index in ``commands`` of the command each position is (-1: none found).

    Matched in order (mock hardware mirrors a command exactly), from the
    command ``rest`` the arm stands on: a position is the command it held or
    one of the next ``ahead``; of equal commands in a row (a motion at rest), the
    last, so that the next command is always another position.
    """
    data = [tuple(command.data) for command in commands]
    indices = np.full(len(positions), -1)
    following = rest + 1
    for index, position in enumerate(map(tuple, positions)):
        for command in range(max(following - 1, 0), min(following + ahead, len(data))):
            if data[command] == position:
                while command + 1 < len(data) and data[command + 1] == position:
                    command += 1
                indices[index], following = command, command + 1
                break
    return indices


def skipped_commands(positions, indices):
    """
    Tell for each step whether the arm moved to another command than the next one.

    It stood still on a command and then stepped past the next one (a
    command handed to the controller after its cycle: mid-move, or the first
    of a move, which a stand-still at rest hides), or a late cycle took the
    next command early; or the position is none of the node's commands.
    """
    moved = moving_steps(positions)
    return moved & ((indices[1:] != indices[:-1] + 1) | (indices[:-1] < 0))


def late_steps(positions, indices):
    """
    Tell for each step whether a command came late there (one step per late command).

    The stream published the position for each cycle several milliseconds
    before it, and controller_manager's executor, which is not real-time,
    handed it to forward_command_controller after the cycle; or the node's
    own timer fired after the cycle (a busy machine).  Either way the arm
    holds, then makes a double step: a stand-still between two moving steps
    (``held_steps``), or, where the arm was at rest anyway (the start of a
    move), a step past one of the node's commands (``skipped_commands``).
    """
    held = held_steps(positions)
    after_hold = np.zeros_like(held)
    after_hold[1:] = held[:-1]
    return held | (skipped_commands(positions, indices) & ~after_hold)


#: the longest stand-still between two moving steps taken for a hold (cycles): a stream whose
#: node came late for a few cycles holds the arm that long (``held_steps`` finds one cycle)
HOLD_CYCLES = 10


def took_in_time(times, positions, indices):
    """
    Leave out (NaN) the cycles around each late command and each hold of the arm.

    A late command (``late_steps``), and a stand-still of up to
    ``HOLD_CYCLES`` between two moving steps: the stream's node came late
    for those cycles and held the arm (doc/motion.md, a late node), which
    steps its velocity to zero and back; or the arm rested between two
    moves, where it was at rest anyway.
    """
    times = times.copy()
    for step in np.flatnonzero(late_steps(positions, indices)):
        times[max(step - 1, 0):step + 3] = np.nan
    moving = moving_steps(positions)
    starts = np.flatnonzero(moving[:-1] & ~moving[1:]) + 1  # the first still step of each run
    for start in starts:
        after = np.flatnonzero(moving[start:])
        if len(after) and after[0] <= HOLD_CYCLES:
            times[max(start - 1, 0):start + after[0] + 3] = np.nan
    return times


def around_worst_acceleration(times, positions, stride=2):
    """Say the intervals (ms) and steps (mrad) around the largest second difference."""
    velocity = np.diff(positions, axis=0) / np.diff(times)[:, None]
    worst = int(np.nanargmax(np.abs(velocity[stride:] - velocity[:-stride]).max(axis=1)))
    window = slice(max(worst - 3, 0), worst + stride + 4)
    return (f'intervals {np.round(1e3 * np.diff(times)[window], 2).tolist()}, steps '
            f'{np.round(1e3 * np.diff(positions, axis=0)[window], 3).tolist()}')


def move_duration(times, positions, start, goal):
    """
    Return the seconds from the last sample at ``start`` to the first at ``goal``, and the lost.

    The lost seconds are those controller_manager itself did not run for:
    the time between two of its cycles beyond a period (its host did not
    schedule it: a busy machine's, the node cannot make up for it).
    """
    at_start = np.all(positions == np.asarray(start), axis=1)
    rested = np.flatnonzero(at_start)[0]
    left = rested + np.flatnonzero(~at_start[rested:])[0] - 1
    arrived = np.flatnonzero(np.all(np.abs(positions - goal) <= 1e-9, axis=1))[0]
    intervals = np.diff(times[left:arrived + 1])  # a cycle skipped: more than 1.5 periods
    lost = float(np.sum(np.where(intervals > 1.5 / UPDATE_RATE_HZ,
                                 intervals - 1.0 / UPDATE_RATE_HZ, 0.0)))
    return times[arrived] - times[left], lost


def command_ratios(commands, limits, period):
    """
    Return a stream's largest step and change of step between commands, over the limits.

    What the node sends, whenever controller_manager takes it: one command
    per cycle, so a step at most the velocity limit times a period, and a
    change of step at most the acceleration limit times a period squared
    (a motion within its limits sampled a period apart).
    """
    data = np.array([command.data for command in commands], dtype=float).reshape(len(commands), -1)
    steps = np.diff(data, axis=0)
    changes = np.diff(steps, axis=0)
    return (float(np.abs(steps).max(initial=0.0)) / (limits['max_joint_velocity'] * period),
            float(np.abs(changes).max(initial=0.0)) / (
                limits['max_joint_acceleration'] * period ** 2))


def time_optimal(start, goal, limits):
    """Return the time-optimal move's duration from rest to rest (ruckig's, not the node's)."""
    bounds = InputParameter(2)
    bounds.current_position, bounds.target_position = list(start), list(goal)
    bounds.max_velocity = [limits['max_joint_velocity']] * 2
    bounds.max_acceleration = [limits['max_joint_acceleration']] * 2
    bounds.max_jerk = [limits['max_joint_jerk'] or math.inf] * 2
    trajectory = Trajectory(2)
    assert Ruckig(2).calculate(bounds, trajectory) == Result.Working
    return trajectory.duration


def moving_steps(positions):
    """Tell for each step between two samples whether the arm moved."""
    return np.abs(np.diff(positions, axis=0)).max(axis=1) > 0.0


def held_steps(positions):
    """Tell for each step between two samples whether the arm stood still between two moves."""
    steps = moving_steps(positions)
    held = np.zeros_like(steps)
    held[1:-1] = ~steps[1:-1] & steps[:-2] & steps[2:]
    return held


@pytest.mark.parametrize('controllers,output,jerk', [
    on('real', 'joint_trajectory', 0.0), on('real', 'joint_trajectory', 40.0),
    on('real', 'forward_command', 0.0)], indirect=['controllers'])
def test_moves_and_retargets_on_the_real_controllers(controlled_arm, output, jerk):
    limits = dict(LIMITS, max_joint_jerk=jerk)
    arm = controlled_arm(output, limits, arguments=['rviz:=false'])
    states = []
    if output == 'joint_trajectory':
        from control_msgs.msg import JointTrajectoryControllerState
        arm.probe.node.create_subscription(
            JointTrajectoryControllerState, f'{arm.namespace}/{arm.controller}/controller_state',
            states.append, 1000)
    arm.reach(*TARGETS[0], resend=NOT_MATCHED_YET)
    first = len(arm.probe.joint_states)
    sent = {'single moves': len(arm.commands)}
    durations = []
    for x, y in TARGETS[1:]:
        begin, before = len(arm.probe.joint_states) - 2, arm.measured()
        goal = arm.reach(x, y)
        took, lost = move_duration(
            *stamped_positions(arm.probe.joint_states[begin:]), before, goal)
        # less the cycles the node came late for (the stream held the arm there) and the time
        # controller_manager did not run for (idle 0; in CI beside two CPU-bound processes up
        # to 0.19 s of a 0.97 s move)
        durations.append((took - arm.stream_lateness() - lost, time_optimal(before, goal, limits),
                          lost))
    print(f'{output} max_joint_jerk={jerk}: single moves took '
          f'{[round(float(took / optimal), 4) for took, optimal, _ in durations]} of the '
          f'time-optimal move (+ up to {2 / UPDATE_RATE_HZ:.2f} s of sampling), less '
          f'{[round(lost, 3) for *_, lost in durations]} s controller_manager did not run')
    assert all(took <= 1.05 * optimal + 2 / UPDATE_RATE_HZ for took, optimal, _ in durations), \
        durations
    singles = stamped_positions(arm.probe.joint_states[first:])
    # retargeted mid-way: a second target while the arm moves to the first, once at full
    # speed (0.3 rad on) and once while it still speeds up (0.05 rad on: the new move starts
    # from a velocity and an acceleration)
    first = len(arm.probe.joint_states)
    sent['retargeted'] = len(arm.commands)
    for (x, y), after, (x2, y2) in RETARGETS:
        start = arm.measured()
        arm.probe.send(x, y, frame_id='')
        assert arm.probe.spin_until(
            lambda: max(abs(a - b) for a, b in zip(arm.measured(), start)) > after, 10.0)
        arm.wait_until_at(arm.command(x2, y2), tolerance=1e-9)
    retargeted = stamped_positions(arm.probe.joint_states[first:])
    # a path, timed by the node within the limits (from where the arm is: a move to its start)
    first = len(arm.probe.joint_states)
    sent['path'] = len(arm.commands)
    arm.send_path(PATH)
    last = TwoBoneIK(R1, R2).solve(*PATH[-1])
    arm.wait_until_at((last.theta1, last.theta2), timeout=30.0, tolerance=1e-9)
    path = stamped_positions(arm.probe.joint_states[first:])
    reported = {'single moves': singles, 'retargeted': retargeted, 'path': path}
    commanded = controller_states(states) if output == 'joint_trajectory' else None
    motions = {name: measured_motion(*motion, commanded) for name, motion in reported.items()}
    # a command that misses its cycle holds the arm for one and then doubles its step (the
    # node's commands before they followed the cycles: 6.8 % of moving cycles idle, 7-9 % beside
    # two CPU-bound processes; now 0 idle, 0.7-3.3 % busy, where controller_manager's executor, not
    # real-time, hands forward_command_controller some commands after their cycle although
    # the node published them 5 to 8 ms before it)
    if output == 'forward_command':  # told by the commands the arm stepped past
        indices = {name: command_indices(positions, arm.commands, sent[name] - 1)
                   for name, (_, positions) in motions.items()}
        lost = [late_steps(positions, indices[name]) for name, (_, positions) in motions.items()]
    else:
        lost = [held_steps(positions) for _, positions in motions.values()]
    held = sum(int(np.sum(steps)) for steps in lost)
    moved = sum(int(np.sum(moving_steps(positions))) for _, positions in motions.values())
    print(f'{output}: the arm stood still (a command late) on {held} of {moved} moving cycles')
    if output == 'forward_command':
        # controller_manager's lateness is its host's (in CI beside two CPU-bound processes,
        # 368 of 1016): what the node sent holds whatever it was, and the arm is judged below
        # on the cycles that took their command in time
        step, change = command_ratios(arm.commands[sent['single moves'] - 1:], limits,
                                      1.0 / UPDATE_RATE_HZ)
        print(f'{output}: between its commands, the largest step {step:.4f} of the velocity '
              f'limit times a period, the largest change of step {change:.4f} of the '
              'acceleration limit times a period squared')
        assert step <= 1.0 + ROUNDING and change <= 1.0 + ROUNDING, (step, change)
    else:  # the trajectory's time is the controller's: the arm never stands still mid-move
        assert held <= 0.05 * moved
    ends = dict(zip(sent, list(sent.values())[1:] + [len(arm.commands)]))
    checked, in_time = {}, {}
    for name, (times, positions) in motions.items():
        velocity, acceleration = worst_ratios(times, positions, limits)
        # the bars hold on what was measured, and nearly all of it was; the stand-stills
        # left out next are bounded above (beside two CPU-bound processes they took up to
        # 14 % of one part's samples, at 3 % of all moving cycles at most)
        assert np.mean(np.isfinite(times)) >= 0.9, f'{name}: too few samples with known times'
        checked[name] = velocity, acceleration
        if output == 'forward_command':
            times = took_in_time(times, positions, indices[name])
            checked[name] = worst_ratios(times, positions, limits)
            in_time[name] = judged(times)
        late = arm.lateness(sent[name], ends[name])
        print(f'{output} max_joint_jerk={jerk} {name}: worst |velocity| {velocity:.4f}, '
              f'|acceleration| {acceleration:.4f} of the limits'
              + ('; on the cycles that took their command in time {:.4f}, {:.4f}'.format(
                  *checked[name]) if output == 'forward_command' else '')
              + '; over the raw stamps {:.4f}, {:.4f}'.format(
                  *worst_ratios(*reported[name], limits))
              + (f'; trajectories reached the probe {1e3 * max(late):+.1f} ms after their '
                 'start at the latest' if late else '')
              # around the worst of what the bars are asserted on
              + (f'; {around_worst_acceleration(times, positions)}'
                 if checked[name][1] > 1.1 else ''))
    if in_time:  # the bars below hold on something: half a second of cycles at least
        print(f'{output}: velocities judged on the cycles that took their command in time: '
              f'{in_time}')
        assert sum(in_time.values()) >= 50, in_time
    # within the bars above, on the times each position was commanded for (``measured_motion``)
    assert all(velocity <= 1.02 + ROUNDING and acceleration <= 1.10 + ROUNDING
               for velocity, acceleration in checked.values()), checked
    assert arm.interrupt() == 0, arm.launch.output()
