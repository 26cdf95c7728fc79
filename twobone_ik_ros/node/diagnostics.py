"""
Counters of what happened to every target, and their DiagnosticArray form.

Every target the node receives is counted exactly once, as solved, clamped or
rejected with one reason, so ``received == solved + clamped + sum(rejected)``
always holds; that is what makes "nothing is dropped silently" checkable from
outside, with ``ros2 topic echo /diagnostics`` or rqt_robot_monitor.

Targets that never reach the node are counted too, as far as they can be
seen: ``lost`` is the number of gaps in each publisher's publication sequence
numbers (``SequenceGaps``), which covers targets dropped anywhere between the
publisher and the callback, a full keep-last queue included; ``lost.dds`` is
what the middleware itself reports (the ``message_lost`` event; on Fast DDS
not taken, and the value says why: ``ros.qos_events``).  Neither can see the
last targets of a publisher if they are lost, nor anything sent before the
node's subscription matched.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from builtin_interfaces.msg import Time
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from twobone_ik_ros.model.config import IKConfig
from twobone_ik_ros.model.tally import ReasonCounter
from twobone_ik_ros.motion.joint_paths import BREAK_TEXT, MAX_PARTS
from twobone_ik_ros.motion.ledger import ArmReport, GOAL_RESULTS
from twobone_ik_ros.solver import Reason

#: The one table of why a target can be rejected, with the text its warning
#: gives: every reason of the solver (``Reason.label``), then the node's own.
#: The counters, the diagnostics keys and the warnings all derive from it, and
#: a test checks that it covers every ``Reason``.
REJECTION_TEXT: Dict[str, str] = {
    Reason.TOO_FAR.label: 'beyond the reach r1 + r2',
    Reason.TOO_CLOSE.label: 'inside the hole of radius |r1 - r2| around the shoulder',
    Reason.NON_FINITE.label: 'a coordinate is not a finite number',
    Reason.JOINT_LIMITS.label: 'neither elbow branch fits the joint limits',
    'unknown_frame': 'no transform from its frame to the base frame',
    'no_arm': 'no usable arm: no robot_description yet, or one the node cannot use',
    'malformed': 'not a valid message of its type (unreadable bytes, a negative stamp)',
}
REJECT_REASONS = tuple(REJECTION_TEXT)
#: Why a path can be refused: a target's reasons, where the joint limits break
#: it (``joint_paths.BREAK_TEXT``: under ``unreachable`` reject), and the path's own.
PATH_REJECTION_TEXT: Dict[str, str] = {
    **REJECTION_TEXT, **BREAK_TEXT,
    'empty': 'the path has no poses',
    'too_many_parts': f'the joint limits would split it into more than {MAX_PARTS} parts',
    'unplanned': 'ruckig planned no move to it or between its parts',
}
PATH_REJECT_REASONS = tuple(PATH_REJECTION_TEXT)
HARDWARE_ID = 'twobone_ik'


@dataclass
class TargetCounters:
    """Running totals since start-up, plus rejections since the last report."""

    received: int = 0
    solved: int = 0
    clamped: int = 0
    rejected: ReasonCounter = field(default_factory=lambda: ReasonCounter(REJECT_REASONS))
    lost: int = 0
    lost_dds: int = 0
    #: why ``lost_dds`` is not counted (the middleware's event not taken), reported instead
    lost_dds_refused: Optional[str] = None
    #: paths: ``paths == paths_followed + paths_rejected.total``
    paths: int = 0
    paths_followed: int = 0
    paths_rejected: ReasonCounter = field(
        default_factory=lambda: ReasonCounter(PATH_REJECT_REASONS))
    path_poses_clamped: int = 0
    #: followed paths the joint limits split into parts (``unreachable`` clamp), and
    #: the elbow flips among their splits
    paths_split: int = 0
    path_flips: int = 0
    #: poses of followed paths left out because no elbow branch fits the limits
    path_poses_skipped: int = 0
    #: stamped paths a controller output stretched to keep the joints' limits
    paths_retimed: int = 0


class SequenceGaps:
    """
    Count what each publisher sent that never reached us, from its sequence numbers.

    A writer numbers its samples 1, 2, 3...; a jump from 7 to 10 means two
    were lost on the way.  The first sample seen from a writer only sets the
    start (what it sent before we matched is not ours to count).  The common
    case, the same writer as last time, costs one comparison.
    """

    def __init__(self, remembered: int = 64) -> None:
        """Remember the last number of up to ``remembered`` writers."""
        self._writer: object = None
        self._last = 0
        self._others: Dict[object, int] = {}
        self._remembered = remembered

    def missed(self, writer: object, sequence: int) -> int:
        """Record ``sequence`` from ``writer``; return how many of its samples were skipped."""
        if writer != self._writer:
            if self._writer is not None:
                if len(self._others) >= self._remembered:
                    self._others.pop(next(iter(self._others)))
                self._others[self._writer] = self._last
            self._writer = writer
            last = self._others.pop(writer, None)
            if last is None:
                self._last = sequence
                return 0
            self._last = last
        gap = sequence - self._last - 1
        self._last = sequence
        return gap if gap > 0 else 0


def arm_report(config: IKConfig, descriptions: int) -> List[Tuple[str, str]]:
    """
    Return what the diagnostics say of the arm: where it comes from, its limits, its problem.

    ``descriptions``: how many robot_description messages the node received.
    """
    values = [('arm', config.arm.describe())]
    if config.tip_link:
        values += [('arm.descriptions', str(descriptions)),
                   ('arm.limits', config.limit_sources or 'none yet'),
                   ('arm.problem', config.problem or 'none')]
    return values


def build_diagnostics(node_name: str, stamp: Time, counters: TargetCounters,
                      parameters: Mapping[str, Any], arm: Optional[ArmReport] = None,
                      internal_errors: int = 0,
                      rejected_recently: Optional[Dict[str, int]] = None,
                      arm_values: Sequence[Tuple[str, str]] = (),
                      incompatible_peers: int = 0, security: str = 'off') -> DiagnosticArray:
    """
    One DiagnosticStatus with the counters and the current parameters.

    ``rejected_recently``: the targets rejected since the previous report,
    by reason (``counters.rejected.take_recent()``, which the caller takes:
    building the message changes nothing).

    ``arm`` (controller outputs): the arm's measured position as the node
    last read it from joint_states (``arm_state``, or 'none yet': the first
    thing to look at when ``closest`` or the move times seem wrong), the
    age of that state, the moves by outcome (``moves.*``), what a late
    stream cost (``stream.*``: cycles held, commands late, and how much
    later than planned the last and the latest move ended, s) and, with the
    action output, the goals by result (``goals.*``).

    ``security``: whether SROS2 is on for the node, its strategy and
    enclave (``model.security``), as the start-up log says it.

    ``arm_values``: the arm's source and limits (``arm_report``); a
    ``arm.problem`` other than 'none' makes the level WARN with it as the message.

    ``incompatible_peers``: the peers found since start whose QoS or type can
    never match one of the node's topics (``qos_watch``; each logged once).

    The level is ERROR from the first internal error on (a callback raised:
    a bug, see ``guard``; the node went on), else WARN when targets were
    rejected or moves failed since the previous report (so the warning
    clears once the cause stops), or while the arm's state is stale; OK
    otherwise.
    """
    status = DiagnosticStatus(name=f'{node_name}: targets', hardware_id=HARDWARE_ID)
    recent = rejected_recently or {}
    if internal_errors:
        status.level = DiagnosticStatus.ERROR
        status.message = (f'{internal_errors} internal error(s): callbacks abandoned, '
                          'see the node log')
    elif dict(arm_values).get('arm.problem', 'none') != 'none':
        status.level = DiagnosticStatus.WARN
        status.message = 'no usable arm: ' + dict(arm_values)['arm.problem']
    elif recent:
        status.level = DiagnosticStatus.WARN
        status.message = (f'{sum(recent.values())} target(s) rejected since the last report: '
                          + counters.rejected.describe(recent))
    elif arm is not None and arm.failed_recently:
        status.level = DiagnosticStatus.WARN
        recent = arm.failed_recently
        status.message = (f'{sum(recent.values())} move(s) failed since the last report: '
                          + arm.moves.failed.describe(recent))
    elif arm is not None and arm.stale:
        status.level = DiagnosticStatus.WARN
        status.message = (f'no joint_states for {arm.age} s: planning from the last '
                          'commanded state')
    else:
        status.level = DiagnosticStatus.OK
        status.message = 'solving targets' if counters.received else 'waiting for targets'
    values: List[Tuple[str, Any]] = [
        ('received', counters.received),
        ('lost', counters.lost),
        ('lost.dds', counters.lost_dds_refused or counters.lost_dds),
        ('solved', counters.solved),
        ('clamped', counters.clamped),
        ('rejected', counters.rejected.total),
        ('internal_errors', internal_errors),
        ('peers.incompatible', incompatible_peers),
    ]
    values += [(f'rejected.{reason}', count) for reason, count in counters.rejected.counts.items()]
    values += [
        ('paths', counters.paths),
        ('paths.followed', counters.paths_followed),
        ('paths.rejected', counters.paths_rejected.total),
    ]
    values += [(f'paths.rejected.{reason}', count)
               for reason, count in counters.paths_rejected.counts.items()]
    values += [
        ('paths.clamped_poses', counters.path_poses_clamped),
        ('paths.split', counters.paths_split),
        ('paths.flips', counters.path_flips),
        ('paths.skipped_poses', counters.path_poses_skipped),
        ('paths.retimed', counters.paths_retimed),
    ]
    if arm is not None:
        moves = arm.moves
        values += [('arm_state', arm.position), ('arm_state.age', arm.age),
                   ('arm_state.stale', arm.stale),
                   ('moves.sent', moves.sent), ('moves.reached', moves.reached),
                   ('moves.superseded', moves.superseded), ('moves.braked', moves.braked),
                   ('stream.cycles_held', moves.cycles_held),
                   ('stream.commands_late', moves.commands_late),
                   ('stream.move_late_s', f'{moves.late_last_ns / 1e9:.3f}'),
                   ('stream.move_late_max_s', f'{moves.late_max_ns / 1e9:.3f}')]
        values += [(f'moves.failed.{reason}', count)
                   for reason, count in moves.failed.counts.items()]
        if arm.goals:
            values += [(f'goals.{result}', moves.goals[result]) for result in GOAL_RESULTS]
    values += list(arm_values)
    values.append(('security', security))
    values += [(f'param.{name}', value) for name, value in parameters.items()]
    status.values = [KeyValue(key=key, value=str(value)) for key, value in values]
    array = DiagnosticArray(status=[status])
    array.header.stamp = stamp
    return array
