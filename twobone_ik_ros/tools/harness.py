"""
Running ROS processes and listening to them: shared by the demo, the benchmarks and the tests.

``RosProcess`` starts an executable (a module of this package, a script,
``ros2 launch``) in a process of its own with SIGINT restored, so it stops on
Ctrl-C as it would in a terminal, even when this process was started with
SIGINT ignored (a non-interactive shell's ``cmd &``).  ``GraphClient`` is an
rclpy node in a context of its own that the caller spins explicitly.
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
from contextlib import contextmanager, redirect_stdout
import gc
import io
import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any, Callable, Dict, IO, Iterator, List, Optional, Sequence


def _restore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class RosProcess:
    """A child process, its output in a file (or discarded), stopped as Ctrl-C would."""

    def __init__(self, command: Sequence[str], log_path: Optional[str] = None,
                 env: Optional[Dict[str, str]] = None, group: bool = False) -> None:
        """
        Start ``command``; its output goes to ``log_path`` (None: discarded).

        ``group``: in a session (and process group) of its own, which ``signal_group``
        signals whole, as a terminal's Ctrl-C signals its foreground job.
        """
        self.log_path = log_path
        self._log: Optional[IO[str]] = open(log_path, 'w+') if log_path else None
        sink: Any = self._log if self._log is not None else subprocess.DEVNULL
        self.process = subprocess.Popen(list(command), stdout=sink, stderr=subprocess.STDOUT,
                                        preexec_fn=_restore_sigint, env=env,
                                        start_new_session=group)

    @classmethod
    def python(cls, module: str = '', ros_args: Sequence[str] = (), args: Sequence[str] = (),
               script: str = '', **kwargs: Any) -> 'RosProcess':
        """Run ``python -m module`` (or ``python script``) with ``--ros-args ros_args``."""
        command = [sys.executable, *([script] if script else ['-m', module]), *args]
        if ros_args:
            command += ['--ros-args', *ros_args]
        return cls(command, **kwargs)

    @property
    def pid(self) -> int:
        """Return the process id."""
        return self.process.pid

    def output(self) -> str:
        """Return everything the process printed so far ('' when discarded)."""
        if self._log is None or self.log_path is None:
            return ''
        if not self._log.closed:  # stopped: all of it is in the file already
            self._log.flush()
        with open(self.log_path) as log:
            return log.read()

    def wait(self, timeout: float = 30.0) -> int:
        """Wait for the exit code."""
        return self.process.wait(timeout=timeout)

    def interrupt(self, timeout: float = 30.0) -> int:
        """Send SIGINT, as Ctrl-C does, and return the exit code."""
        self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout=timeout)

    def signal_group(self, number: int, timeout: float = 30.0) -> int:
        """Send signal ``number`` to the process's group (made with ``group``); return its code."""
        os.killpg(self.process.pid, number)
        return self.process.wait(timeout=timeout)

    def stop(self, timeout: float = 15.0) -> int:
        """End the process whatever its state (SIGINT, then SIGKILL); return the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
        code = self.process.wait()
        if self._log is not None:
            self._log.close()
        return code


def shut_down(context: Any = None) -> None:
    """
    Shut ``context`` down (the default one if None) and free its DDS participant now.

    rclpy frees a context's participant when the last object that holds it
    goes, and its nodes, executors and action clients hold each other in
    cycles that only the garbage collector breaks, when it runs: in one test
    process the participants of the contexts before piled up, and new ones
    met only one way, then not at all (doc/testing.md, "Four rules of the
    harness").
    """
    import rclpy

    rclpy.try_shutdown(context=context)
    gc.collect()


class GraphClient:
    """
    An rclpy node in a context of its own, spun by its caller (not by a thread).

    Close it before ending a process it talks to abruptly (SIGKILL, ``os._exit``):
    Fast DDS can crash the process that closes its shared-memory port after a
    peer died while writing into it (``SharedMemChannelResource::release``;
    doc/testing.md, "Four rules of the harness").
    """

    def __init__(self, name: str) -> None:
        """Create the node; the caller adds subscriptions to ``self.node``."""
        import rclpy
        from rclpy.executors import SingleThreadedExecutor

        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        self.node = rclpy.create_node(name, context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)

    def spin_until(self, condition: Callable[[], Any], timeout: float = 10.0) -> bool:
        """Process callbacks until ``condition()`` holds; return whether it did."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                return False
            self.executor.spin_once(timeout_sec=0.01)
        return True

    def spin_for(self, seconds: float) -> None:
        """Process callbacks for a while."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.executor.spin_once(timeout_sec=0.01)

    def close(self) -> None:
        """Destroy the node and its context (once; closing again does nothing)."""
        if not self.context.ok():
            return
        self.executor.shutdown()
        self.node.destroy_node()
        shut_down(self.context)


def publisher_count(node: Any, subscription: Any) -> int:
    """
    Return how many publishers ``subscription`` (of ``node``) is matched with.

    ``Subscription.get_publisher_count`` came with Iron; on Humble the
    graph's count of the topic's publishers stands in for it.
    """
    count = getattr(subscription, 'get_publisher_count', None)
    if count is not None:
        return int(count())
    return int(node.count_publishers(subscription.topic_name))


def benchmark_options(parser: argparse.ArgumentParser,
                      serve_instead: Callable[[argparse.Namespace], None]
                      ) -> Optional[argparse.Namespace]:
    """
    Parse a benchmark's options, or run its baseline server (``--serve``) and return None.

    A benchmark starts its baseline as ``python <benchmark> --serve ... --ros-args ...``;
    the measuring process keeps its DDS traffic on loopback in a domain of its own
    (the servers inherit both).
    """
    parser.add_argument('--serve', action='store_true', help=argparse.SUPPRESS)
    result_options(parser)
    options, _ = parser.parse_known_args()  # a server also gets --ros-args
    if options.serve:
        serve_instead(options)
        return None
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    os.environ.setdefault('ROS_DOMAIN_ID', str(1 + os.getpid() % 101))
    return options


def serve(make_node: Callable[[], Any]) -> None:
    """
    Run the node ``make_node()`` builds until SIGINT or SIGTERM, then stop in order.

    What a benchmark's server and a test's stand-in process do: the same
    ``process.run_node`` as the package's executables, with this process's
    ``--ros-args``.
    """
    from twobone_ik_ros.ros.process import run_node

    run_node(make_node, args=sys.argv)


@contextmanager
def spinning(name: str) -> Iterator[Any]:
    """
    Yield a node (default context) that rclpy's executor spins in a thread while the block runs.

    On the way out the executor is shut down and its thread joined before
    the node is destroyed: destroying it under a spinning executor ends the
    process with ``terminate called without an active exception``.
    """
    import rclpy
    from rclpy.executors import SingleThreadedExecutor

    rclpy.init()
    node = rclpy.create_node(name)
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    thread = threading.Thread(target=executor.spin, name='spinner', daemon=True)
    thread.start()
    try:
        yield node
    finally:
        executor.shutdown()
        thread.join()
        node.destroy_node()
        shut_down()


def wait_for(condition: Callable[[], Any], timeout: float, failure: str) -> None:
    """Poll ``condition`` (another thread spins) until it holds; SystemExit(failure) if not."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(failure)
        time.sleep(0.1)


#: Where the benchmarks write their tables (``results``), each in a block of its own.
PERFORMANCE_PAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), 'doc', 'performance.md')
#: ... and bench_ci, CI's times, beside the lanes they measure.
TESTING_PAGE = os.path.join(os.path.dirname(PERFORMANCE_PAGE), 'testing.md')


