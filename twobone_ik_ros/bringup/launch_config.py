"""
What the launch files compute, as plain Python the tests can call directly.

The launch files keep only the wiring.  Here are the argument table (derived
from the node's parameter table), the resolution of a parameter file and the
command-line arguments into one validated configuration, and the list of
packages a launch needs, so that everything that can be wrong is found
before any process starts: each a function the launch tests call alone.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import atexit
from dataclasses import dataclass
import os
import shutil
import tempfile
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from twobone_ik_ros.bringup.parameter_file import ParameterFileError, parameters_for, parse
from twobone_ik_ros.model.config import IKConfig, validate
from twobone_ik_ros.model.dependencies import check, findable, MissingLibrary
from twobone_ik_ros.model.interface import NODE_NAME, Output, Role
from twobone_ik_ros.model.parameter_table import (
    as_double, DEFAULTS, PARAMETER_NAMES, PARAMETERS, SPECS)
from twobone_ik_ros.model.security import ros_arguments
from twobone_ik_ros.model.urdf import config_urdf

#: Node parameters that are also launch arguments (the table's ``launch``); an
#: empty value means "not given", so that the params_file (then the node's
#: default) applies.
NODE_ARGUMENTS = tuple(spec.name for spec in PARAMETERS if spec.launch)
BOOLEAN = ('true', 'false')
#: The topics and services under an action's name: remapped one by one as well
#: as the action, since rcl_action remaps action names only from Jazzy's rcl 9.2.8
#: and Kilted on (ros2/rcl#1170); Humble's takes just these.
ACTION_ENTITIES = ('_action/send_goal', '_action/cancel_goal', '_action/get_result',
                   '_action/feedback', '_action/status')


class LaunchError(RuntimeError):
    """A launch refused before it started anything; the message says what to change."""


@dataclass(frozen=True)
class LaunchArgument:
    """One ``DeclareLaunchArgument`` of ``launch/twobone_ik.launch.py``."""

    name: str
    default: str
    description: str
    choices: Tuple[str, ...] = ()


def _node_argument(name: str) -> LaunchArgument:
    spec = SPECS[name]
    default = DEFAULTS[name]
    if name == 'frame_prefix':
        fallback = "from params_file, else '<namespace>/' when a namespace is given, else none"
    else:
        fallback = f'from params_file, else {default!r}'
    choices = ('',) + spec.choices if spec.choices else ()
    return LaunchArgument(name, '', f'{spec.description} Empty: {fallback}.', choices)


LAUNCH_ARGUMENTS: Tuple[LaunchArgument, ...] = tuple(
    _node_argument(name) for name in NODE_ARGUMENTS) + (
    LaunchArgument('namespace', '', 'Namespace of the IK node and robot_state_publisher.'),
    LaunchArgument('target_topic', 'target',
                   'Topic the IK node takes targets from (relative names are namespaced); '
                   "RViz's Publish Point tool is remapped to it."),
    LaunchArgument('params_file', '',
                   'YAML parameter file for the IK node, for example config/twobone_ik.yaml '
                   'in the share folder that ros2 pkg prefix --share twobone_ik_ros prints. '
                   'Its values apply unless the same argument is given here.'),
    LaunchArgument('controller', '',
                   'Name of the controller a controller output commands: the node publishes '
                   'on <controller>/commands (forward_command) or <controller>/joint_trajectory '
                   '(joint_trajectory), or sends goals to <controller>/follow_joint_trajectory '
                   '(follow_joint_trajectory), in the namespace (so /<controller>/... without '
                   'one). Empty: no remapping, the node uses commands, joint_trajectory or '
                   'follow_joint_trajectory (control.launch.py passes '
                   + ' or '.join(dict.fromkeys(o.controller for o in Output if o.controller))
                   + ').'),
    LaunchArgument('robot_state_publisher', 'auto',
                   "Start robot_state_publisher with the arm's URDF (false when the arm's "
                   'own bringup already runs one). auto: true for output joint_states (with '
                   'tip_link, when description_file is given), false for the controller '
                   "outputs, whose arm's bringup runs one.",
                   ('auto',) + BOOLEAN),
    LaunchArgument('rviz', 'false',
                   "Start RViz looking at the arm's plane: down on the base frame's XY for the "
                   'arm r1 and r2 describe, along the shoulder axis for one from '
                   "description_file, with a grid in the tool's plane.", BOOLEAN),
    LaunchArgument('use_sim_time', 'false',
                   "Run every node started here on the /clock topic's time (a simulator's: "
                   'Gazebo, Isaac Sim, Webots) instead of the system clock; it overrides a '
                   'use_sim_time in params_file.', BOOLEAN),
    LaunchArgument('ros2_control', 'false',
                   'Add a <ros2_control> block (mock_components/GenericSystem, position '
                   'interfaces) to the URDF robot_state_publisher publishes, for a '
                   'controller_manager to read (control.launch.py sets it). With '
                   "description_file, the file's own block is used.", BOOLEAN),
    LaunchArgument('description_file', '',
                   "Your arm's URDF or xacro file (expanded with xacro): robot_state_publisher "
                   'publishes it, and the IK node reads the chain from base_frame to tip_link '
                   '(which it needs) from it. Empty: the arm r1 and r2 describe.'),
    LaunchArgument('description_args', '',
                   "xacro arguments for description_file, as on xacro's command line: "
                   "'name:=value other:=value'."),
    LaunchArgument('controllers_file', '',
                   'ros2_control controllers file for control.launch.py. Empty: the '
                   "package's config/controllers.yaml, its joints the arm's."),
    LaunchArgument('parent_frame', '',
                   'If given, tf2_ros static_transform_publisher places the arm (its '
                   'prefixed base_frame) in this frame at base_x, base_y, base_yaw.'),
    LaunchArgument('base_x', '0.0', 'x of the arm base in parent_frame, metres.'),
    LaunchArgument('base_y', '0.0', 'y of the arm base in parent_frame, metres.'),
    LaunchArgument('base_yaw', '0.0', 'Rotation of the arm base about z in parent_frame, rad.'),
    LaunchArgument('enclave', '',
                   'SROS2: run each node started here in the enclave <enclave>/<node name> '
                   '(--enclave), with the keystore and strategy of ROS_SECURITY_* in the '
                   'environment (doc/security.md). Empty: no security arguments.'),
)
ARGUMENT_NAMES = tuple(arg.name for arg in LAUNCH_ARGUMENTS)


@dataclass(frozen=True)
class ResolvedLaunch:
    """Everything a launch starts, resolved and validated."""

    config: IKConfig
    #: the IK node's parameters: the file first (for what the table does not
    #: know, such as QoS overrides), then every table parameter as resolved
    node_parameters: List[Any]
    robot_description: str
    namespace: str
    target_topic: str
    #: the IK node's remappings: target, and the controller output's topic
    remappings: Tuple[Tuple[str, str], ...]
    #: (package, the argument that turns it off, or how to install it) per package to start
    packages: Tuple[Tuple[str, str], ...]
    base_pose: Optional[Tuple[str, float, float, float]]
    #: every node started gets it (``with_clock``)
    use_sim_time: bool
    #: the user's description (description_file): its own <ros2_control> block, its joints
    from_file: bool = False
    #: SROS2: the enclaves' parent of every node started (empty: none)
    enclave: str = ''

    def with_clock(self, parameters: List[Any]) -> List[Any]:
        """Return a node's ``parameters`` with this launch's ``use_sim_time`` last (it wins)."""
        return parameters + [{'use_sim_time': self.use_sim_time}]

    def node_names(self) -> Tuple[str, ...]:
        """Return the names of the nodes this launch starts, the IK node's first."""
        packages = {package for package, _ in self.packages}
        return (NODE_NAME,) + tuple(name for name, starts in (
            ('robot_state_publisher', 'robot_state_publisher' in packages),
            ('base_placement', self.base_pose is not None),
            ('rviz2', 'rviz2' in packages)) if starts)

    def in_enclave(self, node: str) -> Optional[List[str]]:
        """Return the ROS arguments that run ``node`` in its enclave (None without one)."""
        return ros_arguments(self.enclave, node) or None


