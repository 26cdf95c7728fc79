"""
How every process of this package runs its node, and stops it in order.

rclpy's own handlers for SIGINT and SIGTERM shut the context down at once,
from a thread of their own (rclpy's deferred signal handler), while the
executor may be in the middle of a callback.  The callback's next publish,
subscription count or timer, or the executor's next wait set, then meets a
context that is gone and raises ``RCLError``: the process ends with exit code 1
and a traceback instead of 0 (``ros2 launch`` reports it as died).  With
targets streaming at 2 kHz that happened in about half of the Ctrl-Cs.

So these processes take the two signals themselves.  rclpy is initialised
without its handlers, the executor spins in a thread of its own, and a signal
only asks it to stop.  Then, one after the other in the main thread: the
spinner finishes its callback and leaves the executor, the executor shuts down,
the node is destroyed and the context shut down.  Nothing runs on a context
that is going away.  After the first signal, SIGTERM's previous handler is
back (a second SIGTERM, ``ros2 launch``'s escalation, terminates as usual),
and a further SIGINT is let pass, as rclcpp's handler lets it: a terminal's
Ctrl-C reaches every process of a launch and then the launch sends its own,
and a Python process interrupted in its orderly stop would end with a
traceback and code -2 (``ros2 launch`` reports "process has died").  The stop
is bounded (below), so a second Ctrl-C has nothing left to cut short.  The
handler itself takes no lock (``StopRequest``).

Stopping is also bounded: a process still stopping ``STOP_TIMEOUT`` after it
was asked writes an error and where each of its threads is to stderr, and
exits with code 1 (it did not shut down cleanly).  Rare and upstream: rclpy's
``destroy_node`` never returned (inside the middleware, holding the GIL) for
a target publisher and an rviz2 stand-in in two CI runs of several hundred
stops each, on Kilted and Jazzy; none in about 1000 stops looped alone.
``ros2 launch`` would have escalated to SIGTERM after 5 s (its
``sigterm_timeout``) and a test waited for ever; now the process ends
first, and says where it was.  When the GIL is held, as then,
no Python runs: ``faulthandler``'s thread of C dumps the threads and exits
(also code 1) a second later.
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
from twobone_ik_ros.ros.executor import LeanExecutor, RCLPY_WAIT_S
from twobone_ik_ros.ros.executor_choice import spinner_executor

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: seconds an orderly stop may take before the process ends anyway (launch waits 5 s)
STOP_TIMEOUT = 3.0
#: the exit code then: not a clean shutdown
STOP_HUNG_EXIT_CODE = 1


def _give_up(name: str) -> None:
    """End a process whose stop hangs, saying where each thread was."""
    sys.stderr.write(f'[ERROR] [{time.time():.9f}] [{name}]: stopping did not finish within '
                     f'{STOP_TIMEOUT:g} s; exiting without it. Where each thread was:\n')
    sys.stderr.flush()
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    sys.stderr.flush()
    os._exit(STOP_HUNG_EXIT_CODE)


def bound_stop(name: str) -> None:
    """Make sure the process ends within ``STOP_TIMEOUT`` from now (see the module's docstring)."""
    watchdog = threading.Timer(STOP_TIMEOUT, _give_up, args=(name,))
    watchdog.daemon = True
    watchdog.start()
    # the same from a thread of C, for a process whose GIL is held (exit code 1)
    faulthandler.dump_traceback_later(STOP_TIMEOUT + 1.0, exit=True)


class StopRequest:
    """
    What the main thread of ``run_node`` waits for: a stop signal, or the spinner's end.

    A Python signal handler runs in the main thread between two bytecodes,
    which may be inside ``threading.Event.wait`` while it holds the event's
    lock: a handler that sets that event then waits for the lock for ever.
    That hung a node after a SIGTERM during a target stream (once, in CI on
    a busy machine).  So ``on_signal`` only sets an attribute, which takes
    no lock, and ``wait`` looks at it every ``period`` seconds.
    """

    def __init__(self, period: float = 0.25) -> None:
        """Wait in steps of ``period`` seconds (how late a signal may be seen)."""
        self.period = period
        #: the stop signal received, if any (set by ``on_signal`` alone)
        self.signal: Optional[int] = None
        #: set by the spinner's thread when it leaves
        self.spinner_left = threading.Event()

    def on_signal(self, number: int, frame: Optional[FrameType]) -> None:
        """Note the signal: safe in a handler (no lock is taken)."""
        self.signal = number

    def wait(self) -> None:
        """Return once a stop signal came or the spinner left."""
        while self.signal is None and not self.spinner_left.wait(self.period):
            pass


class Spinner:
    """
    Spin a node in a thread of its own, with an executor of its own, until stopped or ``until()``.

    ``stop`` joins the thread before it shuts the executor down: Kilted's
    ``Executor.shutdown()`` does not wait for the callback under way.
    ``executor``: one of ``executor_choice.EXECUTORS`` (``spinner_executor``).
    """

    def __init__(self, node: Any, until: Callable[[], bool] = lambda: False,
                 on_exit: Callable[[], None] = lambda: None, executor: str = 'rclpy') -> None:
        """Prepare the executor and the thread; ``on_exit`` runs in it when it leaves."""
        self._executor = spinner_executor(node, executor)
        self._executor.add_node(node)
        self._until = until
        self._on_exit = on_exit
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._spin, name='spinner', daemon=True)
        #: what ended the spinning other than a stop (an exception from a callback)
        self.error: Optional[BaseException] = None

    def _spin(self) -> None:
        # rclpy's executor: a wait with a timeout, since its spin_once() without one
        # ignores the wake of a stop while nothing is ready (a node whose timers are
        # on a /clock that does not come, use_sim_time), until the stop watchdog
        timeout = None if isinstance(self._executor, LeanExecutor) else RCLPY_WAIT_S
        try:
            while (not self._stopping.is_set() and self._executor.context.ok()
                   and not self._until()):
                self._executor.spin_once(timeout_sec=timeout)
        except BaseException as error:  # handed to the main thread
            self.error = error
        finally:
            self._on_exit()

    def start(self) -> 'Spinner':
        """Start spinning; return self."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Let the callback under way finish, leave the executor, then shut it down."""
        self._stopping.set()
        self._executor.wake()
        self._thread.join()
        self._executor.shutdown()


