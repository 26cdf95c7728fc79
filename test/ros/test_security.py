"""
SROS2: the node's policies are its interface, and with Enforce only its enclaves reach it.

The policies (``model.security``) hold against the running node: every
topic, service and action it has on the graph, for each output mode, is
granted by its policy.  With a keystore from ``twobone_ik_keystore`` and
``ROS_SECURITY_STRATEGY=Enforce`` (a ROS install: its middleware has the DDS
security plugins, and sros2; the wheels' Fast DDS has none), under the real
``ros2 launch ... enclave:=``: an authorised publisher's targets are solved
and published; a participant without security gets no target to the node
and reads none of its joint_states, markers or diagnostics; one with keys
but no permission to publish ``target`` is refused; a parameter change
from outside the permitted enclaves is refused; a change of ``output`` to a
mode the enclave's permissions do not cover is refused naming SROS2, and
the node goes on as it was; the node without its keys,
or with a certificate another CA signed, or an expired one, refuses to
start (exit code and one line).  Each check has its control: the same
participant without security, against a node without it, gets through.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import datetime
import importlib.util
import os
import shutil
import subprocess
import sys
import time

from helpers import ROOT
import pytest
from twobone_ik_ros.bringup.launch_config import LaunchError
from twobone_ik_ros.model.interface import INTERFACE, Output, Role
from twobone_ik_ros.model.security import (
    enclave_path, grants, PARAMETER_SERVICES, policy, ros_arguments, ROS_ENDPOINTS,
    security_state, shipped_policy)
from twobone_ik_ros.tools.keystore import plan

PEER = os.path.join(ROOT, 'test', 'secure_peer.py')
SECURITY_VARIABLES = ('ROS_SECURITY_ENABLE', 'ROS_SECURITY_STRATEGY', 'ROS_SECURITY_KEYSTORE',
                      'ROS_SECURITY_ENCLAVE_OVERRIDE')


# -- the policies, pure

def granted(output, role):
    return {grant.name for grant in grants(output) if grant.role is role}


@pytest.mark.parametrize('output', list(Output))
def test_each_output_is_granted_its_own_command_and_no_other(output):
    published = granted(output, Role.PUBLISHES) | granted(output, Role.SENDS_GOALS)
    for other in Output:
        if other.drives_controller:
            assert (other.topic in published) == (other is output), (other, published)
    assert ('joint_states' in published) == (output is Output.JOINT_STATES)
    assert ('joint_states' in granted(output, Role.SUBSCRIBES)) == output.drives_controller
    assert ('reached' in published) == output.drives_controller


def test_every_row_of_the_interface_is_in_some_policy_and_rclpys_in_each():
    everything = {(grant.name, grant.role) for output in Output for grant in grants(output)}
    rows = {(row.name if row.role is not Role.CALLS else f'robot_state_publisher/{row.name}',
             row.role) for row in INTERFACE}
    assert rows <= everything
    for output in Output:
        assert set(ROS_ENDPOINTS) <= {(g.name, g.role) for g in grants(output)}
        assert set(PARAMETER_SERVICES) == granted(output, Role.SERVES)


def test_a_policy_names_the_launchs_names():
    text = policy(enclave_path('/arm', 'twobone_ik'),
                  grants(Output.FORWARD_COMMAND, 'rsp', {'commands': 'ctrl/commands',
                                                         'target': '/goals'}),
                  namespace='/left')
    assert '<enclave path="/arm/twobone_ik">' in text
    assert '<profile ns="/left" node="twobone_ik">' in text
    for name in ('ctrl/commands', '/goals', 'rsp/set_parameters', '~/set_parameters'):
        assert f'>{name}<' in text
    assert '>commands<' not in text and '>target<' not in text


def test_enclaves_and_their_arguments():
    assert enclave_path('/arm', 'twobone_ik') == '/arm/twobone_ik'
    assert enclave_path('arm/', 'rviz2') == '/arm/rviz2'
    assert enclave_path('/', 'twobone_ik') == '/twobone_ik'
    assert ros_arguments('', 'twobone_ik') == []
    assert ros_arguments('/arm', 'twobone_ik') == ['--enclave', '/arm/twobone_ik']


def test_what_the_node_says_of_security():
    off = security_state({}, ['node', '--ros-args', '--enclave', '/a'])
    assert not off.enabled and off.describe() == 'off'
    on = security_state({'ROS_SECURITY_ENABLE': 'true', 'ROS_SECURITY_STRATEGY': 'Enforce',
                         'ROS_SECURITY_KEYSTORE': '/ks'},
                        ['node', '--ros-args', '-r', '__ns:=/x', '--enclave', '/a/twobone_ik'])
    assert on.describe() == 'on (Enforce, enclave /a/twobone_ik, keystore /ks)'
    override = security_state({'ROS_SECURITY_ENABLE': 'true',
                               'ROS_SECURITY_ENCLAVE_OVERRIDE': '/o'}, ['node'])
    assert override.describe() == 'on (Permissive, enclave /o, keystore unset)'
    # an --enclave outside the ROS arguments is the program's, not rcl's
    assert security_state({'ROS_SECURITY_ENABLE': 'true'},
                          ['node', '--enclave', '/p']).enclave == ''


@pytest.mark.ros_launch  # the plan reads the launch files' arguments
def test_the_keystore_has_an_enclave_for_each_node_the_launch_starts():
    _, enclaves = plan('twobone_ik', {'enclave': '/arm', 'rviz': 'true',
                                      'parent_frame': 'world'})
    assert enclaves == ['/arm/twobone_ik', '/arm/robot_state_publisher', '/arm/base_placement',
                        '/arm/rviz2']
    text, enclaves = plan('control', {'enclave': '/arm', 'namespace': 'left',
                                      'output': 'forward_command'})
    assert enclaves == ['/arm/twobone_ik', '/arm/robot_state_publisher', '/arm/controller_manager',
                        '/arm/spawner_joint_state_broadcaster',
                        '/arm/spawner_forward_position_controller']
    assert '>forward_position_controller/commands<' in text and 'ns="/left"' in text
    _, enclaves = plan('demo', {'enclave': '/arm'})
    assert enclaves[-1] == '/arm/target_publisher'
    with pytest.raises(LaunchError, match='enclave:='):
        plan('twobone_ik', {})
    with pytest.raises(LaunchError, match='unknown launch argument'):
        plan('twobone_ik', {'enclave': '/a', 'colour': 'red'})


def test_the_shipped_policies_are_the_nodes_own_names():
    for output in Output:
        with open(os.path.join(ROOT, 'security', f'{output.value}.policy.xml')) as stream:
            assert stream.read() == shipped_policy(output)


def test_the_keystore_tool_without_sros2_is_refused_in_one_line(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path), PYTHONPATH=ROOT)
    done = subprocess.run([sys.executable, '-m', 'twobone_ik_ros.tools.keystore',
                           str(tmp_path / 'ks'), 'enclave:=/arm'],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done
    assert done.stderr.strip().count('\n') == 0 and 'install sros2' in done.stderr, done.stderr
    assert not (tmp_path / 'ks').exists()


# -- the policies against the running node

def on_the_graph(graph, namespace, prefix=''):
    """Return (name, Role) of everything node ``twobone_ik`` in ``namespace`` has."""
    node = 'twobone_ik'
    found = set()
    for role, method in ((Role.PUBLISHES, graph.get_publisher_names_and_types_by_node),
                         (Role.SUBSCRIBES, graph.get_subscriber_names_and_types_by_node),
                         (Role.SERVES, graph.get_service_names_and_types_by_node),
                         (Role.CALLS, graph.get_client_names_and_types_by_node)):
        found |= {(name, role) for name, _ in method(node, namespace)}
    return found


def resolve(grant, namespace, node='twobone_ik'):
    """Return a grant's name as the graph has it: namespaced, ``~/`` the node's."""
    name = grant.name
    if name.startswith('~/'):
        return f'{namespace}/{node}/{name[2:]}'
    return name if name.startswith('/') else f'{namespace}/{name}'


def allowed(found, output, namespace):
    """Tell whether ``found`` (name, Role) is granted (an action's entities are its name)."""
    name, role = found
    for grant in grants(output):
        full = resolve(grant, namespace)
        if grant.role is Role.SENDS_GOALS:
            if name.startswith(full + '/_action/') and role in (Role.CALLS, Role.SUBSCRIBES):
                return True
        elif full == name and grant.role is role:
            return True
    return False


#: each output on the graph (the action's where control_msgs is: no wheel has it, as test_docs)
GRAPH_CASES = [('joint_states', ['-p', 'tip_link:=tool0']),
               ('forward_command', ['-p', 'use_sim_time:=true']), ('joint_trajectory', [])] + (
    [('follow_joint_trajectory', [])] if importlib.util.find_spec('control_msgs') else [])


@pytest.mark.ros
@pytest.mark.parametrize('output,more', GRAPH_CASES)
def test_everything_the_running_node_has_is_in_its_policy(probe, output, more):
    """What Enforce would refuse the node at run time: an endpoint its policy does not grant."""
    from ros_harness import NodeProcess, unique_name
    namespace = '/' + unique_name('policy')
    node = NodeProcess('twobone_ik_ros.node.node',
                       ros_args=['-r', f'__ns:={namespace}', '-p', f'output:={output}', *more])
    listener = probe()
    try:
        found, steady = set(), 0
        deadline = time.monotonic() + 30.0
        while time.monotonic() < deadline and steady < 5:  # discovery comes bit by bit
            listener.spin_for(0.2)
            try:
                now = on_the_graph(listener.node, namespace)
            except Exception:  # noqa: B902  (not on the graph yet)
                continue
            steady = steady + 1 if now == found and (f'{namespace}/markers',
                                                     Role.PUBLISHES) in now else 0
            found = now
        assert (f'{namespace}/target', Role.SUBSCRIBES) in found, found
        refused = sorted(entry for entry in found if not allowed(entry, Output(output), namespace))
        assert not refused, f'not in the {output} policy: {refused}'
    finally:
        node.stop()


# -- Enforce under the real launch (the Humble lane)

def secure(keystore):
    return dict(os.environ, ROS_SECURITY_ENABLE='true', ROS_SECURITY_STRATEGY='Enforce',
                ROS_SECURITY_KEYSTORE=str(keystore))


def plain():
    return {key: value for key, value in os.environ.items() if key not in SECURITY_VARIABLES}


def peer(namespace, role, seconds, env, enclave=None):
    """Start ``secure_peer.py`` (its RESULT line: ``finish``)."""
    command = [sys.executable, PEER, namespace, role, str(seconds)]
    if enclave:
        command += ['--ros-args', '--enclave', enclave]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)


