"""Re-score saved GroupTravelBench inference records (docs/runner.md#the-record) with both profiles.

Each trial is turned into the official per-trial record (docs/cli.md#tripwright-rescore): preference
completeness from the agent table ② against the effective table ③ (even without a plan), and — when the
trial generated a plan and the plan can be extracted from the conversation the way the
official code does it (docs/official.md#scoring, Extraction) — group utility, group fairness and plan
validity. The strict profile gives the same record with strict validity (scores are the same functions).
Differences from the official run: a trial on which an official function crashes gets
`{"error": "official crash in <function>: …"}` for that metric instead of aborting the batch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pydantic import ValidationError

from verifier.model.task import Task
from verifier.model.verdict import Profile, Verdict
from verifier.official.extraction import extract_plan_from_conversation
from verifier.official.poi_db import PoiDb
from verifier.referee import (
    OFFICIAL_CRASH,
    gu_json,
    part_json,
    score_completeness,
    verdict_to_batch_line,
    verify,
)
from verifier.world_facts import WorldFacts

NO_INFERENCE = {"error": "inference failed (no effective_preferences)"}
NO_PLAN = {"error": "plan not generated"}
NO_EXTRACTION = {"error": "failed to extract plan from conversation"}
PLAN_METRICS = ("group_utility", "group_fairness", "plan_validity")


@dataclass(frozen=True, slots=True)
class TrialScores:
    """One trial scored by both profiles (strict is None without a world)."""

    task_id: str
    trial_id: Any
    official: dict[str, Any]
    strict: dict[str, Any] | None
    official_codes: dict[str, int]
    strict_codes: dict[str, int]
    strict_failed_checks: tuple[str, ...] = ()
    """Checks ("1"–"9", "input") the strict verdict failed (empty without a strict verdict)."""


def record_task(record: dict[str, Any], tasks: Mapping[str, Task]) -> Task:
    """The record's task from the tasks file, else rebuilt from the record itself."""
    task_id = str(record.get("task_id", ""))
    if task_id in tasks:
        return tasks[task_id]
    prefs = record.get("original_preferences") or record.get("effective_preferences") or {}
    try:
        return Task.model_validate(
            {
                "task_id": task_id,
                "query": record.get("query") or "",
                "time": record.get("time") or "",
                "user_preferences": prefs if isinstance(prefs, dict) else {},
            }
        )
    except ValidationError:
        return Task(task_id=task_id)


def score_trial(record: dict[str, Any], task: Task, poi_db: PoiDb, world: WorldFacts | None) -> TrialScores:
    """Both profiles' per-trial records for one inference line."""
    official = _base_record(record)
    strict: dict[str, Any] | None = None if world is None else dict(official)
    codes: tuple[dict[str, int], dict[str, int]] = ({}, {})
    effective = record.get("effective_preferences")
    if record.get("success") is False or not effective or not isinstance(effective, dict):
        for metric in ("preference_completeness", *PLAN_METRICS):
            official[metric] = NO_INFERENCE
        return _scores(official, _copy_errors(strict, official), codes)
    inferred = record.get("agent_preference_table")
    pc, crash = score_completeness({} if inferred is None else inferred, effective)
    official["preference_completeness"] = _crash_error(crash) if pc is None else part_json(pc)
    plan, error = _plan_of(record)
    if error is not None:
        for metric in PLAN_METRICS:
            official[metric] = error
        return _scores(official, _copy_errors(strict, official), codes)
    off_verdict = verify(task, plan, profile="official", poi_db=poi_db, effective=effective)
    official.update(_plan_metrics(off_verdict))
    strict_codes: dict[str, int] = {}
    if strict is not None and world is not None:
        strict_verdict = verify(task, plan, profile="strict", poi_db=poi_db, world=world, effective=effective)
        strict.update(official)
        strict.update(_plan_metrics(strict_verdict))
        strict_codes = strict_verdict.issue_counts
        failed = tuple(check for check, passed in strict_verdict.checks.items() if not passed)
        return replace(
            _scores(official, strict, (off_verdict.issue_counts, strict_codes)), strict_failed_checks=failed
        )
    return _scores(official, strict, (off_verdict.issue_counts, strict_codes))


def _base_record(record: dict[str, Any]) -> dict[str, Any]:
    return {
        "task_id": str(record.get("task_id", "")),
        "trial_id": record.get("trial_id"),
        "plan_generated": bool(record.get("plan_generated")),
    }


def _plan_of(record: dict[str, Any]) -> tuple[Any, dict[str, str] | None]:
    """The plan to score, or the official error record explaining why there is none."""
    if not record.get("plan_generated"):
        return None, NO_PLAN
    history = record.get("conversation_history")
    plan = extract_plan_from_conversation(history if isinstance(history, list) else [])
    return (None, NO_EXTRACTION) if plan is None else (plan, None)


def _plan_metrics(verdict: Verdict) -> dict[str, Any]:
    """GU, GF and PV in the official per-trial shape; a crashed function reports an error."""
    crashes = {str(v.ctx.get("function")): v for v in verdict.violations if v.code == OFFICIAL_CRASH}
    line = verdict_to_batch_line(None, verdict)
    validity: dict[str, Any] = {key: line[key] for key in ("valid", "total_issues", "issue_counts")}
    return {
        "group_utility": _crash_error(crashes.get("group_utility"))
        if verdict.gu is None
        else gu_json(verdict.gu),
        "group_fairness": _crash_error(crashes.get("group_fairness"))
        if verdict.gf is None
        else part_json(verdict.gf),
        "plan_validity": _crash_error(crashes["plan_validity"]) if line["valid"] is None else validity,
    }


def _crash_error(crash: Any) -> dict[str, Any]:
    if crash is None:
        return {"error": "official crash"}
    return {"error": f"official crash in {crash.ctx['function']}: {crash.ctx['error_message']}"}


def _copy_errors(strict: dict[str, Any] | None, official: dict[str, Any]) -> dict[str, Any] | None:
    return None if strict is None else dict(official)


def _scores(
    official: dict[str, Any], strict: dict[str, Any] | None, codes: tuple[dict[str, int], dict[str, int]]
) -> TrialScores:
    return TrialScores(
        task_id=official["task_id"],
        trial_id=official["trial_id"],
        official=official,
        strict=strict,
        official_codes=codes[0],
        strict_codes=codes[1],
    )


def disagreement(trial: TrialScores) -> dict[str, Any] | None:
    """Where the profiles' validity differs for a trial, with the violation codes that explain it."""
    if trial.strict is None:
        return None
    off, strict = trial.official.get("plan_validity", {}), trial.strict.get("plan_validity", {})
    if off.get("valid") == strict.get("valid"):
        return None
    return {
        "task_id": trial.task_id,
        "trial_id": trial.trial_id,
        "official_valid": off.get("valid"),
        "strict_valid": strict.get("valid"),
        "official_codes": trial.official_codes,
        "strict_codes": trial.strict_codes,
    }


def profile_records(trials: list[TrialScores], profile: Profile) -> list[dict[str, Any]]:
    """The per-trial records of one profile (strict only when scored)."""
    if profile == "official":
        return [trial.official for trial in trials]
    return [trial.strict for trial in trials if trial.strict is not None]
