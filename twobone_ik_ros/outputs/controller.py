"""
A controller output: the arm's state read, each move planned, checked and recorded, then sent.

A controller output drives an arm through ros2_control: it reads the arm's
``joint_states`` (``joint_state_input``), plans each target's move from the
arm's state within the joints' limits (``tracking.ArmTracker``, ruckig),
times a path within them (``path_timing``), checks what the controller will
do with it (``limit_check``), records the move with ``arrival`` and hands the
finished motion to its transport, which only sends it (``transport``).  New
limits while the arm moves re-plan the move under way within them
(``_replan_within_limits``).  A whole motion starts a little ahead, a stream's at the
last cycle it has streamed (``motion_start``); before the arm's state is
known a target is one point and a path keeps its own timing.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Tuple

from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.motion.angles import Angles, apart
from twobone_ik_ros.motion.cycles import ControllerCycles
from twobone_ik_ros.motion.joint_paths import move_time, PathPlan
from twobone_ik_ros.motion.ledger import ArmReport, Move
from twobone_ik_ros.motion.limit_check import check_planned, LimitRefusal
from twobone_ik_ros.motion.path_timing import load_path_timing, PathMotion, run_path, time_poses
from twobone_ik_ros.motion.planning import HoldStill, Planner, Timed, Unplanned
from twobone_ik_ros.motion.tracking import ArmTracker, JointReader
from twobone_ik_ros.outputs.base import OutputMode, OutputServices, speed_limits
from twobone_ik_ros.outputs.joint_state_input import JointStateInput
from twobone_ik_ros.outputs.motion_start import AnyTimed, plan_and_start
from twobone_ik_ros.outputs.transport import Factory, FinishedMotion
from twobone_ik_ros.ros.clock import node_time_ns


class ControllerOutput(OutputMode):
    """An output that commands a controller through its transport, and reads the arm's state."""

    def __init__(self, parts: OutputServices, config: IKConfig, transport: Factory) -> None:
        """Make the transport (a publisher or a client), then the subscription to the state."""
        super().__init__(parts, config)
        self._guard = parts.guard
        self._tracker = ArmTracker(Planner(*speed_limits(config)))
        self._reader = JointReader()
        #: the controller's cycles, read off the arm's joint states (a stream times itself by them)
        self.cycles = ControllerCycles()
        #: the target (``send``'s arguments) waiting while the transport is busy
        self._waiting: Optional[Tuple[float, float, Any, Optional[Angles]]] = None
        self._transport = transport(parts.node, self)
        #: something takes the motions, as last asked (``poll``: not per target)
        self._connected = self._transport.connected()
        load_path_timing()  # now, not in the first path's callback (see path_timing)
        self._states = JointStateInput(parts.node, self._heard)

    # --------------------------------------------------------- configuration

    def _take(self, config: IKConfig) -> bool:
        planner = self._tracker.planner
        speeds = speed_limits(config)
        speeds_changed = speeds != (planner.limits, planner.min_duration)
        if speeds_changed:
            self._tracker.configure(Planner(*speeds))
        changed = super()._take(config)
        self._transport.configure(config)
        return changed or speeds_changed

    def _named(self, names: Tuple[str, str]) -> None:
        self._reader.name(names)
        self._forget_arm()

    def _forget_arm(self) -> None:
        """Forget the arm's state, motion and cycles (another arm, a clock that jumped)."""
        self._pass_over()
        self._transport.stop()
        self._tracker.forget()
        self.cycles.forget()

    def measured_angles(self) -> Optional[Angles]:
        """Return the arm's last measured angles (None before any)."""
        return self._tracker.measured

    def report(self) -> Optional[ArmReport]:
        """Return the arm's state and moves for diagnostics."""
        measured = self.measured_angles()
        return self.arrival.report(
            'none yet' if measured is None else f'{measured[0]!r} {measured[1]!r}',
            self._transport.answers)

    def poll(self) -> None:
        """
        Time out moves and the arm's state; see who listens.

        Whether anything takes the commands changes rarely: asked here, not
        of the graph on every target.
        """
        transport = self._transport
        self._connected = transport.connected()
        transport.poll()
        if self._waiting is not None and not transport.busy:
            self._free()  # the goal before it was never answered in time
        if self.arrival.poll(transport.held(node_time_ns(self._node))):
            self._tracker.forget_measurement()  # plan from the commands until states return

    def clock_jumped(self) -> None:
        """
        Stop what is timed on the node's clock and forget the arm's state and motion.

        The next target plans from the arm as it is heard after the jump.  A
        trajectory the controller has keeps running there: a controller on
        the same clock has been reset with it.
        """
        super().clock_jumped()
        self._forget_arm()

    def destroy(self) -> None:
        """Stop streaming; take the transport and the state's subscription off the graph."""
        super().destroy()
        self._pass_over()
        self._transport.stop()
        self._transport.destroy()
        self._states.destroy()

    # --------------------------------------------------------- what the transport tells

    def arm_short_of(self, position: Angles) -> bool:
        """Tell whether the arm is heard short of ``position`` by more than ``goal_tolerance``."""
        measured, config = self._tracker.measured, self._config
        if measured is None or config is None:
            return False  # not heard (stale): nothing tells it short
        return apart(measured, position) > config.goal_tolerance

    def arm_held(self, late_ns: int, cycles: int) -> None:
        """Take a stream's hold of the arm: the move under way ends ``late_ns`` later."""
        self._tracker.delay(late_ns)
        self.arrival.delayed(late_ns, cycles)

    def answered(self, move: Move, result: str, why: str) -> None:
        """Take the controller's answer to ``move`` (a success: where the arm is now)."""
        self.arrival.answered(move, result, why)

    def motion_taken(self) -> None:
        """Send the target that waited while the transport was busy."""
        self._free()

    def guard(self, callback: Callable[..., Any]) -> Callable[..., Any]:
        """Wrap a callback as the node wraps its own (the action's answers)."""
        return self._guard(callback)

    # --------------------------------------------------------- moves

    def send(self, theta1: float, theta2: float, stamp: Any, arm_at: Optional[Angles]) -> None:
        """
        Send the move to the solution, planned within the limits from the arm's state.

        Refused (counted, warned) when it would leave the limits or ruckig
        does not plan it: the move under way goes on.  While the transport
        is busy (the action's goal before is being accepted) the target
        waits, and a newer one replaces it (superseded): at 1 kHz goals
        queued behind each other's acceptance, and each target came later
        than the one before (bench_control).
        """
        if self._transport.busy:
            self._pass_over()
            self._waiting = (theta1, theta2, stamp, arm_at)
            return
        goal = self._bounds.inside((theta1, theta2))
        tracker = self._tracker
        braked = tracker.braked
        now = node_time_ns(self._node)
        try:
            planned = self._plan_and_start(
                lambda begin: tracker.move(goal, begin, self._check_planned), now)
            if planned is None:
                finished, end = self._one_point(goal, arm_at, now)
            else:
                _, finished, end = planned
        except (LimitRefusal, Unplanned) as refusal:
            self._refused(goal, refusal)
            return
        self._dispatch(stamp, goal, finished, end, tracker.braked - braked)

    def _plan_and_start(self, plan: Callable[[int], Optional[AnyTimed]], now_ns: int
                        ) -> Optional[Tuple[AnyTimed, FinishedMotion, int]]:
        """Plan with ``plan(begin)`` from the start the transport takes (``motion_start``)."""
        return plan_and_start(plan, self._node.get_clock(), self._tracker, self._transport,
                              self._bounds, now_ns)

    def _one_point(self, goal: Angles, arm_at: Optional[Angles],
                   now_ns: int) -> Tuple[FinishedMotion, int]:
        """
        Return ``goal`` as one point, and when it is due: before the arm's state is known.

        Nothing to plan from: a whole motion's point is timed by the velocity
        limit, and the controller interpolates from where the arm is; a
        stream commands it at once.
        """
        config = self._config
        seconds = move_time(arm_at, goal, config.max_joint_velocity, config.min_move_time) \
            if self._transport.whole else 0.0
        due = round(seconds * 1e9)
        return self._unplanned([due], [goal]), now_ns + due

    def _unplanned(self, times_ns: Any, positions: Any) -> FinishedMotion:
        """Return positions at their times from now, checked (``LimitRefusal``): no state."""
        # positions only: straight lines, which stay between two points as cubics at rest do
        finished = FinishedMotion.positions(times_ns, positions)
        self._check(finished.points, False, None)
        return finished

    def _dispatch(self, stamp: Any, goal: Angles, motion: Optional[FinishedMotion],
                  end_ns: int, braked: int = 0) -> None:
        """
        Record the move to ``goal``, due at ``end_ns``, answering ``stamp``; send ``motion``.

        Nothing taking the motions since the last ``poll``: asked again (a
        controller that has just come up), which costs a graph query only
        then.  ``motion`` None: a playback sends it (``follow``).
        ``braked``: it was planned as a stop and a move from rest
        (``tracking``).
        """
        transport = self._transport
        if not self._connected:
            self._connected = transport.connected()
        move = self.arrival.sent(stamp, goal, end_ns, self._connected, braked)
        if motion is not None:
            transport.send(motion, move)

    def _free(self) -> None:
        """Send the target that waited while the transport was busy, if one did."""
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            self.send(*waiting)

    def _pass_over(self) -> None:
        """Drop the target that waited, if one did: superseded (a newer motion goes instead)."""
        if self._waiting is not None:
            self._waiting = None
            self.arrival.ledger.passed_over()

    def _check_planned(self, motion: Timed) -> None:
        """Refuse a motion planned from the arm's state, which is its first point."""
        check_planned(motion, self._bounds)

    def _refused(self, goal: Angles, refusal: Exception) -> None:
        """Count a move to ``goal`` that the check refused, or ruckig did not plan; warn."""
        if isinstance(refusal, LimitRefusal):
            self.arrival.refused(goal, 'joint_limits',
                                 f'it would take {refusal.excursion.describe(self._names)}')
        else:
            self.arrival.refused(goal, 'unplanned', f'ruckig did not plan it ({refusal})')

    def _heard(self, now_ns: int, stamp_ns: int, names: Sequence[str],
               position: Sequence[float], velocity: Sequence[float]) -> None:
        """Keep the arm's (theta1, theta2): matched by name, any order, other joints ignored."""
        reading = self._reader.read(names, position, velocity)
        if reading is not None:
            self.cycles.heard(stamp_ns, now_ns)
            self._tracker.measure(reading[0], reading[1], stamp_ns)
            self.arrival.heard(reading[0], now_ns)
            self._transport.state_heard()

    # --------------------------------------------------------- paths

    def follow(self, path: PathPlan, stamp: Any) -> Optional[PathMotion]:
        """
        Send a planned path as one move, answering ``stamp``.

        With the arm's state known, timed within the limits from it
        (``path_timing``; a target after it continues from the path's
        state), and returned; otherwise at its own timing (None): whole, or
        played back a pose at a time.
        """
        self._playback.stop()
        self._pass_over()
        goal = (float(path.positions[-1, 0]), float(path.positions[-1, 1]))
        timed = self._run_path(path)
        if timed is not None:
            motion, finished, end = timed
            self._dispatch(stamp, goal, finished, end)
            return motion
        transport = self._transport
        transport.stop()
        self._tracker.drop_move()  # the path's own timing drives the arm now
        finished = self._unplanned(path.times_ns, path.positions)
        if not transport.whole:
            self._playback.play(path.positions, path.times_ns, self._command_now)
        now = node_time_ns(self._node)
        self._dispatch(stamp, goal, finished if transport.whole else None,
                       now + int(path.times_ns[-1]))
        return None

    def _command_now(self, theta1: float, theta2: float) -> None:
        """Stream one position at once (a path played back at its own timing)."""
        self._transport.send(FinishedMotion.positions([0], [(theta1, theta2)]), None)

    def _run_path(self, path: PathPlan) -> Optional[Tuple[PathMotion, FinishedMotion, int]]:
        """Time the path from the arm's state; return it finished (None: no state)."""
        tracker = self._tracker
        if not tracker.known:
            return None
        parts = [time_poses(path.positions[begin:end],
                            (path.times_ns[begin:end] - path.times_ns[begin]) / 1e9
                            if path.stamped else None, tracker.planner.limits)
                 for begin, end in path.parts]

        def plan(begin: int) -> Optional[PathMotion]:
            # the arm's state after the timing, which takes milliseconds
            motion = run_path(parts, tracker.state(begin), tracker.planner, self._bounds)
            if motion is not None:
                tracker.run(motion, begin)
            return motion

        return self._plan_and_start(plan, node_time_ns(self._node))

    # --------------------------------------------------------- new limits

    def _replan_within_limits(self) -> None:
        """
        Bring what moves the arm within new limits: nothing sent after the change goes past them.

        A path played back at its own timing stops if what is still to come
        leaves them.  A move under way is re-planned to its goal held inside
        the new limits, a path stopped (``ArmTracker.replan_within``: the move, else
        the quickest stop and a move from rest, else a move from rest where
        the arm is), and sent as a target's move is, answering the same
        stamp; the move before is superseded (doc/motion.md).
        """
        if self._stop_playback_beyond_limits():
            return
        tracker = self._tracker
        motion = tracker.motion
        if motion is None:
            return
        inside = self._bounds.inside
        goal = None if isinstance(motion, PathMotion) else inside(motion.goal)
        pending = self.arrival.ledger.pending
        stamp = pending.stamp if pending is not None else \
            self._node.get_clock().now().to_msg()
        now = node_time_ns(self._node)
        planned = self._plan_and_start(
            lambda begin: tracker.replan_within(begin, goal, inside, self._check_planned), now)
        if planned is None:
            return  # the motion was over
        reined, finished, end = planned
        self._dispatch(stamp, reined.goal, finished, end)
        self._node.get_logger().warning(
            'the limits changed while the arm moved: '
            + ('it is held where it was: no motion within them could be planned'
               if isinstance(reined, HoldStill) else 'the path stopped within them'
               if goal is None else
               f'the move re-planned within them, to {goal[0]:.6g} {goal[1]:.6g}'))
