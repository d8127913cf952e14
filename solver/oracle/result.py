"""The oracle's answer for one task: the plan, its GU, a proven bound and how they were found.

Versioned JSON (`ORACLE_RESULT_VERSION`), one object per task; `to_json` gives the record the
CLI writes one line of. Version 2 adds, beside the strict-best plan, the best plan valid under
both profiles (`both_valid`); `witness_for` reads either version and picks the plan that fits a
profile.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

ORACLE_RESULT_VERSION = 2
"""1: the strict-best plan only; 2: also its official validity, idle minutes and cost, and the
best plan valid under both profiles (`both_valid`, or why there is none)."""

STRICT_BEST = "strict-best"
BOTH_VALID = "both-valid"


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
class Witness:
    """A plan the oracle keeps: its goal value (`objective`), GU total, per-user utilities, what
    produced it, the profiles that accept it and its tie-breaks (`solver.oracle.tiebreak`)."""

    plan: dict[str, Any]
    objective: int
    gu: int
    per_user: dict[str, int]
    source: str
    valid_under: tuple[str, ...]
    idle_minutes: int
    cost_fen: int
    official_issues: tuple[str, ...] = ()
    """The official issue types that reject the plan (empty when `official` accepts it)."""

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["valid_under"] = list(self.valid_under)
        out["official_issues"] = list(self.official_issues)
        return out


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
    valid_under: tuple[str, ...] = ()
    """The profiles that accept `plan` ("strict", and "official" when its quirks do too)."""
    official_issues: tuple[str, ...] = ()
    """The official issue types that reject `plan` (empty when `official` accepts it)."""
    idle_minutes: int | None = None
    """`plan`'s idle minutes (`tiebreak.idle_minutes`)."""
    cost_fen: int | None = None
    """`plan`'s declared cost (`tiebreak.plan_cost_fen`)."""
    both_valid: Witness | None = None
    """The best plan found that both profiles accept (possibly `plan` itself)."""
    both_valid_missing: str | None = None
    """Why `both_valid` is None."""

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
        out["valid_under"] = list(self.valid_under)
        out["official_issues"] = list(self.official_issues)
        out["both_valid"] = None if self.both_valid is None else self.both_valid.to_json()
        out = {"version": ORACLE_RESULT_VERSION, **out, "average": self.average, "gap": self.gap}
        return out


@dataclass(frozen=True)
class WitnessChoice:
    """The oracle plan a profile is compared with: `name` (`STRICT_BEST`, `BOTH_VALID`, or None
    when the record has none for the profile), its goal value, its plan, and a note when the
    choice needs one (an old record, no both-valid plan)."""

    name: str | None
    objective: float | None
    plan: dict[str, Any] | None
    note: str | None = None


def witness_for(record: Mapping[str, Any], profile: str | None) -> WitnessChoice:
    """The witness of an oracle record (any version) that fits `profile`: for `official`, the
    best plan valid under both profiles; for `strict` (or None), the strict-best plan. A
    version-1 record has no both-valid plan: `official` then gets the strict-best plan with a
    note saying its official validity is unknown."""
    objective = _number(record.get("objective"))
    strict = WitnessChoice(STRICT_BEST, objective, record.get("plan"))
    if profile != "official":
        return strict
    if "both_valid" not in record:
        note = f"version {record.get('version', 1)} record: no both-valid plan, its official validity unknown"
        return WitnessChoice(STRICT_BEST, objective, record.get("plan"), note)
    both = record.get("both_valid")
    if not isinstance(both, Mapping):
        missing = record.get("both_valid_missing") or "no plan valid under both profiles"
        return WitnessChoice(None, None, None, str(missing))
    return WitnessChoice(BOTH_VALID, _number(both.get("objective")), both.get("plan"))


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
