"""
SROS2 for the IK node: its access-control policy, its enclave, what is in force (pure Python).

A policy (SROS2's XML, version 0.2.0) names what one enclave's node may
publish, subscribe, serve, call and send goals to; ``ros2 security
generate_artifacts`` signs it, and DDS refuses the node any other topic.
The IK node's policy is built from the one list of its interface
(``model.interface.INTERFACE``, the rows of its output mode) and the
endpoints every rclpy node and tf2 listener make (``ROS_ENDPOINTS``), so the
two cannot drift apart.  Names are as the node resolves them (its namespace,
``~/``), with a launch's remappings (``resolve``).  doc/security.md.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple
from xml.sax.saxutils import escape, quoteattr

from twobone_ik_ros.model.interface import INTERFACE, NODE_NAME, Output, Role
from twobone_ik_ros.model.parameter_table import DEFAULTS

#: SROS2's policy format, as ``ros2 security generate_artifacts`` reads it (Humble on)
POLICY_VERSION = '0.2.0'
#: the parameter services rclpy gives every node (``~/`` its own), and the type description
#: service Jazzy's rclpy adds (Humble's has none: allowed, never made)
PARAMETER_SERVICES = tuple(f'~/{name}' for name in (
    'describe_parameters', 'get_parameter_types', 'get_parameters', 'list_parameters',
    'set_parameters', 'set_parameters_atomically', 'get_type_description'))
#: what rclpy and tf2 make for the node whatever its output: its log and parameter events,
#: the simulator's clock (``use_sim_time``), and tf2's listener
ROS_ENDPOINTS: Tuple[Tuple[str, Role], ...] = (
    ('/rosout', Role.PUBLISHES),
    ('/parameter_events', Role.PUBLISHES),
    ('/clock', Role.SUBSCRIBES),
    ('/tf', Role.SUBSCRIBES),
    ('/tf_static', Role.SUBSCRIBES),
)
#: SROS2's section for each role: element, its permission attribute, its items' element
_SECTIONS: Dict[Role, Tuple[str, str, str]] = {
    Role.PUBLISHES: ('topics', 'publish', 'topic'),
    Role.SUBSCRIBES: ('topics', 'subscribe', 'topic'),
    Role.SERVES: ('services', 'reply', 'service'),
    Role.CALLS: ('services', 'request', 'service'),
    Role.SENDS_GOALS: ('actions', 'call', 'action'),
}
#: the endpoints that only some outputs have (every other row: each output)
_ONLY_WITH: Dict[Tuple[str, Role], Tuple[Output, ...]] = {
    ('joint_states', Role.SUBSCRIBES): tuple(o for o in Output if o.drives_controller),
    ('reached', Role.PUBLISHES): tuple(o for o in Output if o.drives_controller),
    **{(output.topic, output.role): (output,) for output in Output},  # the outputs' own
}


@dataclass(frozen=True)
class Grant:
    """One name the node may use in one role."""

    name: str
    role: Role


def grants(output: Output, robot_state_publisher: str = str(DEFAULTS['robot_state_publisher']),
           remappings: Optional[Mapping[str, str]] = None) -> List[Grant]:
    """
    Return what the node with ``output`` may do: its interface's rows, then ROS's own.

    ``robot_state_publisher`` names the node whose ``set_parameters`` the
    IK node calls (its parameter of that name); ``remappings`` maps a
    relative name to the name a launch gives it.
    """
    remapped = dict(remappings or {})
    found = []
    for row in INTERFACE:
        if output not in _ONLY_WITH.get((row.name, row.role), tuple(Output)):
            continue
        name = row.name
        if row.role is Role.CALLS:  # the service of another node, by its parameter
            name = f'{robot_state_publisher}/{row.name}'
        found.append(Grant(remapped.get(name, name), row.role))
    found += [Grant(name, role) for name, role in ROS_ENDPOINTS]
    found += [Grant(name, Role.SERVES) for name in PARAMETER_SERVICES]
    return found


def policy(enclave: str, grants_of: Sequence[Grant], namespace: str = '/',
           node: str = NODE_NAME) -> str:
    """Return the SROS2 policy file of one enclave whose one node has ``grants_of``."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<policy version="{POLICY_VERSION}">', '  <enclaves>',
             f'    <enclave path={quoteattr(enclave)}>', '      <profiles>',
             f'        <profile ns={quoteattr(namespace or "/")} node={quoteattr(node)}>']
    for role in (Role.PUBLISHES, Role.SUBSCRIBES, Role.SERVES, Role.CALLS, Role.SENDS_GOALS):
        names = sorted({grant.name for grant in grants_of if grant.role is role})
        if names:
            section, permission, item = _SECTIONS[role]
            lines.append(f'          <{section} {permission}="ALLOW">')
            lines += [f'            <{item}>{escape(name)}</{item}>' for name in names]
            lines.append(f'          </{section}>')
    lines += ['        </profile>', '      </profiles>', '    </enclave>', '  </enclaves>',
              '</policy>', '']
    return '\n'.join(lines)


def shipped_policy(output: Output) -> str:
    """Return the package's policy for ``output``: the node as it names its endpoints."""
    return policy(enclave_path('/', NODE_NAME), grants(output))


def enclave_path(enclave: str, node: str) -> str:
    """Return the enclave of the process running ``node`` in a launch's ``enclave``."""
    return '/' + '/'.join(part for part in (*enclave.split('/'), node) if part)


def ros_arguments(enclave: str, node: str) -> List[str]:
    """Return the ROS arguments that run ``node`` in its enclave (none: no ``enclave``)."""
    return ['--enclave', enclave_path(enclave, node)] if enclave else []


@dataclass(frozen=True)
class SecurityState:
    """Whether SROS2 is on for this process, and how: what the node says at start."""

    enabled: bool
    strategy: str
    enclave: str
    keystore: str

    def describe(self) -> str:
        """Return it in one phrase, for the start-up log and diagnostics."""
        if not self.enabled:
            return 'off'
        return (f'on ({self.strategy or "Permissive"}, enclave {self.enclave or "/"}, '
                f'keystore {self.keystore or "unset"})')


def security_state(environ: Mapping[str, str], arguments: Iterable[str]) -> SecurityState:
    """
    Return SROS2's settings as rcl reads them: the environment, then ``--enclave``.

    rcl enables security when ``ROS_SECURITY_ENABLE`` is ``true``; the
    enclave is ``ROS_SECURITY_ENCLAVE_OVERRIDE`` if set, else the last
    ``--enclave`` (or ``-e``) of the ``--ros-args``, else the root.
    """
    enclave = ''
    words = list(arguments)
    inside = False
    for index, word in enumerate(words):
        if word == '--ros-args':
            inside = True
        elif word == '--':
            inside = False
        elif inside and word in ('--enclave', '-e') and index + 1 < len(words):
            enclave = words[index + 1]
    return SecurityState(
        enabled=environ.get('ROS_SECURITY_ENABLE', '') == 'true',
        strategy=environ.get('ROS_SECURITY_STRATEGY', ''),
        enclave=environ.get('ROS_SECURITY_ENCLAVE_OVERRIDE', '') or enclave,
        keystore=environ.get('ROS_SECURITY_KEYSTORE', ''))
