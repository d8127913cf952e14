"""Verdict records: violations with stable codes and the scores of one plan.

A `Verdict` is what every profile returns for one plan. Violations are records, never
exceptions: `code` is stable and documented in `docs/violations.md` (in the `official`
profile it is the official issue type verbatim), `check` names the plan-validity check
(1–9) the violation belongs to or `"input"` for malformed input, and `loc` is a JSON path
into the input (`$.days[0].city_segments[1].activities[2].start_time`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

Profile = Literal["official", "strict"]
CheckId = Literal[1, 2, 3, 4, 5, 6, 7, 8, 9, "input"]
Number = int | float

CHECK_IDS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9)


class Frozen(BaseModel):
    """Base for immutable records."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Violation(Frozen):
    """One finding against a plan (or its inputs)."""

    code: str
    check: CheckId
    loc: str
    message: str
    ctx: dict[str, JsonValue] = Field(default_factory=dict)


class UserUtility(Frozen):
    """One traveller's utility: total, scored items and per-component sums."""

    total_score: Number
    details: list[dict[str, JsonValue]]
    breakdown: dict[str, Number]


class SplitPenalty(Frozen):
    """Group-level penalty for subgroup splits: Σ over split events of (teams − 1)."""

    total_penalty: int
    split_events: list[dict[str, JsonValue]]


class GroupUtility(Frozen):
    """Group utility (GU) exactly as the official evaluator reports it."""

    per_user: dict[str, UserUtility]
    split_penalty: SplitPenalty
    total_score_before_penalty: Number
    total_score: Number
    num_users: int
    per_user_average_score: Number


class GroupFairness(Frozen):
    """Group fairness (GF): min/max ratio of per-user utilities with the official special cases."""

    per_user_scores: dict[str, Number]
    max_score: Number
    min_score: Number
    fairness_score: Number


class PreferenceCompleteness(Frozen):
    """Preference completeness (PC): recall of the agent's table against the effective table."""

    per_user: dict[str, dict[str, JsonValue]]
    total_collected: int
    total_possible: int
    completeness_ratio: Number
    precision: Number
    f1: Number


class Verdict(Frozen):
    """Everything one profile says about one plan."""

    profile: Profile
    valid: bool
    plan_extractable: bool
    violations: list[Violation]
    checks: dict[str, bool]
    gu: GroupUtility | None
    gf: GroupFairness | None
    pc: PreferenceCompleteness | None

    @property
    def issue_counts(self) -> dict[str, int]:
        """Violation code → count, in first-seen order (the official `issue_counts`)."""
        counts: dict[str, int] = {}
        for violation in self.violations:
            counts[violation.code] = counts.get(violation.code, 0) + 1
        return counts


def check_table(violations: list[Violation]) -> dict[str, bool]:
    """Per-check pass/fail: check `n` passes when no violation names it."""
    failed = {v.check for v in violations}
    table = {str(n): n not in failed for n in CHECK_IDS}
    table["input"] = "input" not in failed
    return table
