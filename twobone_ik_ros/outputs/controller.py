"""
A controller output: the arm's state read, moves planned from it, and sent by a transport.

A controller output drives an arm through ros2_control: it reads the arm's
``joint_states`` (``tracking.JointReader``, best effort, so any publisher's
QoS is met), plans each target's move within the joints' limits from the
arm's state (``tracking.ArmTracker``, ruckig), times a path within them
(``path_timing``) and hands the motion to its controller; before the arm's
state is known, a target is one point and a path keeps its own timing.
Every motion passes the limit check on its way out; each move sent is told
to ``arrival``, which says how it ended.  New limits while the arm moves
re-plan the move under way within them (``_rein``).

``ControllerOutput`` is all of that, for every controller; how a motion
reaches the controller is its ``Transport``, one per output: a stream of
commands (``forward_command.CommandStream``), or a JointTrajectory
(``trajectories.TrajectorySender``) on the controller's topic
(``joint_trajectory``) or as an action goal (``follow_joint_trajectory``).
``modes.MODES`` pairs each output with its transport.
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
from typing import Any, Callable, Optional, Protocol, Tuple, TypeVar

from rclpy.node import Node
from rclpy.serialization import deserialize_message
from sensor_msgs.msg import JointState
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.motion.cycles import ControllerCycles
from twobone_ik_ros.motion.feedback import ArmReport, Move
from twobone_ik_ros.motion.joint_paths import PathPlan
from twobone_ik_ros.motion.limit_check import Bounds, check_planned, LimitRefusal
from twobone_ik_ros.motion.path_timing import load_path_timing, PathMotion, run_path, time_poses
from twobone_ik_ros.motion.planning import Planner, Samples, Still, Timed, Unplanned
from twobone_ik_ros.motion.tracking import ArmTracker, JointReader
from twobone_ik_ros.outputs.arrival import Arrival
from twobone_ik_ros.outputs.base import Guard, OutputMode, Parts, speed_limits
from twobone_ik_ros.outputs.streaming import Playback
from twobone_ik_ros.ros.endpoints import subscription
from twobone_ik_ros.ros.executor import take
from twobone_ik_ros.ros.wire import JointStateReader

AnyTimed = TypeVar('AnyTimed', bound=Timed)
#: What checks every motion's points before they go (the points, whether they
#: carry accelerations, where the arm is as they begin or None); it raises
#: ``LimitRefusal`` to refuse them (``OutputMode._check``).
Check = Callable[[Samples, bool, Optional[Angles]], None]


@dataclass(frozen=True)
class Carrier:
    """What a transport is made with: the node's parts and the output's."""

    node: Node
    #: the arm's motion as commanded: what a transport sends or streams, and undoes
    tracker: ArmTracker
    #: the controller's cycles, read off the arm's joint states (a stream times itself by them)
    cycles: ControllerCycles
    #: the output's check of every motion's points (``limit_check``)
    check: Check
    #: the output's check of a single position
    check_position: Callable[[float, float], None]
    #: the joints' bounds in force (they change with the parameters)
    bounds: Callable[[], Bounds]
    #: a path played at its own timing (before the arm's state is known)
    playback: Playback
    #: wraps the callbacks the node's own wrapping does not reach (the action's answers)
    guard: Guard
    #: moves sent and how they ended (an action's answers go there)
    arrival: Arrival
    #: reads the arm's joint states that waited while a move was under way
    #: (``ControllerOutput.catch_up``): before what needs them is told or used
    catch_up: Callable[[], None]
    #: the transport takes a motion again (``Transport.busy`` ended): a target that waited goes
    free: Callable[[], None]


class Transport(Protocol):
    """How a planned motion reaches its controller: what each controller output writes."""

    #: the controller answers each motion (an action: diagnostics show the answers)
    answers: bool
    #: something takes the commands, as last asked (``listen``)
    listened: bool

    @property
    def busy(self) -> bool:
        """
        Tell whether a motion sent is still being taken (an action's goal not yet accepted).

        A target then waits, replacing any that waited, until the transport
        calls the carrier's ``free``.
        """

    def listen(self) -> None:
        """Ask the graph whether something takes the commands (not per target)."""

    def poll(self) -> None:
        """Do what waits for the node's timer (an action asks for its newest goal's result)."""

    def configure(self, config: IKConfig) -> None:
        """Take the joint names, rates and tolerances of ``config``."""

    def start(self, motion_from: Callable[[int], Optional[AnyTimed]]) -> Optional[AnyTimed]:
        """
        Run ``motion_from(begin)`` from the start this transport chooses, and send what it gives.

        ``motion_from`` plans, checks (raising to refuse) and records the
        motion in the tracker; None when it has no state to plan from.
        """

    def due(self, motion: Timed) -> float:
        """Return the seconds from now to the end of ``motion`` just sent."""

    def point(self, theta1: float, theta2: float, goal: Angles,
              start: Optional[Angles]) -> float:
        """Send a target before the arm's state is known; return its seconds."""

    def own_timing(self, path: PathPlan) -> None:
        """Send a path at its own timing (the arm's state unknown)."""

    def stop(self) -> None:
        """Stop what is streamed (nothing, where a motion is sent whole)."""

    def track(self, move: Optional[Move]) -> None:
        """Follow ``move``, just sent, further (an action's answers; nothing otherwise)."""

    def destroy(self) -> None:
        """Take the transport's entities off the graph."""


