"""
What every output mode is: the interface the node drives, and what the modes share.

An output mode is one value of the ``output`` parameter: the entities it puts
on the graph and what it does with a solution (``send``), a path
(``follow``) and the node's housekeeping.  ``OutputMode`` is that interface
with what all modes do alike: the joint limits every command is checked
against (``limit_check``), and a path played back at its own timing
(``streaming.Playback``), which stops when new limits leave what is still to
come.  ``OutputServices`` is what outlives a change of mode: the node, ``arrival``
(the moves counted), the callback that hears the arm move, the guard.
``modes.MODES`` chooses the class for each value.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Tuple

from rclpy.node import Node
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.motion.bounds import Bounds
from twobone_ik_ros.motion.joint_paths import PathPlan
from twobone_ik_ros.motion.ledger import ArmReport
from twobone_ik_ros.motion.limit_check import check_motion, LimitRefusal, position_excursion
from twobone_ik_ros.motion.path_timing import PathMotion
from twobone_ik_ros.motion.planning import Limits
from twobone_ik_ros.motion.samples import Samples
from twobone_ik_ros.outputs.arrival import ArrivalMonitor
from twobone_ik_ros.outputs.streaming import Playback

CallbackWrapper = Callable[[Callable[..., Any]], Callable[..., Any]]


@dataclass(frozen=True)
class OutputServices:
    """What the node gives every output mode; the arrival outlives a change of mode."""

    node: Node
    #: moves sent and how they ended, ``reached`` (its counters go on across modes)
    arrival: ArrivalMonitor
    #: hears each position a path played back puts the arm in
    moved: Callable[[Angles], None]
    #: wraps the callbacks the node's own wrapping does not reach (the action's answers)
    guard: CallbackWrapper


def speed_limits(config: IKConfig) -> Tuple[Limits, float]:
    """Return what a planner is made of: the joints' limits and the shortest move."""
    return (Limits.of(config.max_joint_velocity, config.max_joint_acceleration,
                      config.max_joint_jerk), config.min_move_time)


def bounds(config: IKConfig) -> Bounds:
    """Return the interval each joint must stay in."""
    return Bounds.of(config.solver.shoulder_limits, config.solver.elbow_limits)


def arm_limits(config: IKConfig) -> Tuple[Tuple[Limits, float], Bounds]:
    """Return what moves are planned and checked within: the planner's limits, the bounds."""
    return speed_limits(config), bounds(config)


class OutputMode:
    """One output mode: where solutions, paths and the arm's state go and come from."""

    def __init__(self, parts: OutputServices, config: IKConfig) -> None:
        """Make what the mode has on the graph; ``configure`` follows at once."""
        self._node = parts.node
        self.arrival = parts.arrival
        self._config = config
        self._bounds = bounds(config)
        self._names: Tuple[str, str] = ('', '')
        self._playback = Playback(parts.node, parts.moved)

    def configure(self, config: IKConfig) -> None:
        """
        Take ``config`` (the mode's own value unchanged): names, limits, rates.

        New joint limits while a path plays back stop it if what is still to
        come leaves them (``_replan_within_limits``).
        """
        limits_changed = self._take(config)
        if limits_changed:
            self._replan_within_limits()

    def _take(self, config: IKConfig) -> bool:
        """Hold ``config``; return whether the limits changed (the subclasses' own too)."""
        self._config = config
        new_bounds = bounds(config)
        changed = new_bounds != self._bounds
        self._bounds = new_bounds
        if config.joint_names != self._names:
            self._names = config.joint_names
            self._named(config.joint_names)
        return changed

    def _named(self, names: Tuple[str, str]) -> None:
        """Take new joint names (the messages and what reads the arm's state)."""

    def send(self, theta1: float, theta2: float, stamp: Any, arm_at: Optional[Angles]) -> None:
        """Send one solution, answering the target stamped ``stamp`` (``arm_at``: where from)."""
        raise NotImplementedError

    def follow(self, path: PathPlan, stamp: Any) -> Optional[PathMotion]:
        """
        Send a planned path; return it as timed within the limits (None: at its own timing).

        ``LimitRefusal`` when its motion would leave the joint limits: nothing
        is sent (the caller counts it).
        """
        raise NotImplementedError

    def republish(self, position: Angles, stamp: Any) -> None:
        """Publish ``position`` again (a display's; nothing for a controller)."""

    def poll(self) -> None:
        """Time out what is due (the node's housekeeping calls it)."""

    def measured_angles(self) -> Optional[Angles]:
        """Return the arm's last measured angles (None: not measured)."""
        return None

    def report(self) -> Optional[ArmReport]:
        """Return the arm's state and moves for diagnostics (None: no arm is driven)."""
        return None

    def clock_jumped(self) -> None:
        """End what is timed on the node's clock: it jumped back, changed or started."""
        self._playback.stop()

    def stop_playback(self) -> None:
        """Stop a path being played back (a new target or path replaces it)."""
        self._playback.stop()

    @property
    def playing(self) -> bool:
        """Tell whether a path is being played back."""
        return self._playback.playing

    def destroy(self) -> None:
        """Take the mode's entities off the graph (the output changed)."""
        self._playback.stop()

    # --------------------------------------------------------- the limits

    def _check(self, points: Samples, accelerations: bool, start: Optional[Angles]) -> None:
        """
        Refuse ``points`` (``LimitRefusal``) if they or the controller's curve leave the limits.

        The one check of every motion the node commands (``limit_check``);
        the joints may come back from ``start`` (where the arm is; None:
        unknown), no further out, and are held to the limits once inside.
        """
        check_motion(points, accelerations, self._bounds, start)

    def _check_position(self, theta1: float, theta2: float) -> None:
        """Refuse a single position outside the limits (``LimitRefusal``)."""
        excursion = position_excursion((theta1, theta2), self._bounds)
        if excursion is not None:
            raise LimitRefusal(excursion)

    def _replan_within_limits(self) -> None:
        """Bring what moves the arm within new limits (here: a path played back)."""
        self._stop_playback_beyond_limits()

    def _stop_playback_beyond_limits(self) -> bool:
        """
        Stop a path played back if poses still to come leave the new limits.

        Return whether a path is played back (then nothing else moves the arm).
        """
        ahead = self._playback.ahead()
        if ahead is None:
            return False
        if any(position_excursion((float(p[0]), float(p[1])), self._bounds) is not None
               for p in ahead):
            self._playback.stop()
            self._node.get_logger().warning(
                'the joint limits changed while a path was played back: it stopped, as '
                'its poses still to come leave the new limits')
        return True