class Result(dict):
    """A peer's RESULT values; its whole output (``output``) in a failure's message only."""

    def __init__(self, values, output):
        super().__init__(values)
        self.output = output

    def __repr__(self):
        return super().__repr__() + ('' if 'RESULT ' in self.output else f' {self.output!r}')


def finish(process, timeout=90):
    """Return a peer's RESULT."""
    output, _ = process.communicate(timeout=timeout)
    line = next((line for line in output.splitlines() if line.startswith('RESULT ')), '')
    return Result((word.split('=', 1) for word in line.split()[1:]), output)


def ros2(*arguments, env=None):
    done = subprocess.run(['ros2', *arguments], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done
    return done.stdout


def wait_for(launch, text, timeout=60.0):
    deadline = time.monotonic() + timeout
    while text not in launch.output() and time.monotonic() < deadline:
        if launch.process.poll() is not None:
            break
        time.sleep(0.2)
    return text in launch.output()


RESTRICTED = """<?xml version="1.0" encoding="UTF-8"?>
<policy version="0.2.0">
  <enclaves>
    <enclave path="{enclave}">
      <profiles>
        <profile ns="{namespace}" node="secure_peer_talk">
          <topics publish="ALLOW"><topic>/rosout</topic><topic>/parameter_events</topic></topics>
          <topics subscribe="ALLOW"><topic>joint_states</topic></topics>
        </profile>
        <profile ns="{namespace}" node="secure_peer_set">
          <topics publish="ALLOW"><topic>/rosout</topic><topic>/parameter_events</topic></topics>
          <topics subscribe="ALLOW"><topic>joint_states</topic></topics>
        </profile>
      </profiles>
    </enclave>
  </enclaves>
</policy>
"""


def expired_certificate(keystore, folder):
    """Replace the certificate in ``folder`` by its CA's for the same key, expired yesterday."""
    from cryptography import x509
    from cryptography.hazmat.backends import default_backend
    from cryptography.hazmat.primitives import hashes, serialization
    ca_cert = x509.load_pem_x509_certificate(
        (keystore / 'public' / 'identity_ca.cert.pem').read_bytes(), default_backend())
    ca_key = serialization.load_pem_private_key(
        (keystore / 'private' / 'identity_ca.key.pem').read_bytes(), None, default_backend())
    key = serialization.load_pem_private_key((folder / 'key.pem').read_bytes(), None,
                                             default_backend())
    old = x509.load_pem_x509_certificate((folder / 'cert.pem').read_bytes(), default_backend())
    now = datetime.datetime.utcnow()
    cert = (x509.CertificateBuilder().subject_name(old.subject).issuer_name(ca_cert.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=30))
            .not_valid_after(now - datetime.timedelta(days=1))
            .sign(ca_key, hashes.SHA256(), default_backend()))
    (folder / 'cert.pem').write_bytes(cert.public_bytes(serialization.Encoding.PEM))