def resolve_launch(values: Mapping[str, str],
                   importable: Callable[[str], bool] = findable) -> ResolvedLaunch:
    """
    Resolve launch argument strings into what to start; raise LaunchError if anything is wrong.

    Precedence for each node parameter: the argument when given, else the
    value in ``params_file``, else the node's default.  The result is
    validated by the node's own ``validate``, so an invalid value is refused
    here with the message the node would give, before any process starts;
    so is an output whose libraries ``importable`` does not find (the
    node's one line, ``model.dependencies``).
    """
    namespace = values['namespace'].strip('/')
    params_file = values['params_file']
    description = read_description(values['description_file'], values['description_args'])
    from_file = read_parameter_file(params_file, NODE_NAME, namespace)
    resolved: Dict[str, Any] = dict(DEFAULTS)
    resolved.update({k: v for k, v in from_file.items() if k in PARAMETER_NAMES})
    if namespace and 'frame_prefix' not in from_file:
        resolved['frame_prefix'] = namespace + '/'
    for name in NODE_ARGUMENTS:
        if values[name] != '':
            resolved[name] = _typed(name, values[name])
    try:
        config = validate({name: as_double(name, value) for name, value in resolved.items()},
                          description)
    except ValueError as error:
        raise LaunchError(f'invalid parameters: {error}') from None
    _check_arm(config, description, values)
    try:
        check(config.output, importable)
    except MissingLibrary as error:
        raise LaunchError(str(error)) from None
    packages = [('twobone_ik_ros', '')]
    remappings = [('target', values['target_topic'])]
    if config.output.drives_controller and values['controller']:
        remappings += controller_remappings(config.output, values['controller'])
    rsp = values['robot_state_publisher']
    if rsp == 'true' or (rsp == 'auto' and not config.output.drives_controller
                         and (description is not None or not config.tip_link)):
        packages.append(('robot_state_publisher', 'robot_state_publisher:=false'))
    if values['rviz'] == 'true':
        packages.append(('rviz2', 'rviz:=false'))
    base_pose: Optional[Tuple[str, float, float, float]] = None
    if values['parent_frame']:
        packages.append(('tf2_ros', "parent_frame:=''"))
        base_pose = (values['parent_frame'], _float('base_x', values['base_x']),
                     _float('base_y', values['base_y']), _float('base_yaw', values['base_yaw']))
    return ResolvedLaunch(
        config=config,
        node_parameters=([params_file] if params_file else []) + [config.as_parameters()],
        robot_description=description if description is not None else config_urdf(
            config, values['ros2_control'] == 'true'),
        namespace=namespace,
        target_topic=values['target_topic'], remappings=tuple(remappings),
        packages=tuple(packages),
        base_pose=base_pose,
        use_sim_time=values['use_sim_time'] == 'true',
        from_file=description is not None, enclave=values['enclave'].strip())


