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
End-to-end latency target -> joint_states of the IK node, beside a bare relay.

Both run as processes of their own: the IK node, and a relay that turns each
PointStamped into a JointState with the same stamp and nothing else (the floor
for any rclpy node with these message types and the same QoS, depth 10).
This process publishes stamped targets at a fixed rate and records when each
answer arrives; rounds of relay and node alternate so that machine noise hits
both alike.  Reported: p50 and p99 latency, targets lost, and CPU time of the
serving process per target it received.  Rates: 1 kHz, then the highest rate
of a ladder at which the relay still loses under 1 %.  The last line is for
scripts:

    p50_ratio=<node / relay at 1 kHz> lost_node=<n> lost_relay=<n>

Run (with ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST and a ROS_DOMAIN_ID of its
own, as scripts/env.sh sets): python benchmarks/bench_node.py [--targets 2000]
"""

import argparse
import os
import signal
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
LADDER = (1500, 2000, 3000, 5000, 8000)


def relay_main():
    """Serve as the bare relay: PointStamped in, JointState out, same stamp."""
    import rclpy
    from geometry_msgs.msg import PointStamped
    from rclpy.executors import ExternalShutdownException
    from sensor_msgs.msg import JointState

    rclpy.init(args=sys.argv)
    node = rclpy.create_node('relay')
    pub = node.create_publisher(JointState, 'joint_states', 10)

    def relay(msg):
        out = JointState()
        out.header.stamp = msg.header.stamp
        out.name = ['shoulder_joint', 'elbow_joint']
        out.position = [msg.point.x, msg.point.y]
        pub.publish(out)

    node.create_subscription(PointStamped, 'target', relay, 10)
    try:
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


def cpu_seconds(pid):
    """User + system CPU time of a process so far, from /proc."""
    with open(f'/proc/{pid}/stat') as stat:
        fields = stat.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


class Server:
    """The relay or the IK node, in its own process and namespace."""

    def __init__(self, kind):
        """Start it; ``kind`` is 'relay' or 'node'."""
        self.kind = kind
        self.namespace = f'/bench_{kind}'
        command = [sys.executable] + (
            [os.path.abspath(__file__), '--serve-relay'] if kind == 'relay'
            else ['-m', 'twobone_ik_ros.node'])
        command += ['--ros-args', '-r', f'__ns:={self.namespace}']
        if kind == 'node':
            command += ['-p', 'r1:=1.0', '-p', 'r2:=0.7']
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))

    def stop(self):
        """Stop with SIGINT, as Ctrl-C would."""
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Client:
    """Publishes stamped targets to one server and times its answers."""

    def __init__(self, node, namespace):
        """Create the publisher and the subscription for ``namespace``."""
        from geometry_msgs.msg import PointStamped
        from sensor_msgs.msg import JointState

        self.node = node
        self.msg_type = PointStamped
        self.arrivals = {}
        self.lock = threading.Lock()
        self.pub = node.create_publisher(PointStamped, f'{namespace}/target', 10)
        node.create_subscription(JointState, f'{namespace}/joint_states', self._on_answer, 1000)

    def _on_answer(self, msg):
        now = time.time_ns()
        key = msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec
        with self.lock:
            self.arrivals[key] = now

    def ready(self):
        """Tell whether the server is subscribed and publishing."""
        return self.pub.get_subscription_count() > 0 and self.node.count_publishers(
            self.pub.topic_name.rsplit('/', 1)[0] + '/joint_states') > 0

    def run(self, rate, count, points):
        """Send ``count`` targets at ``rate`` Hz; return the latencies (ms) and lost."""
        with self.lock:
            self.arrivals.clear()
        sent = []
        period = 1.0 / rate
        start = time.perf_counter()
        for i in range(count):
            deadline = start + i * period
            while True:
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    break
                time.sleep(remaining if remaining > 0.0005 else 0)
            msg = self.msg_type()
            stamp = time.time_ns()
            msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(stamp, 1_000_000_000)
            msg.header.frame_id = 'base_link'
            msg.point.x, msg.point.y = points[i % len(points)]
            self.pub.publish(msg)
            sent.append(stamp)
        time.sleep(0.5)  # let the last answers arrive
        with self.lock:
            latencies = [(self.arrivals[s] - s) / 1e6 for s in sent if s in self.arrivals]
        return latencies, count - len(latencies)


def percentile(values, fraction):
    """Return the nearest-rank value at ``fraction`` (0 for an empty list)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def measure(clients, servers, rate, count, rounds, points):
    """Alternate rounds between the servers; pool latencies, losses and CPU."""
    results = {kind: {'latencies': [], 'lost': 0, 'cpu': 0.0, 'received': 0}
               for kind in clients}
    for _ in range(rounds):
        for kind, client in clients.items():
            pid = servers[kind].process.pid
            cpu = cpu_seconds(pid)
            latencies, lost = client.run(rate, count, points)
            result = results[kind]
            result['cpu'] += cpu_seconds(pid) - cpu
            result['latencies'] += latencies
            result['lost'] += lost
            result['received'] += len(latencies)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--targets', type=int, default=2000, help='targets per round')
    parser.add_argument('--rounds', type=int, default=2, help='rounds per system and rate')
    parser.add_argument('--serve-relay', action='store_true', help=argparse.SUPPRESS)
    options, _ = parser.parse_known_args()  # the relay also gets --ros-args
    if options.serve_relay:
        relay_main()
        return
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    os.environ.setdefault('ROS_DOMAIN_ID', str(1 + os.getpid() % 101))

    import random

    import rclpy
    from rclpy.executors import SingleThreadedExecutor

    rng = random.Random(1)
    points = [(rng.uniform(-1.8, 1.8), rng.uniform(-1.8, 1.8)) for _ in range(997)]
    servers = {kind: Server(kind) for kind in ('relay', 'node')}
    rclpy.init()
    node = rclpy.create_node('bench_client')
    clients = {kind: Client(node, servers[kind].namespace) for kind in servers}
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    spinner = threading.Thread(target=executor.spin, daemon=True)
    spinner.start()
    try:
        deadline = time.monotonic() + 30
        while not all(c.ready() for c in clients.values()):
            if time.monotonic() > deadline:
                raise SystemExit('servers did not come up')
            time.sleep(0.1)
        time.sleep(1.0)
        measure(clients, servers, 1000, 200, 1, points)  # warm-up
        table = [(1000, measure(clients, servers, 1000, options.targets, options.rounds,
                                points))]
        top = None
        for rate in LADDER:
            result = measure(clients, servers, rate, options.targets, 1, points)
            if result['relay']['lost'] > 0.01 * options.targets:
                break
            top = (rate, result)
        if top is not None:
            table.append((top[0], measure(clients, servers, top[0], options.targets,
                                          options.rounds, points)))
    finally:
        for server in servers.values():
            server.stop()
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown()

    print(f'{options.rounds} alternating rounds of {options.targets} targets per system and rate')
    print(f'{"rate Hz":>8s} {"system":>6s} {"p50 ms":>8s} {"p99 ms":>8s} {"lost":>6s} '
          f'{"CPU us/target":>14s}')
    for rate, results in table:
        for kind in ('relay', 'node'):
            r = results[kind]
            cpu = r['cpu'] / max(1, r['received']) * 1e6
            print(f'{rate:8d} {kind:>6s} {percentile(r["latencies"], 0.5):8.3f} '
                  f'{percentile(r["latencies"], 0.99):8.3f} {r["lost"]:6d} {cpu:14.1f}')
    at_1khz = table[0][1]
    ratio = percentile(at_1khz['node']['latencies'], 0.5) / percentile(
        at_1khz['relay']['latencies'], 0.5)
    print(f'p50_ratio={ratio:.3f} lost_node={at_1khz["node"]["lost"]} '
          f'lost_relay={at_1khz["relay"]["lost"]}')


if __name__ == '__main__':
    main()
