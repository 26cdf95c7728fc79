#!/usr/bin/env python3
"""
A target's way to its controller: each controller output beside a C++ relay (the same message).

Targets stream in at 100 Hz and at 1 kHz (teleoperation, a tracked object),
each a retarget of the move under way: the arm this process plays follows
what it was commanded (the last trajectory, evaluated now; the last command
of the stream) and publishes its joint_states at 100 Hz, so the node plans
every move from the motion it commanded.  For each output the IK node
(``output:=<it>``) runs as a process of its own, and beside it a C++
rclcpp relay (``benchmarks/cpp_relay``, ``output:=<it>``) that solves each
target by the law of cosines and answers in the same message (a one-point
JointTrajectory; a Float64MultiArray; that trajectory as a goal of
rclcpp_action's client, its result asked for): the floor for a node that
answers in that message; and for the two topics the same relay in Python
(``benchmarks/py_relay.py``: the target's bytes, the law of cosines, one
reused message, on rclpy's EventsExecutor), the floor for a Python
node.  All get each target in the same millisecond.
The action's goals go to a minimal FollowJointTrajectory server per system
(``cpp_relay``'s ``goal_server``, rclcpp_action's, as joint_trajectory_controller's
is), which accepts each, succeeds it at once and publishes its trajectory
as it takes it: needs the C++ relay's build.

Per output, rate and system: p50 and p99 latency from the target's stamp
to its message, CPU time of the serving process per target, and the
targets lost and superseded, counted apart.  A trajectory (or a goal)
answers the target whose solution it ends at (the relay's: its stamp),
when it comes before that solution is sent again (the targets repeat every
997: at 1 kHz a target never answered took the answer to its next turn, a
second later, as its own), and a target with none of its own is
superseded when a newer target's came (the node passes over a target
that came while a goal was being accepted), lost when none did; a
stream answers with its next message: a target followed by another before
any message came is superseded (a stream sends one message per controller
cycle, so at 1 kHz most are), one that never gets any, lost.  Either way a
target DDS dropped on the way counts as superseded when a newer one was
answered: the IK nodes' account tells the two apart.  The IK
nodes' own account follows the table (``Accounts``, from their diagnostics):
every target they received became a move sent or passed over, which ended
reached, superseded or failed.  The line before the last puts the Python
floor against the C++ relay; the last is for scripts:

    trajectory_cpu_ratio=<node/C++ relay, joint_trajectory, 100 Hz>
    stream_cpu_ratio=<node/C++ relay, forward_command, 100 Hz>
    trajectory_floor_ratio=<node/Python relay, joint_trajectory, 100 Hz>
    stream_floor_ratio=<node/Python relay, forward_command, 100 Hz>
    action_topic_ratio=<node's follow_joint_trajectory/its joint_trajectory, 100 Hz>
    [py_st_cpu_ratio=<the Python floor on rclpy's SingleThreadedExecutor/on its EventsExecutor>
     st_cpu_ratio=<the node on rclpy's SingleThreadedExecutor/on its EventsExecutor>]
    [trajectory_before_ratio=<node/before> stream_before_ratio=<node/before>
     action_before_ratio=<node/before>]
    action_unaccounted=<follow_joint_trajectory at 1 kHz: targets the node
     received and neither sent nor passed over, plus moves failed>
    (on one line; the bracketed with --executors (joint_trajectory at 100 Hz)
    and --before (each output at 100 Hz))

The node and the Python floor run on their default executor (rclpy's
EventsExecutor where rclpy has it, ``ros.process.make_executor``);
``--executors`` adds both on rclpy's SingleThreadedExecutor (``node_st``,
``py_st``).
``--systems`` keeps only the systems it names.  ``--before DIR`` adds the node of another
checkout of the package (``before``: a change's base), so that a change is
measured before and after in one run.

Run ``scripts/bench bench_control [--rounds 3] [--write]`` (the venv; the C++
relay needs rclcpp: a ROS install).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import argparse
import bisect
import os
import random
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_node import (  # noqa: E402
    BEFORE, cpp_relay, cpu_seconds, node_environment, other_executors, system, wait_until)

OUTPUTS = ('joint_trajectory', 'forward_command', 'follow_joint_trajectory')
#: the outputs the Python relay answers in (the C++ one answers in every output)
PY_RELAYED = ('joint_trajectory', 'forward_command')
RATES = (100, 1000)
#: the Python floor: the relay's work in the least Python rclpy allows
PY_RELAY = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'py_relay.py')
JOINTS = ('shoulder_joint', 'elbow_joint')
STATE_RATE_HZ = 100.0
#: the node's limits: fast enough that a move is mostly under way when the next target comes
NODE_PARAMETERS = ('max_joint_velocity:=3.0', 'max_joint_acceleration:=20.0',
                   'arm_state_timeout:=3600.0', "robot_state_publisher:=''")


def start(kind, output, executable=None, before=''):
    """Start the IK node, the C++ relay or the Python one for ``output``, each in its namespace."""
    from twobone_ik_ros.tools.harness import RosProcess

    ros_args = ['-r', f'__ns:=/control_{kind}', '-p', f'output:={output}']
    if kind == 'cpp':
        return RosProcess([executable, '--ros-args', *ros_args])
    env = node_environment(before if kind == BEFORE else '')
    others = other_executors(('node', 'py'))
    if kind in others:  # on another executor than the default
        env['TWOBONE_IK_EXECUTOR'] = others[kind]
    if kind.startswith('py'):
        return RosProcess.python(script=PY_RELAY, ros_args=ros_args, env=env)
    return RosProcess.python('twobone_ik_ros.node.node', ros_args=ros_args + [
        argument for value in NODE_PARAMETERS for argument in ('-p', value)], env=env)


def stamp_ns(msg):
    """Return the message's header stamp in nanoseconds."""
    return msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec


