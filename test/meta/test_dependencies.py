"""
package.xml declares exactly what the package imports and starts, by rosdep key.

rosdep installs what package.xml names, so a module imported but not declared
breaks a user's fresh install, and one declared but unused costs them a
download.  The imports are read from the source (``ast``); the packages the
launch files start come from ``launch_config.plan_launch``; ``SYSTEM_KEYS`` maps a
Python module to the key that provides it on Humble through Rolling, and
``model.dependencies.LIBRARIES`` does the same for the controller outputs'
libraries.  ``test_rosdep`` resolves every key with the real rosdep.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import ast
import glob
import os
import sys
import xml.etree.ElementTree as ElementTree

from helpers import ROOT
from twobone_ik_ros.bringup.arguments import defaults
from twobone_ik_ros.bringup.launch_config import plan_launch
from twobone_ik_ros.model.dependencies import LIBRARIES
from twobone_ik_ros.model.interface import Output

#: Python module -> rosdep key, beyond the libraries' table (ROS packages are
#: keyed by their own name)
SYSTEM_KEYS = {
    'numpy': 'python3-numpy', 'yaml': 'python3-yaml', 'PIL': 'python3-pil',
    'pytest': 'python3-pytest', 'hypothesis': 'python3-hypothesis', 'mypy': 'python3-mypy',
    'tf2_ros': 'tf2_ros_py',  # the Python module; the C++ package tf2_ros is another key
    'pinocchio': 'pinocchio', 'catkin_pkg': 'python3-catkin-pkg',
    'cryptography': 'python3-cryptography', 'lxml': 'python3-lxml',
    'urdf_parser_py': 'urdfdom_py',  # the ROS package urdfdom_py holds the module
}
#: Python module -> key of every module the package or its tests import
KEYS = {**SYSTEM_KEYS, **{library.module.split('.')[0]: library.key for library in LIBRARIES}}
ROS_MODULES = {
    'rclpy', 'builtin_interfaces', 'diagnostic_msgs', 'geometry_msgs', 'rcl_interfaces',
    'sensor_msgs', 'std_msgs', 'visualization_msgs', 'tf2_msgs', 'ament_index_python',
    'nav_msgs', 'trajectory_msgs', 'controller_manager_msgs', 'action_msgs', 'rosgraph_msgs',
    'launch', 'launch_ros', 'launch_pytest', 'ament_copyright', 'ament_flake8', 'ament_pep257',
    'xacro', 'launch_xml', 'ros2cli', 'ros2launch', 'ros2run', 'ros2param', 'sros2',
    'control_msgs'}
#: the package and the suite's own modules (a test module can be imported by another)
OWN_MODULES = {'twobone_ik_ros'} | {
    os.path.splitext(os.path.basename(path))[0]
    for path in glob.glob(os.path.join(ROOT, 'test', '**', '*.py'), recursive=True)}
#: needed without an import: the XML launch file is read by launch_xml, and the launch
#: files are run by ``ros2 launch``
WITHOUT_IMPORT = {'launch_xml', 'ros2launch'}
#: the tests' commands: ``ros2 param get``, ``ros2 run``, the docs' build (``python -m
#: sphinx``), ``ros2 security``, colcon (the package built as a workspace builds it) and
#: rosdep (the README's commands simulated)
TEST_COMMANDS = {'ros2param', 'ros2run', 'python3-sphinx', 'sros2',
                 'python3-colcon-common-extensions', 'python3-rosdep'}


def imported(patterns):
    """Return the non-standard top-level modules the files import (or importorskip)."""
    modules = set()
    for pattern in patterns:
        paths = glob.glob(os.path.join(ROOT, pattern), recursive=True)
        assert paths, f'{pattern} matches no file'
        for path in paths:
            for node in ast.walk(ast.parse(open(path).read())):
                if isinstance(node, ast.Import):
                    modules.update(alias.name.split('.')[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    modules.add(node.module.split('.')[0])
                elif (isinstance(node, ast.Call) and getattr(node.func, 'attr', '')
                      == 'importorskip'):
                    modules.add(node.args[0].value.split('.')[0])
    return modules - set(sys.stdlib_module_names) - OWN_MODULES


def keys(modules):
    unknown = modules - set(KEYS) - ROS_MODULES
    assert not unknown, f'no rosdep key known for {sorted(unknown)}: add it to SYSTEM_KEYS'
    return {KEYS.get(module, module) for module in modules}


def declared(tag):
    root = ElementTree.parse(os.path.join(ROOT, 'package.xml')).getroot()
    return {element.text for element in root.iter(tag)}


def started_by_launch_files():
    values = defaults()
    values.update(rviz='true', robot_state_publisher='true', parent_frame='world')
    return {package for package, _ in plan_launch(values).packages} - {'twobone_ik_ros'}


RUN_TIME = ['twobone_ik_ros/**/*.py', 'launch/*.py']


def test_every_run_time_import_and_started_package_is_an_exec_depend_and_nothing_else():
    needed = keys(imported(RUN_TIME)) | started_by_launch_files() | WITHOUT_IMPORT
    # what a library imports itself is declared too (the table says which: matplotlib)
    needed |= {library.key for library in LIBRARIES}
    assert declared('exec_depend') == needed


def test_every_library_of_the_table_is_imported_by_the_package_or_by_one_it_imports():
    used = imported(RUN_TIME)
    for library in LIBRARIES:
        module = library.module.split('.')[0]
        assert (module in used) != bool(library.imported_by), library


def test_every_test_import_and_started_package_is_declared_for_the_tests_and_nothing_else():
    from parts import PARTS
    modules = {module.split('.')[0] for part in PARTS.values() for module in part.modules}
    packages = {package for part in PARTS.values() for package in part.packages}
    needed = keys(imported(['test/**/*.py']) | modules) | packages | TEST_COMMANDS
    assert declared('test_depend') == needed - declared('exec_depend')


def test_every_module_an_output_needs_is_a_library_of_the_table():
    """The outputs' table names its libraries by module: each is a row of ``LIBRARIES``."""
    modules = {library.module for library in LIBRARIES}
    assert {module for output in Output for module in output.needs} <= modules
    assert not Output.JOINT_STATES.needs  # the display: ROS and numpy alone


def test_the_launch_files_start_robot_state_publisher_rviz2_and_tf2_ros():
    assert started_by_launch_files() == {'robot_state_publisher', 'rviz2', 'tf2_ros'}


def test_the_dev_venv_and_setup_py_get_the_libraries_from_pip():
    """The suite's venv pins the pip keys' packages; setup.py offers all four as an extra."""
    runtime = open(os.path.join(ROOT, 'requirements', 'runtime.txt')).read()
    pinned = {line.split('==')[0] for line in runtime.splitlines()
              if line and not line.startswith('#')}
    assert pinned == {library.package for library in LIBRARIES if library.key.endswith('-pip')}
    setup = open(os.path.join(ROOT, 'setup.py')).read()
    python = [library.package for library in LIBRARIES if library.module != 'control_msgs.action']
    assert f"extras_require={{'controllers': {sorted(python)!r}}}" in setup
