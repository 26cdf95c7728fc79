"""
A simulator's clock for the tests: ``/clock`` in fixed steps, at a real-time factor.

A simulator publishes its time once per physics step; this one does the
same with a step of ``STEP_NS`` of simulated time, paced to run at
``rtf`` times real time.  A machine too busy to keep the pace slows the
simulation down (a step is never skipped), as a real simulator slows down.
It can pause (no ``/clock`` at all, as Gazebo's pause) and jump back (a
reset).  Its node runs in a context and a thread of its own, so the clock
goes on while the test's probe waits.

A simulator that runs ros2_control (gz_ros2_control) updates the
controllers within its step: they never fall behind its clock.  A
separate controller_manager on ``/clock`` does, on a busy machine: beside
two CPU-bound processes its cycles once stopped for half a second of the
clock while the clock went on.  ``follow`` has the clock wait, as such a
simulator does, for the controllers' joint states (at most ``LEAD``
of their periods behind it).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import threading
import time

import rclpy
import rclpy.executors
from rclpy.qos import QoSProfile, ReliabilityPolicy
from rosgraph_msgs.msg import Clock
from twobone_ik_ros.tools.harness import shut_down

#: Simulated time per /clock message: divides the controllers' 10 ms cycle
STEP_NS = 2_000_000
#: How many of a followed controller's periods the clock runs ahead of its last joint state
#: (two: a broadcaster's realtime publisher drops a state when its thread is busy), and how
#: long (s of wall time) it waits for one before it goes on (a controller gone)
LEAD, FOLLOW_TIMEOUT_S = 2, 1.0


class SimClock:
    """``/clock`` from ``start_s`` on, at ``rtf`` times real time, until ``stop``."""

    def __init__(self, rtf=1.0, start_s=1000.0):
        self.rtf = rtf
        self._sim_ns = int(start_s * 1e9)
        self._paused = False
        self._lock = threading.Lock()
        self._running = True
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        self.node = rclpy.create_node('sim_clock', context=self.context)
        # best effort, as the /clock readers of rclpy and rclcpp take it
        self._publisher = self.node.create_publisher(
            Clock, '/clock', QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT))
        self._executor = rclpy.executors.SingleThreadedExecutor(context=self.context)
        self._executor.add_node(self.node)
        self._followed = None  # (period ns, the last joint state's stamp ns) with ``follow``
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        message = Clock()
        next_wall = time.monotonic()
        while self._running:
            with self._lock:
                if not self._paused:
                    self._sim_ns += STEP_NS
                    message.clock.sec, message.clock.nanosec = divmod(self._sim_ns, 10**9)
                    self._publisher.publish(message)
                step_wall = STEP_NS / 1e9 / self.rtf
            if self._followed is not None:
                self._wait_for_controllers()
            next_wall = max(next_wall + step_wall, time.monotonic() - step_wall)
            delay = next_wall - time.monotonic()
            if delay > 0:
                time.sleep(delay)

    def follow(self, topic, period_s):
        """Run no more than ``LEAD`` periods of ``period_s`` ahead of ``topic``'s joint states."""
        from sensor_msgs.msg import JointState

        def heard(message):
            stamp = message.header.stamp.sec * 10**9 + message.header.stamp.nanosec
            self._followed = (self._followed[0], max(self._followed[1], stamp))

        with self._lock:
            self._followed = (round(period_s * 1e9), self._sim_ns)
        self.node.create_subscription(
            JointState, topic, heard,
            QoSProfile(depth=10, reliability=ReliabilityPolicy.BEST_EFFORT))

    def _wait_for_controllers(self):
        """Spin until the followed controllers have run within ``LEAD`` periods of now."""
        deadline = time.monotonic() + FOLLOW_TIMEOUT_S
        while self._running and time.monotonic() < deadline:
            period, stamp = self._followed
            with self._lock:
                if self._paused or stamp >= self._sim_ns - LEAD * period:
                    return
            self._executor.spin_once(timeout_sec=0.001)

    def now_s(self):
        """Return the simulated time last published, in seconds."""
        with self._lock:
            return self._sim_ns / 1e9

    def pause(self):
        with self._lock:
            self._paused = True

    def resume(self):
        with self._lock:
            self._paused = False

    def jump_to(self, seconds):
        """Go on from ``seconds`` (before now: a reset simulation)."""
        with self._lock:
            self._sim_ns = int(seconds * 1e9)
            if self._followed is not None:  # the controllers' next state is stamped from there
                self._followed = (self._followed[0], self._sim_ns)

    def wait_for_readers(self, count=1, timeout=20.0):
        """Wait until ``count`` readers take /clock (the clock is useless before)."""
        deadline = time.monotonic() + timeout
        while self._publisher.get_subscription_count() < count:
            assert time.monotonic() < deadline, 'nothing subscribed to /clock'
            time.sleep(0.05)

    def stop(self):
        self._running = False
        self._thread.join()
        self._executor.shutdown()
        self.node.destroy_node()
        shut_down(self.context)
