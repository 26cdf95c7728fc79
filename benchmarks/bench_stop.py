#!/usr/bin/env python3
"""
A stop under load: the package's ``run_node`` against rclpy's own way, the ros2/demos shape.

Each round starts the IK node and the demo target source at 2 kHz, lets the
stream run a random 0 to 0.2 s past its first 200 answers, and sends SIGINT
(or SIGTERM) to both, as a terminal's Ctrl-C does.  The node runs either as
the package runs it (``ros.process.run_node``: the signal only sets a flag,
the executor leaves between callbacks) or as ros2/demos' nodes run
(``rclpy.init()`` with rclpy's own signal handlers, ``rclpy.spin``,
``except (KeyboardInterrupt, ExternalShutdownException)``), on the
EventsExecutor the node spins on (``rclpy``) and on rclpy's
SingleThreadedExecutor (``rclpy_st``), rounds interleaved.  Per way: how
many stops ended with exit code 0 and no traceback (one that does not exit
within ``STOP_WAIT_S`` counts as hung).
The last line is for scripts:

    package_clean=<n>/<rounds> rclpy_clean=<n>/<rounds> rclpy_st_clean=<n>/<rounds>

Run: scripts/bench bench_stop [--rounds 10] [--signal INT|TERM] [--write]
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
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: the package's run_node; rclpy.spin on the EventsExecutor the node spins on; rclpy.spin on
#: rclpy's SingleThreadedExecutor
WAYS = ('package', 'rclpy', 'rclpy_st')
#: how long a stopped node may take to exit before it counts as hung (ros2 launch waits 5 s
#: before its SIGTERM, then 5 s more before SIGKILL)
STOP_WAIT_S = 15.0
#: the executor the rclpy way spins on (``ros.process.EXECUTORS``), for its child process
EXECUTOR = 'BENCH_STOP_EXECUTOR'


def rclpy_way():
    """Run the IK node as ros2/demos runs a node: rclpy's signal handlers, rclpy.spin."""
    import rclpy
    from rclpy.executors import ExternalShutdownException
    from twobone_ik_ros.node.node import TwoBoneIKNode
    from twobone_ik_ros.ros.process import make_executor

    node = None
    try:
        rclpy.init()
        node = TwoBoneIKNode()
        rclpy.spin(node, executor=make_executor(node, os.environ.get(EXECUTOR, 'default')))
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()


def stop_once(way, number, round_index):
    """Start the node the ``way`` says and a 2 kHz source; stop both; return (code, clean)."""
    from twobone_ik_ros.tools.harness import GraphClient, log_path, RosProcess

    namespace = f'/bench_stop_{way}_{round_index}_{os.getpid()}'
    ros_args = ['-r', f'__ns:={namespace}', '-p', 'r1:=1.0', '-p', 'r2:=0.7']
    if way == 'package':
        node = RosProcess.python('twobone_ik_ros.node.node', ros_args=ros_args,
                                 log_path=log_path('bench_stop_node'))
    else:
        env = dict(os.environ, **{EXECUTOR: 'rclpy' if way == 'rclpy_st' else 'default'})
        node = RosProcess.python(script=os.path.abspath(__file__), args=['--rclpy-way'],
                                 ros_args=ros_args, log_path=log_path('bench_stop_node'),
                                 env=env)
    source = RosProcess.python('twobone_ik_ros.tools.target_publisher', ros_args=[
        '-r', f'__ns:={namespace}', '-p', 'pattern:=circle', '-p', 'rate:=2000.0'])
    listener = GraphClient('bench_stop_listener')
    answers = []
    from sensor_msgs.msg import JointState
    listener.node.create_subscription(JointState, f'{namespace}/joint_states', answers.append,
                                      100)
    try:
        listener.spin_until(lambda: len(answers) > 200, 60.0)
        listener.spin_for(random.uniform(0.0, 0.2))
        for process in (source, node):
            process.process.send_signal(number)
        try:
            code = node.process.wait(timeout=STOP_WAIT_S)
        except subprocess.TimeoutExpired:  # it did not stop: counted, then ended
            node.process.kill()
            node.process.wait()
            code = 'hung'

    finally:
        listener.close()
        source.stop()
        node.stop()
    return code, code == 0 and 'Traceback' not in node.output()


def main():
    from twobone_ik_ros.tools.harness import benchmark_options, results

    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=10, help='stops per way')
    parser.add_argument('--signal', choices=('INT', 'TERM'), default='INT')
    parser.add_argument('--rclpy-way', action='store_true', help=argparse.SUPPRESS)
    options = benchmark_options(parser, lambda options: None)
    if options is None:
        return
    if options.rclpy_way:
        rclpy_way()
        return
    number = signal.SIGINT if options.signal == 'INT' else signal.SIGTERM
    random.seed(3)
    codes = {way: [] for way in WAYS}
    clean = dict.fromkeys(WAYS, 0)
    with results('bench_stop', options):
        for round_index in range(options.rounds):
            for way in WAYS[round_index % len(WAYS):] + WAYS[:round_index % len(WAYS)]:
                code, ok = stop_once(way, number, round_index)
                codes[way].append(code)
                clean[way] += ok
                time.sleep(0.5)
        print(f'{options.rounds} stops per way with SIG{options.signal}, a 2 kHz target stream '
              'running, rounds interleaved')
        print('    way  clean  exit codes')
        for way in WAYS:
            print(f'{way:>7s} {clean[way]:3d}/{options.rounds:<3d} {codes[way]}')
        print(' '.join(f'{way}_clean={clean[way]}/{options.rounds}' for way in WAYS))


if __name__ == '__main__':
    main()
