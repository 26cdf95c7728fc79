"""
A stop signal is taken without a lock (``process.StopRequest``), however it lands.

A handler that set a ``threading.Event`` hung a node for good when the
signal landed while the main thread held that event's lock inside its
``wait`` (CI: a SIGTERM during a target stream).  Here a child process
waits as ``run_node`` does while a timer signals it every 20 us for 3 s, so
that many signals land inside the wait's locked parts: it must end, having
seen them.  With a handler that also sets the event, the storm stuck that
handler on the lock in each of 7 runs tried (the signals after it nested
until the stack overflowed).  The whole stop, from a real signal to exit
code 0, is in test_node.py.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import subprocess
import sys
import textwrap

CHILD = textwrap.dedent("""
    import signal, sys, time
    from twobone_ik_ros.ros.process import StopRequest

    stop = StopRequest(period=0.0005)
    signal.signal(signal.SIGALRM, stop.on_signal)
    signal.setitimer(signal.ITIMER_REAL, 20e-6, 20e-6)
    end = time.monotonic() + float(sys.argv[1])
    seen = 0
    while time.monotonic() < end:
        stop.wait()
        seen += stop.signal == signal.SIGALRM
        stop.signal = None
    signal.setitimer(signal.ITIMER_REAL, 0.0)
    print(seen)
""")


def test_a_storm_of_signals_during_the_wait_never_hangs_it():
    child = subprocess.run([sys.executable, '-c', CHILD, '3.0'], capture_output=True,
                           text=True, timeout=120)
    assert child.returncode == 0, child.stderr
    assert int(child.stdout) > 100, child.stdout  # waits the signals ended
