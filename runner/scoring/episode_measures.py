"""Per-trial measures beyond GU: elicitation, tool faults, refusals of unsolvable tasks, intent shifts.

`episode_measures(record, task, poi_db)` gives the scored line's extra fields:

- `elicitation`: `runner.scoring.elicitation` counts (overall, by topic, by user);
- `tool_faults`: the record's `{spec, met, recovered}`, or null for a run without faults;
- `unsolvable` (null unless the task is a variant of `runner.tasks.variants` whose wish no plan
  meets): `{kind, when ("start" | "transition"), reached, planned, refused, reason_named,
  correct}` — `reached`: the wish was in force (from the start, or the shift applied);
  `planned`: a plan was extracted; `refused`: no plan and an Agent message says it cannot be done
  (`REFUSAL_CUES`); `reason_named`: such a message names the certificate's reason (a cue word: 预算,
  the place, the mode); `correct` = reached ∧ refused ∧ reason_named;
- `intent_shift` (null unless the task schedules a feasible shift): `{applied, heard, planned,
  followed}` — `heard`: the agent's table ② holds the new value at the field (every new item of
  a list; null when the shift did not happen); `followed`: whether the plan serves the new wish,
  by the shifted user's official GU: for a list, the user scores more under the final table ③
  than under ③ with the list cut to the items the old value also had (the new items earn
  something); for any other value, at least as much under ③ as under ③ with the old value; null
  without a plan or when the shift did not happen.
"""

from __future__ import annotations

import copy
from typing import Any

from runner.episode.conversation import AGENT, is_outward
from runner.episode.shifts import set_in, value_at
from runner.scoring.elicitation import elicitation_counts, field_statuses
from verifier.model.task import Task
from verifier.official.extraction import extract_plan_from_conversation
from verifier.official.plan_view import build_view
from verifier.official.poi_db import PoiDb
from verifier.official.utility import evaluate_group_utility
from verifier.referee import CRASHES

REFUSAL_CUES = (
    "无法",
    "没办法",
    "做不到",
    "不可能",
    "排不出",
    "没能排出",
    "满足不了",
    "不能满足",
    "实现不了",
)
"""Words of an Agent message saying the trip cannot be planned."""


def episode_measures(record: dict[str, Any], task: Task, poi_db: PoiDb) -> dict[str, Any]:
    """The extra fields of a scored line (see the module docstring)."""
    extra = task.metadata.model_extra or {}
    shift = extra.get("intent_shift") if isinstance(extra.get("intent_shift"), dict) else None
    certificate = extra.get("unsolvable") or (shift or {}).get("unsolvable")
    return {
        "elicitation": elicitation_counts(field_statuses(record)),
        "tool_faults": record.get("tool_faults"),
        "unsolvable": None if not isinstance(certificate, dict) else _refusal(record, certificate, shift),
        "intent_shift": None if shift is None or "unsolvable" in shift else _followed(record, task, poi_db),
    }


def _applied(record: dict[str, Any]) -> bool:
    shifts = record.get("intent_shifts")
    return isinstance(shifts, list) and any(isinstance(s, dict) and s.get("applied") for s in shifts)


def _plan(record: dict[str, Any]) -> Any:
    if not record.get("plan_generated"):
        return None
    history = record.get("conversation_history")
    return extract_plan_from_conversation(history if isinstance(history, list) else [])


def _refusal(
    record: dict[str, Any], certificate: dict[str, Any], shift: dict[str, Any] | None
) -> dict[str, Any]:
    reached = shift is None or _applied(record)
    planned = _plan(record) is not None
    cues = [str(cue) for cue in certificate.get("cues") or []]
    texts = [
        str(entry.get("content", ""))
        for entry in record.get("conversation_history") or []
        if is_outward(entry) and entry.get("role") == AGENT
    ]
    refusals = [text for text in texts if any(cue in text for cue in REFUSAL_CUES)]
    refused = bool(refusals) and not planned
    named = refused and any(cue in text for text in refusals for cue in cues)
    return {
        "kind": certificate.get("kind"),
        "when": "start" if shift is None else "transition",
        "reached": reached,
        "planned": planned,
        "refused": refused,
        "reason_named": named,
        "correct": reached and refused and named,
    }


def _followed(record: dict[str, Any], task: Task, poi_db: PoiDb) -> dict[str, Any]:
    applied, plan = _applied(record), _plan(record)
    shift = next(s for s in record.get("intent_shifts") or [{}] if isinstance(s, dict))
    effective = record.get("effective_preferences")
    followed: bool | None = None
    if applied and plan is not None and isinstance(effective, dict):
        user = str(shift.get("user"))
        new, old = shift.get("new_value"), shift.get("old_value")
        kept = [item for item in new if item in (old or [])] if isinstance(new, list) else old
        before = copy.deepcopy(effective)
        slot = before[user]
        set_in(slot.get("preference", slot), str(shift.get("field_path")), kept)
        now, then = _user_gu(plan, effective, user, task, poi_db), _user_gu(plan, before, user, task, poi_db)
        if now is not None and then is not None:
            followed = now > then if isinstance(new, list) else now >= then
    return {
        "applied": applied,
        "heard": _heard(record, shift) if applied else None,
        "planned": plan is not None,
        "followed": followed,
    }


def _heard(record: dict[str, Any], shift: dict[str, Any]) -> bool:
    """Whether the agent's table ② holds the shift's new value (every new item of a list)."""
    table = record.get("agent_preference_table")
    slot = table.get(str(shift.get("user"))) if isinstance(table, dict) else None
    preference = slot.get("preference", slot) if isinstance(slot, dict) else {}
    found, new = value_at(preference, str(shift.get("field_path"))), shift.get("new_value")
    if isinstance(new, list):
        return isinstance(found, list) and all(item in found for item in new)
    return bool(found == new)


def _user_gu(plan: Any, table: dict[str, Any], user: str, task: Task, poi_db: PoiDb) -> float | None:
    try:
        result = evaluate_group_utility(build_view(plan, task.user_names), table, poi_db)
    except CRASHES:
        return None
    found = result["per_user"].get(user)
    return float(found["total_score"]) if isinstance(found, dict) else None
