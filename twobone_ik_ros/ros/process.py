"""
How every process of the package runs its node: rclpy's executor, and a stop in order.

The ros2/demos shape (make the node, spin it, stop on Ctrl-C or an external
shutdown), with one change, measured: with rclpy's own SIGINT handler,
``rclpy.spin`` on the EventsExecutor did not return at all (every stop hung,
``bench_stop``, doc/performance.md), and the SingleThreadedExecutor, which
stops, costs the node twice the CPU per target.  So the signals here only
set a flag, the executor spins in the main thread a wait at a time, and the
loop leaves between two callbacks; then the node is destroyed and the
context shut down.  Further SIGINTs are ignored (a terminal's Ctrl-C and
``ros2 launch``'s own both come); a second SIGTERM ends the process.  A stop
still going after ``STOP_TIMEOUT`` writes where each thread is and exits 1.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import faulthandler
import os
import signal
import sys
import threading
import time
from types import FrameType
from typing import Any, Callable, List, Optional, Tuple, Type

from twobone_ik_ros.model.dependencies import MissingLibrary
from twobone_ik_ros.model.security import security_state
from twobone_ik_ros.ros.rclpy_workarounds import rclpy_error

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: seconds an orderly stop may take before the process ends anyway (launch waits 5 s)
STOP_TIMEOUT = 3.0
#: the exit code then: not a clean shutdown
STOP_HUNG_EXIT_CODE = 1
#: the longest the executor waits between two looks at the stop flag (s)
WAIT_S = 0.1
#: the executors a process can spin on (``make_executor``): rclpy's EventsExecutor where
#: this rclpy has it, else its SingleThreadedExecutor; ``events``; ``rclpy`` (single-threaded)
EXECUTORS = ('default', 'events', 'rclpy')


def make_executor(node: Any, kind: str = 'default') -> Any:
    """
    Return the executor of ``kind`` for ``node``, the node added.

    rclpy's EventsExecutor (Jazzy on) waits in C++ and costs the node about
    half the CPU per target of the SingleThreadedExecutor (doc/performance.md),
    so it is the default where it is there.
    """
    from rclpy.executors import SingleThreadedExecutor
    try:
        from rclpy.experimental import EventsExecutor
    except ImportError:  # Humble
        EventsExecutor = None
    if kind not in EXECUTORS:
        node.get_logger().warning(f'executor {kind!r} is none of {", ".join(EXECUTORS)}: '
                                  'the default one spins')
        kind = 'default'
    if kind == 'events' and EventsExecutor is None:
        node.get_logger().warning("this rclpy has no EventsExecutor: spinning with rclpy's "
                                  'SingleThreadedExecutor')
    executor_class = SingleThreadedExecutor if kind == 'rclpy' or EventsExecutor is None \
        else EventsExecutor
    executor = executor_class(context=node.context)
    executor.add_node(node)
    return executor


class StopFlag:
    """The stop signal received, if any: set by a signal handler, which takes no lock."""

    def __init__(self) -> None:
        """Nothing received yet."""
        self.signal: Optional[int] = None

    def on_signal(self, number: int, frame: Optional[FrameType]) -> None:
        """Note the signal (safe in a handler: no lock is taken)."""
        self.signal = number


def _give_up(name: str) -> None:
    """End a process whose stop hangs, saying where each thread was."""
    sys.stderr.write(f'[ERROR] [{time.time():.9f}] [{name}]: stopping did not finish within '
                     f'{STOP_TIMEOUT:g} s; exiting without it. Where each thread was:\n')
    sys.stderr.flush()
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    sys.stderr.flush()
    os._exit(STOP_HUNG_EXIT_CODE)


def bound_stop(name: str) -> None:
    """Make sure the process ends within ``STOP_TIMEOUT`` from now."""
    watchdog = threading.Timer(STOP_TIMEOUT, _give_up, args=(name,))
    watchdog.daemon = True
    watchdog.start()
    # the same from a thread of C, for a process whose GIL is held (exit code 1)
    faulthandler.dump_traceback_later(STOP_TIMEOUT + 1.0, exit=True)


def run_node(make_node: Callable[[], Any], *, args: Optional[List[str]] = None,
             until: Callable[[Any], bool] = lambda node: False,
             invalid: Tuple[Type[BaseException], ...] = (), name: str = 'node',
             executor: str = 'default') -> int:
    """
    Run the node ``make_node()`` builds until SIGINT, SIGTERM, shutdown or ``until(node)``.

    Return the exit code: 0 after a stop; 2 when ``make_node`` raised one of
    ``invalid`` (one fatal line: a ``MissingLibrary`` as it is, anything else
    as invalid parameters) or SROS2 refused the process (one line: the
    enclave, what rcl said).  What a callback raises is raised again here.
    """
    import rclpy
    from rclpy.executors import ExternalShutdownException
    from rclpy.signals import SignalHandlerOptions

    stop = StopFlag()
    previous = {number: signal.getsignal(number) for number in STOP_SIGNALS}

    def restore() -> None:
        for number, handler in previous.items():
            # once stopping, a SIGINT stays harmless to the end of the process
            stopping = stop.signal is not None and number == signal.SIGINT
            signal.signal(number, signal.SIG_IGN if stopping else handler)

    def on_signal(number: int, frame: Optional[FrameType]) -> None:
        stop.on_signal(number, frame)
        restore()

    for number in STOP_SIGNALS:
        signal.signal(number, on_signal)
    node = None
    try:
        try:
            rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO)
            node = make_node()
        except invalid as error:
            text = str(error) if isinstance(error, MissingLibrary) else \
                f'invalid parameters: {error}'
            rclpy.logging.get_logger(name).fatal(text)
            return 2
        except rclpy_error() as error:
            security = security_state(os.environ, sys.argv if args is None else args)
            if not security.enabled:
                raise
            # no keys for the enclave, a certificate or permissions that do not verify
            rclpy.logging.get_logger(name).fatal(
                f'SROS2 {security.describe()} refused to start the node: '
                + str(error).split(', at ')[0])
            return 2
        spinning = make_executor(node, executor)
        try:
            while stop.signal is None and spinning.context.ok() and not until(node):
                spinning.spin_once(timeout_sec=WAIT_S)
        except ExternalShutdownException:
            pass
        bound_stop(name)
        spinning.shutdown()
        return 0
    finally:
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
        restore()
