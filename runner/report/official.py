"""The official aggregation (docs/cli.md#tripwright-rescore) of the runs and the §10.5 overview tables.

Trials are re-scored with `runner.saved.rescore_report.rescore_lines` (the official per-trial record,
and the strict one when a world is given), averaged per task and summarised overall and per
`difficulty_type` of the task file by `runner.saved.aggregate`. Table 1 and Table 2 follow §10.5:
"Other Dimensions Avg" = (PC ratio × 100 + GF + PV ratio × 100 + LLM-judge average) / 4, the
judge term 0 when the judge is absent; the ratios are the summaries' rounded ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runner.loading.files import JsonLine
from runner.report.document import Table
from runner.report.groups import OVERALL, group_order
from runner.report.inputs import Inputs
from runner.saved.rescore_report import rescore_lines
from verifier.official.poi_db import PoiDb
from verifier.world_facts import WorldFacts

Summary = dict[str, Any]
NONE = "-"


def official_document(inputs: Inputs, poi_db: PoiDb, world: WorldFacts | None) -> dict[str, Any]:
    """The `rescore` document of the runs (profiles, per-task rows, disagreements)."""
    lines = [JsonLine(number=number, value=record) for number, record in enumerate(inputs.runs, start=1)]
    return rescore_lines(lines, inputs.tasks, poi_db, world)


def profile_groups(profile: Mapping[str, Any]) -> dict[str, tuple[int, Summary]]:
    """(task count, summary) of `overall` and each difficulty, in report order."""
    overall = profile["overall_summary"]
    groups = {OVERALL: (overall["plan_validity"]["count"], overall)}
    by_difficulty = profile["difficulty_summaries"]
    for name in group_order(by_difficulty):
        groups[name] = (by_difficulty[name]["count"], by_difficulty[name]["summary"])
    return groups


def other_dimensions(summary: Summary, judge: float | None) -> float:
    """§10.5 "Other Dimensions Avg" of one group."""
    pc: float = summary["preference_completeness"]["average_ratio"] * 100
    gf: float = summary["group_fairness"]["average_fairness_score"]
    pv: float = summary["plan_validity"]["valid_ratio"] * 100
    return round((pc + gf + pv + (judge or 0.0)) / 4, 2)


def overview_tables(profile: Mapping[str, Any], judge: Mapping[str, float] | None) -> tuple[Table, Table]:
    """§10.5 Table 1 (score overview) and Table 2 (scores by dimension) of one profile; `judge`
    gives the LLM-judge average per group (None: no judge)."""
    groups = profile_groups(profile)
    columns = ("", *(f"{name.capitalize()} ({count})" for name, (count, _) in groups.items()))

    def judged(name: str) -> float | None:
        return None if judge is None else judge.get(name)

    overview = (
        (
            "Group Utility (per-user avg)",
            *(_num(s["group_utility"]["average_score"]) for _, s in groups.values()),
        ),
        ("Other Dimensions Avg", *(_num(other_dimensions(s, judged(n))) for n, (_, s) in groups.items())),
    )
    dimensions = (
        (
            "Preference Completeness (%)",
            *(_pct(s["preference_completeness"]["average_ratio"]) for _, s in groups.values()),
        ),
        ("Group Utility", *(_num(s["group_utility"]["average_score"]) for _, s in groups.values())),
        (
            "Group Fairness",
            *(_num(s["group_fairness"]["average_fairness_score"]) for _, s in groups.values()),
        ),
        ("Plan Validity (%)", *(_pct(s["plan_validity"]["valid_ratio"]) for _, s in groups.values())),
        ("LLM-Judge Average", *(_num(judged(name)) for name in groups)),
    )
    return Table(columns, overview), Table(columns, dimensions)


def _num(value: float | None) -> str:
    return NONE if value is None else f"{value:.2f}"


def _pct(ratio: float) -> str:
    return f"{round(ratio * 100, 2):.2f}"
