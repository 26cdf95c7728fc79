#!/usr/bin/env python3
"""
Why the node takes no ``message_lost`` event on Fast DDS: a flood, with it and without it.

A subscriber (best effort, depth 1, the executor the node spins on) is
flooded by a publisher as fast as it can publish, each in a process of its
own, for ``--seconds``; rounds interleave a subscriber that takes the
middleware's ``message_lost`` event and one that does not (the baseline: the
node on Fast DDS).  A thread of the subscriber prints its counts every half
second; it needs the GIL, so a process stuck with the GIL held prints
nothing more.  A round has stalled when nothing came for 5 s: the process
is then ended (SIGKILL: it hears no signal).  On rmw_fastrtps before
ros2/rmw_fastrtps#890 the executor's ``take_event`` and Fast DDS's receive
thread can each hold the lock the other waits for (``ros.qos_events``).

Reported per variant: the rounds, how many stalled and after how many
seconds, messages and lost events taken.  The last line is for scripts:

    message_lost_stalls=<rounds stalled with the event> baseline_stalls=<without> rounds=<n>

Run: scripts/bench bench_message_lost [--rounds 3] [--seconds 120] [--write]
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
import queue
import subprocess
import sys
import threading
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from twobone_ik_ros.tools.harness import result_options, results  # noqa: E402

RELIABILITY_PAGE = os.path.join(ROOT, 'doc', 'reliability.md')
#: seconds without a line from the subscriber that make a stall
STALL_S = 5.0
VARIANTS = {'baseline: no message_lost event': False, 'message_lost event taken': True}


def flood_qos() -> Any:
    """Return the QoS of both ends of the flood: best effort, depth 1 (most samples lost)."""
    from rclpy.qos import QoSProfile, ReliabilityPolicy

    return QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT)


def subscriber(topic: str, event: bool) -> None:
    """Take the flood on ``topic`` (with the ``message_lost`` event if ``event``); print counts."""
    import rclpy
    from std_msgs.msg import Int64
    from twobone_ik_ros.ros.process import make_executor
    from twobone_ik_ros.ros.qos_events import QUIET_SUBSCRIPTION, SubscriptionEventCallbacks

    rclpy.init()
    node = rclpy.create_node('bench_message_lost_subscriber')
    counts = {'messages': 0, 'lost': 0}

    def on_message(message: Int64) -> None:
        counts['messages'] += 1

    def on_lost(info: object) -> None:
        counts['lost'] += 1

    node.create_subscription(
        Int64, topic, on_message, flood_qos(),
        event_callbacks=SubscriptionEventCallbacks(message_lost=on_lost) if event
        else QUIET_SUBSCRIPTION)

    def report() -> None:
        while True:
            time.sleep(0.5)
            print(counts['messages'], counts['lost'], flush=True)
    threading.Thread(target=report, daemon=True).start()
    executor = make_executor(node)
    while True:
        executor.spin_once(timeout_sec=0.5)


def publisher(topic: str) -> None:
    """Publish on ``topic`` as fast as rclpy can, until killed."""
    import rclpy
    from std_msgs.msg import Int64

    rclpy.init()
    node = rclpy.create_node('bench_message_lost_publisher')
    pub = node.create_publisher(Int64, topic, flood_qos())
    message = Int64()
    while True:
        message.data += 1
        pub.publish(message)


def one_round(topic: str, event: bool, seconds: float) -> dict:
    """Flood a subscriber for ``seconds``; return when it stalled (or None) and its counts."""
    me = [sys.executable, os.path.abspath(__file__)]
    sub = subprocess.Popen(me + ['--child', 'subscriber', '--topic', topic]
                           + (['--event'] if event else []),
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines: 'queue.Queue[str]' = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in sub.stdout], daemon=True).start()
    try:
        lines.get(timeout=30.0)  # the subscriber is up
    except queue.Empty:
        sub.kill()
        raise SystemExit('bench_message_lost: the subscriber did not start')
    pub = subprocess.Popen(me + ['--child', 'publisher', '--topic', topic],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    start = time.monotonic()
    last, stalled = '0 0', None
    try:
        while time.monotonic() - start < seconds:
            try:
                last = lines.get(timeout=STALL_S)
            except queue.Empty:
                stalled = time.monotonic() - start - STALL_S
                break
    finally:
        for process in (pub, sub):
            process.kill()
            process.wait()
    messages, lost = (int(n) for n in last.split())
    return {'stalled': stalled, 'messages': messages, 'lost': lost,
            'seconds': stalled if stalled is not None else seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--seconds', type=float, default=120.0)
    parser.add_argument('--child', choices=('subscriber', 'publisher'), help=argparse.SUPPRESS)
    parser.add_argument('--topic', default='/bench_message_lost', help=argparse.SUPPRESS)
    parser.add_argument('--event', action='store_true', help=argparse.SUPPRESS)
    result_options(parser, RELIABILITY_PAGE)
    options = parser.parse_args()
    if options.child == 'subscriber':
        return subscriber(options.topic, options.event)
    if options.child == 'publisher':
        return publisher(options.topic)
    from rclpy.utilities import get_rmw_implementation_identifier

    rounds = {name: [] for name in VARIANTS}
    for index in range(options.rounds):
        for name, event in VARIANTS.items():
            rounds[name].append(one_round(f'/bench_message_lost_{os.getpid()}_{index}_{event:d}',
                                          event, options.seconds))
    with results('bench_message_lost', options, RELIABILITY_PAGE):
        print(f'{get_rmw_implementation_identifier()}, {options.rounds} interleaved rounds of '
              f'up to {options.seconds:g} s of flood; a stall: no report for {STALL_S:g} s')
        print(f'  {"variant":34s} {"stalled":>8s} {"after (s)":>16s} {"messages/s":>11s} '
              f'{"lost events/s":>14s}')
        for name, runs in rounds.items():
            after = ' '.join(f'{run["stalled"]:.0f}' for run in runs if run['stalled'] is not None)
            seconds = sum(run['seconds'] for run in runs)
            print(f'  {name:34s} {sum(run["stalled"] is not None for run in runs):>3d} of '
                  f'{len(runs):<2d} {after or "-":>16s} '
                  f'{sum(run["messages"] for run in runs) / seconds:11.0f} '
                  f'{sum(run["lost"] for run in runs) / seconds:14.1f}')
        baseline, taken = (sum(run['stalled'] is not None for run in runs)
                           for runs in rounds.values())  # in VARIANTS' order
        print(f'message_lost_stalls={taken} baseline_stalls={baseline} rounds={options.rounds}')


if __name__ == '__main__':
    main()
