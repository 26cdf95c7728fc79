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
A 10 000-pose Path in, one JointTrajectory out: the IK node against the floor.

Both run as processes of their own.  The floor subscribes to the same
nav_msgs/Path and answers with the same JointTrajectory, built by the same
builder (``commands.joint_trajectory``) from angles and times it computed
before the run: what is left is receiving the path, building the message and
transport, which any node answering a path with a trajectory pays.  The IK
node (``output:=joint_trajectory``) also reads the poses, solves them in one
batch call, makes them continuous and times them.  This process publishes
the path and times the answer, end to end; rounds of floor and node
alternate so that machine noise hits both alike.  The last line is for
scripts:

    path_ratio=<node p50 / floor p50>

Run (scripts/env.sh sets ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST and a
ROS_DOMAIN_ID of its own): python benchmarks/bench_path.py [--poses 10000]
"""

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
    from twobone_ik_ros.commands import joint_trajectory
    from twobone_ik_ros.harness import serve
    from twobone_ik_ros.motion import plan_path
    from twobone_ik_ros.parameters import DEFAULTS
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
    from twobone_ik_ros.harness import RosProcess

    ros_args = ['-r', f'__ns:=/bench_path_{kind}']
    if kind == 'floor':
        return RosProcess.python(script=os.path.abspath(__file__),
                                 args=['--serve', '--poses', str(count)],
                                 ros_args=ros_args)
    return RosProcess.python('twobone_ik_ros.node', ros_args=ros_args + [
        '-p', f'r1:={R1}', '-p', f'r2:={R2}', '-p', 'output:=joint_trajectory'])


class Client:
    """Publishes the path to one server and times the trajectory that answers it."""

    def __init__(self, node, kind):
        """Create the publisher and the subscription for the server ``kind``."""
        from nav_msgs.msg import Path
        from trajectory_msgs.msg import JointTrajectory

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
        return self.pub.get_subscription_count() > 0 and self.sub.get_publisher_count() > 0

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


def main():
    from twobone_ik_ros.harness import benchmark_options, percentile, spinning, wait_for

    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--poses', type=int, default=10000, help='poses in the path')
    parser.add_argument('--rounds', type=int, default=10, help='rounds per system')
    options = benchmark_options(parser, lambda o: floor_main(o.poses))
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
    finally:
        for server in servers.values():
            server.stop()

    print(f'{options.rounds} alternating rounds per system: a {options.poses}-pose Path in, '
          'one JointTrajectory out, end to end')
    print(f'{"system":>6s} {"p50 ms":>8s} {"min ms":>8s} {"max ms":>8s}')
    for kind in SYSTEMS:
        ms = [t * 1e3 for t in times[kind]]
        print(f'{kind:>6s} {percentile(ms, 0.5):8.1f} {min(ms):8.1f} {max(ms):8.1f}')
    ratio = percentile(times['node'], 0.5) / percentile(times['floor'], 0.5)
    print(f'path_ratio={ratio:.3f}', flush=True)


if __name__ == '__main__':
    main()
