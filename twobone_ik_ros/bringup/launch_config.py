"""
What the launch files compute before anything starts, as plain Python the tests call.

``plan_launch`` turns the arguments' values (``bringup.arguments``) and
``params_file`` into a ``LaunchPlan``: one validated configuration and the
packages to start, so the launch file's check refuses whatever is wrong
before a process starts.  The small functions below the plan are what the
launch files' ``Node`` actions read through ``bringup.actions.Computed``:
each takes the arguments' values and returns one string.
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
import functools
import os
import shutil
import tempfile
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from twobone_ik_ros.bringup.arguments import defaults, LaunchArgument, NODE_ARGUMENTS
from twobone_ik_ros.bringup.parameter_file import (
    fully_qualified_name, ParameterFileError, parameters_for, parse)
from twobone_ik_ros.model.config import IKConfig, validate
from twobone_ik_ros.model.dependencies import check, findable, MissingLibrary
from twobone_ik_ros.model.interface import NODE_NAME, Output, Role
from twobone_ik_ros.model.parameter_table import as_double, DEFAULTS, PARAMETER_NAMES, SPECS
from twobone_ik_ros.model.security import enclave_path
from twobone_ik_ros.model.urdf import config_urdf

#: The topics and services under an action's name: remapped one by one as well
#: as the action, since rcl_action remaps action names only from Jazzy's rcl 9.2.8
#: and Kilted on (ros2/rcl#1170); Humble's takes just these.
ACTION_ENTITIES = ('_action/send_goal', '_action/cancel_goal', '_action/get_result',
                   '_action/feedback', '_action/status')


class LaunchError(RuntimeError):
    """A launch refused before it started anything; the message says what to change."""


def launch_file(name: str) -> str:
    """Return the path of the package's launch file ``name``: beside the sources, or installed."""
    beside = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), 'launch', name)
    if os.path.exists(beside):
        return beside
    from ament_index_python.packages import get_package_share_directory
    return os.path.join(get_package_share_directory('twobone_ik_ros'), 'launch', name)


@functools.lru_cache(maxsize=None)
def launch_arguments(name: str = 'twobone_ik.launch.py') -> Tuple[LaunchArgument, ...]:
    """
    Return the arguments launch file ``name`` declares, its included files' after its own.

    As ``ros2 launch --show-args`` lists them (the first declaration of a
    name wins), read from the file itself (needs launch): the tests compare
    them with ``bringup.arguments``, tools read a file's own defaults.
    """
    from launch.launch_description_sources import get_launch_description_from_python_launch_file
    from launch.substitutions import TextSubstitution

    def text(argument: Any) -> str:
        # launch appends the choices to a description (Iron on): the description as written
        said = ' Valid choices are: ' + str(argument.choices)
        return str(argument.description).removesuffix(said) if argument.choices else \
            str(argument.description)

    description = get_launch_description_from_python_launch_file(launch_file(name))
    return tuple(LaunchArgument(
        argument.name,
        ''.join(part.text for part in argument.default_value
                if isinstance(part, TextSubstitution)),
        text(argument), tuple(argument.choices or ()))
        for argument in description.get_launch_arguments())


def defaults_of(name: str) -> Dict[str, str]:
    """Return the defaults launch file ``name`` gives other than twobone_ik.launch.py's."""
    arm = defaults()
    return {argument.name: argument.default for argument in launch_arguments(name)
            if argument.name in arm and arm[argument.name] != argument.default}


@dataclass(frozen=True)
class LaunchPlan:
    """What a launch starts and with what, its arguments resolved and validated."""

    config: IKConfig
    robot_description: str
    namespace: str
    #: the IK node's remappings: target, and the controller output's topic
    remappings: Tuple[Tuple[str, str], ...]
    #: (package, the argument that turns it off, or how to install it) per package to start
    packages: Tuple[Tuple[str, str], ...]
    base_pose: Optional[Tuple[str, float, float, float]]
    #: the user's description (description_file): its own <ros2_control> block, its joints
    from_file: bool = False

    def node_names(self) -> Tuple[str, ...]:
        """Return the names of the nodes this launch starts, the IK node's first."""
        packages = {package for package, _ in self.packages}
        return (NODE_NAME,) + tuple(name for name, starts in (
            ('robot_state_publisher', 'robot_state_publisher' in packages),
            ('base_placement', self.base_pose is not None),
            ('rviz2', 'rviz2' in packages)) if starts)

    def starts(self, package: str) -> bool:
        """Tell whether this launch starts a node of ``package``."""
        return any(name == package for name, _ in self.packages)


