"""Our figures against the oracle, per difficulty, from `tripwright score` lines.

Per group of trials: `trials`; `plans` (plan generated); `acceptable_rate` — share of trials
whose plan is valid under strict (a trial without a plan is not acceptable); `official_valid_rate`
the same under the official profile; `optimality_rate` — share of trials whose plan is proven
optimal (`optimal`); the means of `gu_ratio`, `regret`, `elicitation_loss`, `planning_loss` and
`compromise_effect` over the trials that have the figure, with that count. Rates and means are
rounded to 4 decimals; a mean over no trial is None.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from statistics import fmean
from typing import Any

from runner.report.groups import by_group
from runner.report.inputs import Inputs, Record

DIGITS = 4
MEANS = ("gu_ratio", "regret", "elicitation_loss", "planning_loss", "compromise_effect")
CHECK_NAMES = {
    "1": "城际交通",
    "2": "每晚酒店",
    "3": "时间格式",
    "4": "时间重叠",
    "5": "营业时间",
    "6": "市内交通",
    "7": "时间顺序",
    "8": "费用",
    "9": "参与者",
    "input": "输入",
}
"""Short Chinese names of the strict checks (docs/checks.md), shown beside their ids."""


def rate(rows: Sequence[Record], key: str) -> float | None:
    """Share of rows whose `key` is true (None for no row)."""
    return round(sum(row.get(key) is True for row in rows) / len(rows), DIGITS) if rows else None


def mean_of(rows: Sequence[Record], key: str) -> tuple[float | None, int]:
    """Mean of `key` over the rows that have a number there, and how many do."""
    values = [float(row[key]) for row in rows if _number(row.get(key))]
    return (round(fmean(values), DIGITS) if values else None), len(values)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def group_figures(rows: Sequence[Record]) -> dict[str, Any]:
    """The figures of one group of scored trials."""
    figures: dict[str, Any] = {
        "trials": len(rows),
        "plans": sum(bool(row.get("plan_generated")) for row in rows),
        "acceptable_rate": rate(rows, "strict_valid"),
        "official_valid_rate": rate(rows, "official_valid"),
        "optimality_rate": rate(rows, "optimal"),
    }
    for key in MEANS:
        figures[f"mean_{key}"], figures[f"{key}_count"] = mean_of(rows, key)
    return figures


def oracle_figures(inputs: Inputs) -> dict[str, dict[str, Any]]:
    """`group_figures` overall and per difficulty (empty without scored lines)."""
    rows = inputs.scored or []
    if not rows:
        return {}
    groups = by_group(rows, lambda row: inputs.difficulty(str(row["task_id"]), row))
    return {name: group_figures(members) for name, members in groups.items()}


def failed_checks(rows: Sequence[Record]) -> dict[str, int]:
    """How many trials failed each strict check, most failed first (ties by check id order)."""
    counts = Counter(str(check) for row in rows for check in row.get("strict_failed_checks") or ())
    order = list(CHECK_NAMES)
    return dict(sorted(counts.items(), key=lambda item: (-item[1], _rank(order, item[0]))))


def _rank(order: list[str], check: str) -> tuple[int, str]:
    return (order.index(check), "") if check in order else (len(order), check)


def check_label(check: str) -> str:
    """`5 营业时间` for a known check id, the id itself otherwise."""
    return f"{check} {CHECK_NAMES[check]}" if check in CHECK_NAMES else check
