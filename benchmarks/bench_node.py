#!/usr/bin/env python3
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
End-to-end latency, loss and CPU of the IK node, beside a bare relay.

Both run as processes of their own: the IK node, and a relay that turns each
PointStamped into a JointState with the same stamp and nothing else (the floor
for any rclpy node with these message types, the same QoS, depth 10, and the
same executor, reading and writing message objects).  This process publishes
stamped targets at a fixed rate and records when each answer arrives.  At
1 kHz every target goes to both, in the same millisecond (which one first
alternates), so that machine noise, which comes in bursts longer than a
round, hits both alike.  Reported per system and rate: p50 and p99 latency,
targets lost (sent and never answered), and CPU time of the serving process
per target it answered, from the first target to the last answer.  Then,
each alone, the highest rate of a ladder at which it still loses under 1 %.
The last line is for scripts:

    p50_ratio=<node/relay at 1 kHz> cpu_ratio=<node/relay CPU per target>
    lost_node=<n> lost_relay=<n>      (on one line)

Run (scripts/env.sh sets ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST and a
ROS_DOMAIN_ID of its own): python benchmarks/bench_node.py [--targets 2000]
"""

import argparse
import os
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
LADDER = (1000, 1500, 2000, 3000, 5000)
SYSTEMS = ('relay', 'node')


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


def cpu_seconds(pid):
    """Return the user + system CPU time of a process so far, from /proc."""
    with open(f'/proc/{pid}/stat') as stat:
        fields = stat.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def start_server(kind):
    """Start the relay or the IK node in its own process and namespace."""
    from twobone_ik_ros.tools.harness import RosProcess

    ros_args = ['-r', f'__ns:=/bench_{kind}']
    if kind == 'relay':
        return RosProcess.python(script=os.path.abspath(__file__), args=['--serve'],
                                 ros_args=ros_args)
    return RosProcess.python('twobone_ik_ros.node.node',
                             ros_args=ros_args + ['-p', 'r1:=1.0', '-p', 'r2:=0.7'])


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
        return self.pub.get_subscription_count() > 0 and self.sub.get_publisher_count() > 0

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
        deadline = start + i * period
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                break
            time.sleep(remaining if remaining > 0.0005 else 0)
        x, y = points[i % len(points)]
        for kind in (kinds if i % 2 else kinds[::-1]):
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


def cpu_per_target(result):
    """Return the CPU microseconds per answered target."""
    return result['cpu'] / max(1, result['received']) * 1e6


def main():
    from twobone_ik_ros.tools.harness import benchmark_options, percentile, spinning, wait_for

    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--targets', type=int, default=2000, help='targets per round')
    parser.add_argument('--rounds', type=int, default=4, help='rounds at 1 kHz')
    options = benchmark_options(parser, lambda _: relay_main())
    if options is None:
        return

    import random

    rng = random.Random(1)
    points = [(rng.uniform(-1.8, 1.8), rng.uniform(-1.8, 1.8)) for _ in range(997)]
    servers = {kind: start_server(kind) for kind in SYSTEMS}
    try:
        with spinning('bench_client') as node:
            clients = {kind: Client(node, kind) for kind in SYSTEMS}
            wait_for(lambda: all(c.ready() for c in clients.values()), 60,
                     'servers did not come up')
            time.sleep(1.0)
            measure(clients, servers, 1000, 200, 1, points)  # warm-up
            at_1khz = measure(clients, servers, 1000, options.targets, options.rounds, points)
            sustained = {}
            for kind in SYSTEMS:
                for rate in LADDER:
                    result = measure(clients, servers, rate, options.targets, 1, points,
                                     (kind,))
                    if result[kind]['lost'] >= 0.01 * options.targets:
                        break
                    sustained[kind] = (rate, result[kind])
    finally:
        for server in servers.values():
            server.stop()

    print(f'{options.rounds} rounds of {options.targets} targets to both systems at 1 kHz')
    print(f'{"rate Hz":>8s} {"system":>6s} {"p50 ms":>8s} {"p99 ms":>8s} {"lost":>6s} '
          f'{"CPU us/target":>14s}')
    for kind in SYSTEMS:
        r = at_1khz[kind]
        print(f'{1000:8d} {kind:>6s} {percentile(r["latencies"], 0.5):8.3f} '
              f'{percentile(r["latencies"], 0.99):8.3f} {r["lost"]:6d} {cpu_per_target(r):14.1f}')
    print(f'highest rate of {LADDER} with under 1 % of {options.targets} targets lost')
    for kind in SYSTEMS:
        if kind in sustained:
            rate, r = sustained[kind]
            print(f'{rate:8d} {kind:>6s} {percentile(r["latencies"], 0.5):8.3f} '
                  f'{percentile(r["latencies"], 0.99):8.3f} {r["lost"]:6d} '
                  f'{cpu_per_target(r):14.1f}')
        else:
            print(f'{"none":>8s} {kind:>6s}')
    p50 = percentile(at_1khz['node']['latencies'], 0.5) / percentile(
        at_1khz['relay']['latencies'], 0.5)
    cpu = cpu_per_target(at_1khz['node']) / cpu_per_target(at_1khz['relay'])
    print(f'p50_ratio={p50:.3f} cpu_ratio={cpu:.3f} lost_node={at_1khz["node"]["lost"]} '
          f'lost_relay={at_1khz["relay"]["lost"]}', flush=True)


if __name__ == '__main__':
    main()
