"""
The node driving an arm whose measured state disagrees with what the node commanded.

Tried as a new user would: ``output:=joint_trajectory``, ``elbow:=closest``,
targets stepping round a circle of radius 1.2 (r1 1.0, r2 0.6, default
limits), and an arm (this test's) whose joint states carry positions only and
stand at each goal the moment its trajectory comes: each next target comes as
the node hears the arm there, mid-way through the move the node planned.
Every target is reached and answered; no move is refused or fails (one of 60
was, when the node took the measured position with its own move's velocity).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math

from geometry_msgs.msg import PointStamped
import pytest
from ros_harness import NodeProcess, Probe, unique_name
from sensor_msgs.msg import JointState
from trajectory_msgs.msg import JointTrajectory

pytest.importorskip('ruckig', reason='the controller outputs plan with ruckig')
pytestmark = pytest.mark.ros

JOINTS = ('shoulder_joint', 'elbow_joint')
TARGETS = 60
STATE_PERIOD_S = 0.01


def test_an_arm_standing_at_each_goal_has_every_target_of_a_circle_reached():
    namespace = '/' + unique_name('at_goal')
    node = NodeProcess('twobone_ik_ros.node.node', ros_args=[
        '-r', f'__ns:={namespace}', '-p', 'r1:=1.0', '-p', 'r2:=0.6', '-p', 'elbow:=closest',
        '-p', 'output:=joint_trajectory'])
    probe = Probe(namespace=namespace)
    arm = {'position': [0.0, 0.0]}
    reached = []
    try:
        graph = probe.node
        states = graph.create_publisher(JointState, f'{namespace}/joint_states', 10)

        def standing():  # positions only, stamped now: an arm at rest where it was put
            message = JointState(name=list(JOINTS), position=list(arm['position']))
            message.header.stamp = graph.get_clock().now().to_msg()
            states.publish(message)

        def goal(trajectory):  # at its last point the moment it comes
            arm['position'] = list(trajectory.points[-1].positions)
            standing()

        graph.create_timer(STATE_PERIOD_S, standing)
        graph.create_subscription(JointTrajectory, f'{namespace}/joint_trajectory', goal, 10)
        graph.create_subscription(PointStamped, f'{namespace}/reached', reached.append, 100)
        probe.wait_for_node()
        assert probe.diagnostics_when(lambda values: values.get('arm_state') not in
                                      (None, 'none yet'), 30.0)
        for step in range(TARGETS):
            angle = 2.0 * math.pi * step / TARGETS
            target = PointStamped()
            target.header.stamp.sec = 100 + step
            target.point.x, target.point.y = 1.2 * math.cos(angle), 1.2 * math.sin(angle)
            probe.target_pub.publish(target)
            assert probe.spin_until(
                lambda: any(m.header.stamp.sec == 100 + step for m in reached), 20.0), \
                (step, probe.latest_diagnostics()[1], node.output()[-2000:])
        values = probe.latest_diagnostics()[1]
        failed = {key: value for key, value in values.items()
                  if key.startswith('moves.failed') and value != '0'}
        assert not failed and values['internal_errors'] == '0', values
        assert int(values['moves.reached']) >= TARGETS, values
    finally:
        probe.close()
        assert node.stop() == 0, node.output()
