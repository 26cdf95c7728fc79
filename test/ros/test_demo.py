"""
The main job's account: what the node did with every target, apart from what the demo heard.

``python -m twobone_ik_ros.tools.demo`` for real (the node and the target
source as processes of their own, over loopback DDS), briefly: it ends with
code 0, writes both pictures, and its last line adds up: every target sent
is received or lost on the way by the node's own counters, each received one
solved, clamped or rejected, and the demo heard at most the answers the node
sent.  ``account`` is held to the same sums on figures of a busy run.
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
import subprocess
import sys

import pytest
from twobone_ik_ros.tools.demo import account

LAST_LINE = re.compile(
    r'(\d+) targets sent; the node: (\d+) received = (\d+) solved \+ (\d+) clamped \+ '
    r'(\d+) rejected, (\d+) lost on the way; the demo heard (\d+) of its (\d+) answers')


def test_the_account_keeps_the_nodes_counters_apart_from_what_the_demo_heard():
    counts = {'received': '300', 'solved': '280', 'clamped': '20', 'rejected': '0', 'lost': '0'}
    line = account(counts, 300, 293)
    assert line == ('300 targets sent; the node: 300 received = 280 solved + 20 clamped + '
                    '0 rejected, 0 lost on the way; the demo heard 293 of its 300 answers '
                    '(7 not heard by the demo)')
    short = account(dict(counts, received='290', solved='270'), 300, 290)
    assert '10 not counted' in short and 'not heard' not in short


@pytest.mark.ros
def test_the_demo_ends_with_an_account_that_adds_up(tmp_path):
    pytest.importorskip('PIL', reason='Pillow draws the demo pictures')
    run = subprocess.run(
        [sys.executable, '-m', 'twobone_ik_ros.tools.demo', '--duration', '3', '--rate', '50',
         '--out', str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    last = run.stdout.strip().splitlines()[-1]
    found = LAST_LINE.search(last)
    assert found, last
    sent, received, solved, clamped, rejected, lost, heard, answered = map(int, found.groups())
    assert sent == 150 and received + lost == sent, last
    assert solved + clamped + rejected == received and answered == solved + clamped, last
    assert heard <= answered, last
    assert os.path.getsize(tmp_path / 'demo.gif') and os.path.getsize(tmp_path / 'demo.png')
