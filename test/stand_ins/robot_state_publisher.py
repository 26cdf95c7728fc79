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
Stand-in for robot_state_publisher (C++, needs rclcpp: it cannot run here).

Behaves as ros/robot_state_publisher documents and implements it, for the
URDFs this package generates (revolute and fixed joints):

- parameters ``robot_description`` (required at start; a runtime change is
  checked, refused with a reason if it does not parse, else applied),
  ``frame_prefix`` (prepended to every frame; changeable at runtime) and
  ``publish_frequency`` (20 Hz);
- publishes ``robot_description`` (std_msgs/String, transient local) at start
  and after each change, fixed joints on ``/tf_static`` at start and after a
  change of ``robot_description``;
- for each ``joint_states`` message, publishes the moving joints on ``/tf``
  stamped with the message's stamp, but only if that stamp is at least
  1 / publish_frequency after the stamp it last published for those joints.
"""

import math
import xml.etree.ElementTree as ElementTree

from geometry_msgs.msg import TransformStamped
from rcl_interfaces.msg import SetParametersResult
import rclpy
from rclpy.qos import DurabilityPolicy, QoSProfile
from rclpy.time import Time
from sensor_msgs.msg import JointState
from std_msgs.msg import String
from tf2_msgs.msg import TFMessage
from twobone_ik_ros.harness import serve

LATCHED = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL)


def parse(urdf):
    """Return {joint: (type, parent, child, xyz, rpy, axis)}; raise ValueError if invalid."""
    if not urdf:
        raise ValueError('Empty URDF is not allowed')
    try:
        robot = ElementTree.fromstring(urdf)
    except ElementTree.ParseError as error:
        raise ValueError(f'Failed to parse robot description: {error}') from None
    joints = {}
    for joint in robot.iter('joint'):
        origin = joint.find('origin')
        axis = joint.find('axis')

        def floats(element, name, default='0 0 0'):
            text = default if element is None else element.get(name, default)
            return [float(v) for v in text.split()]
        joints[joint.get('name')] = (
            joint.get('type'), joint.find('parent').get('link'), joint.find('child').get('link'),
            floats(origin, 'xyz'), floats(origin, 'rpy'), floats(axis, 'xyz', '1 0 0'))
    return joints


def quaternion(roll, pitch, yaw):
    """(x, y, z, w) of fixed-axis roll, pitch, yaw, as URDF defines them."""
    cr, sr = math.cos(roll / 2), math.sin(roll / 2)
    cp, sp = math.cos(pitch / 2), math.sin(pitch / 2)
    cy, sy = math.cos(yaw / 2), math.sin(yaw / 2)
    return (sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy,
            cr * cp * sy - sr * sp * cy, cr * cp * cy + sr * sp * sy)


def multiply(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)


class StandInRobotStatePublisher:
    """The node (see the module docstring)."""

    def __init__(self):
        self.node = rclpy.create_node('robot_state_publisher')
        node = self.node
        description = node.declare_parameter('robot_description', '').value
        self.joints = parse(description)  # fails the start, as the real one does
        self.prefix = node.declare_parameter('frame_prefix', '').value
        self.frequency = node.declare_parameter('publish_frequency', 20.0).value
        self.last_published = {}
        self.description_pub = node.create_publisher(String, 'robot_description', LATCHED)
        self.tf_pub = node.create_publisher(TFMessage, '/tf', 100)
        self.static_pub = node.create_publisher(TFMessage, '/tf_static', LATCHED)
        node.create_subscription(JointState, 'joint_states', self.on_joint_state, 100)
        node.add_on_set_parameters_callback(self.on_set)
        self.description = description
        self.publish_model()

    def on_set(self, parameters):
        for parameter in parameters:
            if parameter.name == 'robot_description':
                try:
                    parse(parameter.value)
                except ValueError as error:
                    return SetParametersResult(successful=False, reason=str(error))
        for parameter in parameters:  # the real node applies them in this order
            if parameter.name == 'robot_description':
                self.description = parameter.value
                self.joints = parse(parameter.value)
                self.publish_model()
            elif parameter.name == 'frame_prefix':
                self.prefix = parameter.value
        return SetParametersResult(successful=True)

    def publish_model(self):
        self.description_pub.publish(String(data=self.description))
        fixed = [self.transform(name, 0.0, self.node.get_clock().now().to_msg())
                 for name, joint in self.joints.items() if joint[0] == 'fixed']
        self.static_pub.publish(TFMessage(transforms=fixed))

    def transform(self, name, position, stamp):
        kind, parent, child, xyz, rpy, axis = self.joints[name]
        rotation = quaternion(*rpy)
        if kind in ('revolute', 'continuous'):
            norm = math.sqrt(sum(a * a for a in axis))
            s = math.sin(position / 2) / norm
            rotation = multiply(rotation, (axis[0] * s, axis[1] * s, axis[2] * s,
                                           math.cos(position / 2)))
        msg = TransformStamped()
        msg.header.stamp = stamp
        msg.header.frame_id = self.prefix + parent
        msg.child_frame_id = self.prefix + child
        msg.transform.translation.x, msg.transform.translation.y, \
            msg.transform.translation.z = xyz
        (msg.transform.rotation.x, msg.transform.rotation.y, msg.transform.rotation.z,
         msg.transform.rotation.w) = rotation
        return msg

    def on_joint_state(self, msg):
        if len(msg.name) != len(msg.position):
            return
        stamp = Time.from_msg(msg.header.stamp).nanoseconds
        last = min((self.last_published.get(name, 0) for name in msg.name), default=0)
        if stamp < last + int(1e9 / self.frequency):
            return  # the real node drops it too
        moving = [self.transform(name, position, msg.header.stamp)
                  for name, position in zip(msg.name, msg.position)
                  if name in self.joints and self.joints[name][0] != 'fixed']
        self.tf_pub.publish(TFMessage(transforms=moving))
        for name in msg.name:
            self.last_published[name] = stamp


if __name__ == '__main__':
    serve(lambda: StandInRobotStatePublisher().node)