def read_description(path: str, arguments: str) -> Optional[str]:
    """
    Return the URDF of ``path`` expanded by xacro with ``arguments`` (None: no file given).

    xacro expands a plain URDF to itself, so every file goes through it, as
    ``xacro`` on the command line does.  LaunchError if xacro is missing,
    the arguments are not ``name:=value`` words or the file does not expand.
    """
    if not path:
        if arguments:
            raise LaunchError('description_args needs description_file')
        return None
    mappings = {}
    for word in arguments.split():
        name, separator, value = word.partition(':=')
        if not separator or not name:
            raise LaunchError(f'description_args must be name:=value words, got {word!r}')
        mappings[name] = value
    try:
        import xacro
    except ImportError:
        raise LaunchError('description_file needs xacro: sudo apt install '
                          'ros-$ROS_DISTRO-xacro (or the rosdep commands of the README)') from None
    try:
        return str(xacro.process_file(path, mappings=mappings).toprettyxml(indent='  '))
    except Exception as error:  # noqa: B902  (xacro raises its own, XML's and OS errors)
        raise LaunchError(f'description_file {path!r} does not expand: '
                          f'{type(error).__name__}: {error}') from None


def _check_arm(config: IKConfig, description: Optional[str], values: Mapping[str, str]) -> None:
    """Refuse a launch whose arm the node could not use: say what to change."""
    if description is not None and not config.tip_link:
        raise LaunchError('description_file needs tip_link: the link of the description that '
                          'must reach the target')
    if config.tip_link and description is None and values['robot_state_publisher'] == 'true':
        raise LaunchError('robot_state_publisher:=true with tip_link needs description_file '
                          '(or robot_state_publisher:=false where your bringup runs one)')
    if description is not None and config.problem:
        raise LaunchError(f'description_file {values["description_file"]!r}: {config.problem}')


