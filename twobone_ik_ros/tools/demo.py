"""
The headless main job: the IK node following the demo targets, watched.

Starts ``twobone_ik_node`` and ``target_publisher`` as processes of their own,
listens to what they publish, prints a live summary once a second (targets,
solved, clamped, rejected, latency target -> joint_states), and finally
draws the arm from the published joint states and elbow points: an animated
GIF and a PNG strip.  No RViz, no display, no ROS install needed.  The last
line keeps two accounts apart: what the node says it did with the targets
(its diagnostics' counters, once they count every target sent) and which of
its answers the demo's own listener did not hear.

    python -m twobone_ik_ros.tools.demo --duration 12 --pattern figure_eight
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from twobone_ik_ros.model.parameter_table import DEFAULTS
from twobone_ik_ros.tools.harness import GraphClient, percentile, RosProcess

Stamp = Tuple[int, int]


def _stamp(msg: Any) -> Stamp:
    return (msg.header.stamp.sec, msg.header.stamp.nanosec)


class Recorder(GraphClient):
    """An rclpy node recording targets and the IK node's answers by stamp."""

    def __init__(self) -> None:
        """Subscribe to the demo's topics in a context of its own."""
        from diagnostic_msgs.msg import DiagnosticArray
        from geometry_msgs.msg import PointStamped
        from sensor_msgs.msg import JointState

        super().__init__('twobone_ik_demo_recorder')
        self.targets: Dict[Stamp, Tuple[float, float]] = {}
        self.order: List[Stamp] = []
        self.angles: Dict[Stamp, Tuple[float, float]] = {}
        self.elbows: Dict[Stamp, Tuple[float, float]] = {}
        self.latencies: List[float] = []
        self.counts: Dict[str, str] = {}
        self.node.create_subscription(PointStamped, 'target', self._on_target, 100)
        self.node.create_subscription(JointState, 'joint_states', self._on_joints, 100)
        self.node.create_subscription(PointStamped, 'elbow', self._on_elbow, 100)
        self.node.create_subscription(DiagnosticArray, '/diagnostics', self._on_diag, 10)

    def _on_target(self, msg: Any) -> None:
        key = _stamp(msg)
        self.targets[key] = (msg.point.x, msg.point.y)
        self.order.append(key)

    def _on_joints(self, msg: Any) -> None:
        now = self.node.get_clock().now().nanoseconds
        key = _stamp(msg)
        self.angles[key] = (msg.position[0], msg.position[1])
        self.latencies.append((now - (key[0] * 1_000_000_000 + key[1])) / 1e6)

    def _on_elbow(self, msg: Any) -> None:
        self.elbows[_stamp(msg)] = (msg.point.x, msg.point.y)

    def _on_diag(self, msg: Any) -> None:
        for status in msg.status:
            if status.name.endswith(': targets'):
                self.counts = {kv.key: kv.value for kv in status.values}

    def samples(self, r1: float) -> List[Any]:
        """
        Every target in arrival order, with the answer heard for it.

        An answer whose elbow point was not heard is drawn with the elbow
        its angles put at ``r1`` from the shoulder.
        """
        from twobone_ik_ros.tools.render import Sample

        result = []
        first = self.order[0] if self.order else (0, 0)
        for key in self.order:
            answer = self.angles.get(key)
            seconds = (key[0] - first[0]) + (key[1] - first[1]) * 1e-9
            if answer is not None:
                elbow = self.elbows.get(key) or (r1 * math.cos(answer[0]),
                                                 r1 * math.sin(answer[0]))
                result.append(Sample(self.targets[key], answer[0], answer[1], elbow, seconds))
            else:
                result.append(Sample(self.targets[key], time=seconds))
        return result

    def counted(self) -> int:
        """Return how many targets the node's last diagnostics say it received or lost."""
        return int(self.counts.get('received', 0)) + int(self.counts.get('lost', 0))

    def summary(self, elapsed: float) -> str:
        """One line: what was sent, what the node did, latency so far."""
        c = self.counts
        return (f't={elapsed:5.1f} s  targets={len(self.order):5d}  '
                f"solved={c.get('solved', '-'):>5}  clamped={c.get('clamped', '-'):>5}  "
                f"rejected={c.get('rejected', '-'):>5}  latency p50="
                f'{percentile(self.latencies, 0.5):.2f} ms '
                f'p99={percentile(self.latencies, 0.99):.2f} ms')


#: How long the demo waits, after the last target, for the node's counters to hold them all.
ACCOUNT_WAIT_S = 30.0


