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
The one place that fences in the test session's ROS traffic.

Every ROS process a test starts inherits these variables: discovery stays on
loopback, and the session talks in a DDS domain of its own, so two test runs
on one machine (or a user's robot on the same network) never hear each other.
"""

import os
import tempfile

_DOMAIN_ID = os.environ.get('TWOBONE_TEST_DOMAIN_ID') or str(1 + os.getpid() % 101)
os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
os.environ['ROS_DOMAIN_ID'] = _DOMAIN_ID
os.environ.pop('ROS_STATIC_PEERS', None)
os.environ['ROS_LOG_DIR'] = tempfile.mkdtemp(prefix='twobone_ik_test_log_')
# a node started by a test must find this checkout's package first
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.environ['PYTHONPATH'] = os.pathsep.join(
    [_ROOT] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p])


def pytest_report_header(config):
    """Show where this session's DDS traffic goes."""
    return (f'ROS_DOMAIN_ID={_DOMAIN_ID} '
            f'ROS_AUTOMATIC_DISCOVERY_RANGE={os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"]}')
