#!/usr/bin/env python3
"""
Write the files made from the tables (run after changing a table's row).

    python3 scripts/generate.py

``twobone_ik_ros.bringup.generated.FILES`` says which; test/meta/test_generated.py
fails while a file and its table differ.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from twobone_ik_ros.bringup.generated import FILES  # noqa: E402


def main():
    for name, make in FILES.items():
        path = os.path.join(ROOT, name)
        with open(path, encoding='utf-8') as current:
            text = make(current.read())
        with open(path, 'w', encoding='utf-8') as out:
            out.write(text)
        print(f'wrote {name}')


if __name__ == '__main__':
    main()
