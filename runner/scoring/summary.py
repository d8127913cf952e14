"""The per-run summary of scored trials: rates and distributions, overall and per difficulty.

Rates are over all trials of the group (a trial without a plan is neither acceptable nor
optimal); distributions (`runner.saved.normalize.distribution`) are over the trials where the figure
is defined.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from runner.saved.normalize import distribution

DIGITS = 4
DIFFICULTY_ORDER = ("easy", "medium", "hard")
UNKNOWN = "unknown"
DISTRIBUTIONS = ("gu_ratio", "regret", "elicitation_loss", "planning_loss", "compromise_effect", "gu", "pc")


def summarize(lines: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """`{overall: group, by_difficulty: {difficulty: group}}` (easy, medium, hard first)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for line in lines:
        groups.setdefault(line.get("difficulty") or UNKNOWN, []).append(line)
    order = [d for d in DIFFICULTY_ORDER if d in groups] + sorted(set(groups) - set(DIFFICULTY_ORDER))
    return {"overall": group_summary(lines), "by_difficulty": {d: group_summary(groups[d]) for d in order}}


def group_summary(lines: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Counts, rates and distributions of one group of scored trials."""
    trials = len(lines)
    return {
        "trials": trials,
        "plans": sum(1 for line in lines if line.get("plan_generated")),
        "acceptable_rate": _rate(lines, "strict_valid"),
        "official_valid_rate": _rate(lines, "official_valid"),
        "optimality_rate": _rate(lines, "optimal"),
        **{name: distribution([line.get(name) for line in lines]) for name in DISTRIBUTIONS},
    }


def _rate(lines: Sequence[dict[str, Any]], key: str) -> float | None:
    """Share of the trials whose `key` is true (None for no trial)."""
    if not lines:
        return None
    return round(sum(1 for line in lines if line.get(key) is True) / len(lines), DIGITS)
