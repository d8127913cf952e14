"""One trial of a run scored against the oracle (docs/runner.md, "Scoring against the oracle").

Both profiles come from `runner.saved.rescore.score_trial` (plan extraction from the conversation, PC
from ② against ③). The oracle then solves three tables of the trial — the effective table ③,
the agent's inferred table ② and the original table ① — through the cache, and every plan is
scored with the official GU function: the agent's plan and the ② plan on ③ (GU, GU*, regret,
elicitation and planning loss), the ③ and ① plans on ① (compromise effect). The oracle plan of
each table is the witness that fits the profile scored with (`solver.oracle.result.witness_for`:
the strict-best for `strict`, the best plan valid under both profiles for `official`); the
line names it (`witness`, `witness_profile`) and ends with `runner.scoring.episode_measures`
(elicitation, tool faults, refusals, intent shifts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from runner.saved.rescore import score_trial
from runner.scoring.episode_measures import episode_measures
from runner.scoring.figures import difference, gu_ratio, optimal
from runner.scoring.oracle_cache import OracleCache
from sandbox.world.world import World
from solver.oracle.result import witness_for
from verifier.model.task import Task
from verifier.official.plan_view import build_view
from verifier.official.poi_db import PoiDb
from verifier.official.utility import evaluate_group_utility
from verifier.referee import CRASHES

NO_EFFECTIVE = "no effective table ③ (the trial failed): nothing to compare with the oracle"


@dataclass(frozen=True)
class TaskContext:
    """What scoring one task's trials needs besides the records."""

    task: Task
    world: World
    poi_db: PoiDb
    oracle: OracleCache
    profile: str = "strict"
    """The profile whose oracle witness the figures use (`strict` or `official`)."""


def trial_tables(record: dict[str, Any], task: Task) -> dict[str, dict[str, Any]] | None:
    """The trial's tables by role: `effective` ③, `inferred` ② (a missing or malformed one counts as
    `{}`, as the official PC reads it) and `original` ① (the record's, else the task's); None
    without a usable ③ (a failed trial)."""
    effective = record.get("effective_preferences")
    if not isinstance(effective, dict) or not effective:
        return None
    inferred = record.get("agent_preference_table")
    original = record.get("original_preferences")
    return {
        "effective": effective,
        "inferred": inferred if isinstance(inferred, dict) else {},
        "original": original if isinstance(original, dict) and original else task.preference_table(),
    }


def score_record(record: dict[str, Any], context: TaskContext) -> dict[str, Any]:
    """The scored line of one run record (see the module docstring)."""
    task = context.task
    scores = score_trial(record, task, context.poi_db, context.world)
    official, strict = scores.official, scores.strict or {}
    gu = _number(official, "group_utility", "total_score")
    strict_valid = _valid(strict)
    line: dict[str, Any] = {
        "task_id": scores.task_id,
        "trial": record.get("trial", record.get("trial_id")),
        "termination_reason": record.get("termination_reason", record.get("completion_reason")),
        "difficulty": task.difficulty_type,
        "plan_generated": bool(record.get("plan_generated")),
        "strict_valid": strict_valid,
        "official_valid": _valid(official),
        "strict_failed_checks": list(scores.strict_failed_checks),
        "gu": gu,
        "gf": _number(official, "group_fairness", "fairness_score"),
        "pc": _number(official, "preference_completeness", "completeness_ratio"),
    }
    figures = _figures(_oracle_plans(record, context), gu, strict_valid=strict_valid is True)
    measures = episode_measures(record, task, context.poi_db)
    return line | figures | {"witness_profile": context.profile} | measures


@dataclass(frozen=True, slots=True)
class OraclePlans:
    """The oracle's answers for one trial and the official GU of their plans."""

    best: dict[str, Any] | None
    """The oracle's record on ③."""
    best_on_effective: float | None
    """GU₃ of the ③ plan."""
    inferred_on_effective: float | None
    """GU₃ of the ② plan."""
    best_on_original: float | None
    """GU₁ of the ③ plan."""
    original_on_original: float | None
    """GU₁ of the ① plan."""
    problems: tuple[str, ...]
    witness: str | None = None
    """Which plan of the ③ record the figures use (`strict-best`, `both-valid`, None: none)."""


def _oracle_plans(record: dict[str, Any], context: TaskContext) -> OraclePlans:
    tables = trial_tables(record, context.task)
    if tables is None:
        return OraclePlans(None, None, None, None, None, (NO_EFFECTIVE,))
    solved = {
        role: context.oracle.solve(context.task, context.world, table) for role, table in tables.items()
    }
    problems = [
        f"oracle on the {role} table: {answer.problem}"
        for role, answer in solved.items()
        if answer.problem is not None
    ]

    choices = {
        role: witness_for(answer.record, context.profile)
        for role, answer in solved.items()
        if answer.record is not None
    }
    problems += [
        f"oracle on the {role} table: {choice.note}" for role, choice in choices.items() if choice.note
    ]

    def on(role: str, scored_on: str) -> float | None:
        choice = choices.get(role)
        return None if choice is None else _plan_gu(context, choice.plan, tables[scored_on], problems)

    best = solved["effective"]
    return OraclePlans(
        best.record,
        on("effective", "effective"),
        on("inferred", "effective"),
        on("effective", "original"),
        on("original", "original"),
        tuple(problems),
        choices["effective"].name if "effective" in choices else None,
    )


def _figures(plans: OraclePlans, gu: float | None, *, strict_valid: bool) -> dict[str, Any]:
    best = plans.best or {}
    gu_star = best.get("bound")
    proven = optimal(gu, status=best.get("status"), objective=best.get("objective"), bound=gu_star)
    return {
        "oracle_status": best.get("status"),
        "gu_star": gu_star,
        "gu_best": plans.best_on_effective,
        "gu_ratio": gu_ratio(gu, gu_star),
        "regret": difference(gu_star, gu),
        "optimal": strict_valid and proven,
        "gu_inferred_plan": plans.inferred_on_effective,
        "elicitation_loss": difference(plans.best_on_effective, plans.inferred_on_effective),
        "planning_loss": difference(plans.inferred_on_effective, gu),
        "compromise_effect": difference(plans.best_on_original, plans.original_on_original),
        "witness": plans.witness,
        "problems": list(plans.problems),
    }


def _plan_gu(
    context: TaskContext, plan: dict[str, Any] | None, table: dict[str, Any], problems: list[str]
) -> float | None:
    """The official GU total of `plan` scored against `table` (None without a plan or on a crash)."""
    if plan is None:
        return None
    try:
        result = evaluate_group_utility(build_view(plan, context.task.user_names), table, context.poi_db)
    except CRASHES as exc:
        problems.append(f"official group utility crashes on a table: {type(exc).__name__}: {exc}")
        return None
    return float(result["total_score"])


def _number(scores: dict[str, Any], metric: str, key: str) -> float | None:
    value = scores.get(metric)
    found = value.get(key) if isinstance(value, dict) else None
    return float(found) if isinstance(found, int | float) and not isinstance(found, bool) else None


def _valid(scores: dict[str, Any]) -> bool | None:
    validity = scores.get("plan_validity")
    found = validity.get("valid") if isinstance(validity, dict) else None
    return found if isinstance(found, bool) else None
