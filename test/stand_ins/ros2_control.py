"""
Stand-in for ros2_control where it is not installed: a loop, mock hardware, three controllers.

It follows the documented behaviour of the parts ``control.launch.py``
starts (ros2_control and ros2_controllers, Humble through Rolling), so that
the node's streaming, arrival and stall tests run in CI against it and,
unchanged, against the real ones where they are installed
(``control_harness``):

- controller_manager's ``ros2_control_node``: one cycle every
  1/``update_rate`` s on the wall clock, at absolute deadlines (a late cycle
  runs at once and the next keeps the grid), each cycle read, update, write;
- ``mock_components/GenericSystem``: read() makes each joint's position
  state the position command written at the cycle before (exactly);
- ``joint_state_broadcaster``: publishes ``joint_states`` (the positions
  read, stamped with the cycle's time) every cycle, system default QoS;
- ``forward_command_controller`` (``interface_name: position``), for
  ``controller`` ``forward_position_controller``: keeps the last
  Float64MultiArray read on ``<controller>/commands`` (system default QoS:
  best effort on Fast DDS) and writes it each cycle; a wrong size is
  refused with a log line; before any command the arm stays where it is;
- ``joint_trajectory_controller`` with the package's settings
  (``open_loop_control``, ``interpolate_from_desired_state``), for
  ``controller`` ``joint_trajectory_controller``: takes a JointTrajectory
  on ``<controller>/joint_trajectory`` that names its joints (any order),
  has points and strictly increasing times (the first from zero), and replaces the one under way
  from the cycle that reads it, starting at its stamp (zero: that cycle)
  from the last commanded position, velocity and acceleration; it
  interpolates linearly, cubically or quintically as the points carry
  velocities and accelerations, and holds the last point after the end.

It does not follow: a simulator's clock (``use_sim_time``), controller_manager's
services (load, switch, list), the FollowJointTrajectory action and
``controller_state`` (control_msgs has no wheel), ``dynamic_joint_states``,
joint limits in the URDF, or real-time scheduling (its loop is a Python
thread: a busy host delays it as it delays a controller_manager that is not
real-time).
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
from rclpy.qos import qos_profile_system_default
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory
from twobone_ik_ros.tools.harness import serve


def segment(start, end, duration, at):
    """
    Return (position, velocity, acceleration) ``at`` s into a segment of ``duration`` s.

    ``start`` and ``end`` are (position, velocity or None, acceleration or None):
    a line between positions alone, a cubic with velocities, a quintic with
    accelerations too, as joint_trajectory_controller interpolates.
    """
    (p0, v0, a0), (p1, v1, a1) = start, end
    t, big = min(max(at, 0.0), duration), duration
    if v1 is None:
        slope = (p1 - p0) / big
        return p0 + slope * t, slope, 0.0
    v0 = v0 or 0.0
    if a1 is None:
        c2 = (-3.0 * p0 + 3.0 * p1 - 2.0 * v0 * big - v1 * big) / big ** 2
        c3 = (2.0 * p0 - 2.0 * p1 + v0 * big + v1 * big) / big ** 3
        return (p0 + v0 * t + c2 * t ** 2 + c3 * t ** 3, v0 + 2.0 * c2 * t + 3.0 * c3 * t ** 2,
                2.0 * c2 + 6.0 * c3 * t)
    a0 = a0 or 0.0
    c2 = 0.5 * a0
    c3 = (-20.0 * p0 + 20.0 * p1 - 3.0 * a0 * big ** 2 + a1 * big ** 2 - 12.0 * v0 * big
          - 8.0 * v1 * big) / (2.0 * big ** 3)
    c4 = (30.0 * p0 - 30.0 * p1 + 3.0 * a0 * big ** 2 - 2.0 * a1 * big ** 2 + 16.0 * v0 * big
          + 14.0 * v1 * big) / (2.0 * big ** 4)
    c5 = (-12.0 * p0 + 12.0 * p1 - a0 * big ** 2 + a1 * big ** 2 - 6.0 * v0 * big
          - 6.0 * v1 * big) / (2.0 * big ** 5)
    return (p0 + v0 * t + c2 * t ** 2 + c3 * t ** 3 + c4 * t ** 4 + c5 * t ** 5,
            v0 + 2.0 * c2 * t + 3.0 * c3 * t ** 2 + 4.0 * c4 * t ** 3 + 5.0 * c5 * t ** 4,
            2.0 * c2 + 6.0 * c3 * t + 12.0 * c4 * t ** 2 + 20.0 * c5 * t ** 3)


class ForwardCommand:
    """forward_command_controller: the last command read, written each cycle."""

    def __init__(self, stand_in, name):
        """Subscribe ``<name>/commands``."""
        self.stand_in = stand_in
        self._command = None  # its realtime buffer
        stand_in.node.create_subscription(Float64MultiArray, f'{name}/commands', self._on_command,
                                          qos_profile_system_default)

    def _on_command(self, msg):
        joints = self.stand_in.joints
        if len(msg.data) != len(joints):
            self.stand_in.node.get_logger().error(
                f'command size ({len(msg.data)}) does not match number of interfaces '
                f'({len(joints)})')
            return
        self._command = list(msg.data)

    def update(self, now_ns, positions):
        """Return the command to write (None: nothing)."""
        return self._command


class JointTrajectoryFollower:
    """joint_trajectory_controller on its topic, open loop from the desired state."""

    def __init__(self, stand_in, name):
        """Subscribe ``<name>/joint_trajectory``."""
        self.stand_in = stand_in
        self._pending = None  # its realtime buffer: the last valid message read
        self._lock = threading.Lock()
        self._active = None  # (start ns, [(time ns, [(p, v, a) per joint])])
        self._desired = None  # per joint (p, v, a): the last command
        stand_in.node.create_subscription(JointTrajectory, f'{name}/joint_trajectory',
                                          self._on_trajectory, qos_profile_system_default)

    def _refuse(self, why):
        self.stand_in.node.get_logger().error(f'trajectory refused: {why}')

    def _on_trajectory(self, msg):
        joints = self.stand_in.joints
        if sorted(msg.joint_names) != sorted(joints) or not msg.points:
            return self._refuse('it must name every joint and have points')
        order = [list(msg.joint_names).index(joint) for joint in joints]
        points, last_ns = [], -1
        for point in msg.points:
            at_ns = point.time_from_start.sec * 1_000_000_000 + point.time_from_start.nanosec
            if at_ns <= last_ns or len(point.positions) != len(joints) or any(
                    len(values) not in (0, len(joints))
                    for values in (point.velocities, point.accelerations)):
                return self._refuse('times must increase, sizes match')
            points.append((at_ns, [(
                point.positions[k], point.velocities[k] if point.velocities else None,
                point.accelerations[k] if point.accelerations else None) for k in order]))
            last_ns = at_ns
        stamp_ns = msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec
        with self._lock:
            self._pending = (stamp_ns, points)

    def update(self, now_ns, positions):
        """Return the command to write: the trajectory sampled at ``now_ns``."""
        if self._desired is None:
            self._desired = [(position, 0.0, 0.0) for position in positions]
        with self._lock:
            pending, self._pending = self._pending, None
        if pending is not None:
            stamp_ns, points = pending
            start_ns = stamp_ns or now_ns
            # from the desired state, unless the first point is at the start itself
            before = [(0, list(self._desired))] if points[0][0] > 0 else []
            self._active = (start_ns, before + points)
        if self._active is None:
            return None
        start_ns, points = self._active
        since_ns = now_ns - start_ns
        if since_ns < 0:  # not yet started: hold the desired state
            return [p for p, _, _ in self._desired]
        if since_ns >= points[-1][0]:
            self._desired = [(p, 0.0, 0.0) for p, _, _ in points[-1][1]]
        else:
            k = max(i for i, (at_ns, _) in enumerate(points) if at_ns <= since_ns)
            (t0, first), (t1, second) = points[k], points[k + 1]
            self._desired = [segment(a, b, (t1 - t0) / 1e9, (since_ns - t0) / 1e9)
                             for a, b in zip(first, second)]
        return [p for p, _, _ in self._desired]


#: the controllers it stands in for, by the ``controller_type`` parameter
CONTROLLERS = {'forward_command': ForwardCommand, 'joint_trajectory': JointTrajectoryFollower}


class Ros2ControlStandIn:
    """The loop, the hardware and the broadcaster; the node's executor delivers the commands."""

    def __init__(self, node):
        """Read the parameters, make the topics, and start the loop's thread."""
        self.node = node
        self.rate = node.declare_parameter('update_rate', 100).value
        self.joints = list(node.declare_parameter(
            'joints', ['shoulder_joint', 'elbow_joint']).value)
        name = node.declare_parameter('controller', 'forward_position_controller').value
        kind = node.declare_parameter('controller_type', 'forward_command').value
        self.positions = list(node.declare_parameter(
            'initial_positions', [0.0] * len(self.joints)).value)
        self._written = None  # the command interface: what write() handed the hardware
        self.states = node.create_publisher(JointState, 'joint_states',
                                            qos_profile_system_default)
        self.controller = CONTROLLERS[kind](self, name)
        self._thread = threading.Thread(target=self._loop, name='ros2_control_loop', daemon=True)
        self._thread.start()

    def _loop(self):
        period_ns = round(1e9 / self.rate)
        next_ns = time.monotonic_ns()
        while rclpy.ok():
            self._cycle()
            next_ns += period_ns
            wait_ns = next_ns - time.monotonic_ns()
            if wait_ns > 0:
                time.sleep(wait_ns / 1e9)

    def _cycle(self):
        now = self.node.get_clock().now()  # the cycle's time, as read() and update() get it
        # read: mock hardware mirrors the command written at the cycle before
        if self._written is not None:
            self.positions = list(self._written)
        # update: the broadcaster publishes what was read, the controller computes its command
        message = JointState(name=self.joints, position=self.positions)
        message.header.stamp = now.to_msg()
        try:
            self.states.publish(message)
        except Exception:  # noqa: B902  (the context is shutting down: the loop ends)
            return
        command = self.controller.update(now.nanoseconds, self.positions)
        # write
        if command is not None:
            self._written = command


def make_node():
    node = rclpy.create_node('controller_manager')
    node.stand_in = Ros2ControlStandIn(node)
    return node


if __name__ == '__main__':
    serve(make_node)
