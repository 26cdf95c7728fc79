"""
Stand-in for ros2_control where it is not installed: a loop, mock hardware, two controllers.

It follows the documented behaviour of the parts ``control.launch.py``
starts for ``output:=forward_command`` (ros2_control and ros2_controllers,
Humble through Rolling), so that the node's streaming, arrival and stall
tests run in CI against it and, unchanged, against the real ones where
they are installed (``control_harness``):

- controller_manager's ``ros2_control_node``: one cycle every
  1/``update_rate`` s on the wall clock, at absolute deadlines (a late cycle
  runs at once and the next keeps the grid), each cycle read, update, write;
- ``mock_components/GenericSystem``: read() makes each joint's position
  state the position command written at the cycle before (exactly);
- ``joint_state_broadcaster``: publishes ``joint_states`` (the positions
  read, stamped with the cycle's time, velocities and efforts empty) every
  cycle, on the namespace's ``joint_states`` with the system default QoS;
- ``forward_command_controller`` (``interface_name: position``): subscribes
  ``<controller>/commands`` (std_msgs/Float64MultiArray, the system
  default QoS: best effort on Fast DDS), keeps the last message it has read
  (its realtime buffer) and writes it each cycle; a message of the wrong
  size is refused with a log line and changes nothing; before any command,
  nothing is written and the arm stays where it is.

It does not follow: a simulator's clock (``use_sim_time``), controller_manager's
services (load, switch, list), joint_trajectory_controller and its action,
``controller_state``, ``dynamic_joint_states``, joint limits in the URDF, or
real-time scheduling (its loop is a Python thread: a busy host delays it
as it delays a controller_manager that is not real-time).
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
from twobone_ik_ros.tools.harness import serve


class Ros2ControlStandIn:
    """The loop and what runs in it; the node's executor delivers the commands."""

    def __init__(self, node):
        """Read the parameters, make the topics, and start the loop's thread."""
        self.node = node
        self.rate = node.declare_parameter('update_rate', 100).value
        self.joints = list(node.declare_parameter(
            'joints', ['shoulder_joint', 'elbow_joint']).value)
        controller = node.declare_parameter('controller', 'forward_position_controller').value
        self.positions = list(node.declare_parameter(
            'initial_positions', [0.0] * len(self.joints)).value)
        self._command = None  # forward_command_controller's realtime buffer
        self._written = None  # the command interface: what write() handed the hardware
        self._lock = threading.Lock()
        self.states = node.create_publisher(JointState, 'joint_states',
                                            qos_profile_system_default)
        node.create_subscription(Float64MultiArray, f'{controller}/commands', self._on_command,
                                 qos_profile_system_default)
        self.cycles = 0
        self._thread = threading.Thread(target=self._loop, name='ros2_control_loop', daemon=True)
        self._thread.start()

    def _on_command(self, msg):
        if len(msg.data) != len(self.joints):
            self.node.get_logger().error(
                f'command size ({len(msg.data)}) does not match number of interfaces '
                f'({len(self.joints)})')
            return
        with self._lock:
            self._command = list(msg.data)

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
        # update: the broadcaster publishes what was read, the controller takes its last command
        message = JointState(name=self.joints, position=self.positions)
        message.header.stamp = now.to_msg()
        try:
            self.states.publish(message)
        except Exception:  # noqa: B902  (the context is shutting down: the loop ends)
            return
        with self._lock:
            command = self._command
        # write
        if command is not None:
            self._written = command
        self.cycles += 1


def make_node():
    node = rclpy.create_node('controller_manager')
    node.stand_in = Ros2ControlStandIn(node)
    return node


if __name__ == '__main__':
    serve(make_node)
