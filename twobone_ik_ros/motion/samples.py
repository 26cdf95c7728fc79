"""
A motion at chosen times: the points a controller is sent, as rows or as arrays.

Pure (numpy, no ROS).  A move has a few points (its knots), which the node
makes, checks and writes a few floats at a time: for them numpy's cost per
call is most of the time, so a move's points are plain rows, made by the
planner and read by the check (``limit_check``) and the writer
(``trajectory_wire``) as they are.  A path's many points are arrays.
Either form is made from the other when it is first asked for, and kept.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

#: One point as plain floats: the two positions, velocities and accelerations (rad, /s, /s^2).
Row = Tuple[float, float, float, float, float, float]
_Arrays = Tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64],
                npt.NDArray[np.float64]]


class Samples:
    """A motion at chosen times: (N,) ns from its start, (N, 2) for the rest, or N rows."""

    __slots__ = ('_arrays', '_rows')

    def __init__(self, times_ns: npt.ArrayLike, positions: npt.ArrayLike,
                 velocities: npt.ArrayLike, accelerations: npt.ArrayLike) -> None:
        """Hold the arrays: times (N,) in ns, positions, velocities, accelerations (N, 2)."""
        self._arrays: Optional[_Arrays] = (
            np.asarray(times_ns, np.int64), np.asarray(positions, np.float64),
            np.asarray(velocities, np.float64), np.asarray(accelerations, np.float64))
        self._rows: Optional[Tuple[List[int], List[Row]]] = None

    @classmethod
    def of_rows(cls, times_ns: List[int], rows: List[Row]) -> Samples:
        """Return the points ``rows`` at ``times_ns`` (ns from the start), held as they are."""
        samples = cls.__new__(cls)
        samples._arrays = None
        samples._rows = (times_ns, rows)
        return samples

    def __len__(self) -> int:
        """Return the number of points."""
        if self._rows is not None:
            return len(self._rows[0])
        assert self._arrays is not None
        return int(self._arrays[0].shape[0])

    def rows(self) -> Tuple[List[int], List[Row]]:
        """Return the times (ns) and the rows, as plain numbers (made once from the arrays)."""
        if self._rows is None:
            times, positions, velocities, accelerations = self.arrays()
            table = np.concatenate((positions, velocities, accelerations), axis=1).tolist()
            self._rows = (times.tolist(), [tuple(row) for row in table])  # type: ignore[misc]
        return self._rows

    def arrays(self) -> _Arrays:
        """Return the points as arrays: times, positions, velocities, accelerations (made once)."""
        if self._arrays is None:
            assert self._rows is not None
            times, rows = self._rows
            table = np.array(rows, np.float64).reshape(-1, 6)
            self._arrays = (np.array(times, np.int64), table[:, 0:2], table[:, 2:4],
                            table[:, 4:6])
        return self._arrays

    @property
    def times_ns(self) -> npt.NDArray[np.int64]:
        """Return each point's time, ns from the start."""
        return self.arrays()[0]

    @property
    def positions(self) -> npt.NDArray[np.float64]:
        """Return the positions, (N, 2)."""
        return self.arrays()[1]

    @property
    def velocities(self) -> npt.NDArray[np.float64]:
        """Return the velocities, (N, 2)."""
        return self.arrays()[2]

    @property
    def accelerations(self) -> npt.NDArray[np.float64]:
        """Return the accelerations, (N, 2)."""
        return self.arrays()[3]

    def first(self) -> Row:
        """Return the first point's row."""
        return self.rows()[1][0]

    def last(self) -> Row:
        """Return the last point's row."""
        return self.rows()[1][-1]

    @property
    def as_rows(self) -> bool:
        """Tell whether the points are held as rows (made so, or read so once)."""
        return self._rows is not None


def joined(parts: Sequence[Tuple[Samples, int, bool]]) -> Samples:
    """
    Return samples one after the other: each ``(samples, offset_ns, keep_last)``.

    Rows where every part is held as rows (a chain of moves), else arrays.
    """
    if all(part.as_rows for part, _, _ in parts):
        times: List[int] = []
        rows: List[Row] = []
        for part, offset, keep_last in parts:
            part_times, part_rows = part.rows()
            end = len(part_times) if keep_last else len(part_times) - 1
            times += [t + offset for t in part_times[:end]]
            rows += part_rows[:end]
        return Samples.of_rows(times, rows)
    columns: List[List[npt.NDArray[Any]]] = [[], [], [], []]
    for part, offset, keep_last in parts:
        keep = slice(None) if keep_last else slice(None, -1)
        arrays = part.arrays()
        columns[0].append(arrays[0][keep] + offset)
        for column, values in zip(columns[1:], arrays[1:]):
            column.append(values[keep])
    return Samples(*(np.concatenate(column) for column in columns))
