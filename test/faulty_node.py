"""
The IK node with bugs put in on purpose, for the tests of ``guard``.

Runs the package's own ``node.node.main`` after three faults are injected, each
set off by an input no real user sends: a target at x = 123 raises in the
solve (the target callback), a path of exactly three poses raises in the
path callback, and a runtime change of ``frame_prefix`` to ``boom/`` raises
in the parameter callback.  Everything else is the real node.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import functools

from twobone_ik_ros.node import node, paths


def _faulty(method, trigger):
    @functools.wraps(method)
    def run(self, *args):
        if trigger(*args):
            raise ZeroDivisionError('injected fault')
        return method(self, *args)
    return run


node.TwoBoneIKNode._solve = _faulty(node.TwoBoneIKNode._solve, lambda x, y, z, stamp: x == 123.0)
paths.PathFollower._follow = _faulty(paths.PathFollower._follow,
                                     lambda points, stamps, stamp: len(points) == 3)
node.TwoBoneIKNode._on_set_parameters = _faulty(
    node.TwoBoneIKNode._on_set_parameters,
    lambda parameters: any(p.name == 'frame_prefix' and p.value == 'boom/' for p in parameters))

if __name__ == '__main__':
    node.main()
