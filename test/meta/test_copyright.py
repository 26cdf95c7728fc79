"""
Copyright and licence headers: what ament_copyright checks, and each file's docstring first.

ament_copyright (the ament_python template's test) is used where it can be
imported; it is not on PyPI, so elsewhere its rule is checked as its parser
reads a file: after a shebang or coding line, the first run of comment lines
(``#``, or ``//`` in C++), wherever it stands, holds a ``Copyright YEAR
NAME`` line and then the Apache-2.0 notice, compared word by word (so the
notice may be reflowed: seven lines in all here); a repository's root holds
LICENSE and CONTRIBUTING.md.  So every Python file can open with its
docstring, what it is, and the licence follow it.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import os
import re

from helpers import ROOT
import pytest

#: the extensions ament_copyright reads (in folders not starting with . or _)
EXTENSIONS = ('.py', '.c', '.cc', '.cpp', '.cxx', '.h', '.hh', '.hpp', '.hxx', '.cmake')
COPYRIGHT = re.compile(r'copyright(\s+\(c\))?\s+\d{4}(-\d{4})?,?\s+\S', re.IGNORECASE)
NOTICE = ' '.join("""
Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
in compliance with the License. You may obtain a copy of the License at
http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
language governing permissions and limitations under the License.""".split())
DOCSTRING_OPENINGS = ('"""', "'''", 'r"""')


def sources():
    """Yield the files ament_copyright would check, relative to the root."""
    for directory, folders, files in os.walk(ROOT):
        folders[:] = sorted(f for f in folders if f[0] not in '._')
        for name in sorted(files):
            if name.endswith(EXTENSIONS):
                yield os.path.relpath(os.path.join(directory, name), ROOT)


def read(path):
    with open(os.path.join(ROOT, path), encoding='utf-8') as source:
        return source.read()


def first_comment_block(text):
    """Return the first run of comment lines after a shebang or coding line, tokens cut."""
    lines = text.splitlines()
    while lines and lines[0].startswith('#') and (
            lines[0].startswith('#!') or 'coding=' in lines[0] or 'coding:' in lines[0]):
        lines.pop(0)
    for index, line in enumerate(lines):
        token = '#' if line.startswith('#') else '//' if line.startswith('//') else None
        if token is not None:
            block = []
            for line in lines[index:]:
                if not line.startswith(token):
                    break
                block.append(line[len(token) + 1:])
            return block
    return []


def header_fault(text):
    """Say what is missing from a source's header (None: nothing)."""
    block = first_comment_block(text)
    found = [i for i, line in enumerate(block) if COPYRIGHT.match(line.strip())]
    if not found:
        return 'no copyright line in its first comment block'
    if NOTICE not in ' '.join(' '.join(block[found[0] + 1:]).split()):
        return 'no Apache-2.0 notice after its copyright line'
    return None


@pytest.mark.copyright
@pytest.mark.linter
def test_copyright():
    try:
        from ament_copyright.main import main
    except ImportError:
        faults = {path: header_fault(read(path)) for path in sources()}
        assert not {path: fault for path, fault in faults.items() if fault}
        for name in ('LICENSE', 'CONTRIBUTING.md'):
            assert 'Apache' in read(name), name
    else:
        rc = main(argv=['.', 'test'])
        assert rc == 0, 'Found errors'


@pytest.mark.copyright
@pytest.mark.linter
def test_every_python_file_opens_with_its_docstring():
    """What a file is comes first (after a shebang): the licence follows the docstring."""
    late = []
    for path in sources():
        text = read(path)
        if text.startswith('#!'):
            text = text.split('\n', 1)[1]
        if path.endswith('.py') and not text.startswith(DOCSTRING_OPENINGS):
            late.append(path)
    assert not late, 'these do not open with their docstring: ' + ', '.join(late)


def test_the_check_refuses_what_ament_copyright_refuses():
    """Each case was run through ament_copyright (Humble's and Rolling's) too, with this result."""
    this = read(os.path.relpath(__file__, ROOT))
    assert header_fault(this) is None
    spdx = '# Copyright 2026 A\n# SPDX-License-Identifier: Apache-2.0\n'
    assert header_fault('"""Doc."""\n\n' + spdx)
    assert header_fault(this.replace('Apache License', 'Apache Licence'))
    assert header_fault(this.replace('# Copyright', '# Copyleft'))
    # a comment of its own before the licence is the first block: no licence there
    assert header_fault('"""Doc."""\n\n# a remark\n\n' + this.split('"""\n\n', 1)[1])
