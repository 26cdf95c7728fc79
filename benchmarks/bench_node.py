#!/usr/bin/env python3
"""
End-to-end latency, loss and CPU of the IK node, beside a bare rclpy relay and a C++ one.

Each runs as a process of its own: the IK node; a relay that turns each
PointStamped into a JointState with the same stamp and nothing else (the
floor for any rclpy node with these message types, the same QoS, depth 10,
and rclpy's SingleThreadedExecutor, reading and writing message objects);
and, where rclcpp is installed (a ROS install), ``benchmarks/cpp_relay``: an rclcpp node that
solves each target by the law of cosines, built here with colcon the first
time (said and left out where rclcpp is not found).  This process
publishes stamped targets at a fixed rate and records when each answer
arrives.  At 1 kHz every target goes to every system in the same
millisecond (in an order that rotates), so that machine noise, which comes
in bursts longer than a round, hits all alike.  Reported per system and
rate: p50 and p99 latency, targets lost (sent and never answered), and CPU
time of the serving process per target it answered, from the first target
to the last answer.  Then, each alone, the highest rate of a ladder at
which it still loses under 1 %.  The node spins on its default executor
(rclpy's EventsExecutor where rclpy has it: ``ros.process.make_executor``);
``--executors`` adds it on the other one beside it (``node_st`` on rclpy's
SingleThreadedExecutor, where the EventsExecutor is the default).  ``--before DIR`` adds the node
of another checkout of the package (``before``: a change's base) beside it,
so that a change is measured before and after in one run.  The last line is
for scripts:

    p50_ratio=<node/relay at 1 kHz> cpu_ratio=<node/relay CPU per target>
    lost_node=<n> lost_relay=<n> cpp_ratio=<node/C++ relay CPU per target>
    [st_cpu_ratio=<the node on rclpy's SingleThreadedExecutor/on the EventsExecutor>]
    [before_cpu_ratio=<node/before CPU per target>]
    (on one line; cpp_ratio=none without rclcpp; the last two with --executors
    and --before)

Run ``scripts/bench bench_node`` (the venv; DDS on loopback in a domain of its own), or
``python benchmarks/bench_node.py [--targets 2000]`` in a ROS environment.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import argparse
import os
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
LADDER = (1000, 1500, 2000, 3000, 5000)
SYSTEMS = ('relay', 'node')
CPP = 'cpp'
#: the node of another checkout (``--before``)
BEFORE = 'before'
#: each executor (TWOBONE_IK_EXECUTOR) and the suffix of a system that runs on it
#: (``--executors``): the node and the Python floor run on their default executor as
#: ``node`` and ``py`` (ros.process.make_executor: rclpy's EventsExecutor where it is
#: there), and on the other one as ``node_<suffix>`` and ``py_<suffix>``
EXECUTOR_SUFFIXES = {'events': 'ev', 'rclpy': 'st'}


def has_events_executor():
    """Tell whether this rclpy has the EventsExecutor (Jazzy on)."""
    try:
        from rclpy.experimental import EventsExecutor  # noqa: F401
    except ImportError:
        return False
    return True


def system(role, kind):
    """Return the system that runs ``role`` (node, py) on the executor ``kind``."""
    default = 'events' if has_events_executor() else 'rclpy'
    return role if kind == default else f'{role}_{EXECUTOR_SUFFIXES[kind]}'


def other_executors(roles):
    """Return each system of ``roles`` on an executor other than the default, with it."""
    kinds = [kind for kind in EXECUTOR_SUFFIXES if kind != 'events' or has_events_executor()]
    return {system(role, kind): kind for role in roles for kind in kinds
            if system(role, kind) != role}


CPP_SOURCES = os.path.join(ROOT, 'benchmarks', 'cpp_relay')


def relay_main():
    """Serve as the bare relay: PointStamped in, JointState out, same stamp."""
    import rclpy
    from geometry_msgs.msg import PointStamped
    from sensor_msgs.msg import JointState
    from twobone_ik_ros.tools.harness import serve

    def make_relay():
        node = rclpy.create_node('relay')
        pub = node.create_publisher(JointState, 'joint_states', 10)
        out = JointState()
        out.name = ['shoulder_joint', 'elbow_joint']

        def relay(msg):
            out.header.stamp = msg.header.stamp
            out.position = [msg.point.x, msg.point.y]
            pub.publish(out)

        node.create_subscription(PointStamped, 'target', relay, 10)
        return node

    serve(make_relay)


def wait_until(deadline):
    """Sleep until ``time.perf_counter()`` reaches ``deadline`` (the last 0.5 ms spun)."""
    while True:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return
        time.sleep(remaining if remaining > 0.0005 else 0)


def cpu_seconds(pid):
    """Return the user + system CPU time of a process so far, from /proc."""
    with open(f'/proc/{pid}/stat') as stat:
        fields = stat.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def cpp_relay():
    """
    Return (the C++ relay's executable, None), or (None, why not).

    Built with colcon against the rclcpp found on the ament index, once per
    sources and rclcpp (a folder of this machine's cache).  On the PyPI
    wheels every rclcpp executable links the interpreter's libpython: the wheels' librcl
    loads message libraries that need Python's symbols.
    """
    import hashlib
    import shutil
    import subprocess
    import sysconfig

    from ament_index_python.packages import get_package_prefix, PackageNotFoundError
    import rclpy

    try:
        rclcpp = get_package_prefix('rclcpp')
    except PackageNotFoundError:
        return None, 'rclcpp is not installed (it comes with a ROS install)'
    digest = hashlib.sha256(rclcpp.encode())
    for name in sorted(os.listdir(CPP_SOURCES)) + ['src/' + n for n in sorted(
            os.listdir(os.path.join(CPP_SOURCES, 'src')))]:
        path = os.path.join(CPP_SOURCES, name)
        if os.path.isfile(path):
            digest.update(name.encode() + open(path, 'rb').read())
    cache = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    workspace = os.path.join(cache, 'twobone_ik_ros', f'bench_cpp_relay-{digest.hexdigest()[:16]}')
    executable = os.path.join(workspace, 'install', 'twobone_ik_cpp_relay', 'lib',
                              'twobone_ik_cpp_relay', 'relay')
    if os.path.exists(executable):
        return executable, None
    source = os.path.join(workspace, 'src', 'cpp_relay')
    shutil.rmtree(workspace, ignore_errors=True)
    shutil.copytree(CPP_SOURCES, source, ignore=shutil.ignore_patterns('COLCON_IGNORE'))
    flags = ['-DBUILD_TESTING=OFF', '-DCMAKE_BUILD_TYPE=Release',
             f'-DPython3_EXECUTABLE={sys.executable}']
    if not rclpy.__file__.startswith('/opt/ros/'):  # the PyPI wheels (see above)
        libpython = os.path.join(sysconfig.get_config_var('LIBDIR'),
                                 sysconfig.get_config_var('LDLIBRARY'))
        flags.append('-DCMAKE_EXE_LINKER_FLAGS=-Wl,--as-needed -Wl,--allow-shlib-undefined '
                     f'-Wl,--no-as-needed {libpython} -Wl,--as-needed')
    print(f'building the C++ relay into {workspace} (once)', file=sys.stderr, flush=True)
    built = subprocess.run([sys.executable, '-m', 'colcon', 'build', '--event-handlers',
                            'console_direct-', '--cmake-args', *flags],
                           cwd=workspace, capture_output=True, text=True)
    if built.returncode != 0 or not os.path.exists(executable):
        return None, f'the C++ relay did not build:\n{built.stdout[-2000:]}{built.stderr[-2000:]}'
    return executable, None


def node_environment(before=''):
    """Return the environment of a node process: the package of checkout ``before`` if given."""
    env = dict(os.environ)
    if before:
        env['PYTHONPATH'] = os.pathsep.join(
            [os.path.abspath(before)] + [p for p in [env.get('PYTHONPATH', '')] if p])
    return env


def start_server(kind, cpp_executable=None, executor='', before=''):
    """Start the relay, the IK node or the C++ relay in its own process and namespace."""
    from twobone_ik_ros.tools.harness import RosProcess

    ros_args = ['-r', f'__ns:=/bench_{kind}']
    arm = ['-p', 'r1:=1.0', '-p', 'r2:=0.7']
    if kind == 'relay':
        return RosProcess.python(script=os.path.abspath(__file__), args=['--serve'],
                                 ros_args=ros_args)
    if kind == CPP:
        return RosProcess([cpp_executable, '--ros-args', *ros_args, *arm])
    env = node_environment(before if kind == BEFORE else '')
    executor = other_executors(('node',)).get(kind, executor)
    if executor:
        env['TWOBONE_IK_EXECUTOR'] = executor
    return RosProcess.python('twobone_ik_ros.node.node', ros_args=ros_args + arm, env=env)


class Client:
    """Publishes stamped targets to one server and keeps when its answers came."""

    def __init__(self, node, kind):
        """Create the publisher and the subscription for the server ``kind``."""
        from geometry_msgs.msg import PointStamped
        from sensor_msgs.msg import JointState

        self.node = node
        self.msg = PointStamped()
        self.msg.header.frame_id = 'base_link'
        self.arrivals = {}
        self.lock = threading.Lock()
        self.pub = node.create_publisher(PointStamped, f'/bench_{kind}/target', 10)
        self.sub = node.create_subscription(JointState, f'/bench_{kind}/joint_states',
                                            self._on_answer, 1000)

    def _on_answer(self, msg):
        now = time.time_ns()
        key = msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec
        with self.lock:
            self.arrivals[key] = now

    def ready(self):
        """Tell whether the server is matched both ways."""
        from twobone_ik_ros.tools.harness import publisher_count
        return (self.pub.get_subscription_count() > 0
                and publisher_count(self.node, self.sub) > 0)

    def answered(self, stamps):
        """Tell whether the targets sent at ``stamps`` were all answered."""
        with self.lock:
            return all(stamp in self.arrivals for stamp in stamps)

    def latencies(self, stamps):
        """Return the latency (ms) of each answered target of ``stamps``."""
        with self.lock:
            return [(self.arrivals[s] - s) / 1e6 for s in stamps if s in self.arrivals]


def run(clients, servers, rate, count, points):
    """
    Send ``count`` targets at ``rate`` Hz to every client's server at once.

    Return per server: the latencies (ms), the lost and the CPU seconds.  The
    CPU time of each server process is taken from the first target until the
    last answers arrived (or 0.5 s after the last targets went out, when some
    never arrive), so idle time after the work is not charged to the targets.
    """
    kinds = list(clients)
    for client in clients.values():
        with client.lock:
            client.arrivals.clear()
    sent = {kind: [] for kind in kinds}
    cpu = {kind: cpu_seconds(servers[kind].pid) for kind in kinds}
    period = 1.0 / rate
    start = time.perf_counter()
    for i in range(count):
        wait_until(start + i * period)
        x, y = points[i % len(points)]
        for kind in kinds[i % len(kinds):] + kinds[:i % len(kinds)]:
            client = clients[kind]
            msg = client.msg
            stamp = time.time_ns()
            msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(stamp, 1_000_000_000)
            msg.point.x, msg.point.y = x, y
            client.pub.publish(msg)
            sent[kind].append(stamp)
    drain = time.monotonic() + 0.5
    while time.monotonic() < drain:  # let the last answers arrive
        if all(clients[kind].answered(sent[kind][-10:]) for kind in kinds):
            break
        time.sleep(0.001)
    cpu = {kind: cpu_seconds(servers[kind].pid) - cpu[kind] for kind in kinds}
    time.sleep(0.2)  # anything later still counts as answered, not as lost
    results = {}
    for kind in kinds:
        latencies = clients[kind].latencies(sent[kind])
        results[kind] = (latencies, count - len(latencies), cpu[kind])
    return results


def measure(clients, servers, rate, count, rounds, points, kinds=SYSTEMS):
    """Serve ``kinds`` together for ``rounds`` rounds; pool latencies, losses and CPU."""
    results = {kind: {'latencies': [], 'lost': 0, 'cpu': 0.0, 'received': 0} for kind in kinds}
    for _ in range(rounds):
        answers = run({kind: clients[kind] for kind in kinds}, servers, rate, count, points)
        for kind, (latencies, lost, cpu) in answers.items():
            result = results[kind]
            result['cpu'] += cpu
            result['latencies'] += latencies
            result['lost'] += lost
            result['received'] += len(latencies)
    return results


class Profile:
    """
    Where the node's CPU goes while the 1 kHz rounds run (``--profile DIR``).

    py-spy samples the node's Python threads while they run (not while they
    wait), and ``perf`` every thread of the process (Fast DDS's too), by
    thread and shared object.  Both sample at 199 Hz, which costs the node
    CPU itself: a profiled run's figures are not the benchmark's.  Each
    writes a table into DIR; a tool that is missing is said and left out.
    """

    def __init__(self, folder, pid):
        """Start sampling process ``pid``; the tables go into ``folder``."""
        import shutil
        import subprocess

        os.makedirs(folder, exist_ok=True)
        self.folder, self.processes, self.missing = folder, [], []
        py_spy = shutil.which('py-spy')
        if py_spy:
            self.processes.append(('py-spy', subprocess.Popen(
                [py_spy, 'record', '--pid', str(pid), '--rate', '199', '--format', 'raw',
                 '--output', os.path.join(folder, 'py-spy.raw')],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)))
        else:
            self.missing.append('py-spy (pip install py-spy)')
        perf = shutil.which('perf')
        if perf:
            self.processes.append(('perf', subprocess.Popen(
                [perf, 'record', '-F', '199', '-p', str(pid), '-o',
                 os.path.join(folder, 'perf.data')],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)))
        else:
            self.missing.append('perf (linux-perf)')

    def stop(self):
        """Stop sampling and write the tables; return the lines to print."""
        import signal
        import subprocess

        lines = [f'profile: no {tool}' for tool in self.missing]
        for tool, process in self.processes:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=60)
            if tool == 'py-spy':
                lines += self._py_spy_table()
            else:
                report = subprocess.run(
                    ['perf', 'report', '-i', os.path.join(self.folder, 'perf.data'), '--stdio',
                     '--sort', 'comm,dso', '--percent-limit', '1'], capture_output=True,
                    text=True)
                path = os.path.join(self.folder, 'perf-by-object.txt')
                with open(path, 'w') as table:
                    table.write(report.stdout)
                lines.append(f'profile: perf by shared object in {path}')
        return lines

    def _py_spy_table(self, top=25):
        """Turn py-spy's folded stacks into the functions' own and inclusive shares."""
        own, inclusive, total = {}, {}, 0
        with open(os.path.join(self.folder, 'py-spy.raw')) as raw:
            for line in raw:
                stack, _, count = line.rstrip().rpartition(' ')
                frames = [frame.split(' (')[0] for frame in stack.split(';')]
                samples = int(count)
                total += samples
                own[frames[-1]] = own.get(frames[-1], 0) + samples
                for frame in set(frames):
                    inclusive[frame] = inclusive.get(frame, 0) + samples
        path = os.path.join(self.folder, 'py-spy.txt')
        with open(path, 'w') as table:
            table.write(f"{total} samples of the node's threads; % own, % inclusive\n")
            for frame, samples in sorted(own.items(), key=lambda kv: -kv[1])[:top]:
                table.write(f'{100 * samples / total:6.1f} {100 * inclusive[frame] / total:6.1f}'
                            f'  {frame}\n')
        return [f'profile: py-spy per function in {path}']


def cpu_per_target(result):
    """Return the CPU microseconds per answered target."""
    return result['cpu'] / max(1, result['received']) * 1e6


def main():
    from twobone_ik_ros.tools.harness import (
        benchmark_options, percentile, results, spinning, wait_for)

    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--targets', type=int, default=2000, help='targets per round')
    parser.add_argument('--rounds', type=int, default=4, help='rounds at 1 kHz')
    parser.add_argument('--executor', choices=tuple(EXECUTOR_SUFFIXES), default='',
                        help="the node's executor (TWOBONE_IK_EXECUTOR); default: the node's own")
    parser.add_argument('--executors', action='store_true',
                        help='the node on the other executor too (node_st)')
    parser.add_argument('--profile', metavar='DIR', default='',
                        help='sample the node during the 1 kHz rounds (py-spy, perf) into DIR')
    parser.add_argument('--before', metavar='DIR', default='',
                        help="another checkout's node beside this one (before)")
    options = benchmark_options(parser, lambda _: relay_main())
    if options is None:
        return

    import random

    rng = random.Random(1)
    points = [(rng.uniform(-1.8, 1.8), rng.uniform(-1.8, 1.8)) for _ in range(997)]
    executable, why_not = cpp_relay()
    systems = SYSTEMS + ((CPP,) if executable else ()) + (
        tuple(other_executors(('node',))) if options.executors else ()) + (
        (BEFORE,) if options.before else ())
    servers = {kind: start_server(kind, executable, options.executor, options.before)
               for kind in systems}
    try:
        with spinning('bench_client') as node:
            clients = {kind: Client(node, kind) for kind in systems}
            wait_for(lambda: all(c.ready() for c in clients.values()), 60,
                     'servers did not come up')
            time.sleep(1.0)
            measure(clients, servers, 1000, 200, 1, points, systems)  # warm-up
            profile = Profile(options.profile, servers['node'].pid) if options.profile else None
            at_1khz = measure(clients, servers, 1000, options.targets, options.rounds, points,
                              systems)
            profiled = profile.stop() if profile else []
            sustained = {}
            for kind in systems:
                for rate in LADDER:
                    result = measure(clients, servers, rate, options.targets, 1, points,
                                     (kind,))
                    if result[kind]['lost'] >= 0.01 * options.targets:
                        break
                    sustained[kind] = (rate, result[kind])
    finally:
        for server in servers.values():
            server.stop()

    with results('bench_node', options):
        if why_not:
            print(f'no C++ relay: {why_not}')
        for line in profiled:
            print(line)
        print(f'{options.rounds} rounds of {options.targets} targets to every system at 1 kHz')
        print(f'{"rate Hz":>8s} {"system":>7s} {"p50 ms":>8s} {"p99 ms":>8s} {"lost":>6s} '
              f'{"CPU us/target":>14s}')
        for kind in systems:
            r = at_1khz[kind]
            print(f'{1000:8d} {kind:>7s} {percentile(r["latencies"], 0.5):8.3f} '
                  f'{percentile(r["latencies"], 0.99):8.3f} {r["lost"]:6d} '
                  f'{cpu_per_target(r):14.1f}')
        print(f'highest rate of {LADDER} with under 1 % of {options.targets} targets lost')
        for kind in systems:
            if kind in sustained:
                rate, r = sustained[kind]
                print(f'{rate:8d} {kind:>7s} {percentile(r["latencies"], 0.5):8.3f} '
                      f'{percentile(r["latencies"], 0.99):8.3f} {r["lost"]:6d} '
                      f'{cpu_per_target(r):14.1f}')
            else:
                print(f'{"none":>8s} {kind:>7s}')
        p50 = percentile(at_1khz['node']['latencies'], 0.5) / percentile(
            at_1khz['relay']['latencies'], 0.5)
        cpu = cpu_per_target(at_1khz['node']) / cpu_per_target(at_1khz['relay'])
        cpp = (f'{cpu_per_target(at_1khz["node"]) / cpu_per_target(at_1khz[CPP]):.3f}'
               if CPP in at_1khz else 'none')
        others = ''
        if options.executors and system('node', 'rclpy') in at_1khz:
            events = cpu_per_target(at_1khz[system('node', 'events')])
            others += (' st_cpu_ratio='
                       f'{cpu_per_target(at_1khz[system("node", "rclpy")]) / events:.3f}')
        if BEFORE in at_1khz:
            before = cpu_per_target(at_1khz['node']) / cpu_per_target(at_1khz[BEFORE])
            others += f' before_cpu_ratio={before:.3f}'
        print(f'p50_ratio={p50:.3f} cpu_ratio={cpu:.3f} lost_node={at_1khz["node"]["lost"]} '
              f'lost_relay={at_1khz["relay"]["lost"]} cpp_ratio={cpp}{others}', flush=True)


if __name__ == '__main__':
    main()
