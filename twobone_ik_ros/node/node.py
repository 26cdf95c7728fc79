"""
The IK node's wiring: a target in, one solver call, the answer out.

``targets`` reads each target and brings one in another frame into the base
frame (``frames``); ``_solve`` calls ``solver.TwoBoneIK`` and hands the
angles to the output in force (``outputs``).  Everything else is a part this
file only connects: paths, markers, counters and ``/diagnostics``, the
parameters, robot_state_publisher's model, the callback guard; ``main``
leaves running and stopping the process to ``ros.process.run_node``.  Two
timers: one on the node's clock for what belongs to the arm's time (the
solution again when none went out for a period of ``joint_state_rate``, the
arm's deadlines), one on the steady clock for what people read (markers, the
model, diagnostics at 1 Hz), so that a paused simulation still reports.
Every target ends in exactly one counter.  The interface is the table of
``model.interface`` (README).
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import gc
import os
import sys
import time
from typing import Any, Callable, List, Optional

from geometry_msgs.msg import PointStamped
from rcl_interfaces.msg import SetParametersResult
import rclpy
from rclpy.clock import Clock, ClockChange, ClockType, JumpThreshold
from rclpy.duration import Duration
from rclpy.parameter import Parameter
from twobone_ik_ros.model.config import IKConfig, validate, validate_change
from twobone_ik_ros.model.interface import NODE_NAME
from twobone_ik_ros.model.parameter_table import MODEL_PARAMETERS, PARAMETER_NAMES
from twobone_ik_ros.model.security import security_state
from twobone_ik_ros.motion.angles import Angles
from twobone_ik_ros.motion.joint_paths import nearest_angles
from twobone_ik_ros.node.declarations import declare_parameters, describe
from twobone_ik_ros.node.description import DescriptionInput
from twobone_ik_ros.node.diagnostics import (
    arm_report, build_diagnostics, REJECTION_TEXT, TargetCounters)
from twobone_ik_ros.node.drawing import ArmDrawing, MARKER_RATE_HZ
from twobone_ik_ros.node.frames import TargetFrames
from twobone_ik_ros.node.guard import GuardedNode
from twobone_ik_ros.node.paths import PathFollower
from twobone_ik_ros.node.qos_watch import QosWatch
from twobone_ik_ros.node.robot_model import RobotModelSync
from twobone_ik_ros.node.targets import TargetInput
from twobone_ik_ros.node.throttle import ThrottledWarnings
from twobone_ik_ros.outputs.libraries import require
from twobone_ik_ros.outputs.modes import OutputSwitch
from twobone_ik_ros.ros.endpoints import publisher
from twobone_ik_ros.ros.process import run_node
from twobone_ik_ros.ros.rclpy_workarounds import rclpy_error
from twobone_ik_ros.solver import Reason, Status

#: TWOBONE_IK_EXECUTOR names the executor that spins the node (ros.process.EXECUTORS):
#: by default rclpy's EventsExecutor where rclpy has it, else its SingleThreadedExecutor
EXECUTOR_VARIABLE = 'TWOBONE_IK_EXECUTOR'
DIAGNOSTICS_PERIOD_S = 1.0
WARNING_PERIOD_S = 2.0


class TwoBoneIKNode(GuardedNode):
    """Solve every target on ``target`` and publish the arm that reaches it."""

    def __init__(self, node_name: str = NODE_NAME, **kwargs: Any) -> None:
        """Declare and validate parameters; raise ValueError if they are invalid."""
        super().__init__(node_name, WARNING_PERIOD_S, **kwargs)
        self._warnings = ThrottledWarnings(self.get_logger(), WARNING_PERIOD_S)
        config = declare_parameters(self)
        require(config.output)  # its libraries, imported now (or the node is refused)
        self._counters = TargetCounters()
        self._placed: Optional[Angles] = None  # where the node last put the arm
        self._next_diagnostics = 0.0
        self._next_joint_state = 0  # ROS time, ns: when the solution goes out again
        self._solved = False  # a solution went out since the last check (no repeat)
        self._republish_period_ns = 0
        self._timing_timer: Any = None
        self._turns = False  # a joint limit reaches beyond +-pi
        self._elbow_listeners = 0  # the elbow's subscribers, counted by the housekeeping
        self._elbow_msg = PointStamped()
        self._frames = TargetFrames(self, lambda: self._config.frame, self.guard.wrap)
        self._description = DescriptionInput(self, self._on_description)
        self._robot_model = RobotModelSync(self)
        self._switch = OutputSwitch(self, self._moved, self._warnings.warn, self.guard.wrap)
        self._drawing = ArmDrawing(self, config)
        self._qos_watch = QosWatch(self)
        self._targets = TargetInput(self, config, self._counters, self._frames, self._solve,
                                    self._reject)
        self._paths = PathFollower(self, config, counters=self._counters, frames=self._frames,
                                   switch=self._switch, warnings=self._warnings,
                                   arm_at=self._arm_position, moved=self._moved)
        self._elbow_pub = publisher(self, 'elbow')
        self._diag_pub = publisher(self, '/diagnostics')
        self._apply(config)
        steady = Clock(clock_type=ClockType.STEADY_TIME)
        self._housekeeping_timer = self.create_timer(1.0 / MARKER_RATE_HZ, self._housekeeping,
                                                     clock=steady)
        self._time_before_jump = 0
        self._jump_handle = self.get_clock().create_jump_callback(
            JumpThreshold(min_forward=Duration(seconds=1), min_backward=Duration(nanoseconds=-1),
                          on_clock_change=True),
            pre_callback=self.guard.wrap(self._clock_jumping),
            post_callback=self.guard.wrap(self._clock_jumped))
        self.add_on_set_parameters_callback(self.guard.wrap(
            self._on_set_parameters, refuse=lambda error: SetParametersResult(
                successful=False, reason=f'internal error: {error!r} (see the node log)')))
        # SROS2 as rcl read it at init (the environment, --enclave): said, not enforced, here
        self._security = security_state(os.environ, sys.argv).describe()
        self.get_logger().info(f'ready: {describe(config)}, security={self._security}')

    # ------------------------------------------------------------ hot path

    def _solve(self, x: float, y: float, z: float, stamp: Any) -> None:
        """Solve a target in the base frame; publish it, or count and warn why not."""
        config = self._config
        if config.problem:
            self._reject('no_arm', lambda: (
                f'target ({x:.6g}, {y:.6g}, {z:.6g}) in {config.frame} rejected: '
                f'{config.problem}'))
            return
        arm = config.arm
        if not arm.in_plane:  # the arm's plane: the target's part along its axis plays no part
            x, y = arm.project(x, y, z)
        mode = self._switch.mode
        if mode.playing:
            mode.stop_playback()  # the newest input wins
        # the arm's measured state when a controller output reads one
        arm_at = mode.measured_angles() or self._placed
        result = config.solver.solve(x, y, arm_at)
        if result.status is Status.REJECTED:
            reason = result.reason.label
            self._reject(reason, lambda: (
                f'target ({x:.6g}, {y:.6g}) in {config.frame} rejected: '
                f'{REJECTION_TEXT[reason]} (unreachable={config.solver.unreachable.value})'))
            if result.reason is not Reason.NON_FINITE:  # RViz cannot place those
                self._drawing.show_target((x, y), Status.REJECTED)
            return
        if not (stamp.sec or stamp.nanosec):
            stamp = self.get_clock().now().to_msg()
        theta1, theta2, elbow_xy = result.theta1, result.theta2, result.elbow
        assert theta1 is not None and theta2 is not None and elbow_xy is not None
        if self._turns:  # multi-turn joints: the representation nearest the arm
            theta1, theta2 = nearest_angles(config.solver, theta1, theta2, arm_at)
        # messages are reused: publish() serialises at once, and the names
        # and frame only change with the parameters
        mode.send(theta1, theta2, stamp, arm_at)
        self._solved = True
        if self._elbow_listeners:
            elbow = self._elbow_msg
            elbow.header.stamp = stamp
            elbow.point.x, elbow.point.y, elbow.point.z = arm.place(
                elbow_xy[0], elbow_xy[1], arm.elbow_height)
            self._elbow_pub.publish(elbow)
        if result.status is Status.CLAMPED:
            self._counters.clamped += 1
        else:
            self._counters.solved += 1
        self._placed = (theta1, theta2)
        self._drawing.show_target((x, y), result.status)

    def _reject(self, reason: str, describe: Callable[[], str]) -> None:
        """Count a rejected target and warn (throttled)."""
        self._counters.rejected.add(reason)
        self._warnings.warn(reason, describe)

    def _arm_position(self) -> Optional[Angles]:
        """Return where the arm is: measured (a controller output), else where the node put it."""
        return self._switch.mode.measured_angles() or self._placed

    def _moved(self, position: Angles) -> None:
        """Record where a path put the arm (for closest, markers and the next move)."""
        self._placed = position
        self._drawing.moved()

    # ---------------------------------------------------------- timers

    def _housekeeping(self) -> None:
        """
        Do what is due on the steady clock: redraw stale markers, the model, diagnostics.

        One timer for the three.
        """
        now = time.monotonic()
        self._elbow_listeners = self._elbow_pub.get_subscription_count()
        self._drawing.poll(now, self._placed)
        self._robot_model.poll()
        if now >= self._next_diagnostics:
            self._next_diagnostics = now + DIAGNOSTICS_PERIOD_S
            self._qos_watch.check()
            config = self._config
            self._diag_pub.publish(build_diagnostics(
                self.get_fully_qualified_name().lstrip('/'), self.get_clock().now().to_msg(),
                self._counters,
                dict(config.as_parameters(), robot_description=self._robot_model.state),
                self._switch.mode.report(), self.guard.count,
                self._counters.rejected.take_recent(),
                arm_report(config, self._description.received), self._qos_watch.incompatible,
                self._security))

    def _timing(self) -> None:
        """
        Do what is due on the node's clock: the joint state again, the arm's deadlines.

        The repeat goes out once a whole period has passed with no solution
        (between one and two periods after the last): ``_solve`` only raises
        a flag, which costs less than reading the clock on every target.
        """
        period = self._republish_period_ns
        if period:
            now = self.get_clock().now().nanoseconds
            if now >= self._next_joint_state:
                self._next_joint_state = now + period
                if self._solved:
                    self._solved = False
                else:
                    self._republish_joint_state()
        self._switch.mode.poll()

    def _clock_jumping(self) -> None:
        """Note the time before a jump of the node's clock (``_clock_jumped``)."""
        self._time_before_jump = self.get_clock().now().nanoseconds

    def _clock_jumped(self, jump: Any) -> None:
        """
        End the motion timed on the clock before a jump back, a change, or its start.

        A simulation that is reset (its clock jumps back) has put its arm
        back too, times on another clock (``use_sim_time`` switched) mean
        nothing on this one, and neither do times taken before a simulated
        clock started (zero, until the first ``/clock``): the output stops
        what it plays and starts again from the arm's next measured state
        (``OutputSwitch.clock_jumped``); a target waiting for its transform waits
        its whole timeout again.  A jump forward on a running clock is time
        that passed: nothing to do.
        """
        changed = jump.clock_change in (ClockChange.ROS_TIME_ACTIVATED,
                                        ClockChange.ROS_TIME_DEACTIVATED)
        started = self._time_before_jump == 0 and jump.delta.nanoseconds > 0
        if not (changed or started or jump.delta.nanoseconds < 0):
            return
        self._next_joint_state = 0
        self._switch.clock_jumped()
        self._frames.clock_jumped()
        if started and not changed:
            self.get_logger().info('the clock started: timing from it now')
        else:
            self.get_logger().warning(
                'the clock jumped back or changed: the motion under way was ended, '
                'the next target starts from the arm as it is heard now')

    def _republish_joint_state(self) -> None:
        """Publish the current solution again, stamped now (see the module docstring)."""
        if self._placed is not None:
            self._switch.mode.republish(self._placed, self.get_clock().now().to_msg())

    # ------------------------------------------------------- parameters

    def _on_set_parameters(self, parameters: List[Parameter[Any]]) -> SetParametersResult:
        """Apply a runtime change only if the whole new configuration is valid."""
        changes = {p.name: p.value for p in parameters if p.name in PARAMETER_NAMES}
        if not changes:
            return SetParametersResult(successful=True)
        try:
            config = validate_change(self._config.as_parameters(), changes,
                                     self._description.text)
            require(config.output)
        except ValueError as error:
            self.get_logger().warning(f'parameter change refused: {error}')
            return SetParametersResult(successful=False, reason=str(error))
        in_force = self._config
        try:
            self._apply(config)
        except rclpy_error() as error:
            # rcl refused an entity of the new output on a valid name: SROS2's permissions
            # (a keystore made for another output); the node goes on as it was
            self._apply(in_force)
            reason = (f'output {config.output.value} cannot be made (security='
                      f'{self._security}): ' + str(error).split(', at ')[0])
            self.get_logger().warning(f'parameter change refused: {reason}')
            return SetParametersResult(successful=False, reason=reason)
        self._drawing.publish(self._placed)  # the arm and the workspace change at once
        if not config.tip_link and any(name in changes for name in MODEL_PARAMETERS):
            self._robot_model.send(config)  # the node's own arm: its URDF is the node's
        self.get_logger().info(f'parameters changed: {describe(config)}')
        if config.problem and self._description.text is not None:
            # base_frame and tip_link change one at a time (ros2 param set): a chain that is
            # not one between them is held, like a description the node cannot use
            self.get_logger().error(f'the arm cannot be read from robot_description: '
                                    f'{config.problem}; every target is refused until it can')
        return SetParametersResult(successful=True)

    def _on_description(self, text: str) -> None:
        """
        Read the arm from a new robot_description, as a runtime change of the arm.

        One the node cannot use is logged (an error that says what is wrong)
        and refuses every target until a usable one comes; the motion under
        way keeps the arm it was planned on.
        """
        config = validate(self._config.as_parameters(), text)
        if config.problem:
            self.get_logger().error(f'robot_description cannot be used: {config.problem}; '
                                    'every target is refused until a usable one comes')
        else:
            self.get_logger().info(f'the arm, from robot_description: {config.arm.describe()}')
        self._apply(config)
        self._drawing.publish(self._placed)

    def _apply(self, config: IKConfig) -> None:
        """Make ``config`` the one in force, with what is derived from it."""
        old: Optional[IKConfig] = getattr(self, '_config', None)
        if old is not None:
            if config.problem:  # no usable arm: what moves keeps the arm it was planned on
                config = config.keeping_arm_of(old)
            elif old.arm != config.arm and (old.arm.from_description
                                            or config.arm.from_description):
                self._placed = None  # another arm: its joints are not those angles
        self._config = config
        self._description.want(bool(config.tip_link))
        self._switch.configure(config)
        self._targets.configure(config)
        self._paths.configure(config)
        self._turns = config.solver.shoulder_limits.multi_turn or \
            config.solver.elbow_limits.multi_turn
        self._elbow_msg.header.frame_id = config.frame
        self._drawing.configure(config)
        rate = config.joint_state_rate
        self._republish_period_ns = round(1e9 / rate) if rate > 0.0 else 0
        if old is None or old.joint_state_rate != config.joint_state_rate:
            if self._timing_timer is not None:
                self.destroy_timer(self._timing_timer)
            self._timing_timer = self.create_timer(
                1.0 / max(MARKER_RATE_HZ, config.joint_state_rate), self._timing)


def main(args: Optional[List[str]] = None) -> None:
    """Run the node until SIGINT, SIGTERM or shutdown; exit 2 on an invalid configuration."""
    def make_node() -> TwoBoneIKNode:
        node = TwoBoneIKNode()
        # everything made so far lives as long as the node: keep the collector
        # from walking it again and again while targets stream
        gc.freeze()
        return node

    # another executor on request: to compare them (doc/performance.md)
    code = run_node(make_node, args=args, name=NODE_NAME,
                    executor=os.environ.get(EXECUTOR_VARIABLE, 'default'),
                    invalid=(ValueError, rclpy.exceptions.ParameterException))
    # frozen objects outlive the interpreter's teardown: release the node's now,
    # or ruckig's bindings (nanobind) report its planner as leaked at exit
    gc.unfreeze()
    gc.collect()
    if code:
        sys.exit(code)


if __name__ == '__main__':
    main()