class Arm:
    """
    The arm a system commands: follows its last trajectory or command, publishes its state.

    Records each message's arrival (system clock, ns) with what answers:
    the goal it ends at, or the stamp (the relay's trajectories), or the
    message itself (a stream).
    """

    def __init__(self, node, kind, output):
        """Subscribe to what ``kind`` publishes for ``output``; publish its joint_states."""
        from sensor_msgs.msg import JointState
        from std_msgs.msg import Float64MultiArray
        from trajectory_msgs.msg import JointTrajectory

        self.kind, self.output = kind, output
        #: the IK node (on any executor): its trajectories start later than their target's
        #: stamp, so they answer the target whose solution they end at
        self.node = kind.startswith('node') or kind == BEFORE
        prefix = f'/control_{kind}'
        self.lock = threading.Lock()
        self.arrivals = []  # (arrival ns, key)
        self._trajectory = None  # (start ns, [(seconds, positions)])
        self.position = (0.0, 0.0)
        self._state = JointState(name=list(JOINTS), position=[0.0, 0.0])
        self._states = node.create_publisher(JointState, f'{prefix}/joint_states', 10)
        self._node = node
        if output == 'forward_command':
            node.create_subscription(Float64MultiArray, f'{prefix}/commands', self._on_command,
                                     1000)
        elif output == 'joint_trajectory':
            node.create_subscription(JointTrajectory, f'{prefix}/joint_trajectory',
                                     self._on_trajectory, 1000)
        else:  # the goals the server took
            node.create_subscription(JointTrajectory, f'{prefix}/accepted', self._on_goal, 1000)
        node.create_timer(1.0 / STATE_RATE_HZ, self._publish_state)

    def _on_command(self, msg):
        now = time.time_ns()
        self.position = (msg.data[0], msg.data[1])
        with self.lock:
            self.arrivals.append((now, None))

    def _on_trajectory(self, msg):
        self.take(msg, time.time_ns(), stamp_ns(msg))

    def _on_goal(self, msg):
        self.take(msg, time.time_ns(), 0 if self.node else stamp_ns(msg))

    def take(self, trajectory, arrival, stamp_ns):
        """Follow ``trajectory`` (from its stamp, now for 0) and record what it answers."""
        points = [(p.time_from_start.sec + p.time_from_start.nanosec * 1e-9,
                   tuple(p.positions)) for p in trajectory.points]
        self._trajectory = (stamp_ns or arrival, points)
        key = points[-1][1] if self.node else stamp_ns
        with self.lock:
            self.arrivals.append((arrival, key))

    def _publish_state(self):
        if self._trajectory is not None:
            start, points = self._trajectory
            seconds = (time.time_ns() - start) / 1e9
            times = [t for t, _ in points]
            index = bisect.bisect_right(times, seconds)
            if index >= len(points):
                self.position = points[-1][1]
            elif index > 0:
                (t0, p0), (t1, p1) = points[index - 1], points[index]
                f = (seconds - t0) / (t1 - t0) if t1 > t0 else 1.0
                self.position = tuple(a + f * (b - a) for a, b in zip(p0, p1))
        self._state.header.stamp = self._node.get_clock().now().to_msg()
        self._state.position = list(self.position)
        self._states.publish(self._state)

    def clear(self):
        with self.lock:
            del self.arrivals[:]

    def motion_taken(self):
        with self.lock:
            return list(self.arrivals)


