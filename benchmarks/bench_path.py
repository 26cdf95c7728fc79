#!/usr/bin/env python3
"""
A 10 000-pose Path in, one JointTrajectory out: the IK node against the floor.

Both run as processes of their own.  The floor subscribes to the same
nav_msgs/Path and answers with the same JointTrajectory, built by the same
builder (``trajectory_message.joint_trajectory``) from angles and times it computed
before the run: what is left is receiving the path, building the message and
transport, which any node answering a path with a trajectory pays.  The IK
node (``output:=joint_trajectory``) also reads the poses, solves them in one
batch call, makes them continuous and times them (the node reads the path
and writes the trajectory as bytes, ``wire_path``; the floor is what rclpy's
message objects cost).  This process publishes the path and times the
answer, end to end; rounds of floor and node alternate so that machine noise
hits both alike.

Then a big path: targets sent alone and right after a 200 000-pose Path,
alternating, timed until the node's answer to the target: how long a big
path holds up what comes behind it (``big_path_delay_s``, the worst round).
The last line is for scripts:

    path_ratio=<node p50 / floor p50>

Run (scripts/env.sh sets ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST and a
ROS_DOMAIN_ID of its own):
python benchmarks/bench_path.py [--poses 10000] [--big-poses 200000]
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import argparse
import math
import os
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
SYSTEMS = ('floor', 'node')
R1, R2 = 1.0, 0.7


def path_points(count):
    """Return the benchmark path: ``count`` poses on a circle inside the workspace."""
    return [(1.0 + 0.4 * math.cos(2.0 * math.pi * i / count),
             0.3 + 0.4 * math.sin(2.0 * math.pi * i / count)) for i in range(count)]


def floor_main(count):
    """Serve as the floor: Path in, the precomputed JointTrajectory out."""
    import rclpy
    from nav_msgs.msg import Path
    from trajectory_msgs.msg import JointTrajectory
    from twobone_ik_ros.outputs.trajectory_message import joint_trajectory
    from twobone_ik_ros.tools.harness import serve
    from twobone_ik_ros.motion.joint_paths import plan_path
    from twobone_ik_ros.model.parameter_table import DEFAULTS
    from twobone_ik_ros.solver import TwoBoneIK

    planned = plan_path(TwoBoneIK(R1, R2), path_points(count), None, None,
                        DEFAULTS['max_joint_velocity'], DEFAULTS['min_move_time'])
    names = DEFAULTS['joint_names']

    def make_floor():
        node = rclpy.create_node('floor')
        pub = node.create_publisher(JointTrajectory, 'joint_trajectory', 10)
        node.create_subscription(Path, 'path', lambda msg: pub.publish(
            joint_trajectory(names, planned.positions, planned.times_ns)), 10)
        return node

    serve(make_floor)


def start_server(kind, count):
    """Start the floor or the IK node in its own process and namespace."""
    from twobone_ik_ros.tools.harness import RosProcess

    ros_args = ['-r', f'__ns:=/bench_path_{kind}']
    if kind == 'floor':
        return RosProcess.python(script=os.path.abspath(__file__),
                                 args=['--serve', '--poses', str(count)],
                                 ros_args=ros_args)
    return RosProcess.python('twobone_ik_ros.node.node', ros_args=ros_args + [
        '-p', f'r1:={R1}', '-p', f'r2:={R2}', '-p', 'output:=joint_trajectory'])


class Client:
    """Publishes the path to one server and times the trajectory that answers it."""

    def __init__(self, node, kind):
        """Create the publisher and the subscription for the server ``kind``."""
        from nav_msgs.msg import Path
        from trajectory_msgs.msg import JointTrajectory

        self.node = node
        self.pub = node.create_publisher(Path, f'/bench_path_{kind}/path', 10)
        self.sub = node.create_subscription(
            JointTrajectory, f'/bench_path_{kind}/joint_trajectory', self._on_answer, 10)
        self.answered = threading.Event()
        self.answer = None

    def _on_answer(self, msg):
        self.answer = msg
        self.answered.set()

    def ready(self):
        """Tell whether the server is matched both ways."""
        from twobone_ik_ros.tools.harness import publisher_count
        return (self.pub.get_subscription_count() > 0
                and publisher_count(self.node, self.sub) > 0)

    def round_trip(self, msg, timeout=60.0):
        """Publish ``msg``; return the seconds until the answer arrived."""
        self.answered.clear()
        start = time.perf_counter()
        self.pub.publish(msg)
        if not self.answered.wait(timeout):
            raise SystemExit('no answer within 60 s')
        return time.perf_counter() - start


def build_path(count):
    from geometry_msgs.msg import PoseStamped
    from nav_msgs.msg import Path

    msg = Path()
    msg.header.frame_id = 'base_link'
    for x, y in path_points(count):
        pose = PoseStamped()
        pose.header.frame_id = 'base_link'
        pose.pose.position.x, pose.pose.position.y = x, y
        pose.pose.orientation.w = 1.0
        msg.poses.append(pose)
    return msg


def big_path_delays(node, poses, rounds):
    """
    Time targets sent alone and right after a ``poses``-pose Path, until the node answers.

    The path goes out serialised beforehand (so what is timed starts when it
    is on its way) and the answers are taken as bytes: only the one-point
    trajectory that answers the target is looked for.
    """
    from geometry_msgs.msg import PointStamped
    from nav_msgs.msg import Path
    from rclpy.serialization import serialize_message
    from trajectory_msgs.msg import JointTrajectory

    answers, path_answers = [], []
    answered, path_answered = threading.Event(), threading.Event()

    def on_answer(raw):
        if len(raw) < 1000:  # one point: the target's answer
            answers.append(time.perf_counter())
            answered.set()
        else:
            path_answers.append(time.perf_counter())
            path_answered.set()

    node.create_subscription(JointTrajectory, '/bench_path_node/joint_trajectory', on_answer,
                             10, raw=True)
    paths = node.create_publisher(Path, '/bench_path_node/path', 10)
    targets = node.create_publisher(PointStamped, '/bench_path_node/target', 10)
    time.sleep(1.0)
    big = serialize_message(build_path(poses))
    delays = {'alone': [], 'after_path': [], 'path_itself': []}
    for i in range(2 * rounds):
        kind = 'after_path' if i % 2 else 'alone'
        answered.clear()
        path_answered.clear()
        if kind == 'after_path':
            sent = time.perf_counter()
            paths.publish(big)
        target = PointStamped()
        target.point.x, target.point.y = 1.2, 0.1 * (i % 5)
        start = time.perf_counter()
        targets.publish(target)
        if not answered.wait(60.0):
            raise SystemExit(f'no answer to a target ({kind}) within 60 s')
        delays[kind].append(answers[-1] - start)
        if kind == 'after_path':
            if not path_answered.wait(60.0):
                raise SystemExit('no answer to the big path within 60 s')
            delays['path_itself'].append(path_answers[-1] - sent)
        time.sleep(0.5)
    return delays


def big_path_client(poses, rounds):
    """
    Run ``big_path_delays`` in a client process of its own; return its delays.

    Its own process, because this one's executor deserialises every answer
    of the node into messages (200 000 points would hold it for seconds), and
    because a client that took the big answers did not stop here: its
    executor's wait was not woken for the stop (rclpy 9.1.2, Fast DDS 3.2 of
    the Kilted wheels; not pursued), so the child leaves with ``os._exit``.
    """
    import json
    import subprocess

    child = subprocess.run(
        [sys.executable, os.path.abspath(__file__), '--big-client', str(poses), str(rounds)],
        capture_output=True, text=True, timeout=120 + 60 * rounds, check=True)
    return json.loads(child.stdout.splitlines()[-1])


def big_client_main(poses, rounds):
    """Serve as the client process of ``big_path_client``: print the delays as JSON, leave."""
    import json

    import threading

    import rclpy

    rclpy.init()
    node = rclpy.create_node('bench_path_big_client')
    threading.Thread(target=rclpy.spin, args=(node,), daemon=True).start()
    print(json.dumps(big_path_delays(node, poses, rounds)), flush=True)
    os._exit(0)


def main():
    from twobone_ik_ros.tools.harness import (
        benchmark_options, percentile, results, spinning, wait_for)

    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--poses', type=int, default=10000, help='poses in the path')
    parser.add_argument('--rounds', type=int, default=10, help='rounds per system')
    parser.add_argument('--big-poses', type=int, default=200_000,
                        help='poses of the big path a target is sent after (0: skip)')
    parser.add_argument('--big-rounds', type=int, default=3, help='rounds of the big path')
    parser.add_argument('--big-client', type=int, nargs=2, help=argparse.SUPPRESS)
    options = benchmark_options(parser, lambda o: floor_main(o.poses))
    if options is not None and options.big_client:
        big_client_main(*options.big_client)
        return
    if options is None:
        return

    from twobone_ik_ros.solver import forward

    servers = {kind: start_server(kind, options.poses) for kind in SYSTEMS}
    times = {kind: [] for kind in SYSTEMS}
    try:
        with spinning('bench_path_client') as node:
            clients = {kind: Client(node, kind) for kind in SYSTEMS}
            wait_for(lambda: all(c.ready() for c in clients.values()), 60,
                     'servers did not come up')
            time.sleep(1.0)
            path = build_path(options.poses)
            for kind in SYSTEMS:  # warm-up, and the answers are checked once
                clients[kind].round_trip(path)
                answer = clients[kind].answer
                assert len(answer.points) == options.poses, \
                    f'{kind}: {len(answer.points)} points'
                worst = max(math.dist(forward(R1, R2, *p.positions)[1], xy)
                            for p, xy in zip(answer.points, path_points(options.poses)))
                assert worst <= 1e-9, f'{kind} misses a pose by {worst}'
            for _ in range(options.rounds):
                for kind in SYSTEMS:
                    times[kind].append(clients[kind].round_trip(path))
            if options.big_poses:
                delays = big_path_client(options.big_poses, options.big_rounds)
    finally:
        for server in servers.values():
            server.stop()

    with results('bench_path', options):
        print(f'{options.rounds} alternating rounds per system: a {options.poses}-pose Path in, '
              'one JointTrajectory out, end to end')
        print(f'{"system":>6s} {"p50 ms":>8s} {"min ms":>8s} {"max ms":>8s}')
        for kind in SYSTEMS:
            ms = [t * 1e3 for t in times[kind]]
            print(f'{kind:>6s} {percentile(ms, 0.5):8.1f} {min(ms):8.1f} {max(ms):8.1f}')
        if options.big_poses:
            print(f'a target sent right after a {options.big_poses}-pose Path, against one sent '
                  f'alone ({options.big_rounds} rounds each), until its trajectory came back; '
                  'and the path until its own')
            print(f'{"target":>12s} {"p50 ms":>8s} {"min ms":>8s} {"max ms":>8s}')
            for kind, seconds in delays.items():
                ms = [t * 1e3 for t in seconds]
                print(f'{kind:>12s} {percentile(ms, 0.5):8.1f} {min(ms):8.1f} {max(ms):8.1f}')
            print(f'big_path_delay_s={max(delays["after_path"]):.3f}')
        ratio = percentile(times['node'], 0.5) / percentile(times['floor'], 0.5)
        print(f'path_ratio={ratio:.3f}', flush=True)


if __name__ == '__main__':
    main()
