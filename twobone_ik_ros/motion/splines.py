"""
Piecewise polynomials in time (scipy's ``PPoly``): their peaks, a uniform stretch, two makers.

Pure (numpy and scipy; no ROS).  What ``path_timing`` times a path with:
the exact largest velocity, acceleration and jerk of a timing
(``spline_peaks``: each piece's ends and the roots of the next derivative,
not samples), the smallest uniform stretch that brings all three within
the limits (velocity scales by 1/k, acceleration 1/k^2, jerk 1/k^3), the C2
cubic spline at rest at both ends, and quintics through positions,
velocities and accelerations (what joint_trajectory_controller follows
between points that carry all three).  scipy is imported in each call:
it comes with the controller outputs, not with the package.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from twobone_ik_ros.motion.planning import Limits


def spline_peaks(spline: Any) -> npt.NDArray[np.float64]:
    """
    Return the largest absolute velocity, acceleration and jerk of a piecewise polynomial.

    ``spline`` is a scipy ``PPoly`` of (times, joints).  Each derivative
    peaks at a piece's ends or where the next derivative is zero inside it.
    """
    return np.array([_peak(spline, order) for order in (1, 2, 3)])


def _peak(spline: Any, order: int) -> float:
    """Return the largest |d^order/dt^order| of ``spline`` over its pieces, ends included."""
    from scipy.interpolate import PPoly
    curve = spline.derivative(order)
    c = curve.c  # (degree + 1, pieces, joints), each piece in its own time from 0
    h = np.diff(curve.x)[:, None]
    at_end = np.zeros_like(c[0])
    for coefficient in c:  # Horner, every piece at its own end
        at_end = at_end * h + coefficient
    peak = float(max(np.abs(c[-1]).max(), np.abs(at_end).max()))
    if c.shape[0] > 1:  # not constant on a piece: its inside may peak
        slope = curve.derivative(1)
        for joint in range(c.shape[2]):
            roots = PPoly(slope.c[:, :, joint], slope.x).roots(
                discontinuity=False, extrapolate=False)
            roots = roots[np.isfinite(roots)]
            if roots.size:
                peak = max(peak, float(np.abs(curve(roots)[:, joint]).max()))
    return peak


def stretched(spline: Any, factor: float) -> Any:
    """Return ``spline`` run ``factor`` times slower: the same curve, each derivative scaled."""
    from scipy.interpolate import PPoly
    degree = spline.c.shape[0] - 1
    powers = (degree - np.arange(degree + 1)).astype(np.float64)
    return PPoly(spline.c / factor ** powers[:, None, None], spline.x * factor)


def stretch_within(spline: Any, limits: Limits) -> float:
    """Return the smallest uniform time stretch (>= 1) that keeps all three limits."""
    velocity, acceleration, jerk = (float(peak) for peak in spline_peaks(spline))
    return float(max(1.0, velocity / limits.velocity,
                     math.sqrt(acceleration / limits.acceleration),
                     (jerk / limits.jerk) ** (1.0 / 3.0)))


def clamped_spline(times: npt.NDArray[np.float64], pts: npt.NDArray[np.float64]) -> Any:
    """Return the C2 cubic spline through ``pts`` at ``times``, at rest at both ends (a PPoly)."""
    from scipy.interpolate import CubicSpline
    return CubicSpline(times, pts, axis=0, bc_type='clamped')


def quintics(times: npt.NDArray[np.float64], positions: npt.NDArray[np.float64],
             velocities: npt.NDArray[np.float64],
             accelerations: npt.NDArray[np.float64]) -> Any:
    """
    Return the quintics through (position, velocity, acceleration) at ``times``, as one PPoly.

    On a piece of length h the Bernstein coefficients of a quintic with those
    ends are p0, p0 + v0 h/5, p0 + 2 v0 h/5 + a0 h^2/20 and, mirrored, the
    same of the end with -h.
    """
    from scipy.interpolate import BPoly, PPoly
    h = np.diff(times)[:, None]
    p0, v0, a0 = positions[:-1], velocities[:-1], accelerations[:-1]
    p1, v1, a1 = positions[1:], velocities[1:], accelerations[1:]
    coefficients = np.stack((
        p0, p0 + v0 * h / 5.0, p0 + 2.0 * v0 * h / 5.0 + a0 * h * h / 20.0,
        p1 - 2.0 * v1 * h / 5.0 + a1 * h * h / 20.0, p1 - v1 * h / 5.0, p1))
    return PPoly.from_bernstein_basis(BPoly(coefficients, times))
