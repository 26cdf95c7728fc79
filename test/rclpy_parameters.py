"""
The parameters rclpy hands a node started with a parameter file, read in a process of its own.

    python rclpy_parameters.py NAMESPACES PATH...

prints, as JSON, one entry per file: {namespace: {name: value}} of a node
``twobone_ik`` in each of the comma-separated NAMESPACES, or null where rcl
refuses the file.  A process of its own because a context and nodes made
again and again in pytest's process, after other tests' rclpy, crashed it on
Humble (Fast DDS 2.6, a segmentation fault in ``Node.__init__``, once in CI).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import json
import subprocess
import sys

NODE = 'twobone_ik'
#: what rclpy declares on every node, at its default (the generated files set none of them)
BUILT_IN = {'use_sim_time': False, 'start_type_description_service': True}


def read(path, namespaces):
    """Return {namespace: parameters} rclpy gives a node started with ``path``, or None."""
    import rclpy
    from rclpy.node import Node
    from twobone_ik_ros.tools.harness import shut_down
    context = rclpy.Context()
    try:
        rclpy.init(context=context, args=['--ros-args', '--params-file', str(path)])
    except Exception:  # noqa: B902  (RCLError, whose module differs between releases)
        return None
    try:
        readings = {}
        for namespace in namespaces:
            node = Node(NODE, namespace='/' + namespace, context=context, enable_rosout=False,
                        start_parameter_services=False,
                        automatically_declare_parameters_from_overrides=True)
            readings[namespace] = {
                name: list(parameter.value) if isinstance(parameter.value, (list, tuple))
                or type(parameter.value).__name__ == 'array' else parameter.value
                for name, parameter in node.get_parameters_by_prefix('').items()
                if (name, parameter.value) not in BUILT_IN.items()}
            node.destroy_node()
        return readings
    finally:
        shut_down(context)


def readings(paths, namespaces):
    """Return ``read`` of each of ``paths``, from a process of its own."""
    done = subprocess.run([sys.executable, __file__, ','.join(namespaces), *map(str, paths)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


if __name__ == '__main__':
    names = sys.argv[1].split(',')
    print(json.dumps([read(path, names) for path in sys.argv[2:]]))
