"""The LLM judge in the report (docs/runner.md#report): final scores per task, then per difficulty.

Per task (every task of the runs file): the mean of its judged trials' final scores (overall
average and each dimension, rounded 2); a task without a judged trial counts 0.0. Per group: the
mean over its tasks (rounded 2).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from statistics import fmean
from typing import Any

from runner.judge.prompts import DIMENSIONS
from runner.judge.scores import AVERAGE, statistics
from runner.report.groups import by_group
from runner.report.inputs import Record

KEYS = (AVERAGE, *DIMENSIONS)


def task_scores(judged: Sequence[Record], task_id: str) -> dict[str, float]:
    """A task's mean final scores over its judged trials (0.0 where none has the score)."""
    lines = [line for line in judged if str(line.get("task_id")) == task_id and line.get("judged")]
    out: dict[str, float] = {}
    for key in KEYS:
        values = [float(line["final_scores"][key]) for line in lines if key in line["final_scores"]]
        out[key] = round(fmean(values), 2) if values else 0.0
    return out


def judge_by_group(
    judged: Sequence[Record], task_ids: list[str], difficulty: Callable[[str], str]
) -> dict[str, dict[str, float]]:
    """Mean final scores per group (`overall` and each difficulty) over the tasks of the runs."""
    per_task = {task_id: task_scores(judged, task_id) for task_id in task_ids}
    groups = by_group(task_ids, difficulty)
    return {
        name: {key: round(fmean(per_task[t][key] for t in members), 2) for key in KEYS}
        for name, members in groups.items()
        if members
    }


def judge_summary(judged: Sequence[Record]) -> dict[str, Any]:
    """Model name(s), statistics (runner.judge.scores.statistics) and the meta-judge mean."""
    models = sorted({str(line.get("judge_model")) for line in judged if line.get("judge_model")})
    return {"models": models, "statistics": statistics(judged)}
