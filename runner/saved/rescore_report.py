"""The `rescore` document: per-trial scores of a runs file aggregated as the official report does.

Trials are scored in chunks, on forked worker processes when asked for more than one job
(`runner.saved.ordered_pool`), and aggregated here in file order: the document does not depend on the
number of jobs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from runner.loading.files import JsonLine
from runner.saved.aggregate import (
    average_trials,
    averaged_scores,
    difficulty_summaries,
    group_by_task,
    summarize,
)
from runner.saved.ordered_pool import chunk_results
from runner.saved.rescore import TrialScores, disagreement, profile_records, record_task, score_trial
from verifier.model.task import Task
from verifier.model.verdict import Profile
from verifier.official.poi_db import PoiDb
from verifier.world_facts import WorldFacts

NO_WORLD_NOTE = "strict profile not scored: pass --world DIR to score both profiles side by side"
CHUNK_TRIALS = 16
"""Trials a worker scores per round trip (each is one or two verdicts plus the plan extraction)."""


def rescore_lines(
    lines: Sequence[JsonLine],
    tasks: Mapping[str, Task],
    poi_db: PoiDb,
    world: WorldFacts | None,
    *,
    jobs: int = 1,
) -> dict[str, Any]:
    """Score every trial line (on `jobs` processes) and build the per-task, per-difficulty and
    disagreement report."""
    trials: list[TrialScores] = []
    skipped: list[dict[str, Any]] = []
    work = partial(_score_chunk, tasks=tasks, poi_db=poi_db, world=world)
    with chunk_results(work, lines, jobs=jobs, chunk_size=CHUNK_TRIALS) as chunks:
        for chunk in chunks:
            for scored in chunk:
                if isinstance(scored, TrialScores):
                    trials.append(scored)
                else:
                    skipped.append(scored)
    difficulty = {task_id: task.difficulty_type or "unknown" for task_id, task in tasks.items()}
    profiles: tuple[Profile, ...] = ("official",) if world is None else ("official", "strict")
    per_profile = {profile: _per_task(profile_records(trials, profile)) for profile in profiles}
    rows = [
        {
            "task_id": task_id,
            "difficulty_type": difficulty.get(task_id, "unknown"),
            "num_trials": record.get("num_trials", 1),
            **{profile: averaged_scores(per_profile[profile][task_id]) for profile in profiles},
        }
        for task_id, record in per_profile["official"].items()
    ]
    return {
        "total_raw_samples": len(trials),
        "total_tasks": len(rows),
        "tasks": rows,
        "profiles": {
            profile: {
                "overall_summary": summarize(list(tasks_of.values())),
                "difficulty_summaries": difficulty_summaries(list(tasks_of.values()), difficulty),
            }
            for profile, tasks_of in per_profile.items()
        },
        "disagreements": [item for item in map(disagreement, trials) if item is not None],
        "strict_note": NO_WORLD_NOTE if world is None else None,
        "skipped_lines": skipped,
    }


def _score_chunk(
    lines: Sequence[JsonLine], tasks: Mapping[str, Task], poi_db: PoiDb, world: WorldFacts | None
) -> list[TrialScores | dict[str, Any]]:
    """Each line's scores, or the skipped-line entry of a line that is not a JSON object."""
    scored: list[TrialScores | dict[str, Any]] = []
    for line in lines:
        if line.error is not None or not isinstance(line.value, dict):
            scored.append({"line": line.number, "error": line.error or "not a JSON object"})
        else:
            scored.append(score_trial(line.value, record_task(line.value, tasks), poi_db, world))
    return scored


def _per_task(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {task_id: average_trials(group) for task_id, group in group_by_task(records).items()}
