"""Our figures against the oracle, per difficulty, from `tripwright score` lines.

Each group's figures are `runner.scoring.summary.group_summary` (the numbers `tripwright score`
prints): `trials`, `plans`, `acceptable_rate` (share of trials whose plan is strict-valid),
`official_valid_rate`, `optimality_rate` (share proven optimal), rounded 4, and the distribution
(count, min, p10, median, p90, max, mean) of `gu_ratio`, `regret`, the losses, `gu` and `pc`.
Groups are the report's: the line's difficulty, else the task file's, else "unknown".
`witness_note` says which oracle plan those figures compare with (the lines' `witness`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from runner.report.groups import by_group
from runner.report.inputs import Inputs, Record
from runner.scoring.summary import group_summary

MEANS = ("gu_ratio", "regret", "elicitation_loss", "planning_loss", "compromise_effect")
"""The distributions the report shows (mean, median and count)."""
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


def oracle_figures(inputs: Inputs) -> dict[str, dict[str, Any]]:
    """`group_summary` overall and per difficulty (empty without scored lines)."""
    rows = inputs.scored or []
    if not rows:
        return {}
    groups = by_group(rows, lambda row: inputs.difficulty(str(row["task_id"]), row))
    return {name: group_summary(members) for name, members in groups.items()}


def witness_note(rows: Sequence[Record]) -> str:
    """Which oracle plan the lines' `gu_best` and losses use, with how many trials each: the
    strict-best or the both-valid plan and the profile it fits, none (no plan valid under that
    profile), or not named (lines scored before the oracle kept two plans: the strict-best)."""
    counts = Counter((row.get("witness_profile"), row.get("witness")) for row in rows)
    parts = []
    for (profile, name), count in sorted(counts.items(), key=lambda item: (-item[1], str(item[0]))):
        if profile is None:
            what = "not named (scored before the oracle kept two plans: the strict-best)"
        elif name is None:
            what = f"none (no oracle plan for profile {profile})"
        else:
            what = f"the {name} plan (profile {profile})"
        parts.append(f"{what}: {count} trial(s)")
    return "Oracle witness (the plan gu best and the losses compare with): " + "; ".join(parts) + "."


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
