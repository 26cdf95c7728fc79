"""
The ROS parts a test may need beyond PyPI and Debian: one marker each, and how to tell.

PyPI's ROS wheels bring rclpy, Fast DDS and the message packages; a ROS
install (Humble through Rolling, after ``rosdep install``) brings the rest.
Each part here is a pytest marker: a test that needs the part carries it
(at the test or its module), and ``conftest.py`` skips it where the part is
missing, counts it, and says at the end of the run how many tests each
missing part held back.  ``TWOBONE_REQUIRE=all`` (or a comma-separated list
of parts) makes a missing part fail its tests instead, for a full ROS install.

``FIXTURE_PARTS`` says what the suite's fixtures start: a test that asks for
one of them must carry its parts' markers (checked at collection), so no
test finds out at run time that its part is missing.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from dataclasses import dataclass
import functools
import importlib.metadata
import importlib.util
import os
import shutil


@dataclass(frozen=True)
class Part:
    """A ROS part: what it is, and the modules, ament packages or commands that show it."""

    what: str
    modules: tuple = ()
    packages: tuple = ()
    commands: tuple = ()
    #: the distributions (any of them) that make it present, by PyPI name
    distributions: tuple = ()
    #: an environment variable naming a folder that must hold ``folder_file``
    folder_variable: str = ''
    folder_file: str = ''

    def missing(self):
        """Return what of this part is not found here (empty when it is present)."""
        gone = [name for name in self.modules if not _module_found(name)]
        gone += [name for name in self.packages if not _ament_package_found(name)]
        gone += [f'the {name} command' for name in self.commands if shutil.which(name) is None]
        if self.distributions and not any(map(_distribution_found, self.distributions)):
            gone.append(' or '.join(self.distributions))
        if self.folder_variable:
            folder = os.environ.get(self.folder_variable, '')
            if not os.path.isfile(os.path.join(folder, self.folder_file)):
                gone.append(f'{self.folder_variable} (a folder with {self.folder_file})')
        return gone


#: marker -> part; the markers of setup.cfg's ``[tool:pytest]`` are tested against these
PARTS = {
    'ros_launch': Part(
        'launch, launch_ros, launch_xml and launch_pytest as Python libraries',
        # the checkout's own launch/ folder is an importable namespace: look for a module in it
        modules=('launch.actions', 'launch_ros.actions', 'launch_xml', 'launch_pytest')),
    'ros2cli': Part('the ros2 command with its launch, run and param verbs',
                    modules=('ros2cli', 'ros2launch', 'ros2run', 'ros2param'),
                    commands=('ros2',)),
    'tf2': Part('tf2_ros: its Python module (tf2_ros_py) and static_transform_publisher',
                modules=('tf2_ros',), packages=('tf2_ros',)),
    'robot_state_publisher': Part('robot_state_publisher (C++)',
                                  packages=('robot_state_publisher',)),
    'ros2_control': Part(
        'controller_manager, joint_state_broadcaster, forward_command_controller and '
        'joint_trajectory_controller with mock hardware (C++)',
        packages=('controller_manager', 'joint_state_broadcaster', 'forward_command_controller',
                  'joint_trajectory_controller', 'hardware_interface')),
    'control_msgs': Part("control_msgs' Python messages", modules=('control_msgs.msg',)),
    'sros2': Part('sros2 and a middleware with the DDS security plugins',
                  modules=('sros2',), commands=('ros2',)),
    'rosdistro': Part('a snapshot of ros/rosdistro for the real rosdep, offline',
                      folder_variable='TWOBONE_ROSDISTRO', folder_file='index-v4.yaml'),
    'pinocchio': Part('pinocchio, the independent URDF reader', modules=('pinocchio',)),
    'ros_wheels': Part(
        "PyPI's ROS wheels in this Python (the plain-ROS test builds a venv of them)",
        distributions=('ros-rclpy', 'ros-jazzy-rclpy')),
}

#: fixture -> the parts what it starts needs
FIXTURE_PARTS = {
    'launches': ('ros_launch', 'ros2cli'),
    'rosdep': ('rosdistro',),
}


def _module_found(name):
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:  # a parent that is not a package (the checkout's launch/ namespace)
        return False


def _ament_package_found(name):
    try:
        from ament_index_python.packages import get_package_prefix
        get_package_prefix(name)
    except (ImportError, LookupError, OSError):  # OSError: no AMENT_PREFIX_PATH at all
        return False
    return True


def _distribution_found(name):
    try:
        importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


@functools.lru_cache(maxsize=None)
def missing(marker):
    """Return what of part ``marker`` is not found here (empty: present); cached per session."""
    return tuple(PARTS[marker].missing())


def required(setting):
    """Return the parts ``TWOBONE_REQUIRE`` (``all``, or names by commas) says must be present."""
    names = {name.strip() for name in setting.split(',') if name.strip()}
    if 'all' in names:
        return set(PARTS)
    unknown = names - set(PARTS)
    if unknown:
        raise ValueError(f'TWOBONE_REQUIRE names no part {", ".join(sorted(unknown))}: '
                         f'the parts are {", ".join(PARTS)}, or all')
    return names


def launch_fixture(function):
    """
    Return launch_pytest's ``fixture(function)``, or a plain fixture where it is missing.

    Where it is missing, the tests of such a fixture are skipped by their
    ``ros_launch`` marker before any fixture is set up, so the plain one never runs.
    """
    if not missing('ros_launch'):
        import launch_pytest
        return launch_pytest.fixture(function)
    import pytest
    return pytest.fixture(function)


def marks(*markers):
    """Return the pytest markers of the parts named, for a module's ``pytestmark``."""
    import pytest
    unknown = set(markers) - set(PARTS)
    assert not unknown, f'no part {unknown} in parts.PARTS'
    return [getattr(pytest.mark, marker) for marker in markers]


def needs(*markers):
    """Return a decorator that marks a test with each part named."""
    def marked(test):
        for mark in marks(*markers):
            test = mark(test)
        return test
    return marked


#: what ``controlled_arm`` starts on the real controllers: ``ros2 launch`` of control.launch.py,
#: controller_manager and the controllers (with mock hardware), robot_state_publisher; the
#: harness reads control_msgs' messages
CONTROLLED_ARM = ('ros_launch', 'ros2cli', 'robot_state_publisher', 'ros2_control',
                  'control_msgs')
#: the controllers ``controlled_arm`` starts: the real ones (``CONTROLLED_ARM``), or the
#: stand-in that follows their documented behaviour (test/stand_ins/ros2_control.py)
CONTROLLERS = ('real', 'stand_in')


def on(controllers, *values):
    """
    Return a case of a ``controlled_arm`` test on ``controllers`` (``CONTROLLERS``).

    For ``pytest.mark.parametrize('controllers, ...', [...], indirect=['controllers'])``:
    a case on the real controllers carries their parts' markers.
    """
    import pytest
    assert controllers in CONTROLLERS, controllers
    return pytest.param(controllers, *values,
                        marks=marks(*CONTROLLED_ARM) if controllers == 'real' else ())
