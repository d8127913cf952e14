"""The official aggregation of per-trial records (docs/cli.md#tripwright-rescore).

Per task: one trial keeps its record; several trials are averaged over the trials that HAVE
the metric (error trials are dropped, not zero-filled; no rounding). Summaries, overall and
per `difficulty_type` ("unknown" when absent): a metric missing from a task counts as 0.0,
averages are over the number of tasks, and every figure is rounded to 2 decimals.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from statistics import fmean
from typing import Any

Record = dict[str, Any]


def _has(metric: Any) -> bool:
    return isinstance(metric, dict) and "error" not in metric


def average_trials(trials: list[Record]) -> Record:
    """The per-task record of §10.2 for the trials of one task."""
    if len(trials) == 1:
        return trials[0]
    pcs = [t["preference_completeness"] for t in trials if _has(t.get("preference_completeness"))]
    gus = [t["group_utility"] for t in trials if _has(t.get("group_utility"))]
    gfs = [t["group_fairness"] for t in trials if _has(t.get("group_fairness"))]
    pvs = [t["plan_validity"] for t in trials if _has(t.get("plan_validity"))]
    no_valid = {"error": "no valid trials"}
    return {
        "task_id": trials[0]["task_id"],
        "num_trials": len(trials),
        "plan_generated": any(t.get("plan_generated") for t in trials),
        "preference_completeness": {
            "completeness_ratio": fmean(p["completeness_ratio"] for p in pcs),
            "averaged_from": len(pcs),
        }
        if pcs
        else None,
        "group_utility": {
            "total_score": fmean(g["total_score"] for g in gus),
            "per_user_average_score": fmean(g["per_user_average_score"] for g in gus),
            "averaged_from": len(gus),
        }
        if gus
        else no_valid,
        "group_fairness": {
            "fairness_score": fmean(g["fairness_score"] for g in gfs),
            "averaged_from": len(gfs),
        }
        if gfs
        else no_valid,
        "plan_validity": {
            "valid_ratio_across_trials": fmean(1.0 if p["valid"] else 0.0 for p in pvs),
            "total_issues": fmean(p["total_issues"] for p in pvs),
            "averaged_from": len(pvs),
        }
        if pvs
        else no_valid,
    }


def group_by_task(records: list[Record]) -> dict[str, list[Record]]:
    """Trial records by task_id, tasks in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(record["task_id"], []).append(record)
    return grouped


def _value(metric: Any, *keys: str) -> float | None:
    if not _has(metric):
        return None
    for key in keys:
        if key in metric and metric[key] is not None:
            return float(metric[key])
    return None


def pc_value(task: Record) -> float | None:
    return _value(task.get("preference_completeness"), "completeness_ratio")


def gu_value(task: Record) -> float | None:
    return _value(task.get("group_utility"), "per_user_average_score", "total_score")


def gf_value(task: Record) -> float | None:
    return _value(task.get("group_fairness"), "fairness_score")


def pv_value(task: Record) -> float | None:
    metric = task.get("plan_validity")
    ratio = _value(metric, "valid_ratio_across_trials")
    if ratio is None and isinstance(metric, dict) and _has(metric) and "valid" in metric:
        return 1.0 if metric["valid"] else 0.0
    return ratio


def _stats(tasks: list[Record], value: Callable[[Record], float | None]) -> tuple[int, list[float]]:
    values = [value(task) for task in tasks]
    return sum(v is not None for v in values), [0.0 if v is None else v for v in values]


def summarize(tasks: list[Record]) -> Record:
    """The §10.3 summary of a list of per-task records."""
    count = len(tasks)

    def avg(values: list[float]) -> float:
        return round(sum(values) / count, 2) if count else 0.0

    def lo(values: list[float]) -> float:
        return round(min(values), 2) if values else 0.0

    def hi(values: list[float]) -> float:
        return round(max(values), 2) if values else 0.0

    _, pc = _stats(tasks, pc_value)
    gu_valid, gu = _stats(tasks, gu_value)
    gf_valid, gf = _stats(tasks, gf_value)
    _, pv = _stats(tasks, pv_value)
    return {
        "preference_completeness": {
            "count": count,
            "average_ratio": avg(pc),
            "min_ratio": lo(pc),
            "max_ratio": hi(pc),
        },
        "group_utility": {
            "count": count,
            "valid_count": gu_valid,
            "average_score": avg(gu),
            "min_score": lo(gu),
            "max_score": hi(gu),
        },
        "group_fairness": {
            "count": count,
            "valid_count": gf_valid,
            "average_fairness_score": avg(gf),
            "min_fairness_score": lo(gf),
            "max_fairness_score": hi(gf),
        },
        "plan_validity": {"count": count, "valid_ratio": avg(pv)},
    }


def difficulty_summaries(tasks: list[Record], difficulty: Mapping[str, str]) -> dict[str, Record]:
    """Summaries per difficulty_type (`unknown` for tasks without one), in first-seen order."""
    by_difficulty: dict[str, list[Record]] = {}
    for task in tasks:
        by_difficulty.setdefault(difficulty.get(task["task_id"], "unknown"), []).append(task)
    return {name: {"count": len(group), "summary": summarize(group)} for name, group in by_difficulty.items()}


def averaged_scores(task: Record) -> Record:
    """The per-task `averaged_scores` of the official details (rounded 2, present keys only)."""
    pv = task.get("plan_validity")
    entries = {
        "preference_completeness_ratio": pc_value(task),
        "group_utility_total_score": _value(task.get("group_utility"), "total_score"),
        "group_utility_per_user_average_score": _value(task.get("group_utility"), "per_user_average_score"),
        "group_fairness_score": gf_value(task),
        "plan_validity_valid_ratio": pv_value(task),
        "plan_validity_avg_issues": _value(pv, "total_issues"),
    }
    return {key: round(value, 2) for key, value in entries.items() if value is not None}
