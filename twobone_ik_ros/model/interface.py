"""
The IK node's interface: one row per topic, service and action it has.

``INTERFACE`` is the table: a row names an endpoint (relative, so a
namespace or a remap moves it), what the node does with it, its type as the
graph names it, its QoS, and when it exists and what it carries.  The node's
parts make every endpoint from its row, by name (``ros.endpoints``), so a
name, type or QoS is written here alone; README's topic table is written
from it (``bringup.generated``) and ``test/test_docs.py`` holds that table
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


INTERFACE: Tuple[Endpoint, ...] = (
    Endpoint('target', Role.SUBSCRIBES, 'geometry_msgs/msg/PointStamped', Qos.DEFAULT,
             ': the point the tip should reach (any frame tf2 can transform)'),
    Endpoint('path', Role.SUBSCRIBES, 'nav_msgs/msg/Path', Qos.DEFAULT,
             ': a whole path, solved in one call and timed as one move'),
    Endpoint('joint_states', Role.PUBLISHES, 'sensor_msgs/msg/JointState', Qos.DEFAULT,
             ' with `output:=joint_states`: `[θ1, θ2]` per target, stamped like it, repeated at '
             '`joint_state_rate`'),
    Endpoint('joint_states', Role.SUBSCRIBES, 'sensor_msgs/msg/JointState', Qos.SENSOR_DATA,
             " with a controller output: the arm's measured state"),
    Endpoint('commands', Role.PUBLISHES, 'std_msgs/msg/Float64MultiArray', Qos.DEFAULT,
             ' with `output:=forward_command`: `[θ1, θ2]` streamed at `command_rate`'),
    Endpoint('joint_trajectory', Role.PUBLISHES, 'trajectory_msgs/msg/JointTrajectory',
             Qos.DEFAULT, ' with `output:=joint_trajectory`: one trajectory per move or path'),
    Endpoint('follow_joint_trajectory', Role.SENDS_GOALS,
             'control_msgs/action/FollowJointTrajectory', Qos.SERVICE,
             ' with `output:=follow_joint_trajectory`'),
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
