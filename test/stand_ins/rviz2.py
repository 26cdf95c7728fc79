"""
Stand-in for rviz2, the one package the tests start that is not the real one.

rviz2 needs Qt and OGRE, which have no build for these machines (the wheels
give rclpy; a ROS install gives tf2, robot_state_publisher and ros2_control,
and the tests start those for real where they are installed).  What a test
needs of RViz is only what the launch file hands it, so this stand-in shows
exactly that.

Prints its command line (``-d``, ``-f`` and the remappings the launch file
gives it) so a test can read it in the launch output, then joins the graph as
node ``rviz2`` with those remappings: a MarkerArray display (transient local,
as the package's .rviz file sets it) and the Publish Point tool's publisher,
which stamps clicks with the fixed frame, as rviz2 does.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import sys

from geometry_msgs.msg import PointStamped
import rclpy
from rclpy.qos import DurabilityPolicy, QoSProfile
from twobone_ik_ros.tools.harness import serve
from visualization_msgs.msg import MarkerArray


def make_node():
    print('rviz2 stand-in argv: ' + ' '.join(sys.argv[1:]), flush=True)
    arguments = rclpy.utilities.remove_ros_args(sys.argv)
    fixed_frame = arguments[arguments.index('-f') + 1] if '-f' in arguments else 'map'
    node = rclpy.create_node('rviz2')
    received = []
    node.create_subscription(
        MarkerArray, '/markers', received.append,
        QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL))
    clicks = node.create_publisher(PointStamped, '/target', 10)
    node.create_timer(1.0, lambda: print(
        f'rviz2 stand-in: fixed frame {fixed_frame}, {len(received)} marker arrays, '
        f'clicks go to {clicks.topic_name}', flush=True))
    return node


if __name__ == '__main__':
    serve(make_node)
