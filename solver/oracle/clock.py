"""The oracle's time account in CP-SAT deterministic seconds.

Wall time depends on how loaded the machine is; CP-SAT's deterministic time does not. Every
decision the oracle takes from the time limit — how long a model may run, whether an order is
still searched, when the day-window search stops — reads this account, so one task, world,
seed and worker count give the same record on an idle machine and on a busy one (model
building and checking are not charged: they take wall time but decide nothing).
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model


@dataclass
class Clock:
    """Deterministic seconds charged so far against a limit."""

    limit: float
    used: float = 0.0

    def charge(self, solver: cp_model.CpSolver) -> None:
        """Add the deterministic time of the solve `solver` just finished."""
        self.add(solver.response_proto.deterministic_time)

    def add(self, seconds: float) -> None:
        """Add `seconds` of work measured another way (a re-solve and its model loading)."""
        self.used += seconds

    def spent(self) -> bool:
        """Whether the limit is used up."""
        return self.used >= self.limit

    def left(self) -> float:
        """Deterministic seconds still available (never negative)."""
        return max(self.limit - self.used, 0.0)
