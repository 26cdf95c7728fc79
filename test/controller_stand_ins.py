# Copyright 2026 The twobone_ik_ros Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""
Stand-ins for a ros2_control arm: two controllers, mock hardware, joint_state_broadcaster.

controller_manager cannot run here (no rclcpp), so the tests talk to these,
on the probe's node, over real DDS.  They check what the real controllers
check before they take a command, as their sources and docs describe it:

- forward_command_controller (``<name>/commands``, std_msgs/Float64MultiArray):
  ``data`` must have one value per configured joint (the controller logs an
  error and ignores the command otherwise).
- joint_trajectory_controller (``<name>/joint_trajectory``,
  trajectory_msgs/JointTrajectory): every configured joint named (partial
  goals are off by default) and no other, at least one point, ``positions``
  as long as ``joint_names``, finite values, ``time_from_start`` > 0 and
  strictly increasing from point to point, ``velocities`` (if any) as long as
  the positions; a zero stamp means "now".

A command that passes moves the mock arm at once to its (last) position, as
mock_components/GenericSystem mirrors commands to states, and the broadcaster
stand-in publishes ``joint_states`` at 50 Hz with the joints in another
order than the controllers' and an extra joint, as a real robot's often are.
"""

import math

from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory

JOINTS = ('shoulder_joint', 'elbow_joint')
STATE_RATE_HZ = 50.0


class StandInArm:
    """Controllers and mock hardware for two joints, on an existing rclpy node."""

    def __init__(self, node, start, namespace='', joints=JOINTS):
        """
        Subscribe both controllers' topics and publish the arm at ``start`` (theta1, theta2).

        The topics are ``<namespace>/commands``, ``<namespace>/joint_trajectory``
        and ``<namespace>/joint_states``: where a node in ``namespace`` finds
        them (a launch remaps the first two to ``/<controller>/...``).
        """
        self.joints = tuple(joints)
        self.position = dict(zip(self.joints, start))
        self.commands = []       # accepted forward commands: the data lists
        self.trajectories = []   # accepted JointTrajectory messages
        self.refused = []        # (topic, reason) of every command a controller refused
        self.forward_topic = f'{namespace}/commands'
        self.trajectory_topic = f'{namespace}/joint_trajectory'
        self.forward = node.create_subscription(Float64MultiArray, self.forward_topic,
                                                self._on_command, 1000)
        self.trajectory = node.create_subscription(JointTrajectory, self.trajectory_topic,
                                                   self._on_trajectory, 1000)
        self.state_pub = node.create_publisher(JointState, f'{namespace}/joint_states', 10)
        self._clock = node.get_clock()
        node.create_timer(1.0 / STATE_RATE_HZ, self.publish_state)

    def move_to(self, theta1, theta2):
        """Put the mock arm somewhere (as if another controller had moved it)."""
        self.position = dict(zip(self.joints, (theta1, theta2)))

    def publish_state(self):
        """Publish joint_states as joint_state_broadcaster does: other order, an extra joint."""
        msg = JointState()
        msg.header.stamp = self._clock.now().to_msg()
        msg.name = ['gripper_joint', self.joints[1], self.joints[0]]
        msg.position = [0.25, self.position[self.joints[1]], self.position[self.joints[0]]]
        self.state_pub.publish(msg)

    def _on_command(self, msg):
        data = list(msg.data)
        if len(data) != len(self.joints):
            self.refused.append((self.forward_topic, f'{len(data)} values for '
                                 f'{len(self.joints)} joints'))
            return
        if not all(math.isfinite(v) for v in data):
            self.refused.append((self.forward_topic, 'non-finite value'))
            return
        self.commands.append(data)
        self.position = dict(zip(self.joints, data))

    def _on_trajectory(self, msg):
        reason = trajectory_error(msg, self.joints)
        if reason:
            self.refused.append((self.trajectory_topic, reason))
            return
        self.trajectories.append(msg)
        last = msg.points[-1].positions
        self.position = {name: last[msg.joint_names.index(name)] for name in self.joints}


def trajectory_error(msg, joints):
    """Return why joint_trajectory_controller would refuse ``msg`` ('' if it takes it)."""
    names = list(msg.joint_names)
    if sorted(names) != sorted(joints):
        return f'joint_names {names} are not the controller joints {list(joints)}'
    if not msg.points:
        return 'no points'
    previous = 0
    for i, point in enumerate(msg.points):
        if len(point.positions) != len(names):
            return f'point {i}: {len(point.positions)} positions for {len(names)} joints'
        if point.velocities and len(point.velocities) != len(names):
            return f'point {i}: velocities of the wrong size'
        if not all(math.isfinite(v) for v in point.positions):
            return f'point {i}: non-finite position'
        t = point.time_from_start.sec * 1_000_000_000 + point.time_from_start.nanosec
        if t <= previous:
            return f'point {i}: time_from_start not > 0 and strictly increasing'
        previous = t
    if msg.points[-1].velocities and any(v != 0.0 for v in msg.points[-1].velocities):
        return 'non-zero velocity at the last point'
    return ''