def result_options(parser: argparse.ArgumentParser, page: str = PERFORMANCE_PAGE) -> None:
    """Add the options of a benchmark's results: ``--write`` and ``--note``."""
    parser.add_argument('--write', action='store_true',
                        help=f'also write the table into doc/{os.path.basename(page)} '
                        '(its own block)')
    parser.add_argument('--note', default='',
                        help='said with the table, such as what else the machine was doing')


class _Tee(io.TextIOBase):
    """Write to the terminal and keep a copy."""

    def __init__(self, terminal: IO[str]) -> None:
        self.terminal = terminal
        self.copy = io.StringIO()

    def write(self, text: str) -> int:
        self.copy.write(text)
        return self.terminal.write(text)

    def flush(self) -> None:
        self.terminal.flush()


@contextmanager
def results(name: str, options: argparse.Namespace,
            page: str = PERFORMANCE_PAGE) -> Iterator[None]:
    """
    Print a benchmark's table; with ``--write``, put it in its block of ``page``.

    The block (between ``<!-- name -->`` and ``<!-- /name -->``) gets the
    table with the date, the ROS distribution, the CPU, the load and the
    command that reproduces it: each figure in one place, written by what
    measured it.
    """
    tee = _Tee(sys.stdout)
    with redirect_stdout(tee):
        yield
    if not options.write:
        return
    arguments = [a for a in sys.argv[1:] if a != '--write']
    with open('/proc/loadavg') as load:
        load_average = load.read().split()[0]
    with open('/proc/cpuinfo') as info:
        cpu = next((line.split(':', 1)[1].strip() for line in info
                    if line.startswith('model name')), 'an unknown CPU')
    block = (f'<!-- {name} -->\n`scripts/bench {" ".join([name] + arguments)}` on '
             f'{time.strftime("%Y-%m-%d")}, ROS 2 {os.environ.get("ROS_DISTRO", "(none)")}, '
             f'{cpu} ({os.cpu_count()} cores), load {load_average} at the end'
             + (f'; {options.note}' if options.note else '') + ':\n\n```text\n'
             + tee.copy.getvalue() + f'```\n<!-- /{name} -->')
    with open(page, encoding='utf-8') as read:
        text = read.read()
    begin, end = text.index(f'<!-- {name} -->'), text.index(f'<!-- /{name} -->')
    with open(page, 'w', encoding='utf-8') as written:
        written.write(text[:begin] + block + text[end + len(f'<!-- /{name} -->'):])


def percentile(values: Sequence[float], fraction: float) -> float:
    """Return the nearest-rank value at ``fraction`` (0.0 for no values)."""
    ordered: List[float] = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def log_path(name: str) -> str:
    """Return a fresh file name for a process's output, under ROS_LOG_DIR (or /tmp)."""
    return os.path.join(os.environ.get('ROS_LOG_DIR', '/tmp'), f'{name}-{time.monotonic_ns()}.out')
