#!/usr/bin/env python3
"""
What SROS2 costs the node: bench_node without security and with it, interleaved.

bench_node runs its IK node, its bare rclpy relay and its client as
processes of their own; here it runs again and again, one run plain and
the next with ``ROS_SECURITY_ENABLE=true``, ``ROS_SECURITY_STRATEGY=Enforce``
and every one of its processes in one enclave of a keystore made for the
run (``ros2 security``; SROS2's default permissions: authentication,
encryption and access control checked, nothing refused).  Interleaved, so
that machine noise hits both alike.  Reported per mode: the node's and
the relay's p50 and p99 latency at 1 kHz, targets lost, and CPU per target;
then the secure run over the plain one.  The last line is for scripts:

    security_cpu_ratio=<node's CPU per target, secure/plain>
    security_p50_ratio=<node's p50 latency, secure/plain> (one line)

Needs a middleware with its security plugins and sros2 (the Humble lane's
Cyclone DDS: ``ROS_DISTRO=humble scripts/bench bench_security``); refused in
one line, exit 2, where ``ros2 security`` is missing.
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
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
BENCH_NODE = os.path.join(ROOT, 'benchmarks', 'bench_node.py')
MODES = ('plain', 'secure')
ENCLAVE = '/bench'


def rows(output):
    """Return bench_node's 1 kHz rows: system -> (p50 ms, p99 ms, lost, CPU us per target)."""
    found = {}
    table = output.split(' at 1 kHz\n', 1)[1].split('highest rate')[0]
    for line in table.splitlines()[1:]:
        words = line.split()
        if len(words) == 6 and words[0] == '1000':
            found[words[1]] = (float(words[2]), float(words[3]), int(words[4]), float(words[5]))
    return found


def run(mode, keystore, targets):
    """Run bench_node once in ``mode``; return its rows."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith('ROS_SECURITY_')}
    if mode == 'secure':
        env.update(ROS_SECURITY_ENABLE='true', ROS_SECURITY_STRATEGY='Enforce',
                   ROS_SECURITY_KEYSTORE=keystore, ROS_SECURITY_ENCLAVE_OVERRIDE=ENCLAVE)
    done = subprocess.run([sys.executable, BENCH_NODE, '--targets', str(targets), '--rounds', '2'],
                          env=env, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0 or ' at 1 kHz\n' not in done.stdout:
        sys.exit(f'bench_security: bench_node ({mode}) failed:\n{done.stdout}\n{done.stderr}')
    return rows(done.stdout)


def main():
    from twobone_ik_ros.tools.harness import result_options, results
    from twobone_ik_ros.tools.keystore import ros2_security

    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--targets', type=int, default=1000, help="bench_node's targets per round")
    parser.add_argument('--pairs', type=int, default=2, help='plain and secure runs, interleaved')
    result_options(parser)
    options = parser.parse_args()
    ros2 = ros2_security('bench_security')
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    os.environ.setdefault('ROS_LOCALHOST_ONLY', '1')
    os.environ.setdefault('ROS_DOMAIN_ID', str(1 + os.getpid() % 101))
    measured = {mode: [] for mode in MODES}
    with tempfile.TemporaryDirectory() as folder:
        keystore = os.path.join(folder, 'keystore')
        for command in (['create_keystore', keystore], ['create_enclave', keystore, ENCLAVE]):
            subprocess.run([ros2, 'security', *command], check=True, capture_output=True)
        for _ in range(options.pairs):
            for mode in MODES:
                measured[mode].append(run(mode, keystore, options.targets))

    def median(mode, system, column):
        return statistics.median(r[system][column] for r in measured[mode])

    with results('bench_security', options):
        print(f'bench_node --targets {options.targets} --rounds 2, {options.pairs} runs per mode '
              'interleaved, medians at 1 kHz')
        print(f'{"mode":>7s} {"system":>6s} {"p50 ms":>8s} {"p99 ms":>8s} {"lost":>6s} '
              f'{"CPU us/target":>14s}')
        for mode in MODES:
            for system in ('relay', 'node'):
                print(f'{mode:>7s} {system:>6s} {median(mode, system, 0):8.3f} '
                      f'{median(mode, system, 1):8.3f} {median(mode, system, 2):6.0f} '
                      f'{median(mode, system, 3):14.1f}')
        cpu = median('secure', 'node', 3) / median('plain', 'node', 3)
        p50 = median('secure', 'node', 0) / median('plain', 'node', 0)
        print(f'security_cpu_ratio={cpu:.3f} security_p50_ratio={p50:.3f}', flush=True)


if __name__ == '__main__':
    main()