@pytest.mark.ros
@pytest.mark.sros2
@pytest.mark.ros_launch
@pytest.mark.ros2cli
def test_with_enforce_only_the_arms_enclaves_reach_the_node(launches, tmp_path):
    from ros_harness import unique_name
    name = unique_name('sros2')
    namespace, enclave = f'/{name}', f'/{name}'
    keystore = tmp_path / 'keystore'
    arm = ['twobone_ik.launch.py', f'namespace:={name}', 'robot_state_publisher:=false']
    # the documented command, then a peer's enclave (everything allowed) and a restricted one
    made = subprocess.run(['ros2', 'run', 'twobone_ik_ros', 'twobone_ik_keystore', str(keystore),
                           f'enclave:={enclave}', *arm[1:]], capture_output=True, text=True,
                          timeout=300)
    assert made.returncode == 0, made
    operator, restricted = f'{enclave}/operator', f'{enclave}/restricted'
    ros2('security', 'create_enclave', str(keystore), operator)
    ros2('security', 'create_enclave', str(keystore), restricted)
    (tmp_path / 'restricted.xml').write_text(RESTRICTED.format(enclave=restricted,
                                                               namespace=namespace))
    ros2('security', 'create_permission', str(keystore), restricted,
         str(tmp_path / 'restricted.xml'))
    report = []

    # control: the same plain participants against the node without security get through
    launch = launches(*arm, env=plain())
    assert wait_for(launch, 'security=off'), launch.output()
    talker, listener = peer(namespace, 'talk', 6, plain()), peer(namespace, 'listen', 9, plain())
    heard, said = finish(listener), finish(talker)
    report.append(f'without security: plain talker {said}, plain listener {heard}')
    assert int(heard['received']) > 0 and int(heard['joint_states']) > 0, report
    assert int(heard['markers']) > 0 and int(said['joint_states']) > 0, report
    assert finish(peer(namespace, 'set', 10, plain()))['successful'] == 'True'
    assert finish(peer(namespace, 'switch', 10, plain()))['successful'] == 'True'
    assert launch.interrupt() == 0

    launch = launches(*arm, f'enclave:={enclave}', env=secure(keystore))
    assert wait_for(launch, f'security=on (Enforce, enclave {enclave}/twobone_ik'), \
        launch.output()
    # a plain participant and one without permission for target: nothing reaches the node,
    # the plain one reads nothing of it; the authorised listener hears the node all along
    watcher = peer(namespace, 'listen', 14, secure(keystore), operator)
    outsider = peer(namespace, 'listen', 12, plain())
    talkers = [peer(namespace, 'talk', 8, plain()),
               peer(namespace, 'talk', 8, secure(keystore), restricted)]
    plain_said, restricted_said = (finish(talker) for talker in talkers)
    watched, outside = finish(watcher), finish(outsider)
    report.append(f'Enforce: plain talker {plain_said}; restricted talker {restricted_said}; '
                  f'authorised listener {watched}; plain listener {outside}')
    assert watched['received'] == '0' and int(watched['diagnostics']) > 0, report
    assert int(watched['markers']) > 0, report  # the node's latched markers: heard by keys
    assert all(int(outside[key]) == 0 for key in ('joint_states', 'markers', 'diagnostics')), \
        report
    assert int(plain_said.get('matched', 0)) == 0, report
    assert restricted_said['publisher'] == 'refused' or int(restricted_said['matched']) == 0, \
        report
    # the authorised publisher: solved, published
    talker = peer(namespace, 'talk', 6, secure(keystore), operator)
    watcher = peer(namespace, 'listen', 9, secure(keystore), operator)
    said, watched = finish(talker), finish(watcher)
    report.append(f'Enforce: authorised talker {said}; authorised listener {watched}')
    assert int(watched['received']) > 0 and int(said['joint_states']) > 0, report
    # parameters: refused from outside, answered to the operator
    assert finish(peer(namespace, 'set', 8, plain()))['service'] == 'unseen', report
    refused = finish(peer(namespace, 'set', 8, secure(keystore), restricted))
    assert refused.get('service') in ('unseen', 'refused'), refused
    assert finish(peer(namespace, 'set', 15, secure(keystore), operator))['successful'] == 'True'
    # another output at run time: its command topic is not in this enclave's permissions; the
    # change is refused naming SROS2, and the node goes on as it was
    switched = finish(peer(namespace, 'switch', 15, secure(keystore), operator))
    report.append(f'Enforce: output switched to forward_command: {switched}')
    assert switched['successful'] == 'False' and switched['names_security'] == 'True', report
    talker = peer(namespace, 'talk', 6, secure(keystore), operator)
    assert int(finish(talker)['joint_states']) > 0, report
    assert 'internal error' not in launch.output() and 'Traceback' not in launch.output()
    assert launch.interrupt() == 0
    print('\n'.join(report))

    # no keys for the enclave; another CA's certificate; an expired one: refused, in a line
    other = tmp_path / 'other'
    made = subprocess.run(['ros2', 'run', 'twobone_ik_ros', 'twobone_ik_keystore', str(other),
                           f'enclave:={enclave}', *arm[1:]], capture_output=True, text=True,
                          timeout=300)
    assert made.returncode == 0, made
    node_keys = keystore / 'enclaves' / enclave.strip('/') / 'twobone_ik'
    own = {pem: (node_keys / pem).read_bytes() for pem in ('cert.pem', 'key.pem')}
    for case in ('no keys', 'another CA', 'expired'):
        for pem, content in own.items():
            (node_keys / pem).write_bytes(content)
        if case == 'another CA':  # the same enclave's name, from another keystore
            for pem in own:
                shutil.copy(other / 'enclaves' / enclave.strip('/') / 'twobone_ik' / pem,
                            node_keys / pem)
        elif case == 'expired':
            expired_certificate(keystore, node_keys)
        which = f'{enclave}/nobody' if case == 'no keys' else enclave
        launch = launches(*arm, f'enclave:={which}', env=secure(keystore))
        code = launch.wait(timeout=60)
        output = launch.output()
        assert code != 0, (case, output)
        assert 'refused to start the node' in output, (case, output)
        assert 'Traceback' not in output, (case, output)
