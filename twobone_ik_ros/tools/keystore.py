"""
Make the SROS2 keystore a launch of this package needs: ``twobone_ik_keystore``.

    ros2 run twobone_ik_ros twobone_ik_keystore KEYSTORE enclave:=/arm
        [--launch twobone_ik|control|demo] [name:=value ...]

The arguments are the launch file's, resolved as the launch resolves them,
so the keystore has an enclave ``<enclave>/<node>`` for each node that launch
starts.  The IK node's enclave gets the package's policy for its output
mode, namespace and remappings (``model.security``); the other nodes get
SROS2's default permissions (doc/security.md).  The artifacts are made by
``ros2 security generate_artifacts`` (sros2: refused in one line, exit 2,
where it is missing), signed for the ``ROS_DOMAIN_ID`` in force.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from typing import Dict, List, Optional, Sequence, Tuple

from twobone_ik_ros.bringup.arguments import defaults
from twobone_ik_ros.bringup.control_config import plan_control
from twobone_ik_ros.bringup.launch_config import defaults_of, LaunchError, plan_launch
from twobone_ik_ros.model.interface import NODE_NAME
from twobone_ik_ros.model.security import enclave_path, grants, policy

#: the launch files, by the name ``--launch`` takes
LAUNCHES = ('twobone_ik', 'control', 'demo')
#: the policy file written into the keystore's folder
POLICY_FILE = 'twobone_ik.policy.xml'


def plan(launch: str, given: Dict[str, str], ros_distro: str = '') -> Tuple[str, List[str]]:
    """
    Return the IK node's policy and every enclave the launch needs (LaunchError: none).

    Pure: what ``main`` hands to ``ros2 security generate_artifacts``.
    """
    values = defaults()
    if launch != 'twobone_ik':  # its defaults over twobone_ik.launch.py's
        values.update(defaults_of(f'{launch}.launch.py'))
    unknown = sorted(set(given) - set(values))
    if unknown:
        raise LaunchError(f'unknown launch argument(s): {", ".join(unknown)}')
    values.update(given)
    enclave = values['enclave'].strip()
    if not enclave:
        raise LaunchError('give enclave:=/<name>, the same as to the launch')
    if launch == 'control':
        control = plan_control(values, ros_distro, importable=lambda _: True)
        resolved = control.launch
        nodes = ['controller_manager'] + [f'spawner_{name}' for name in control.spawn]
    else:
        resolved = plan_launch(values, importable=lambda _: True)
        nodes = ['target_publisher'] if launch == 'demo' else []
    nodes = list(resolved.node_names()) + nodes
    config = resolved.config
    text = policy(enclave_path(enclave, NODE_NAME),
                  grants(config.output, config.robot_state_publisher, dict(resolved.remappings)),
                  namespace='/' + resolved.namespace)
    return text, [enclave_path(enclave, node) for node in nodes]


def _arguments(argv: Sequence[str]) -> Tuple[argparse.Namespace, Dict[str, str]]:
    parser = argparse.ArgumentParser(
        prog='twobone_ik_keystore',
        description='Make the SROS2 keystore a launch of twobone_ik_ros needs.')
    parser.add_argument('keystore', help='keystore folder (made if missing)')
    parser.add_argument('--launch', choices=sorted(LAUNCHES), default='twobone_ik',
                        help='the launch file the keystore is for (default: twobone_ik)')
    parser.add_argument('arguments', nargs='*', metavar='name:=value',
                        help="the launch's arguments, as given to ros2 launch")
    args = parser.parse_args(argv)
    given = {}
    for word in args.arguments:
        name, colon, value = word.partition(':=')
        if not colon:
            parser.error(f'{word!r} is not name:=value')
        given[name] = value
    return args, given


def ros2_security(program: str) -> str:
    """Return the ``ros2`` that has ``ros2 security``; without it, say so in one line, exit 2."""
    ros2 = shutil.which('ros2')
    if ros2 is None or subprocess.run([ros2, 'security', '--help'], capture_output=True,
                                      check=False).returncode != 0:
        print(f'{program}: `ros2 security` not found: install sros2 (ros-$ROS_DISTRO-sros2)',
              file=sys.stderr)
        sys.exit(2)
    return ros2


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Write the policy, then make the keystore's enclaves with ``ros2 security``."""
    args, given = _arguments(sys.argv[1:] if argv is None else argv)
    ros2 = ros2_security('twobone_ik_keystore')
    try:
        text, enclaves = plan(args.launch, given, os.environ.get('ROS_DISTRO', ''))
    except LaunchError as error:
        print(f'twobone_ik_keystore: {error}', file=sys.stderr)
        sys.exit(2)
    os.makedirs(args.keystore, exist_ok=True)
    policy_path = os.path.join(args.keystore, POLICY_FILE)
    with open(policy_path, 'w', encoding='utf-8') as out:
        out.write(text)
    # every enclave made with SROS2's defaults, then the IK node's permissions from its policy
    command = [ros2, 'security', 'generate_artifacts', '-k', args.keystore,
               '-p', policy_path, '-e', *enclaves]
    code = subprocess.run(command, check=False).returncode
    if code:
        sys.exit(code)
    print(f'twobone_ik_keystore: {args.keystore}: enclaves {" ".join(enclaves)}; the first '
          f'with the permissions of {policy_path}')


if __name__ == '__main__':
    main()
