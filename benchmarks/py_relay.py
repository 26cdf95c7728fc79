#!/usr/bin/env python3
"""
The Python floor of ``bench_control``: the C++ relay's work, in an rclpy node.

What ``cpp_relay`` does, as little Python as rclpy allows: each target is
taken as rclpy's message, solved by the law of cosines
(elbow up, a target out of reach clamped onto the ray) and answered with one
reused message with the target's stamp: a one-point JointTrajectory (the
goal, ``time_from_start`` 0.1 s) on ``joint_trajectory`` or a
Float64MultiArray on ``commands``, the IK node's QoS (reliable, depth 10).
It spins on the executor the node spins on by default (rclpy's
EventsExecutor where rclpy has it: the cheapest wake rclpy has), or on the
one ``TWOBONE_IK_EXECUTOR`` names, as the node does (``bench_control
--executors`` weighs the others).  No joint states, no
timers, no checks: what any Python node that answers a target with that
message costs at least.

Run by ``bench_control``: ``py_relay.py --ros-args -p output:=<output>``.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

R1, R2 = 1.0, 0.7


def main():
    import rclpy
    from geometry_msgs.msg import PointStamped
    from std_msgs.msg import Float64MultiArray
    from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint
    from twobone_ik_ros.ros.process import make_executor

    rclpy.init(args=sys.argv)
    node = rclpy.create_node('relay')
    output = node.declare_parameter('output', 'joint_trajectory').value
    if output == 'joint_trajectory':
        message = JointTrajectory(joint_names=['shoulder_joint', 'elbow_joint'])
        message.points = [JointTrajectoryPoint(positions=[0.0, 0.0])]
        message.points[0].time_from_start.nanosec = 100_000_000
        publisher = node.create_publisher(JointTrajectory, 'joint_trajectory', 10)
    else:
        message = Float64MultiArray(data=[0.0, 0.0])
        publisher = node.create_publisher(Float64MultiArray, 'commands', 10)
    point = message.points[0] if output == 'joint_trajectory' else None

    def solve(target):
        x, y = target.point.x, target.point.y
        reach = min(max(math.hypot(x, y), abs(R1 - R2)), R1 + R2)
        cosine = min(max((reach * reach - R1 * R1 - R2 * R2) / (2.0 * R1 * R2), -1.0), 1.0)
        theta2 = -math.acos(cosine)
        theta1 = math.atan2(y, x) - math.atan2(R2 * math.sin(theta2), R1 + R2 * math.cos(theta2))
        if point is not None:
            message.header.stamp = target.header.stamp
            point.positions = [theta1, theta2]
        else:
            message.data = [theta1, theta2]
        publisher.publish(message)

    node.create_subscription(PointStamped, 'target', solve, 10)
    executor = make_executor(node, os.environ.get('TWOBONE_IK_EXECUTOR', 'default'))
    try:
        while rclpy.ok(context=node.context):
            executor.spin_once(timeout_sec=0.5)
    except KeyboardInterrupt:
        pass
    finally:
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown()


if __name__ == '__main__':
    main()
