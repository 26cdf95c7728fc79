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
Targets in other frames, with tf2 present (a stand-in: tf2_ros cannot be installed here).

The node runs in its own process, namespaced, with ``test/stand_ins`` on its
PYTHONPATH so that ``import tf2_ros`` finds a buffer that knows one transform.
Everything else is real: the node's lookup, the quaternion arithmetic, DDS.
"""

import math
import os

import pytest

from ros_harness import NodeProcess, Probe
from twobone_ik_ros.solver import forward

pytestmark = pytest.mark.ros

STAND_INS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'stand_ins')
NAMESPACE = '/frames_test'


@pytest.fixture(scope='module')
def probe():
    saved = os.environ['PYTHONPATH']
    os.environ['PYTHONPATH'] = STAND_INS + os.pathsep + saved
    try:
        node = NodeProcess('twobone_ik_ros.node',
                           ros_args=['-r', f'__ns:={NAMESPACE}', '-p', 'r1:=1.0', '-p', 'r2:=1.0'])
    finally:
        os.environ['PYTHONPATH'] = saved
    probe = Probe(namespace=NAMESPACE, name='frames_probe')
    probe.node_process = node
    try:
        probe.wait_for_node()
        yield probe
    finally:
        probe.close()
        node.stop()


def test_target_in_a_known_frame_is_transformed_into_the_base_frame(probe):
    # camera (1.5, 0, 0.7) -> quarter turn about z -> (0, 1.5) -> + (0.5, -0.2)
    probe.send(1.5, 0.0, 0.7, frame_id='camera_link', stamp_id=11)
    assert probe.spin_until(lambda: any(js.header.stamp.sec == 11 for js in probe.joint_states))
    answer = next(js for js in probe.joint_states if js.header.stamp.sec == 11)
    _, tip = forward(1.0, 1.0, *answer.position)
    assert math.dist(tip, (0.5, 1.3)) <= 1e-9


def test_target_in_a_frame_without_transform_is_rejected_naming_both(probe):
    probe.send(1.0, 0.0, frame_id='map', stamp_id=12)
    probe.spin_for(0.5)
    assert not any(js.header.stamp.sec == 12 for js in probe.joint_states)
    _, values = probe.latest_diagnostics()
    assert int(values['rejected.unknown_frame']) == 1
    output = probe.node_process.output()
    assert "'map'" in output and "'base_link'" in output and 'LookupException' in output
