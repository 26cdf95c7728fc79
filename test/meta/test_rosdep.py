"""
Every key of package.xml resolves with the real rosdep, and provides what the code imports.

On a snapshot of ros/rosdistro and the project's rule file, offline
(``rosdep_tool``), for each distribution the README names on the Ubuntu
release it targets: ``rosdep install --simulate`` resolves the whole
package.xml; every module the package or its tests import maps to a
declared key (``test_dependencies.KEYS``) whose resolution provides it; and
the README's own commands install the distribution's packages first and the
pip keys after, so that pip finds numpy, scipy and matplotlib installed and
adds only ruckig and toppra.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import importlib.metadata
import os
import re

from helpers import ROOT
import pytest
from rosdep_tool import DISTROS, readme_rosdep_installs, readme_workspace_commands, RULE_FILE
from test_dependencies import declared, imported, KEYS
from twobone_ik_ros.model.dependencies import LIBRARIES
import yaml

#: the Python module a ROS package provides, where it is not the package's own name
ROS_MODULE_OF = {'tf2_ros_py': 'tf2_ros', 'urdfdom_py': 'urdf_parser_py'}
pytestmark = pytest.mark.rosdistro
IMPORTS = ['twobone_ik_ros/**/*.py', 'launch/*.py', 'test/**/*.py']


def declared_keys():
    return declared('exec_depend') | declared('test_depend')


def pip_keys():
    return sorted(library.key for library in LIBRARIES if library.key.endswith('-pip'))


@pytest.mark.parametrize('distro', DISTROS)
def test_rosdep_install_resolves_the_whole_package_xml(rosdep, distro):
    installs = rosdep.simulate('rosdep install --from-paths src --ignore-src -y', distro)
    assert installs['apt'] and sorted(installs['pip']) == ['ruckig', 'toppra']
    print(distro, rosdep.os_of(distro), installs)


def top_level_modules(distribution):
    """Return the modules a pip distribution installed: its packages and single-file modules."""
    names = set()
    for path in importlib.metadata.distribution(distribution).files or ():
        if path.parts[0].endswith(('.dist-info', '.data')) or path.parts[0] in ('..', 'bin'):
            continue
        # a package folder, or a module file such as ruckig.cpython-311-x86_64-linux-gnu.so
        names.add(path.parts[0] if len(path.parts) > 1 else path.name.split('.')[0])
    return names


def provides(installer, package, module, distro):
    """Tell whether ``package`` of ``installer`` provides the Python module ``module``."""
    if installer == 'pip':  # the wheel's own record, in this venv (pip installed it)
        return module in top_level_modules(package)
    ros = f'ros-{distro}-'
    if package.startswith(ros):  # a ROS package's Python module has the package's name
        name = package[len(ros):].replace('-', '_')
        return ROS_MODULE_OF.get(name, name) == module
    # Debian's (and Ubuntu's) Python policy: python3-<module> holds the module
    return package.lower() == f"python3-{module.lower().replace('_', '-')}"


@pytest.mark.parametrize('distro', DISTROS)
def test_every_imported_module_comes_from_a_declared_key_that_provides_it(rosdep, distro):
    keys = declared_keys()
    modules = {module: KEYS.get(module, module) for module in imported(IMPORTS)}
    resolved = rosdep.resolve(modules.values(), distro)
    for module, key in sorted(modules.items()):
        assert key in keys, f'{module}: its key {key} is not declared'
        installer, packages = resolved[key]
        assert any(provides(installer, package, module, distro) for package in packages), \
            f'{module}: key {key} resolves to {installer} {packages} on {distro}'


@pytest.mark.parametrize('distro', DISTROS)
def test_the_readme_installs_the_distributions_packages_first_and_the_pip_keys_after(
        rosdep, distro):
    """
    The pip keys go last: pip then keeps the distribution's numpy, scipy and matplotlib.

    rosdep installs in no fixed order; run first, pip would bring its own
    numpy for toppra's requirements (doc/dependencies.md has the measurement).
    """
    first, then = readme_rosdep_installs()
    assert f'--skip-keys "{" ".join(pip_keys())}"' in first
    assert then.startswith('PIP_BREAK_SYSTEM_PACKAGES=1 rosdep install ')
    before = rosdep.simulate(first, distro)
    after = rosdep.simulate(then, distro)
    assert before['pip'] == [] and sorted(after['pip']) == ['ruckig', 'toppra']
    assert {'python3-numpy', 'python3-scipy', 'python3-matplotlib'} <= set(before['apt'])


def test_the_readme_registers_the_rule_file_which_defines_the_keys_rosdistro_lacks(rosdep):
    """The rule file's keys are exactly the declared ones the snapshot does not define."""
    registration = next(line for line in readme_workspace_commands() if 'sources.list.d' in line)
    path = re.search(r'yaml file://\$PWD/src/twobone_ik_ros/(\S+?)"', registration).group(1)
    assert path == RULE_FILE and os.path.isfile(os.path.join(ROOT, path))
    with open(os.path.join(ROOT, RULE_FILE), encoding='utf-8') as stream:
        ours = set(yaml.safe_load(stream))
    upstream = set()
    for rules in ('base.yaml', 'python.yaml'):
        with open(os.path.join(rosdep.snapshot, 'rosdep', rules), encoding='utf-8') as stream:
            upstream |= set(yaml.safe_load(stream))
    system_keys = {key for key in declared_keys() if key.startswith('python3-')}
    assert ours == system_keys - upstream == {'python3-ruckig-pip'}


def test_the_readme_names_each_distribution_with_its_ubuntu_release(rosdep):
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as readme:
        section = readme.read().split('## In a ROS workspace', 1)[1].split('\n## ', 1)[0]
    for distro in DISTROS:
        release = rosdep.os_of(distro).split(':')[1]
        assert re.search(rf'{distro}[^()]*\([^)]*{release}\)', section, re.I), (distro, release)
