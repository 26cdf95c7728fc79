"""
What a release with bloom needs of the package: package.xml's metadata and CHANGELOG.rst.

``catkin_prepare_release`` stamps the changelog's Forthcoming section with
the new version and bloom reads it back into the release: both are done
here with catkin_pkg's own functions, on a copy.
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
import shutil

from catkin_pkg.changelog import get_changelog_from_path
from catkin_pkg.package import parse_package
from catkin_pkg.package_version import get_forthcoming_label, update_changelog_sections
from helpers import ROOT

PACKAGE = parse_package(os.path.join(ROOT, 'package.xml'))


def test_package_xml_names_its_home_repository_and_bug_tracker():
    urls = {url.type: url.url for url in PACKAGE.urls}
    assert set(urls) == {'website', 'repository', 'bugtracker'}
    assert all(url.startswith('https://') for url in urls.values())
    assert urls['repository'].endswith('.git') and urls['bugtracker'].endswith('/issues')


def test_every_maintainer_has_a_name_and_an_address():
    assert PACKAGE.maintainers
    for maintainer in PACKAGE.maintainers:
        assert re.fullmatch(r'[^@\s]+@[^@\s]+\.[a-z]+', maintainer.email)
        assert maintainer.name.strip() and 'maintainers' not in maintainer.name


def test_the_changelog_is_stamped_by_catkin_prepare_release_and_read_back(tmp_path):
    path = tmp_path / 'CHANGELOG.rst'
    shutil.copy(os.path.join(ROOT, 'CHANGELOG.rst'), path)
    changelog = get_changelog_from_path(str(path), PACKAGE.name)
    assert changelog is not None and changelog.package_name == PACKAGE.name
    label = get_forthcoming_label(changelog.rst)
    assert label == 'Forthcoming'
    update_changelog_sections({PACKAGE.name: (str(path), changelog, label)}, PACKAGE.version)
    released = get_changelog_from_path(str(path), PACKAGE.name)
    assert list(released.foreach_version()) and \
        next(iter(released.foreach_version()))[0] == PACKAGE.version
    bullets = str(path.read_text()).count('\n* ')
    assert bullets >= 3
