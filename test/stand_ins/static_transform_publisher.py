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
Stand-in for tf2_ros' static_transform_publisher (C++: it cannot run here).

Takes the flag arguments of Humble and later (``--x --y --z --roll --pitch
--yaw --frame-id --child-frame-id``) and publishes that one transform on
``/tf_static`` with tf2_ros' own StaticTransformBroadcaster (real tf2).
"""

import argparse
import math
import sys

from geometry_msgs.msg import TransformStamped
import rclpy
import tf2_ros
from twobone_ik_ros.harness import serve


def make_node():
    parser = argparse.ArgumentParser()
    for name in ('x', 'y', 'z', 'roll', 'pitch', 'yaw'):
        parser.add_argument(f'--{name}', type=float, default=0.0)
    parser.add_argument('--frame-id', required=True)
    parser.add_argument('--child-frame-id', required=True)
    options = parser.parse_args(rclpy.utilities.remove_ros_args(sys.argv)[1:])
    if options.roll or options.pitch:
        raise SystemExit('the stand-in only rotates about z')
    node = rclpy.create_node('static_transform_publisher')
    transform = TransformStamped()
    transform.header.stamp = node.get_clock().now().to_msg()
    transform.header.frame_id = options.frame_id
    transform.child_frame_id = options.child_frame_id
    transform.transform.translation.x = options.x
    transform.transform.translation.y = options.y
    transform.transform.translation.z = options.z
    transform.transform.rotation.z = math.sin(options.yaw / 2)
    transform.transform.rotation.w = math.cos(options.yaw / 2)
    node.broadcaster = tf2_ros.StaticTransformBroadcaster(node)
    node.broadcaster.sendTransform(transform)
    return node


if __name__ == '__main__':
    serve(make_node)
