"""
A participant of its own for test_security: secure or plain, as its environment says.

    python secure_peer.py NAMESPACE ROLE SECONDS [--ros-args --enclave /x]

Roles (each prints one line ``RESULT key=value ...`` before it ends):

- ``talk``: publishes targets on NAMESPACE/target for SECONDS (or says it
  was refused its publisher) and counts what it heard on joint_states;
- ``listen``: counts, for SECONDS, the node's joint_states, markers and
  diagnostics, and says the last ``received`` the diagnostics reported;
- ``set``: asks the node to set ``r1`` to 1.25, waiting SECONDS for its
  parameter service, and says what came back (or that its client was
  refused);
- ``switch``: the same, setting ``output`` to ``forward_command``, and says
  whether the node's reason names SROS2 (``security=on``).

A participant SROS2 refuses outright (no keys, a certificate that does not
verify) prints ``RESULT init=refused`` with rcl's words, exit code 3.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import sys
import time


def result(**values):
    """Print the one RESULT line (spaces in a value become underscores)."""
    print('RESULT ' + ' '.join(f"{key}={str(value).replace(' ', '_')}"
                               for key, value in values.items()), flush=True)


def main():
    ros_args = sys.argv[sys.argv.index('--ros-args'):] if '--ros-args' in sys.argv else []
    namespace, role, seconds = sys.argv[1:4]
    seconds = float(seconds)
    import rclpy
    try:
        rclpy.init(args=['secure_peer'] + ros_args)
        node = rclpy.create_node(f'secure_peer_{role}', namespace=namespace,
                                 start_parameter_services=False)
    except Exception as error:  # noqa: B902  (rcl's error, whatever its class)
        result(init='refused', error=str(error).split(', at ')[0])
        sys.exit(3)
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import PointStamped
    from sensor_msgs.msg import JointState
    from visualization_msgs.msg import MarkerArray
    heard = {'joint_states': 0, 'markers': 0, 'diagnostics': 0}
    received = ['-']

    def on_diagnostics(message):
        for status in message.status:
            if status.name.startswith(namespace.strip('/') + '/twobone_ik'):
                heard['diagnostics'] += 1
                received[0] = {v.key: v.value for v in status.values}.get('received', '-')

    def count(key):
        return lambda _: heard.__setitem__(key, heard[key] + 1)

    node.create_subscription(JointState, 'joint_states', count('joint_states'), 10)
    deadline = time.monotonic() + seconds
    if role == 'talk':
        try:
            publisher = node.create_publisher(PointStamped, 'target', 10)
        except Exception as error:  # noqa: B902
            result(publisher='refused', error=str(error).split(', at ')[0])
            return
        sent = 0
        while time.monotonic() < deadline:
            message = PointStamped()
            message.header.frame_id = ''  # the arm's base frame
            message.point.x, message.point.y = 1.0 + 0.1 * (sent % 5), 0.5
            publisher.publish(message)
            sent += 1
            rclpy.spin_once(node, timeout_sec=0.1)
        result(publisher='created', sent=sent, matched=publisher.get_subscription_count(),
               joint_states=heard['joint_states'])
    elif role == 'listen':
        node.create_subscription(MarkerArray, 'markers', count('markers'),
                                 rclpy.qos.QoSProfile(depth=1, durability=rclpy.qos.
                                                      DurabilityPolicy.TRANSIENT_LOCAL))
        node.create_subscription(DiagnosticArray, '/diagnostics', on_diagnostics, 10)
        while time.monotonic() < deadline:
            rclpy.spin_once(node, timeout_sec=0.1)
        result(received=received[0], **heard)
    else:
        from rcl_interfaces.msg import Parameter, ParameterType
        from rcl_interfaces.srv import SetParameters
        try:
            client = node.create_client(SetParameters, 'twobone_ik/set_parameters')
        except Exception as error:  # noqa: B902
            result(service='refused', error=str(error).split(', at ')[0])
            return
        if not client.wait_for_service(timeout_sec=seconds):
            result(service='unseen')
            return
        request = SetParameters.Request()
        if role == 'switch':
            parameter = Parameter(name='output')
            parameter.value.type = ParameterType.PARAMETER_STRING
            parameter.value.string_value = 'forward_command'
        else:
            parameter = Parameter(name='r1')
            parameter.value.type = ParameterType.PARAMETER_DOUBLE
            parameter.value.double_value = 1.25
        request.parameters = [parameter]
        future = client.call_async(request)
        rclpy.spin_until_future_complete(node, future, timeout_sec=seconds)
        if future.done():
            answer = future.result().results[0]
            result(service='answered', successful=answer.successful,
                   names_security='security=on' in answer.reason)
        else:
            result(service='unanswered')
    node.destroy_node()
    rclpy.try_shutdown()


if __name__ == '__main__':
    main()
