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
Stand-in for tf2_ros, which cannot be installed without a ROS distribution.

Only what the node uses: ``Buffer.lookup_transform(target, source, time)`` and
``TransformListener(buffer, node)``.  The buffer knows one transform, from
``camera_link`` to ``base_link`` (a quarter turn about z, then a shift), and
raises ``LookupException`` for any other pair, as tf2 does.
"""

import math

from geometry_msgs.msg import TransformStamped

CAMERA_TO_BASE = {'translation': (0.5, -0.2, 0.3), 'yaw': math.pi / 2}


class LookupException(Exception):
    """Raised for a pair of frames the buffer has no transform between."""


class Buffer:
    """A tf2 buffer holding one static transform."""

    def lookup_transform(self, target_frame, source_frame, time, timeout=None):
        """Return the transform taking points in ``source_frame`` to ``target_frame``."""
        if (target_frame, source_frame) != ('base_link', 'camera_link'):
            raise LookupException(f'"{target_frame}" passed to lookupTransform argument '
                                  f'target_frame does not exist')
        transform = TransformStamped()
        transform.header.frame_id, transform.child_frame_id = target_frame, source_frame
        t = transform.transform.translation
        t.x, t.y, t.z = CAMERA_TO_BASE['translation']
        half = CAMERA_TO_BASE['yaw'] / 2
        transform.transform.rotation.z = math.sin(half)
        transform.transform.rotation.w = math.cos(half)
        return transform


class TransformListener:
    """Nothing to listen to: the buffer is static."""

    def __init__(self, buffer, node, *args, **kwargs):
        """Accept the arguments the real listener takes."""
        self.buffer = buffer
