#!/usr/bin/env python3
"""
Reading an arm's chain from its URDF with urdf_parser_py, against parsing the XML alone.

``model.urdf_chain.read_chain`` parses the description with ROS's
urdf_parser_py and checks what urdfdom checks; the baseline parses the same
text with lxml alone (what any reader does first).  Two descriptions: the
test suite's arm mounted in a larger tree, and the same with 300 more links
hung from its base (a whole robot's size).  Medians of the per-round means,
rounds interleaved.  The last line is for scripts: milliseconds per read of
the large description and its ratio to the baseline:

    read_ms=<ms> read_ratio=<ratio>

Run: scripts/bench bench_urdf [--rounds 15] [--write]
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
import statistics
import sys
import time

from lxml import etree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, 'test'))
from twobone_ik_ros.model.urdf_chain import read_chain  # noqa: E402
from twobone_ik_ros.tools.harness import result_options, results  # noqa: E402
from urdf_arms import ARMS  # noqa: E402

#: fixed links added to the arm for the large description
EXTRA_LINKS = 300


def descriptions():
    """Return {label: (text, base, tip)}: the suite's mounted arm, and it with more links."""
    arm = ARMS['mounted in a larger tree']()
    extra = ''.join(
        f'<link name="x{i}"/><joint name="jx{i}" type="fixed">'
        f'<parent link="{"arm_base" if i == 0 else f"x{i - 1}"}"/><child link="x{i}"/></joint>'
        for i in range(EXTRA_LINKS))
    return {'arm': (arm.urdf, arm.base, arm.tip),
            f'arm + {EXTRA_LINKS} links': (arm.urdf.replace('</robot>', extra + '</robot>'),
                                           arm.base, arm.tip)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=15)
    result_options(parser)
    options = parser.parse_args()
    cases = {}
    for label, (text, base, tip) in descriptions().items():
        data = text.encode('utf-8')
        cases[(label, 'baseline: lxml parse')] = lambda data=data: etree.fromstring(data)
        cases[(label, 'read_chain')] = lambda text=text, base=base, tip=tip: read_chain(
            text, base, tip)
    means = {case: [] for case in cases}
    for _ in range(options.rounds):
        for case, function in cases.items():
            count = 0
            start = time.perf_counter()
            while count < 5 or time.perf_counter() - start < 0.05:
                function()
                count += 1
            means[case].append((time.perf_counter() - start) / count)
    median = {case: statistics.median(values) for case, values in means.items()}
    with results('bench_urdf', options):
        print(f'median of {options.rounds} interleaved rounds')
        print(f'  {"description":18s} {"what":22s} {"ms/read":>9s} {"x baseline":>11s}')
        for (label, what), seconds in median.items():
            base = median[(label, 'baseline: lxml parse')]
            print(f'  {label:18s} {what:22s} {seconds * 1e3:9.3f} {seconds / base:11.1f}')
        large = f'arm + {EXTRA_LINKS} links'
        read = median[(large, 'read_chain')]
        print(f'read_ms={read * 1e3:.2f} '
              f'read_ratio={read / median[(large, "baseline: lxml parse")]:.1f}')


if __name__ == '__main__':
    main()
