"""The oracle's answer for one task: the plan, its GU, a proven bound and how they were found.

Versioned JSON (`ORACLE_RESULT_VERSION`), one object per task; `to_json` gives the record the
CLI writes one line of.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

ORACLE_RESULT_VERSION = 1


class Status(StrEnum):
    """OPTIMAL: objective = bound (within the recorded gap limit); FEASIBLE: a plan, bound above
    it; INFEASIBLE: proven that no modelled plan exists; UNKNOWN: no plan and no proof."""

    OPTIMAL = "OPTIMAL"
    FEASIBLE = "FEASIBLE"
    INFEASIBLE = "INFEASIBLE"
    UNKNOWN = "UNKNOWN"


@dataclass(frozen=True)
class ModelSize:
    """Size of the largest CP-SAT model built for the task."""

    variables: int
    constraints: int


@dataclass(frozen=True)
class OracleResult:
    """One task's oracle record."""

    task_id: str
    status: Status
    objective: int | None
    """Official GU total of `plan` (Σ per-user utility − split penalty)."""
    bound: int | None
    """Proven upper bound on the GU total over every plan in the modelled strict plan space."""
    per_user: dict[str, int]
    plan: dict[str, Any] | None
    seconds: float
    seed: int
    workers: int
    time_limit: float
    gap_limit: float
    splits: bool
    splits_used: int
    """Split city blocks in `plan`."""
    source: str
    """What produced `plan`: "cp-sat" or "greedy" (the warm start, when it was not beaten)."""
    model_size: ModelSize | None = None
    notes: tuple[str, ...] = ()
    table: str = "original"
    objective_kind: str = "gu"
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def average(self) -> float | None:
        """The per-user average GU (the official reported figure)."""
        if self.objective is None:
            return None
        return round(self.objective / max(len(self.per_user), 1), 2)

    @property
    def gap(self) -> float | None:
        """(bound − objective) / |bound|, 0 when both are 0."""
        if self.objective is None or self.bound is None:
            return None
        if self.bound == self.objective:
            return 0.0
        return (self.bound - self.objective) / max(abs(self.bound), 1)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["status"] = str(self.status)
        out["notes"] = list(self.notes)
        out = {"version": ORACLE_RESULT_VERSION, **out, "average": self.average, "gap": self.gap}
        return out
