"""
Build description of the ament_python package.

install_requires names only what the core needs and pip can always provide:
in a ROS workspace rosdep installs what package.xml declares (colcon does
not read install_requires), and rclpy and the message packages come from
the distribution.  The controller outputs' libraries are an extra
(``controllers``), not a requirement: the core runs without them
(twobone_ik_ros/model/dependencies.py).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from glob import glob
import os

from setuptools import find_packages, setup

package_name = 'twobone_ik_ros'


def share(folder, pattern='*'):
    """Install every file matching ``folder/pattern`` under share/<package>/folder."""
    files = sorted(glob(os.path.join(folder, pattern)))
    return (os.path.join('share', package_name, folder), files)


setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test', 'benchmarks']),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml']),
        share('launch', '*.launch.*'),
        share('config', '*.yaml'),
        share('rviz', '*.rviz'),
        share('urdf', '*.urdf'),
        share('security', '*.xml'),
    ],
    install_requires=['setuptools', 'numpy', 'urdfdom-py', 'lxml'],
    extras_require={'controllers': ['matplotlib', 'ruckig', 'scipy', 'toppra']},
    zip_safe=True,
    maintainer='twobone_ik_ros maintainers',
    maintainer_email='maintainers@twobone-ik.dev',
    description='Analytic two-link inverse kinematics node for ROS 2',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': [
            'twobone_ik_node = twobone_ik_ros.node.node:main',
            'target_publisher = twobone_ik_ros.tools.target_publisher:main',
            'twobone_ik_demo = twobone_ik_ros.tools.demo:main',
            'twobone_ik_keystore = twobone_ik_ros.tools.keystore:main',
        ],
    },
)
