"""Where an official function crashed: the best JSON path for an `input.official_crash` violation.

The official functions raise plain Python errors (docs/official.md#where-the-official-code-crashes) without
saying where. This module points at the most likely culprit so a user can fix the input:

1. a structural error found by the plan walk (`PlanView.error_loc`);
2. for group utility / fairness, a preference-table value whose type the official code cannot
   handle (checked against the task's preference model in strict mode, e.g. `avg_budget` as
   text, `must_visit: null`) → `$effective.<user>.<path>`;
3. a plan field with a type the official code cannot handle (non-string `location` or times,
   a participant that is not a string, an `avg_cost` that `float()` rejects) →
   `$.days[i]…<field>`;
4. otherwise the whole input: `$` (validity), `$effective` (utility, fairness) or `$inferred`
   (completeness).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from verifier.model.task import UserProfile
from verifier.official.plan_view import ActivityRef, PlanView

PLAN_FUNCTIONS = ("plan_validity", "group_utility", "group_fairness")
TABLE_FUNCTIONS = ("group_utility", "group_fairness")


def crash_loc(function: str, view: PlanView, effective: Any) -> str:
    """The best path to the input that made `function` raise (see the module docstring)."""
    if view.structural_error is not None and function in PLAN_FUNCTIONS:
        return view.error_loc
    if function == "preference_completeness":
        return "$inferred"
    if function in TABLE_FUNCTIONS:
        table_loc = effective_table_loc(effective, view.user_names)
        if table_loc is not None:
            return table_loc
    plan_loc = suspicious_plan_loc(view)
    if plan_loc is not None:
        return plan_loc
    return "$" if function == "plan_validity" else "$effective"


def effective_table_loc(effective: Any, user_names: list[str]) -> str | None:
    """Path of the first ill-typed value in the effective table for the scored users, or None."""
    if not isinstance(effective, dict):
        return "$effective"
    for user in user_names:
        profile = effective.get(user)
        if not isinstance(profile, dict) or "preference" not in profile:
            continue
        try:
            UserProfile.model_validate(profile, strict=True)
        except ValidationError as exc:
            path = "".join(_path_part(part) for part in exc.errors()[0]["loc"])
            return f"$effective.{user}{path}"
    return None


def suspicious_plan_loc(view: PlanView) -> str | None:
    """Path of the first activity or leg field with a type the official code cannot handle."""
    for day in view.days:
        for segment in day.segments:
            if segment.is_intercity and not _float_ok(segment.raw.get("avg_cost")):
                return f"{segment.loc}.avg_cost"
            for act in segment.activities:
                field = _bad_activity_field(act)
                if field is not None:
                    return f"{act.loc}.{field}"
    return None


def _bad_activity_field(act: ActivityRef) -> str | None:
    raw = act.raw
    if act.type in ("attraction", "food") and not isinstance(raw.get("location", ""), str):
        return "location"
    for key in ("start_time", "end_time"):
        if not isinstance(raw.get(key, ""), str):
            return key
    participants = raw.get("participants")
    if isinstance(participants, list) and not all(isinstance(p, str) for p in participants):
        return "participants"
    if act.type in ("food", "hotel") and not _float_ok(raw.get("avg_cost")):
        return "avg_cost"
    return None


def _float_ok(value: Any) -> bool:
    """Whether the official budget sum can add this cost (falsy costs are skipped)."""
    if not value:
        return True
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


def _path_part(part: int | str) -> str:
    return f"[{part}]" if isinstance(part, int) else f".{part}"