class ControllerOutput(OutputMode):
    """An output that commands a controller, through ``transport``, and reads the arm's state."""

    def __init__(self, parts: Parts, config: IKConfig,
                 transport: Callable[[Carrier], Transport]) -> None:
        """Make the transport (a publisher or a client), then the subscription to the state."""
        super().__init__(parts, config)
        self._tracker = ArmTracker(Planner(*speed_limits(config)))
        self._reader = JointReader()
        self._joints = JointStateReader()
        self._cycles = ControllerCycles()
        self._held = False  # the state's subscription is held back (``_hold``)
        self._due_timer: Any = None  # ends the hold when the move is due, while it holds
        self._due_ns = 0  # when the move held for is due (the node's clock)
        #: the target (``send``'s arguments) waiting while the transport is busy
        self._waiting: Optional[Tuple[float, float, Any, Optional[Angles]]] = None
        self._transport = transport(Carrier(
            parts.node, self._tracker, self._cycles, self._check, self._check_position,
            lambda: self._bounds, self._playback, parts.guard, parts.arrival, self.catch_up,
            self._free))
        self._transport.listen()
        load_path_timing()  # now, not in the first path's callback (see path_timing)
        self._state_subscription = subscription(self._node, 'joint_states',
                                                self._on_joint_state, raw=True)

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
        self._release()
        self._tracker.forget()
        self._cycles.forget()

    @property
    def measured(self) -> Optional[Angles]:
        """Return the arm's last measured angles (None before any), the waiting states read."""
        self.catch_up()
        return self._tracker.measured

    def report(self) -> Optional[ArmReport]:
        """Return the arm's state and moves for diagnostics."""
        measured = self.measured
        return self.arrival.report(
            'none yet' if measured is None else f'{measured[0]!r} {measured[1]!r}',
            self._transport.answers)

    def poll(self) -> None:
        """
        Time out moves and the arm's state; see who listens.

        Whether anything takes the commands changes rarely: asked here, not
        of the graph on every target.
        """
        self._transport.listen()
        self._transport.poll()
        self.catch_up()
        if self._waiting is not None and not self._transport.busy:
            self._free()  # the goal before it was never answered in time
        if self.arrival.poll():
            self._tracker.forget_measurement()  # plan from the commands until states return

    def clock_jumped(self) -> None:
        """
        Stop what is timed on the node's clock and forget the arm's state and motion.

        The next target plans from the arm as it is heard after the jump.  A
        trajectory the controller has keeps running there: a controller on
        the same clock has been reset with it.
        """
        super().clock_jumped()
        self._transport.stop()
        self._forget_arm()

    def destroy(self) -> None:
        """Stop streaming; take the transport and the state's subscription off the graph."""
        super().destroy()
        self._pass_over()
        self._transport.stop()
        self._transport.destroy()
        self._release()
        self._node.destroy_subscription(self._state_subscription)

    # --------------------------------------------------------- moves

    def send(self, theta1: float, theta2: float, stamp: Any, start: Optional[Angles]) -> None:
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
            self._waiting = (theta1, theta2, stamp, start)
            return
        goal = self._bounds.inside((theta1, theta2))
        self.catch_up()  # the arm as it is now, not as it was before a wait
        tracker = self._tracker
        transport = self._transport
        braked = tracker.braked
        try:
            motion = transport.start(
                lambda begin: tracker.move(goal, begin, self._check_planned))
            seconds = (transport.point(theta1, theta2, goal, start) if motion is None
                       else transport.due(motion))
        except (LimitRefusal, Unplanned) as refusal:
            self._refused(goal, refusal)
            return
        self._sent(stamp, goal, seconds, tracker.braked - braked)

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

    def _sent(self, stamp: Any, goal: Angles, seconds: float, braked: int = 0) -> None:
        """
        Record a move sent now, due in ``seconds``, answering the target stamped ``stamp``.

        ``braked``: it was planned as a stop and a move from rest (``tracking``).
        """
        transport = self._transport
        transport.track(self.arrival.sent(stamp, goal, seconds, transport.listened, braked))
        self._hold(seconds)

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

    # --------------------------------------------------------- the arm's state

    def _hold(self, seconds: float) -> None:
        """
        Leave the arm's joint states waiting until the move just sent is due, ``seconds`` on.

        A joint state every cycle (100 Hz and more) is a wake of the node's
        thread each, and a wake costs more than a state's work (doc/
        performance.md).  While a move is under way nothing needs each one:
        they wait in the subscription's reader (its depth, the newest kept)
        and are read when the node wakes for something else, first thing
        (``catch_up``: a target, a path, the stream's cycle, the node's
        timer, the action's answer), and all again from the move's end on,
        when the arm's arrival is watched state by state.  Only on the lean
        executor (``LeanExecutor.hold_back``); on rclpy's each state wakes.

        A retarget that makes the move due later leaves the timer as it is,
        and the timer, when it fires before the move is due, sets itself
        again (``_on_due``): resetting a timer wakes the executor for nothing
        (rcl triggers the timer's guard condition), and retargets would
        each reset it: a second wake per target.
        """
        node = self._node
        hold_back = getattr(node.executor, 'hold_back', None)
        if hold_back is None or seconds <= 0.0:
            self._release()
            return
        self._held = hold_back(self._state_subscription, True)
        if not self._held:
            return
        period = max(round(seconds * 1e9), 1)
        self._due_ns = node.get_clock().now().nanoseconds + period
        timer = self._due_timer
        if timer is None:
            self._due_timer = node.create_timer(period / 1e9, self._on_due)
        elif period < (timer.time_until_next_call() or 0):
            self._arm_due_timer(period)

    def _arm_due_timer(self, period_ns: int) -> None:
        """Make the due timer fire ``period_ns`` from now."""
        timer = self._due_timer
        timer.timer_period_ns = period_ns
        timer.reset()

    def _on_due(self) -> None:
        """End the hold if the move is due; else fire again when it is (a retarget put it off)."""
        now = self._node.get_clock().now().nanoseconds
        if now < self._due_ns:
            self._arm_due_timer(self._due_ns - now)
            return
        self._release()

    def _release(self) -> None:
        """
        Read the states that waited, and take each as it comes again (the move is due).

        The timer goes with the hold (destroyed, not cancelled); a retarget
        while the hold lasts sets it again only to bring it sooner
        (``_hold``).
        """
        if self._due_timer is not None:
            self._node.destroy_timer(self._due_timer)
            self._due_timer = None
        if not self._held:
            return
        self.catch_up()
        self._held = False
        hold_back = getattr(self._node.executor, 'hold_back', None)
        if hold_back is not None:
            hold_back(self._state_subscription, False)

    def catch_up(self) -> None:
        """
        Read the joint states waiting in the subscription, oldest first.

        Those held back while a move runs (``_hold``), and those the
        executor has not served yet: a node that was not scheduled for a
        while (a loaded host) finds a target and the arm's states waiting
        together, and the executor may serve the target first; planned from
        the state before the wait, a retarget after half a second's stall
        started its trajectory where the arm had been (5.1 times the velocity
        limit, ``test_late_node``).
        """
        subscription = self._state_subscription
        raw = take(subscription)
        while raw is not None:
            self._on_joint_state(raw)
            raw = take(subscription)

    def _on_joint_state(self, raw: bytes) -> None:
        """
        Keep the arm's (theta1, theta2): matched by name, any order, other joints ignored.

        Read from the bytes (``ros.wire.JointStateReader``: a broadcaster's
        100 Hz or more, without a message object each); what it leaves to
        rclpy and rclpy cannot read either is not a joint state.
        """
        joints = self._joints.read(raw)
        if joints is None:
            try:
                msg = deserialize_message(raw, JointState)
            except Exception:  # noqa: B902  (rclpy's error types differ by distro)
                return
            joints = (msg.header.stamp.sec, msg.header.stamp.nanosec, msg.name, msg.position,
                      msg.velocity)
        sec, nanosec, names, position, velocity = joints
        reading = self._reader.read(names, position, velocity)
        if reading is not None:
            stamp_ns = sec * 1_000_000_000 + nanosec
            self._cycles.heard(stamp_ns)
            self._tracker.measure(reading[0], reading[1], stamp_ns)
            self.arrival.heard(reading[0])

    # --------------------------------------------------------- paths

    def follow(self, path: PathPlan, stamp: Any) -> Optional[PathMotion]:
        """
        Send a planned path as one move, answering ``stamp``.

        With the arm's state known, timed within the limits from it
        (``path_timing``; a target after it continues from the path's
        state), and returned; otherwise at its own timing (None).
        """
        self._playback.stop()
        self._pass_over()
        self.catch_up()
        motion = self._run_path(path)
        goal = (float(path.positions[-1, 0]), float(path.positions[-1, 1]))
        if motion is not None:
            self._sent(stamp, goal, self._transport.due(motion))
            return motion
        self._transport.stop()
        self._tracker.drop_move()  # the path's own timing drives the arm now
        self._transport.own_timing(path)
        self._sent(stamp, goal, float(path.times_ns[-1]) / 1e9)
        return None

    def _run_path(self, path: PathPlan) -> Optional[PathMotion]:
        """Time the path from the arm's state and send or stream it (None: no state)."""
        tracker = self._tracker
        if not tracker.known:
            return None
        parts = [time_poses(path.positions[begin:end],
                            (path.times_ns[begin:end] - path.times_ns[begin]) / 1e9
                            if path.stamped else None, tracker.planner.limits)
                 for begin, end in path.parts]

        def motion_from(begin: int) -> Optional[PathMotion]:
            # the arm's state after the timing, which takes milliseconds
            motion = run_path(parts, tracker.state(begin), tracker.planner, self._bounds)
            if motion is not None:
                tracker.run(motion, begin)
            return motion

        return self._transport.start(motion_from)

    # --------------------------------------------------------- new limits

    def _rein(self) -> None:
        """
        Bring what moves the arm within new limits: nothing sent after the change goes past them.

        A path played back at its own timing stops if what is still to come
        leaves them.  A move under way is re-planned to its goal held inside
        the new limits, a path stopped (``ArmTracker.rein``: the move, else
        the quickest stop and a move from rest, else a move from rest where
        the arm is), and sent as a target's move is, answering the same
        stamp; the move before is superseded (doc/motion.md).
        """
        if self._rein_playback():
            return
        self.catch_up()
        tracker = self._tracker
        motion = tracker.motion
        if motion is None:
            return
        inside = self._bounds.inside
        goal = None if isinstance(motion, PathMotion) else inside(motion.goal)
        pending = self.arrival.ledger.pending
        stamp = pending.stamp if pending is not None else \
            self._node.get_clock().now().to_msg()
        reined = self._transport.start(
            lambda begin: tracker.rein(begin, goal, inside, self._check_planned))
        if reined is None:
            return  # the motion was over
        self._sent(stamp, reined.goal, self._transport.due(reined))
        self._node.get_logger().warning(
            'the limits changed while the arm moved: '
            + ('it is held where it was: no motion within them could be planned'
               if isinstance(reined, Still) else 'the path stopped within them'
               if goal is None else
               f'the move re-planned within them, to {goal[0]:.6g} {goal[1]:.6g}'))
