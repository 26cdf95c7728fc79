"""
Commits a reader can scan: a subject of at most 72 characters, then a body that says why.

CONTRIBUTING.md states the rule; this holds it for every commit after
``RULE_SINCE``, the last one written before it (the history before is left as
it is).  A clone without that commit (shallow, or a squashed landing) is
judged on the commits it has.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#: the last commit before the rule held (its subject exceeds 72 characters)
RULE_SINCE = 'e0b6824aedc642434e21fb2a9df572dc1f6bd2a2'
SUBJECT_MAX = 72
#: git's separators between fields and between commits
FIELD, RECORD = '\x1f', '\x1e'


def git(*args, check=True):
    """Run git in the checkout; return what it did (``check``: raise if it failed)."""
    return subprocess.run(['git', '-C', ROOT, *args], check=check, capture_output=True,
                          text=True)


def commits():
    """Return (hash, subject, body) of the commits the rule holds for, newest first."""
    known = git('cat-file', '-e', f'{RULE_SINCE}^{{commit}}', check=False).returncode == 0
    span = [f'{RULE_SINCE}..HEAD'] if known else ['HEAD']
    log = git('log', '--no-merges', f'--format=%H{FIELD}%s{FIELD}%b{RECORD}', *span).stdout
    return [tuple(record.strip('\n').split(FIELD, 2)) for record in log.split(RECORD)
            if record.strip()]


def problems(subject, body):
    """Return what keeps one commit message from the rule (none: it keeps it)."""
    found = []
    if len(subject) > SUBJECT_MAX:
        found.append(f'subject of {len(subject)} characters (at most {SUBJECT_MAX})')
    if not body.strip():
        found.append('no body: say why')
    return found


def test_the_rule_itself():
    assert problems('Fix a thing', 'Because it broke.') == []
    assert problems('x' * 73, 'why')[0].startswith('subject of 73')
    assert problems('A subject', '  \n') == ['no body: say why']


def test_each_commit_has_a_short_subject_and_a_body_that_says_why():
    # a release tarball is no checkout (in CI, a clone: a skip fails)
    if git('rev-parse', '--is-inside-work-tree', check=False).stdout.strip() != 'true':
        pytest.skip('not a git checkout: no commits to check')
    checked = commits()
    assert checked, 'no commit to check'
    broken = [f'{sha[:10]} {subject!r}: {", ".join(found)}'
              for sha, subject, body in checked for found in [problems(subject, body)] if found]
    assert not broken, '\n'.join(broken)