def rclpy_error() -> Type[Exception]:
    """Return the exception rclpy raises for an error of rcl (``RCLError``, not public API)."""
    from rclpy.impl.implementation_singleton import rclpy_implementation

    return rclpy_implementation.RCLError


def run_node(make_node: Callable[[], Any], *, args: Optional[List[str]] = None,
             until: Callable[[Any], bool] = lambda node: False,
             invalid: Tuple[Type[BaseException], ...] = (), name: str = 'node',
             executor: str = 'rclpy') -> int:
    """
    Run the node ``make_node()`` builds until SIGINT, SIGTERM, shutdown or ``until(node)``.

    ``executor``: the executor that spins it (see ``Spinner``).

    Return the exit code: 0 after a stop, 2 when ``make_node`` raised one of
    ``invalid`` (logged as a fatal error of logger ``name``, in one line: a
    ``MissingLibrary`` as it is, anything else as invalid parameters), and 2
    when SROS2 is on and rcl refused the process (one line: the enclave, what
    rcl said).  An exception raised by a callback is raised again here, after
    the orderly stop.
    """
    import rclpy
    from rclpy.executors import ExternalShutdownException
    from rclpy.signals import SignalHandlerOptions

    stop = StopRequest()
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
            # a missing library says what to install; anything else is a parameter's fault
            text = str(error) if isinstance(error, MissingLibrary) else \
                f'invalid parameters: {error}'
            rclpy.logging.get_logger(name).fatal(text)
            return 2
        except rclpy_error() as error:
            security = security_state(os.environ, sys.argv if args is None else args)
            if not security.enabled:
                raise
            # SROS2 refused the process its participant: no keys for the enclave, a
            # certificate or permissions that do not verify, or expired (rcl says which, or
            # the middleware in the lines above)
            rclpy.logging.get_logger(name).fatal(
                f'SROS2 {security.describe()} refused to start the node: '
                + str(error).split(', at ')[0])
            return 2
        spinner = Spinner(node, until=lambda: until(node), on_exit=stop.spinner_left.set,
                          executor=executor).start()
        stop.wait()
        bound_stop(name)
        spinner.stop()
        if spinner.error is not None and not isinstance(spinner.error,
                                                        ExternalShutdownException):
            raise spinner.error
        return 0
    finally:
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
        restore()
