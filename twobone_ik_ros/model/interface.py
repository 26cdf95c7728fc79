"""
The IK node's interface: one row per topic, service and action it has.

``INTERFACE`` is the table: a row names an endpoint (relative, so a
namespace or a remap moves it), what the node does with it, its type as the
graph names it, its QoS, and when it exists and what it carries.  The rows
of the outputs' own topics and action come from ``Output``, the table of the
values of the ``output`` parameter, each with its endpoint.  The node's
parts make every endpoint from its row, by name (``ros.endpoints``), so a
name, type or QoS is written here alone; README's topic table is written
from it (``bringup.generated``) and ``test/meta/test_docs.py`` holds that table
against the running node.  Pure Python: the launch side reads it too.
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
from enum import Enum
from typing import Dict, Tuple

#: the node's name, as ``twobone_ik_node`` and the launch files give it
NODE_NAME = 'twobone_ik'
#: the depth of every topic that keeps its last few messages
QUEUE_DEPTH = 10


class Qos(str, Enum):
    """An endpoint's QoS, by name (the table is read without rclpy: ``bringup.generated``)."""

    #: reliable, volatile, the last ``QUEUE_DEPTH`` messages
    DEFAULT = 'default'
    #: reliable, transient local, depth 1: what a late joiner must still get
    LATCHED = 'latched'
    #: best effort (takes both reliable and best-effort publishers), depth 5
    SENSOR_DATA = 'sensor data'
    #: rclpy's services' default
    SERVICE = 'service'


class Role(str, Enum):
    """What the node does with an endpoint."""

    SUBSCRIBES = 'in'
    PUBLISHES = 'out'
    CALLS = 'calls'
    SENDS_GOALS = 'action client'
    #: a service the node answers (rclpy's parameter services: not rows of the table)
    SERVES = 'serves'


@dataclass(frozen=True)
class Endpoint:
    """One topic, service or action of the node's."""

    name: str
    role: Role
    #: as the graph names it: ``geometry_msgs/msg/PointStamped``
    type: str  # noqa: A003  (the table's column, as ROS names it)
    qos: Qos
    #: when the node has it, and what goes over it: README's table writes the role, then this
    meaning: str

    @property
    def readme_type(self) -> str:
        """Return the type as README writes it (``geometry_msgs/PointStamped``)."""
        return self.type.replace('/msg/', '/')


#: What a controller output plans with: ruckig's moves, and paths timed by toppra (which
#: imports matplotlib) on scipy's splines (``dependencies.LIBRARIES``' modules).
ARM_LIBRARIES = ('ruckig', 'scipy', 'matplotlib', 'toppra')


class Output(str, Enum):
    """
    Where the solutions go: a display, or one of ros2_controllers' command topics.

    The table of the outputs, a member a row: the value of the ``output``
    parameter, which also names the module of its transport
    (``outputs.<value>``); its endpoint, the node's (relative) topic or
    action (a row of ``INTERFACE``); the controller ``control.launch.py``
    commands ('': none, a display); the modules it needs
    (``dependencies``).  The interface (``INTERFACE``, README's topics),
    the launch (``control_config``), the libraries (``dependencies.NEEDS``),
    the SROS2 permissions (``security``) and the modes (``outputs.modes``)
    derive from it; a new output is a row here and its transport's module.
    """

    _value_: str
    #: the node's (relative) topic or action, what it does with it, and what goes over it
    endpoint: Endpoint
    #: the controller control.launch.py commands by default ('': none, a display)
    controller: str
    #: the modules this output imports (``dependencies.LIBRARIES``' modules)
    needs: Tuple[str, ...]

    def __new__(cls, value: str, endpoint: Endpoint, controller: str,
                needs: Tuple[str, ...]) -> Output:
        """Make the member of ``value`` with its row."""
        member = str.__new__(cls, value)
        member._value_ = value
        member.endpoint, member.controller, member.needs = endpoint, controller, needs
        return member

    #: for robot_state_publisher
    JOINT_STATES = ('joint_states', Endpoint(
        'joint_states', Role.PUBLISHES, 'sensor_msgs/msg/JointState', Qos.DEFAULT,
        ' with `output:=joint_states`: `[θ1, θ2]` per target, stamped like it, repeated at '
        '`joint_state_rate`'), '', ())
    #: for forward_command_controller
    FORWARD_COMMAND = ('forward_command', Endpoint(
        'commands', Role.PUBLISHES, 'std_msgs/msg/Float64MultiArray', Qos.DEFAULT,
        ' with `output:=forward_command`: `[θ1, θ2]` streamed at `command_rate`'),
        'forward_position_controller', ARM_LIBRARIES)
    #: for joint_trajectory_controller
    JOINT_TRAJECTORY = ('joint_trajectory', Endpoint(
        'joint_trajectory', Role.PUBLISHES, 'trajectory_msgs/msg/JointTrajectory', Qos.DEFAULT,
        ' with `output:=joint_trajectory`: one trajectory per move or path'),
        'joint_trajectory_controller', ARM_LIBRARIES)
    #: for joint_trajectory_controller's action server
    FOLLOW_JOINT_TRAJECTORY = ('follow_joint_trajectory', Endpoint(
        'follow_joint_trajectory', Role.SENDS_GOALS, 'control_msgs/action/FollowJointTrajectory',
        Qos.SERVICE, ' with `output:=follow_joint_trajectory`'),
        'joint_trajectory_controller', ARM_LIBRARIES + ('control_msgs.action',))

    @property
    def topic(self) -> str:
        """Return the node's (relative) topic or action name."""
        return self.endpoint.name

    @property
    def role(self) -> Role:
        """Return what the node does with it (publishes, or sends goals)."""
        return self.endpoint.role

    @property
    def drives_controller(self) -> bool:
        """Tell whether this output commands a controller (and reads the arm's joint_states)."""
        return bool(self.controller)


