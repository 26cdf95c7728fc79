"""
What only the real C++ components can show: the arm measured, TF as robot_state_publisher makes it.

- ``control.launch.py`` as a user runs it (real controller_manager, mock
  hardware, joint_state_broadcaster, the commanded controller, RViz off):
  the arm's *measured* joint states carry the tool onto each target and to
  the end of a path, and Ctrl-C ends the launch with 0, leaving nothing.
- ``twobone_ik.launch.py`` with the real robot_state_publisher: after a burst
  of targets (faster than its ``publish_frequency`` throttle lets through)
  the TF of tool0 ends on the last one, because the node repeats the last
  solution with fresh stamps; and a runtime ``r1`` change reaches
  robot_state_publisher, which republishes ``robot_description`` (transient
  local) with the new length, and TF follows.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import math
import random

from control_harness import NOT_MATCHED_YET
from helpers import random_reachable
from parts import CONTROLLED_ARM, marks
import pytest
from rclpy.qos import DurabilityPolicy, QoSProfile
from ros_harness import assert_nothing_left, unique_name
from std_msgs.msg import String
from twobone_ik_ros.model.parameter_table import DEFAULTS
from twobone_ik_ros.model.urdf import arm_urdf

pytestmark = [pytest.mark.ros, *marks(*CONTROLLED_ARM, 'tf2')]

R1, R2 = DEFAULTS['r1'], DEFAULTS['r2']


def arc(count):
    """Return ``count`` points on an arc inside the default arm's reach."""
    return [(1.2 * math.cos(0.8 * i / (count - 1) - 0.4), 1.2 * math.sin(0.8 * i / (count - 1)
             - 0.4)) for i in range(count)]


@pytest.mark.parametrize('output', ['joint_trajectory', 'forward_command'])
def test_control_launch_moves_the_measured_arm_onto_each_target_and_along_a_path(
        controlled_arm, output):
    arm = controlled_arm(output, {'max_joint_velocity': 3.0}, arguments=['rviz:=false'])
    rng = random.Random(output)
    for i, (x, y) in enumerate([random_reachable(rng, R1, R2) for _ in range(5)]):
        arm.reach(x, y, resend=NOT_MATCHED_YET if i == 0 else '')
    path = arc(40)
    arm.send_path(path)
    arm.wait_until_tool_at(R1, R2, path[-1])
    assert arm.interrupt() == 0, arm.launch.output()
    assert_nothing_left(arm.name)


def launch_arm(launches, probe, *arguments):
    """Launch twobone_ik.launch.py (robot_state_publisher on) in a namespace; return a probe."""
    namespace = unique_name('rsp')
    launches('twobone_ik.launch.py', f'namespace:={namespace}', *arguments)
    viewer = probe(namespace=f'/{namespace}', tf=True)
    viewer.wait_for_node()
    return namespace, viewer


def test_after_a_quick_sequence_the_tf_of_tool0_ends_on_the_last_target(launches, probe):
    namespace, viewer = launch_arm(launches, probe)
    rng = random.Random('burst')
    targets = [random_reachable(rng, R1, R2) for _ in range(20)]
    for x, y in targets:  # stamped now by the node: closer together than the throttle
        viewer.send(x, y, frame_id='')
    base, tool = f'{namespace}/base_link', f'{namespace}/tool0'
    assert viewer.spin_until(
        lambda: math.dist(viewer.tool_position(base, tool), targets[-1]) < 1e-9, 15.0), \
        (viewer.tool_position(base, tool), targets[-1])


def test_a_runtime_r1_change_is_republished_by_robot_state_publisher_and_tf_follows(
        launches, probe):
    namespace, viewer = launch_arm(launches, probe)
    descriptions = []
    viewer.node.create_subscription(
        String, f'/{namespace}/robot_description', lambda msg: descriptions.append(msg.data),
        QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL))
    assert viewer.spin_until(lambda: descriptions, 15.0), 'no robot_description'
    assert descriptions[-1] == arm_urdf(R1, R2)
    assert viewer.set_parameters(r1=1.5)[0].successful
    assert viewer.spin_until(lambda: descriptions[-1] == arm_urdf(1.5, R2), 15.0)
    goal = (1.9, 0.6)  # out of reach before the change (1.99 > 1.7)
    viewer.send(*goal, frame_id='')
    base = f'{namespace}/base_link'
    assert viewer.spin_until(lambda: math.dist(
        viewer.tool_position(base, f'{namespace}/tool0'), goal) < 1e-9, 15.0)
    elbow = viewer.tool_position(base, f'{namespace}/link2')  # link2 starts at the elbow
    assert math.hypot(*elbow) == pytest.approx(1.5, abs=1e-12)
