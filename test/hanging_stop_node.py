"""
The IK node with a stop that never finishes, for the test of ``process.STOP_TIMEOUT``.

Runs the package's own ``node.node.main``; only destroying the node blocks
for good, as a middleware whose teardown hangs would.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import threading

from twobone_ik_ros.node import node


def _destroy_never_returns(self):
    threading.Event().wait()


node.TwoBoneIKNode.destroy_node = _destroy_never_returns

if __name__ == '__main__':
    node.main()