class Accounts:
    """
    The IK nodes' own account of the targets, from their diagnostics (``moves.*``).

    A node counts every target it received; each becomes a move, sent or
    passed over while a goal was being accepted (``moves.sent``), which
    ends reached, superseded or failed.  So a target neither answered nor
    superseded shows as received and not sent, or as failed.
    """

    def __init__(self, node):
        """Take every node's diagnostics on ``/diagnostics``, by its namespace (its kind)."""
        from diagnostic_msgs.msg import DiagnosticArray

        self.lock = threading.Lock()
        self.latest = {}  # kind -> (arrival ns, {key: value})
        node.create_subscription(DiagnosticArray, '/diagnostics', self._on_diagnostics, 100)

    def _on_diagnostics(self, msg):
        now = time.time_ns()
        for status in msg.status:
            namespace = status.name.split('/')[0]
            if status.hardware_id == 'twobone_ik' and namespace.startswith('control_'):
                with self.lock:
                    self.latest[namespace[len('control_'):]] = (
                        now, {value.key: value.value for value in status.values})

    def counts(self, kinds, after_ns, timeout=3.0):
        """Return each kind's (received, sent, reached, superseded, failed, lost) reported then."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not all(
                self.latest.get(kind, (0,))[0] > after_ns for kind in kinds):
            time.sleep(0.05)
        found = {}
        with self.lock:
            for kind in kinds:
                values = self.latest.get(kind, (0, {}))[1]
                number = lambda key: int(values.get(key, 0))  # noqa: E731
                failed = sum(int(value) for key, value in values.items()
                             if key.startswith('moves.failed.'))
                found[kind] = (number('received'), number('moves.sent'),
                               number('moves.reached'), number('moves.superseded'), failed,
                               number('lost'))
        return found


def goal_server(relay, kind):
    """Start the C++ FollowJointTrajectory server (``cpp_relay``'s) for ``kind``'s goals."""
    from twobone_ik_ros.tools.harness import RosProcess

    executable = os.path.join(os.path.dirname(relay), 'goal_server')
    return RosProcess([executable, '--ros-args', '-r', f'__ns:=/control_{kind}'])


def run(arms, servers, rate, count, points, solutions, accounts=None):
    """
    Send ``count`` targets at ``rate`` Hz to every system at once; return what came back.

    Per system: the latencies (ms) of the answered targets, the lost, the
    superseded and the CPU seconds of its process from the first target to
    the last answer (or 0.5 s after the last target, when some never came).
    With ``accounts``, the IK nodes' own account of the round too
    (``Accounts.counts``, differences over the round), as a second result.
    """
    from geometry_msgs.msg import PointStamped

    for arm in arms.values():
        arm.clear()
    kinds = list(arms)
    nodes = [kind for kind in kinds if arms[kind].node]
    before = accounts.counts(nodes, time.time_ns()) if accounts else {}
    cpu = {kind: cpu_seconds(servers[kind].pid) for kind in kinds}
    sent = []
    message = PointStamped()
    message.header.frame_id = 'base_link'
    start = time.perf_counter()
    for i in range(count):
        wait_until(start + i / rate)
        x, y = points[i % len(points)]
        message.point.x, message.point.y = x, y
        stamp = time.time_ns()
        message.header.stamp.sec, message.header.stamp.nanosec = divmod(stamp, 1_000_000_000)
        for kind in kinds[i % len(kinds):] + kinds[:i % len(kinds)]:
            arms[kind].publisher.publish(message)
        sent.append((stamp, solutions[i % len(points)]))
    time.sleep(0.5)  # the last answers
    cpu = {kind: cpu_seconds(servers[kind].pid) - cpu[kind] for kind in kinds}
    found = {kind: answers(arms[kind], sent) + (cpu[kind],) for kind in kinds}
    if not accounts:
        return found
    after = accounts.counts(nodes, time.time_ns())
    return found, {kind: tuple(b - a for a, b in zip(before[kind], after[kind]))
                   for kind in nodes}


def answers(arm, sent):
    """Return (latencies ms, lost, superseded) of the targets ``sent`` (stamp, solution)."""
    taken = arm.motion_taken()
    if arm.output == 'forward_command':  # the next message after each target
        arrivals = [at for at, _ in taken]
        latencies, lost, superseded = [], 0, 0
        for index, (stamp, _) in enumerate(sent):
            after = bisect.bisect_right(arrivals, stamp)
            if after >= len(arrivals):
                lost += 1
            elif index + 1 < len(sent) and arrivals[after] > sent[index + 1][0]:
                superseded += 1
            else:
                latencies.append((arrivals[after] - stamp) / 1e6)
        return latencies, lost, superseded
    by_key = {}  # each answer's arrivals, in order (a target's solution comes again later)
    for at, key in taken:
        by_key.setdefault(key, []).append(at)
    again = {}  # a target's solution sent again: an answer from then on is that target's
    until = [None] * len(sent)
    for index in range(len(sent) - 1, -1, -1):
        stamp, solution = sent[index]
        until[index] = again.get(solution)
        again[solution] = stamp
    answered = []  # each target's latency (ms), or None: no trajectory ended at it
    for (stamp, solution), end in zip(sent, until):
        arrivals = by_key.get(solution if arm.node else stamp, [])
        after = bisect.bisect_left(arrivals, stamp)
        if after < len(arrivals) and (end is None or arrivals[after] < end):
            answered.append((arrivals[after] - stamp) / 1e6)
        else:
            answered.append(None)
    lost, superseded, newer = 0, 0, False  # newer: a target after this one was answered
    for latency in reversed(answered):
        if latency is not None:
            newer = True
        elif newer:
            superseded += 1  # passed over for a newer target (a goal was being accepted)
        else:
            lost += 1
    return [latency for latency in answered if latency is not None], lost, superseded


def executors_line(ratio):
    """Return ``--executors``' ratios: SingleThreaded against the Events one (joint_trajectory)."""
    keys = (('py_st_cpu_ratio', 'py'), ('st_cpu_ratio', 'node'))
    return ''.join(f' {key}=' + ratio('joint_trajectory', system(role, 'rclpy'),
                                      system(role, 'events'))
                   for key, role in keys)


def main():
    from twobone_ik_ros.solver import TwoBoneIK
    from twobone_ik_ros.tools.harness import benchmark_options, percentile, results, spinning
    from twobone_ik_ros.tools.harness import wait_for

    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=3, help='rounds per output and rate')
    parser.add_argument('--seconds', type=float, default=3.0, help='of targets per round')
    parser.add_argument('--outputs', nargs='+', choices=OUTPUTS, default=OUTPUTS)
    parser.add_argument('--rates', nargs='+', type=int, choices=RATES, default=RATES,
                        help='target rates, Hz (the ratios are at 100)')
    parser.add_argument('--executors', action='store_true',
                        help="the node and the Python floor on rclpy's executors too")
    parser.add_argument('--systems', nargs='+', default=None,
                        help='only these of the systems (node, cpp, py, node_st, ...)')
    parser.add_argument('--before', metavar='DIR', default='',
                        help="another checkout's node beside this one (before)")
    options = benchmark_options(parser, lambda _: None)
    if options is None:
        return
    rng = random.Random(2026)
    points = [(rng.uniform(0.4, 1.2), rng.uniform(-0.8, 0.8)) for _ in range(997)]
    solver = TwoBoneIK(1.0, 0.7)
    solutions = [(r.theta1, r.theta2) for r in (solver.solve(x, y) for x, y in points)]
    executable, why_not = cpp_relay()
    table = []
    accounted = {}  # (output, rate, kind) -> the node's own counts over the rounds
    for output in options.outputs:
        if output == 'follow_joint_trajectory' and not executable:
            continue  # its server is the C++ relay's
        kinds = ('node',) + (('cpp',) if executable else ()) + \
            (('py',) if output in PY_RELAYED else ())
        if options.executors:  # the Python floor only where it relays
            kinds += tuple(kind for kind in other_executors(('node', 'py'))
                           if kind.startswith('node') or output in PY_RELAYED)
        if options.before:
            kinds += (BEFORE,)
        if options.systems:
            kinds = tuple(kind for kind in kinds if kind in options.systems)
        servers = {kind: start(kind, output, executable, options.before) for kind in kinds}
        goal_servers = [goal_server(executable, kind) for kind in kinds] \
            if output == 'follow_joint_trajectory' else []
        try:
            with spinning(f'bench_control_{output}') as node:
                from geometry_msgs.msg import PointStamped
                arms = {kind: Arm(node, kind, output) for kind in kinds}
                accounts = Accounts(node)
                for kind, arm in arms.items():
                    arm.publisher = node.create_publisher(
                        PointStamped, f'/control_{kind}/target', 10)
                wait_for(lambda: all(arm.publisher.get_subscription_count() for arm in
                                     arms.values()), 60, f'{output}: the systems did not come')
                time.sleep(1.0)  # the node hears the arm
                run(arms, servers, 100, 50, points, solutions)  # warm-up
                for rate in options.rates:
                    pooled = {kind: [[], 0, 0, 0.0] for kind in kinds}
                    count = int(rate * options.seconds)
                    for _ in range(options.rounds):
                        found, told = run(arms, servers, rate, count, points, solutions,
                                          accounts)
                        for kind, (latencies, lost, superseded, cpu) in found.items():
                            pooled[kind][0] += latencies
                            pooled[kind][1] += lost
                            pooled[kind][2] += superseded
                            pooled[kind][3] += cpu
                        for kind, counts in told.items():
                            own = accounted.setdefault((output, rate, kind), [0] * 6)
                            own[:] = [a + b for a, b in zip(own, counts)]
                    for kind, (latencies, lost, superseded, cpu) in pooled.items():
                        table.append((output, rate, kind, percentile(latencies, 0.5),
                                      percentile(latencies, 0.99), lost, superseded,
                                      cpu / (count * options.rounds) * 1e6))
        finally:
            for server in [*servers.values(), *goal_servers]:
                server.stop()
    with results('bench_control', options):
        if why_not:
            print(f'no C++ relay, and so no follow_joint_trajectory (its server): {why_not}')
        print(f'{options.rounds} rounds of {options.seconds:g} seconds of targets per output, '
              'rate and system; each target a retarget of the move under way')
        print(f'{"output":>24s} {"rate Hz":>7s} {"system":>7s} {"p50 ms":>7s} {"p99 ms":>7s} '
              f'{"lost":>5s} {"superseded":>10s} {"CPU us/target":>13s}')
        for output, rate, kind, p50, p99, lost, superseded, cpu in table:
            print(f'{output:>24s} {rate:7d} {kind:>7s} {p50:7.3f} {p99:7.3f} {lost:5d} '
                  f'{superseded:10d} {cpu:13.1f}')
        print("the IK nodes' own account (diagnostics), over the same rounds: targets "
              'received, moves sent (one per target: sent, or passed over while a goal was '
              'being accepted), reached, superseded, failed; and the targets it counted lost '
              'before it (a full queue, DDS)')
        for (output, rate, kind), (received, sent, reached, superseded, failed, lost) in \
                accounted.items():
            print(f'{output:>24s} {rate:7d} {kind:>7s} received {received} sent {sent} '
                  f'reached {reached} superseded {superseded} failed {failed} lost {lost}')
        cpu = {(output, rate, kind): value for output, rate, kind, *_, value in table}
        action = accounted.get(('follow_joint_trajectory', 1000, 'node'))

        def ratio(output, kind='node', against='cpp', against_output=None):
            measured = cpu.get((output, 100, kind))
            base = cpu.get((against_output or output, 100, against))
            return f'{measured / base:.3f}' if measured and base else 'none'
        floors = [f'{output} {ratio(output, "py")}' for output in PY_RELAYED
                  if (output, 100, 'py') in cpu]
        if floors:
            print('the Python floor (py) against the C++ relay, CPU per target at 100 Hz: '
                  + ', '.join(floors))
        print(f'trajectory_cpu_ratio={ratio("joint_trajectory")} '
              f'stream_cpu_ratio={ratio("forward_command")} '
              f'trajectory_floor_ratio={ratio("joint_trajectory", against="py")} '
              f'stream_floor_ratio={ratio("forward_command", against="py")} '
              'action_topic_ratio=' + ratio('follow_joint_trajectory', against='node',
                                            against_output='joint_trajectory')
              + (executors_line(ratio) if options.executors else '')
              + (f' trajectory_before_ratio={ratio("joint_trajectory", against=BEFORE)}'
                 f' stream_before_ratio={ratio("forward_command", against=BEFORE)}'
                 f' action_before_ratio={ratio("follow_joint_trajectory", against=BEFORE)}'
                 if options.before else '')
              + (f' action_unaccounted={action[0] - action[1] + action[4]}' if action else ''),
              flush=True)


if __name__ == '__main__':
    main()