def run(duration: float, pattern: str, rate: float, r1: float, r2: float,
        unreachable: str, out_dir: str) -> int:
    """Run the demo; return 0 when the node answered and the pictures exist."""
    from twobone_ik_ros.tools.render import write_pictures

    os.makedirs(out_dir, exist_ok=True)
    node = RosProcess.python('twobone_ik_ros.node.node', [
        '-p', f'r1:={r1}', '-p', f'r2:={r2}', '-p', f'unreachable:={unreachable}',
        '-p', 'elbow:=closest'])
    recorder = Recorder()
    recorder.spin_for(2.0)  # let discovery settle before the first target
    source = RosProcess.python('twobone_ik_ros.tools.target_publisher', [
        '-p', f'pattern:={pattern}', '-p', f'rate:={rate}', '-p', f'r1:={r1}', '-p', f'r2:={r2}',
        '-p', f'count:={int(duration * rate)}',
        '-p', 'min_subscribers:=2'])  # the node and this recorder
    print(f'twobone_ik demo: r1={r1} r2={r2} pattern={pattern} rate={rate:g} Hz '
          f'unreachable={unreachable} for {duration:g} s '
          f"(ROS_DOMAIN_ID={os.environ.get('ROS_DOMAIN_ID')})", flush=True)
    start = time.monotonic()
    sent = int(duration * rate)
    try:
        while time.monotonic() - start < duration + 1.5:
            recorder.spin_for(1.0)
            print(recorder.summary(time.monotonic() - start), flush=True)
        # the node's account, once its counters have every target the source sent: on a busy
        # host its once-a-second diagnostics came 5 s after the last target still 4 short
        deadline = time.monotonic() + ACCOUNT_WAIT_S
        while recorder.counted() < sent and time.monotonic() < deadline:
            recorder.spin_for(0.2)
    finally:
        source.stop()
        node_code = node.stop()
        samples = recorder.samples(r1)
        recorder.close()
    gif = os.path.join(out_dir, 'demo.gif')
    png = os.path.join(out_dir, 'demo.png')
    heard = sum(1 for s in samples if s.answered)
    if not heard:
        print('twobone_ik demo: the node answered no target', file=sys.stderr)
        return 1
    write_pictures(samples, r1, r2, gif, png, pattern=pattern)
    print(f'twobone_ik demo: {account(recorder.counts, sent, heard)}; node exit code {node_code}; '
          f'wrote {gif} and {png}')
    return 0 if node_code == 0 else 1


def account(counts: Dict[str, str], sent: int, heard: int) -> str:
    """
    Say what became of the ``sent`` targets: the node's counters, then what the demo heard.

    The node answers each target it solved or clamped; ``heard`` is how many
    of those answers the demo's listener got (it can miss some on a busy
    machine: the answers were sent all the same).
    """
    number = {key: int(counts.get(key, 0)) for key in
              ('received', 'solved', 'clamped', 'rejected', 'lost')}
    answered = number['solved'] + number['clamped']
    unheard = answered - heard
    return (f"{sent} targets sent; the node: {number['received']} received = "
            f"{number['solved']} solved + {number['clamped']} clamped + "
            f"{number['rejected']} rejected, {number['lost']} lost on the way"
            + (f", {sent - number['received'] - number['lost']} not counted"
               if number['received'] + number['lost'] < sent else '')
            + f'; the demo heard {heard} of its {answered} answers'
            + (f' ({unheard} not heard by the demo)' if unheard > 0 else ''))


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Parse arguments and run the demo (see --help)."""
    from twobone_ik_ros.tools.target_patterns import PATTERNS

    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--duration', type=float, default=12.0, help='seconds of targets')
    parser.add_argument('--pattern', choices=sorted(PATTERNS), default='figure_eight')
    parser.add_argument('--rate', type=float, default=25.0, help='targets per second')
    parser.add_argument('--r1', type=float, default=DEFAULTS['r1'])
    parser.add_argument('--r2', type=float, default=DEFAULTS['r2'])
    parser.add_argument('--unreachable', choices=['clamp', 'reject'], default='clamp')
    parser.add_argument('--out', default='doc', help='folder for demo.gif and demo.png')
    options = parser.parse_args(argv)
    # a demo stays on this machine unless the caller says otherwise
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    os.environ.setdefault('ROS_DOMAIN_ID', str(1 + os.getpid() % 101))
    sys.exit(run(options.duration, options.pattern, options.rate, options.r1, options.r2,
                 options.unreachable, options.out))


if __name__ == '__main__':
    main()
