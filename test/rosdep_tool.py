"""
The real rosdep (PyPI), offline, on a snapshot of ros/rosdistro and the project's rule file.

``TWOBONE_ROSDISTRO`` names the snapshot (``.ci/run`` sets it to ``../shared/rosdistro``;
the tests that use it are marked ``rosdistro``).  ``Rosdep`` gives rosdep a home of its own
(``ROS_HOME``, its sources list: the snapshot's base and python rules, then
``rosdep/twobone_ik_ros.yaml`` as the README registers it), runs ``rosdep
update`` once, and then resolves keys and simulates the README's ``rosdep
install`` commands for any distribution and OS, in a workspace that holds this
package.xml.  ``--reinstall`` makes the simulation list every package whatever
this machine has installed (rosdep leaves out what it finds installed, and
this machine's pip has ruckig and toppra).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import functools
import os
import re
import shlex
import shutil
import subprocess
import sys

from helpers import ROOT
import yaml

#: the distributions the README names, each with the Ubuntu release it targets
DISTROS = ('humble', 'jazzy', 'kilted', 'lyrical', 'rolling')
RULE_FILE = os.path.join('rosdep', 'twobone_ik_ros.yaml')
_INSTALL_LINE = re.compile(r'^\s*(apt-get install -y|pip3? install -U)(?: -I| --reinstall)? (.+)$')


def snapshot():
    """Return the ros/rosdistro snapshot's folder (the tests that call it are marked rosdistro)."""
    return os.environ['TWOBONE_ROSDISTRO']


@functools.lru_cache(maxsize=None)
def platform(folder, distro):
    """Return rosdep's ``--os`` of ``distro``: Ubuntu's release its distribution file names."""
    with open(os.path.join(folder, distro, 'distribution.yaml'), encoding='utf-8') as stream:
        head = stream.read(4000)  # release_platforms opens the file; the rest is megabytes
    platforms = yaml.safe_load(head[:head.index('\nrepositories:')])['release_platforms']
    return f'ubuntu:{platforms["ubuntu"][0]}'


class Rosdep:
    """rosdep with a home of its own in ``home``, updated from the snapshot and the rule file."""

    def __init__(self, home):
        """Write the sources list and run ``rosdep update`` (offline: file:// only)."""
        self.snapshot = snapshot()
        self.home = str(home)
        sources = os.path.join(self.home, 'sources.list.d')
        os.makedirs(sources, exist_ok=True)
        with open(os.path.join(sources, '20-default.list'), 'w') as stream:
            for rules in ('base.yaml', 'python.yaml'):
                stream.write(f'yaml file://{self.snapshot}/rosdep/{rules}\n')
        with open(os.path.join(sources, '50-twobone-ik-ros.list'), 'w') as stream:
            stream.write(f'yaml file://{os.path.join(ROOT, RULE_FILE)}\n')
        self.env = dict(os.environ, ROS_HOME=self.home, ROSDEP_SOURCE_PATH=sources,
                        ROSDISTRO_INDEX_URL=f'file://{self.snapshot}/index-v4.yaml',
                        ROS_PYTHON_VERSION='3')
        self.env.pop('ROS_DISTRO', None)  # --rosdistro says it
        self.executable = os.path.join(os.path.dirname(sys.executable), 'rosdep')
        self.workspace = os.path.join(self.home, 'ws')
        package = os.path.join(self.workspace, 'src', 'twobone_ik_ros')
        os.makedirs(package, exist_ok=True)
        shutil.copy(os.path.join(ROOT, 'package.xml'), package)
        self.run(['update'])

    def run(self, arguments, env=None, check=True):
        """Run rosdep with ``arguments`` in the workspace; return the finished process."""
        done = subprocess.run([self.executable, *arguments], cwd=self.workspace,
                              env=dict(self.env, **(env or {})), capture_output=True,
                              text=True, timeout=300)
        if check:
            assert done.returncode == 0, done.stdout + done.stderr
        return done

    def os_of(self, distro):
        """Return ``--os`` for ``distro``."""
        return platform(self.snapshot, distro)

    def resolve(self, keys, distro):
        """Return {key: (installer, [packages])} of what ``keys`` resolve to for ``distro``."""
        done = self.run(['resolve', *sorted(keys), '--rosdistro', distro,
                         '--os', self.os_of(distro)])
        resolved = {}
        for block in done.stdout.split('#ROSDEP[')[1:]:
            key, _, rest = block.partition(']')
            lines = rest.split()
            resolved[key] = (lines[0].lstrip('#'), lines[1:])
        return resolved

    def simulate(self, command, distro):
        """
        Simulate a README ``rosdep install`` command line for ``distro``.

        ``command`` is the line as printed (leading ``VAR=value`` words are
        its environment).  Return {'apt': [...], 'pip': [...]}: the packages
        it would install, by installer.
        """
        words = shlex.split(command)
        env = {}
        while '=' in words[0]:
            name, _, value = words.pop(0).partition('=')
            env[name] = value
        assert words[:2] == ['rosdep', 'install'], command
        done = self.run([*words[1:], '--simulate', '--reinstall', '--rosdistro', distro,
                         '--os', self.os_of(distro)], env=env)
        assert 'ERROR' not in done.stdout + done.stderr, done.stdout + done.stderr
        installs = {'apt': [], 'pip': []}
        for line in done.stdout.splitlines():
            match = _INSTALL_LINE.match(line)
            if match:
                kind = 'apt' if match.group(1).startswith('apt') else 'pip'
                installs[kind] += match.group(2).split()
        return installs


def readme_workspace_commands():
    """Return the command lines of the README's "In a ROS workspace" shell block."""
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as readme:
        text = readme.read()
    section = re.search(r'^## In a ROS workspace.*?\n```bash\n(.*?)```', text, re.S | re.M)
    assert section, 'README has no shell block under "In a ROS workspace"'
    return [line.split('  #')[0].strip() for line in section.group(1).splitlines()
            if line.strip() and not line.lstrip().startswith('#')]


def readme_rosdep_installs():
    """Return the README's ``rosdep install`` lines, in order."""
    return [line for line in readme_workspace_commands()
            if re.match(r'^(\w+=\S+ )*rosdep install ', line)]