def plan_launch(values: Mapping[str, str],
                importable: Callable[[str], bool] = findable) -> LaunchPlan:
    """
    Resolve launch argument strings into what to start; raise LaunchError if anything is wrong.

    Precedence for each node parameter: the argument when given, else the
    value in ``params_file``, else the node's default.  The result is
    validated by the node's own ``validate``, so an invalid value is refused
    here with the message the node would give, before any process starts;
    so is an output whose libraries ``importable`` does not find (the
    node's one line, ``model.dependencies``).
    """
    space = namespace(values)
    params_file = values['params_file']
    description = read_description(values['description_file'], values['description_args'])
    from_file = read_parameter_file(params_file, NODE_NAME, space)
    resolved: Dict[str, Any] = dict(DEFAULTS)
    resolved.update({k: v for k, v in from_file.items() if k in PARAMETER_NAMES})
    if space and 'frame_prefix' not in from_file:
        resolved['frame_prefix'] = space + '/'
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
    # auto: the display's arm, or the URDF a controller_manager started beside reads
    # (ros2_control:=true); a controller output's own bringup runs one otherwise
    if rsp == 'true' or (rsp == 'auto' and (
            values['ros2_control'] == 'true' or not config.output.drives_controller
            and (description is not None or not config.tip_link))):
        packages.append(('robot_state_publisher', 'robot_state_publisher:=false'))
    if values['rviz'] == 'true':
        packages.append(('rviz2', 'rviz:=false'))
    base_pose: Optional[Tuple[str, float, float, float]] = None
    if values['parent_frame']:
        packages.append(('tf2_ros', "parent_frame:=''"))
        base_pose = (values['parent_frame'], _float('base_x', values['base_x']),
                     _float('base_y', values['base_y']), _float('base_yaw', values['base_yaw']))
    return LaunchPlan(
        config=config,
        robot_description=description if description is not None else config_urdf(
            config, values['ros2_control'] == 'true'),
        namespace=space,
        remappings=tuple(remappings),
        packages=tuple(packages),
        base_pose=base_pose,
        from_file=description is not None)


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


#: ``own_session()``, for the C++ nodes the launch files start
OWN_SESSION = own_session()


def namespaced(namespace: str, name: str) -> str:
    """Resolve a topic name the way a node in ``namespace`` will."""
    return name if name.startswith('/') else fully_qualified_name(name, namespace)


def arm_rviz_config(template: str, config: IKConfig) -> str:
    """Write the package's RViz configuration looking at ``config``'s arm (removed at exit)."""
    from twobone_ik_ros.bringup.rviz_config import plane_view, rviz_config
    import yaml

    with open(template, encoding='utf-8') as stream:
        configuration = rviz_config(yaml.safe_load(stream),
                                    plane_view(config.arm, config.frame_prefix))
    return temporary_file(yaml.safe_dump(configuration, sort_keys=False), 'twobone_ik_', '.rviz')


def temporary_file(text: str, prefix: str, suffix: str) -> str:
    """Write ``text`` to a new file that is removed when the launch ends; return its path."""
    handle, path = tempfile.mkstemp(prefix=prefix, suffix=suffix)
    with os.fdopen(handle, 'w', encoding='utf-8') as stream:
        stream.write(text)
    atexit.register(os.unlink, path)
    return path


def launch_values(context: Any) -> Dict[str, str]:
    """
    Return the arguments' values in a launch context, the defaults of those not set yet.

    A launch that includes twobone_ik.launch.py checks before the included
    file has declared its arguments.
    """
    return {**defaults(), **context.launch_configurations}


def _typed(name: str, text: str) -> Any:
    """Convert a launch argument string to the node parameter's type."""
    return _float(name, text) if SPECS[name].kind == 'double' else text


