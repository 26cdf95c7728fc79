#!/usr/bin/env python3
"""
CI from nothing: ``.ci/run`` on a fresh clone with empty caches, beside CPU-bound work.

CI's limit is on a fresh machine: 15 minutes with two CPU-bound processes
beside it.  This clones the checkout's HEAD into a temporary folder with
``../shared`` beside it (a link to ``--shared``), points every cache at an
empty folder (``XDG_CACHE_HOME``: pip's downloads), starts ``--busy``
CPU-bound processes of its own and runs ``.ci/run`` there as CI does.
Reported per lane: passed or failed, its time and the CPU of all it ran;
then the whole against the limit.  ``.ci/run``'s whole output is kept in
``--log``.  ``--cache`` names the cache folder instead of a temporary one,
such as ``~/.cache`` on a fresh machine: it must be empty, and what CI
downloaded stays there for the work after.
The last line is for scripts:

    ci_seconds=<the whole> ci_passed=<true|false> (one line)
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIMIT_S = 15 * 60
#: what .ci/run prints: a lane's end, the whole
LANE = re.compile(r'^=== \.ci/run: ([\w-]+) (passed|FAILED) in (\d+) s \((\d+) s of CPU\) ===$')
WHOLE = re.compile(r'^=== \.ci/run: (\d+) s in all \((passed|FAILED)\) ===$')


def hogs(count):
    """Start ``count`` CPU-bound processes; return them (killed by PID at the end)."""
    return [subprocess.Popen([sys.executable, '-c', 'while True: pass']) for _ in range(count)]


def fresh_environment():
    """
    Return the environment of a fresh login: none of what ``scripts/bench`` set up.

    Its venv's Python exported the ROS wheels' library path and the
    bootstrapper's guard (``_ROS_WHEELS_BOOTSTRAP_COMPLETE``), which would
    keep another lane's Python from finding its own libraries, and its
    prefixes (AMENT_PREFIX_PATH, PYTHONPATH, ...): only the login's own
    variables are kept, and PATH without the folders of a venv or a workspace.
    """
    kept = {key: value for key, value in os.environ.items()
            if key in ('HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'TMPDIR', 'LANG')
            or key.startswith('LC_')}
    kept['PATH'] = os.pathsep.join(
        entry for entry in os.environ.get('PATH', '').split(os.pathsep)
        if entry and not os.path.exists(os.path.join(entry, 'activate'))
        and os.sep + 'install' + os.sep not in entry + os.sep
        and not entry.startswith(ROOT))
    return kept


def run_ci(shared, log_path, cache=None):
    """Run .ci/run on a fresh clone of HEAD with empty caches; return its output's lines."""
    with tempfile.TemporaryDirectory(prefix='twobone_bench_ci.') as folder:
        clone = os.path.join(folder, 'twobone_ik_ros')
        subprocess.run(['git', 'clone', '--quiet', ROOT, clone], check=True)
        os.symlink(os.path.abspath(shared), os.path.join(folder, 'shared'))
        env = fresh_environment()
        env.update(CI='true', XDG_CACHE_HOME=cache or os.path.join(folder, 'cache'))
        with open(log_path, 'w', encoding='utf-8') as log:
            subprocess.run(['bash', '.ci/run'], cwd=clone, env=env, stdout=log,
                           stderr=subprocess.STDOUT, check=False)
    with open(log_path, encoding='utf-8', errors='replace') as log:
        return log.read().splitlines()


def summary(lines):
    """Return ({lane: (status, s, CPU s)}, (whole s, status))."""
    lanes, whole = {}, None
    for line in lines:
        if (match := LANE.match(line)):
            lanes[match[1]] = (match[2], int(match[3]), int(match[4]))
        elif (match := WHOLE.match(line)):
            whole = (int(match[1]), match[2])
    return lanes, whole


def main():
    from twobone_ik_ros.tools.harness import result_options, results, TESTING_PAGE

    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--busy', type=int, default=2, help='CPU-bound processes beside it')
    parser.add_argument('--log', default=os.path.join(tempfile.gettempdir(), 'bench_ci.log'),
                        help=".ci/run's whole output")
    parser.add_argument('--cache', help='an empty cache folder to fill (default: a temporary one)')
    parser.add_argument('--shared', default=os.path.join(ROOT, '..', 'shared'),
                        help='the folder CI has beside the clone (default: ../shared)')
    result_options(parser, TESTING_PAGE)
    options = parser.parse_args()
    shared = options.shared
    if not os.path.isdir(shared) or not shutil.which('git'):
        sys.exit(f'bench_ci: needs git and --shared: {shared!r} is no folder')
    if options.cache and os.path.isdir(options.cache) and os.listdir(options.cache):
        sys.exit(f'bench_ci: --cache {options.cache!r} holds something: CI would not start '
                 'from nothing')
    beside = hogs(options.busy)
    try:
        lanes, whole = summary(run_ci(shared, options.log, options.cache))
    finally:
        for hog in beside:
            hog.kill()
            hog.wait()
    if whole is None:
        sys.exit(f'bench_ci: .ci/run ended without its last line; see {options.log}')
    with results('bench_ci', options, TESTING_PAGE):
        print(f'.ci/run on a fresh clone, empty caches, {options.busy} CPU-bound processes beside')
        print(f'{"lane":>14s} {"result":>7s} {"s":>6s} {"CPU s":>6s}')
        for lane, (status, seconds, cpu) in sorted(lanes.items()):
            print(f'{lane:>14s} {status:>7s} {seconds:6d} {cpu:6d}')
        print(f'{"all":>14s} {whole[1]:>7s} {whole[0]:6d} ({whole[0] / 60:.1f} min of the '
              f'{LIMIT_S // 60} allowed)')
        print(f'ci_seconds={whole[0]} ci_passed={str(whole[1] == "passed").lower()}', flush=True)


if __name__ == '__main__':
    main()
