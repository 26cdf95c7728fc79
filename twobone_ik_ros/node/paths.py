"""
Paths: every nav_msgs/Path on ``path`` read, brought into the base frame, planned, followed.

A path is read from its bytes (``ros.wire_path``; what that reader leaves
to rclpy is deserialised), brought into the base frame with one transform at
its header's stamp (as targets are, ``frames``), solved and timed whole
(``motion.joint_paths.plan_path``) and handed to the arm's output.  Every path ends
in one counter: ``paths.followed`` or ``paths.rejected.<reason>`` (with a
throttled warning that names the first pose that failed and why); a followed
path the joint limits split into parts is also in ``paths.split``, one whose
stamps a controller output stretched to keep the joints' limits in
``paths.retimed`` (both warned about too).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Callable, Optional

from builtin_interfaces.msg import Time
from nav_msgs.msg import Path
import numpy as np
import numpy.typing as npt
from rclpy.node import Node
from rclpy.serialization import deserialize_message
from std_msgs.msg import Header
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.motion.joint_paths import BREAK_TEXT, PathPlan, plan_path
from twobone_ik_ros.motion.limit_check import LimitRefusal
from twobone_ik_ros.motion.planning import Unplanned
from twobone_ik_ros.node.diagnostics import PATH_REJECTION_TEXT, TargetCounters
from twobone_ik_ros.node.frames import apply_transform, TargetFrames
from twobone_ik_ros.node.throttle import ThrottledWarnings
from twobone_ik_ros.outputs.modes import OutputSwitch
from twobone_ik_ros.ros.endpoints import subscription
from twobone_ik_ros.ros.wire_path import PathData, PathReader
from twobone_ik_ros.solver import Reason


class PathFollower:
    """The node's ``path`` callback and what it needs to follow a path."""

    def __init__(self, node: Node, config: IKConfig, *, counters: TargetCounters,
                 frames: TargetFrames, switch: OutputSwitch, warnings: ThrottledWarnings,
                 arm_at: Callable[[], Optional[Angles]],
                 moved: Callable[[Angles], None]) -> None:
        """
        Subscribe to ``path`` on ``node``; count each path in ``counters``.

        ``frames`` brings a path in another frame into the base frame,
        ``switch``'s mode follows it, ``warnings`` says why one was refused;
        ``arm_at()`` is where the arm is as a path comes (the branch and
        turns of its poses follow it), ``moved`` hears where a path sent
        whole leaves it.
        """
        self._counters = counters
        self._frames = frames
        self._switch = switch
        self._warnings = warnings
        self._config = config
        self._arm_at = arm_at
        self._moved = moved
        self._reader = PathReader()
        self._node = node
        subscription(node, 'path', self.on_path, raw=True)

    def configure(self, config: IKConfig) -> None:
        """Follow paths with ``config``'s arm, base frame and limits from now on."""
        self._config = config

    def on_path(self, raw: bytes) -> None:
        """Read a path from its bytes, bring it into the base frame (as targets), follow it."""
        self._counters.paths += 1
        path = self._reader.read(raw)
        if path is None:  # another form (see wire_path): rclpy reads it
            try:
                path = PathData.from_message(deserialize_message(raw, Path))
            except Exception as error:  # noqa: B902  (rclpy's error types differ by distro)
                detail = str(error)
                self._reject('malformed', lambda: (
                    f'a message of {len(raw)} bytes on path is not a readable Path: {detail}'))
                return
        sec, nanosec, frame = path.frame_header()
        points, stamps = path.points, path.stamps_ns
        config = self._config
        # what reached answers with: the path's stamp, else (none given) when it came
        answer = path.answer_stamp()
        stamp = Time(sec=answer[0], nanosec=answer[1]) if answer is not None else \
            self._node.get_clock().now().to_msg()
        if frame and frame != config.frame:
            def use(transform: Any) -> None:
                self._follow(np.column_stack(apply_transform(
                    transform, points[:, 0], points[:, 1], points[:, 2])), stamps, stamp)
            header = Header(stamp=Time(sec=sec, nanosec=nanosec), frame_id=frame)
            self._frames.handle(header, config.transform_timeout, use, self._reject, 'path')
            return
        self._follow(points, stamps, stamp)

    def _follow(self, points: npt.NDArray[np.float64], stamps: npt.NDArray[np.int64],
                stamp: Time) -> None:
        """Follow a path of (N, 3) points in the base frame, each taken into the arm's plane."""
        config = self._config
        if config.problem:
            self._reject('no_arm', lambda: (
                f'path of {len(points)} poses rejected: {config.problem}'))
            return
        plan = plan_path(config.solver, config.arm.project_points(points), stamps, self._arm_at(),
                         config.max_joint_velocity, config.min_move_time)
        if plan.rejected:
            text = PATH_REJECTION_TEXT[plan.rejected]
            self._reject(plan.rejected, lambda: (
                f'path of {len(points)} poses rejected: pose {plan.rejected_index} is '
                f'{plan.rejected} ({text}; unreachable={config.solver.unreachable.value})'))
            return
        try:
            timed = self._switch.mode.follow(plan, stamp)
        except LimitRefusal as refusal:  # the check where commands leave the node
            why = refusal.excursion.describe(config.joint_names)
            self._reject(Reason.JOINT_LIMITS.label, lambda: (
                f'path of {len(points)} poses rejected: its motion would take {why}'))
            return
        except Unplanned as error:  # ruckig's: a move to it or between its parts
            detail = str(error)
            self._reject('unplanned', lambda: (
                f'path of {len(points)} poses rejected: ruckig planned no move ({detail})'))
            return
        counters = self._counters
        counters.paths_followed += 1
        counters.path_poses_clamped += plan.clamped
        counters.path_poses_skipped += plan.skipped
        if plan.splits:
            counters.paths_split += 1
            counters.path_flips += plan.flips
            self._warnings.warn('path_split', lambda: _split_warning(plan, len(points), config))
        elif plan.skipped:  # left out at its ends: no split, but poses not followed
            self._warnings.warn('path_skipped', lambda: (
                f'path of {len(points)} poses: {plan.skipped} pose(s) at its ends are outside '
                'the joint limits on every elbow branch and were left out (unreachable=clamp; '
                'reject refuses such a path)'))
        if timed is not None and timed.retimed:
            counters.paths_retimed += 1
            self._warnings.warn('path_retimed', lambda: (
                f"path of {len(points)} poses: its stamps ask for more than the joints' limits "
                f'allow; stretched {timed.stretch:.3g} times'))
        if not self._switch.mode.playing:  # sent whole: the arm's goal is its last point
            self._moved((float(plan.positions[-1, 0]), float(plan.positions[-1, 1])))

    def _reject(self, reason: str, describe: Callable[[], str]) -> None:
        self._counters.paths_rejected.add(reason)
        self._warnings.warn('path ' + reason, describe)


def _split_warning(plan: PathPlan, poses: int, config: IKConfig) -> str:
    """Say where and why the joint limits split a followed path (``unreachable`` clamp)."""
    first = plan.splits[0]
    joint = f' ({config.joint_names[first.joint]})' if first.joint >= 0 else ''
    return (f'path of {poses} poses split into {len(plan.parts)} parts by the joint limits, '
            f'first at pose {first.pose}: {first.reason}{joint}, {BREAK_TEXT[first.reason]}'
            + (f'; {plan.skipped} pose(s) outside the limits left out' if plan.skipped else '')
            + '; each part ends at rest, joined to the next by a move within the limits '
            '(unreachable=clamp; reject refuses such a path)')