def controller_remappings(output: Output, controller: str) -> Tuple[Tuple[str, str], ...]:
    """
    Return the remappings of ``output``'s topic to the ``controller``'s (LaunchError if no name).

    Relative: ``/<namespace>/<controller>/<topic>``, where a namespaced
    controller_manager's controller listens.  An action's topics and
    services are remapped with it (``ACTION_ENTITIES``).
    """
    if not controller.strip('/') or any(c.isspace() for c in controller):
        raise LaunchError(f'controller must be a node name, got {controller!r}')
    name = output.topic
    inner = ACTION_ENTITIES if output.role is Role.SENDS_GOALS else ()
    return tuple((f'{name}/{entity}'.rstrip('/'),
                  f"{controller.rstrip('/')}/{name}/{entity}".rstrip('/'))
                 for entity in ('',) + inner)


#: demo.launch.py's defaults over the table's: RViz shows the demo
DEMO_DEFAULTS = {'rviz': 'true'}


def check_packages(packages: Tuple[Tuple[str, str], ...],
                   find: Optional[Callable[[str], str]] = None) -> None:
    """
    Raise LaunchError naming the first missing package and the argument that turns it off.

    ``find`` is ``ament_index_python.get_package_prefix`` unless given.
    """
    if find is None:
        from ament_index_python.packages import get_package_prefix
        find = get_package_prefix
    for package, turn_off in packages:
        try:
            find(package)
        except LookupError:  # PackageNotFoundError is a KeyError
            if turn_off.startswith('install'):
                hint = f'; {turn_off}'
            else:
                hint = f'; install it, or pass {turn_off}' if turn_off else ''
            raise LaunchError(f"package '{package}' not found{hint}") from None


def read_parameter_file(path: str, node_name: str = NODE_NAME,
                        namespace: str = '') -> Dict[str, Any]:
    """
    Return the node's parameters from a ROS 2 YAML parameter file ('' gives {}).

    The file is read as the node's rcl reads it (``parameter_file``): every
    section whose name matches the node's fully qualified name, wildcards
    included, in the file's order, with rcl's types.  A missing or
    unreadable file, or one rcl would refuse, raises LaunchError naming the
    path.
    """
    if not path:
        return {}
    try:
        with open(path, encoding='utf-8') as stream:
            text = stream.read()
    except OSError as error:
        raise LaunchError(f'params_file {path!r} cannot be read: {error.strerror}') from None
    except UnicodeDecodeError as error:
        raise LaunchError(f'params_file {path!r} is not text: {error}') from None
    try:
        return parameters_for(parse(text), node_name, namespace)
    except ParameterFileError as error:
        raise LaunchError(f'params_file {path!r} {error}') from None


def own_session() -> Dict[str, str]:
    """
    Return the ``Node`` arguments that start a C++ node in a session of its own.

    A terminal's Ctrl-C reaches every process of its group, and then the
    launch sends its own SIGINT: a C++ node took that second one after
    rclcpp had put back the default handler, and died (exit -2, "process
    has died").  ``setsid`` execs the node (same pid) out of the terminal's
    group, so the launch's SIGINT is the only one.  Nothing where there is
    no ``setsid``.
    """
    return {'prefix': 'setsid'} if shutil.which('setsid') else {}


def temporary_file(text: str, prefix: str, suffix: str) -> str:
    """Write ``text`` to a new file that is removed when the launch ends; return its path."""
    handle, path = tempfile.mkstemp(prefix=prefix, suffix=suffix)
    with os.fdopen(handle, 'w', encoding='utf-8') as stream:
        stream.write(text)
    atexit.register(os.unlink, path)
    return path


def declare_arguments(defaults: Optional[Mapping[str, str]] = None) -> List[Any]:
    """Return ``DeclareLaunchArgument`` actions for the table (``defaults`` replaces some)."""
    from launch.actions import DeclareLaunchArgument

    defaults = defaults or {}
    return [DeclareLaunchArgument(arg.name, default_value=defaults.get(arg.name, arg.default),
                                  description=arg.description,
                                  **({'choices': list(arg.choices)} if arg.choices else {}))
            for arg in LAUNCH_ARGUMENTS]


def launch_values(context: Any) -> Dict[str, str]:
    """Return the table's launch arguments as performed in a launch context."""
    from launch.substitutions import LaunchConfiguration

    return {arg.name: LaunchConfiguration(arg.name).perform(context) for arg in LAUNCH_ARGUMENTS}


def _typed(name: str, text: str) -> Any:
    """Convert a launch argument string to the node parameter's type."""
    return _float(name, text) if SPECS[name].kind == 'double' else text


def _float(name: str, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise LaunchError(f'launch argument {name} must be a number, got {text!r}') from None
