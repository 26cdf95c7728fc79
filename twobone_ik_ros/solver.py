"""
Analytic inverse kinematics of a planar two-link arm, without trigonometry.

This module has no ROS dependency: numpy and the standard library only, so
scripts, notebooks and benchmarks can use it as they use any other library.

Conventions
-----------
The arm lies in the XY plane of its base frame with the shoulder at the
origin; a z coordinate, where a caller has one, plays no part.  ``theta1`` is
the angle of link 1 from +x, counter-clockwise positive; ``theta2`` is the
angle of link 2 relative to link 1.  Forward kinematics::

    elbow = r1 * (cos t1, sin t1)
    tip   = elbow + r2 * (cos(t1 + t2), sin(t1 + t2))

Both angles are wrapped to (-pi, pi].  An arm whose elbow joint does not
measure theta2 itself (its URDF turns it the other way, or its zero does not
point along link 1) gives ``elbow_offset`` and ``elbow_direction``: the
solver then answers and takes the elbow joint's position,
``direction * (theta2 - offset)`` wrapped, and its limits are that
position's (``model.planar_arm`` derives both from a URDF).  ``up`` puts
the elbow counter-clockwise of the ray from the base to the target (so
theta2 <= 0), ``down`` is its
mirror image (theta2 >= 0).  On the workspace boundary the two coincide:
theta2 is 0 with the arm stretched and pi with it folded.

Derivation
----------
The elbow ``e`` lies on two circles: ``|e| = r1`` around the shoulder and
``|e - p| = r2`` around the target ``p``.  Subtracting the expanded second
equation from the first removes the quadratic term and leaves a linear one::

    e . p = (h + r1^2 - r2^2) / 2,        h = p . p

so the component of ``e`` along ``p`` is fixed.  The perpendicular component
follows from ``|e| = r1``.  Writing ``e = (w p + q p_perp) / (2 h)`` with
``w = h + r1^2 - r2^2`` and ``p_perp = (-p_y, p_x)`` (``p`` turned a quarter
counter-clockwise, so ``|p_perp|^2 = h``) and substituting into ``|e|^2 = r1^2``
gives ``w^2 + q^2 = 4 r1^2 h``.  Instead of evaluating ``4 r1^2 h - w^2``, whose
two terms cancel catastrophically near both workspace boundaries, we factor it
exactly::

    q^2 = 4 r1^2 h - w^2 = (L^2 - h) (h - D^2),   L = r1 + r2,  D = r1 - r2

Each factor is a difference of two close numbers only where it is meant to be
zero, and is then computed exactly (Sterbenz), so a target on the boundary
gets ``q = 0`` exactly and a target beyond it a negative product: the
reachability test and the square root share one expression.  ``+q`` is the
``up`` elbow, ``-q`` the ``down`` one.  One division (``0.5 / h``) scales the
elbow, one square root gives ``q``; nothing else is irrational.

The elbow is evaluated as a rotation-and-scale of ``p``: with
``zr = w / 2h`` and ``zi = q / 2h`` (the one division), ``e = (x zr - y zi,
y zr + x zi)``, the complex product ``p (zr + i zi)`` written out.  ``solve``
and ``solve_batch`` do these same IEEE operations in the same order, so their
elbows agree to the last bit.

The angles come last, from two ``atan2`` calls that need no normalisation:
``theta1`` is the direction of ``e`` and ``theta2`` the direction of link 2
seen from link 1, whose cosine and sine are proportional to
``h - r1^2 - r2^2`` and ``-q`` (the dot and cross products of the two links,
both divided by ``r1 r2 / 2``).

Unreachable targets are either rejected or moved to the nearest reachable
point on the base-to-target ray (``|p|`` clamped to ``[|D|, L]``).  The clamped
point is put on the boundary with ``h`` set to ``L^2`` (or ``D^2``) exactly, so
``q = 0`` and the elbow lands on its circle of radius r1 to the last bit,
instead of the stretched arm one gets by clipping ``q^2`` at zero.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Optional, Tuple, Union

import numpy.typing as npt

from twobone_ik_ros.ik.batch import new_batch_result, solve_batch
from twobone_ik_ros.ik.geometry import (
    ArmGeometry, forward, JointLimits, LINK_LENGTH_RANGE, wrap_angle)
from twobone_ik_ros.ik.scalar import compile_solve
from twobone_ik_ros.ik.vocabulary import (
    BatchResult, Branch, ElbowPreference, IKResult, Reason, SolverConstants, Status,
    UnreachablePolicy)

__all__ = [
    'ArmGeometry',
    'BatchResult',
    'Branch',
    'ElbowPreference',
    'IKResult',
    'JointLimits',
    'LINK_LENGTH_RANGE',
    'Reason',
    'Status',
    'TwoBoneIK',
    'UnreachablePolicy',
    'forward',
    'new_batch_result',
    'wrap_angle',
]


class TwoBoneIK:
    """
    A configured solver: arm, branch preference, reach policy, joint limits.

    Everything that can be checked is checked here, once, so that the hot
    path (``solve``) is arithmetic only.  Instances are immutable (setting an
    attribute raises AttributeError); build a new one to change the
    configuration.  The arithmetic lives in ``ik.scalar`` (one target) and
    ``ik.batch`` (arrays), the types in ``ik.vocabulary``.

    >>> ik = TwoBoneIK(1.0, 0.5)
    >>> r = ik.solve(1.2, 0.3)
    >>> r.status.name, r.branch.name
    ('SOLVED', 'UP')
    """

    constants: SolverConstants

    def __init__(self, r1: float, r2: float,
                 elbow: Union[ElbowPreference, str] = ElbowPreference.UP,
                 unreachable: Union[UnreachablePolicy, str] = UnreachablePolicy.CLAMP,
                 shoulder_limits: Optional[Tuple[float, float]] = None,
                 elbow_limits: Optional[Tuple[float, float]] = None,
                 elbow_offset: float = 0.0, elbow_direction: float = 1.0) -> None:
        """Validate and precompute; raises ValueError naming any bad value."""
        constants = SolverConstants.build(r1, r2, elbow, unreachable, shoulder_limits,
                                          elbow_limits, elbow_offset, elbow_direction)
        object.__setattr__(self, 'constants', constants)
        # the compiled hot path replaces the method below on this instance
        object.__setattr__(self, 'solve', compile_solve(constants))

    def solve(self, x: float, y: float,  # type: ignore[no-redef]
              previous: Optional[Tuple[float, float]] = None) -> IKResult:
        """
        Solve the target ``(x, y)`` in the base frame; never raises for a float input.

        ``previous`` is the arm's last ``(theta1, theta2)``, read only by the
        ``closest`` preference.  Each instance answers this call with the
        closure ``ik.scalar.compile_solve`` built for its configuration (a
        closure reads its constants faster than attribute look-ups); this
        method is what the class documents, and what a subclass would call.
        """
        return compile_solve(self.constants)(x, y, previous)

    def solve_batch(self, points: npt.ArrayLike, previous: Optional[npt.ArrayLike] = None,
                    out: Optional[BatchResult] = None) -> BatchResult:
        """
        Solve N targets at once; same semantics and arithmetic as ``solve``.

        ``points`` has shape (N, 2).  ``previous`` (for ``closest``) is one
        ``(theta1, theta2)`` pair for all rows or an (N, 2) array.  ``out``, a
        result from ``new_batch_result(N)`` (or an earlier call), is filled
        in place instead of allocating.  See ``ik.batch.solve_batch``.
        """
        return solve_batch(self.constants, points, previous, out)

    def with_elbow(self, elbow: Union[ElbowPreference, str]) -> 'TwoBoneIK':
        """Return this solver with another branch preference, all else the same."""
        c = self.constants
        return TwoBoneIK(c.arm.r1, c.arm.r2, elbow, c.unreachable,
                         (c.shoulder_limits.lower, c.shoulder_limits.upper),
                         (c.elbow_limits.lower, c.elbow_limits.upper),
                         c.elbow_offset, c.elbow_direction)

    def forward(self, theta1: float,
                theta2: float) -> Tuple[Tuple[float, float], Tuple[float, float]]:
        """Return ``(elbow, tip)`` in the plane for joint positions as ``solve`` answers them."""
        c = self.constants
        if c.mapped:
            theta2 = c.theta2_of(theta2)
        return forward(c.arm.r1, c.arm.r2, theta1, theta2)

    def __setattr__(self, name: str, value: object) -> None:
        """Refuse every change: a solver is one configuration, checked once."""
        raise AttributeError(f'TwoBoneIK is immutable: build a new one to change {name}')

    @property
    def arm(self) -> ArmGeometry:
        """Return the two link lengths."""
        return self.constants.arm

    @property
    def r1(self) -> float:
        """Length of link 1 (shoulder to elbow), metres."""
        return self.constants.arm.r1

    @property
    def r2(self) -> float:
        """Length of link 2 (elbow to tip), metres."""
        return self.constants.arm.r2

    @property
    def elbow(self) -> ElbowPreference:
        """Return the branch preference."""
        return self.constants.elbow

    @property
    def unreachable(self) -> UnreachablePolicy:
        """Return what happens to targets out of reach."""
        return self.constants.unreachable

    @property
    def shoulder_limits(self) -> JointLimits:
        """Return the allowed interval of theta1."""
        return self.constants.shoulder_limits

    @property
    def elbow_limits(self) -> JointLimits:
        """Return the allowed interval of theta2."""
        return self.constants.elbow_limits