INTERFACE: Tuple[Endpoint, ...] = (
    Endpoint('target', Role.SUBSCRIBES, 'geometry_msgs/msg/PointStamped', Qos.DEFAULT,
             ': the point the tip should reach (any frame tf2 can transform)'),
    Endpoint('path', Role.SUBSCRIBES, 'nav_msgs/msg/Path', Qos.DEFAULT,
             ': a whole path, solved in one call and timed as one move'),
    *(output.endpoint for output in Output),  # joint_states, then each controller's
    Endpoint('joint_states', Role.SUBSCRIBES, 'sensor_msgs/msg/JointState', Qos.SENSOR_DATA,
             " with a controller output: the arm's measured state"),
    Endpoint('reached', Role.PUBLISHES, 'geometry_msgs/msg/PointStamped', Qos.DEFAULT,
             ' with a controller output: the tool where the measured arm arrived, stamped like '
             'the target it answers'),
    Endpoint('elbow', Role.PUBLISHES, 'geometry_msgs/msg/PointStamped', Qos.DEFAULT,
             ', while subscribed: the elbow, stamped like the target'),
    Endpoint('markers', Role.PUBLISHES, 'visualization_msgs/msg/MarkerArray', Qos.LATCHED,
             ', transient local: the arm, the target, the reachable annulus'),
    Endpoint('robot_description', Role.SUBSCRIBES, 'std_msgs/msg/String', Qos.LATCHED,
             " with `tip_link` set: your arm's URDF, as robot_state_publisher publishes it "
             '(transient local)'),
    Endpoint('/diagnostics', Role.PUBLISHES, 'diagnostic_msgs/msg/DiagnosticArray',
             Qos.DEFAULT,
             ", 1 Hz: every input counted by outcome, the arm's state, the parameters"),
    Endpoint('set_parameters', Role.CALLS, 'rcl_interfaces/srv/SetParameters',
             Qos.SERVICE,
             " of the node `robot_state_publisher` names, when the node's own arm changes"),
)
_ROWS: Dict[Tuple[str, Role], Endpoint] = {(row.name, row.role): row for row in INTERFACE}


def endpoint(name: str, role: Role) -> Endpoint:
    """Return the row of ``name`` in ``role`` (KeyError: the node has no such endpoint)."""
    return _ROWS[(name, role)]


def readme_topics() -> str:
    """Return README's topic table: a row per topic or action, both directions in one."""
    rows = ['| topic | type | direction |', '| --- | --- | --- |']
    names = list(dict.fromkeys(row.name for row in INTERFACE if row.role is not Role.CALLS))
    for name in names:
        same = [row for row in INTERFACE if row.name == name]
        meaning = '; '.join(row.role.value + row.meaning for row in same)
        rows.append(f'| `{name}` | {same[0].readme_type} | {meaning} |')
    return '\n'.join(rows)