def _float(name: str, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise LaunchError(f'launch argument {name} must be a number, got {text!r}') from None


# What the launch files' Node actions read (``bringup.actions.Computed``): each
# takes the arguments' values and returns one string; the launch file's check
# has refused wrong values before any of them runs.

def planned(values: Mapping[str, str]) -> LaunchPlan:
    """
    Return ``plan_launch(values)``, computed once for the same values and files.

    A launch's Nodes read a dozen values off one plan, and with a
    description_file each plan runs xacro (a tenth of a second): a dozen made
    a launch seconds slower.  The key is the values and the size and time
    of description_file and params_file; a plan that raises is not kept.
    """
    return _planned(tuple(sorted(values.items())), _files_state(values))


@functools.lru_cache(maxsize=8)
def _planned(items: Tuple[Tuple[str, str], ...], files: Tuple[Any, ...]) -> LaunchPlan:
    return plan_launch(dict(items))


def _files_state(values: Mapping[str, str]) -> Tuple[Any, ...]:
    """Return (path, mtime, size) of the files a plan reads (None where there is none)."""
    state = []
    for name in ('description_file', 'params_file'):
        path = values.get(name, '')
        try:
            stat = os.stat(path) if path else None
        except OSError:
            stat = None
        state.append((path, stat.st_mtime_ns if stat else None, stat.st_size if stat else None))
    return tuple(state)


#: every topic and action entity a controller output may be remapped to its controller
CONTROLLER_TOPICS = tuple(dict.fromkeys(
    source for output in Output if output.drives_controller
    for source, _ in controller_remappings(output, '-')))


def namespace(values: Mapping[str, str]) -> str:
    """Return the namespace of every node the launch starts (no leading or trailing slash)."""
    return values['namespace'].strip('/')


def params_file(values: Mapping[str, str]) -> str:
    """
    Return the IK node's first parameter file: params_file as given, else one of no values.

    It goes first for what the table does not know (QoS overrides); the
    resolved values follow (``node_parameters_file``) and win.
    """
    return values['params_file'] or temporary_file(
        '/**:\n  ros__parameters: {}\n', 'twobone_ik_none_', '.yaml')


def node_parameters_file(values: Mapping[str, str]) -> str:
    """Write the IK node's resolved and validated parameters to a parameter file; its path."""
    import yaml

    parameters = planned(values).config.as_parameters()
    return temporary_file(yaml.safe_dump({'/**': {'ros__parameters': parameters}}),
                          'twobone_ik_', '.yaml')


def robot_description(values: Mapping[str, str]) -> str:
    """Return the arm's URDF: the one r1 and r2 make, or description_file through xacro."""
    return planned(values).robot_description


def starts(values: Mapping[str, str], package: str) -> str:
    """Return ``'true'`` if the launch starts a node of ``package`` (for ``IfCondition``)."""
    return str(planned(values).starts(package)).lower()


def frame(values: Mapping[str, str]) -> str:
    """Return the arm's base frame, prefixed: the fixed frame of RViz and of the base pose."""
    return planned(values).config.frame


def frame_prefix(values: Mapping[str, str]) -> str:
    """Return the frame prefix robot_state_publisher puts before the URDF's links."""
    return planned(values).config.frame_prefix


def arm_length(values: Mapping[str, str], name: str) -> str:
    """Return link length ``name`` (r1 or r2) as resolved, for the demo's target source."""
    return repr(float(getattr(planned(values).config, name)))


def remapped(values: Mapping[str, str], name: str) -> str:
    """
    Return what the IK node's ``name`` (one of ``CONTROLLER_TOPICS``) is remapped to.

    The controller's topic when a controller output commands ``controller``
    and ``name`` is that output's, else ``name`` itself (a remapping that
    changes nothing).
    """
    return dict(planned(values).remappings).get(name, name)


def enclave(values: Mapping[str, str], node: str) -> str:
    """Return the enclave of ``node`` (``--enclave``): rcl's root ``/`` without ``enclave``."""
    given = values['enclave'].strip()
    return enclave_path(given, node) if given else '/'


def rviz_config(values: Mapping[str, str]) -> str:
    """Return the RViz configuration: the package's, or one looking at a description's plane."""
    from ament_index_python.packages import get_package_share_directory

    config = os.path.join(get_package_share_directory('twobone_ik_ros'), 'rviz',
                          'twobone_ik.rviz')
    plan = planned(values)
    if plan.config.arm.from_description:  # looking at its plane, not at the base's XY
        config = arm_rviz_config(config, plan.config)
    return config


#: the topics the package's .rviz file names: remapped to this arm's
RVIZ_TOPICS = ('/target', '/markers', '/robot_description')


def rviz_topic(values: Mapping[str, str], topic: str) -> str:
    """Return this arm's topic for RViz's ``topic`` (``RVIZ_TOPICS``), namespaced."""
    name = values['target_topic'] if topic == '/target' else topic.lstrip('/')
    return namespaced(namespace(values), name)
