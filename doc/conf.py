"""
Sphinx with MyST: the README as the landing page, the pages of doc/ after it.

``test/test_docs.py`` builds it with ``-W`` (every warning an error); rosdoc2,
what docs.ros.org runs, takes this folder as the package's Sphinx project.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

project = 'twobone_ik_ros'
author = 'twobone_ik_ros maintainers'
copyright = '2026, The twobone_ik_ros Authors'  # noqa: A001  (Sphinx's name for it)
extensions = ['myst_parser']
source_suffix = {'.md': 'markdown'}
root_doc = 'index'
exclude_patterns = ['_build']
myst_heading_anchors = 3
html_theme = 'alabaster'
