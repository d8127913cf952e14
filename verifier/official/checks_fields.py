"""Official checks 8 (avg_cost presence) and 9 (participants), docs/official.md#the-nine-checks."""

from __future__ import annotations

from typing import Any

from verifier.official.issue import OfficialIssue
from verifier.official.plan_view import ActivityRef, DayRef, PlanView, SegmentRef

MISSING_COST = "missing_avg_cost"
INVALID_PARTICIPANTS = "invalid_participants"
_PRICED = ("food", "hotel")


def check_avg_cost(view: PlanView) -> list[OfficialIssue]:
    """Check 8: intercity legs and food/hotel activities carry an `avg_cost`.

    Only a missing key or null is an issue. Quirks: the value is never validated (0,
    negative, strings, booleans pass); attractions and intracity legs are not checked.
    """
    issues: list[OfficialIssue] = []
    for day in view.days:
        for seg in day.segments:
            raw = seg.raw
            if seg.is_intercity:
                if raw.get("avg_cost") is None:
                    route = f"{raw.get('from_city', '')}→{raw.get('to_city', '')}"
                    message = f"Day {day.number}: 城际交通 {route} 缺少 avg_cost"
                    issue = _cost_issue(day, "intercity_transport", route, message)
                    issues.append(OfficialIssue(8, f"{seg.loc}.avg_cost", issue))
            elif seg.has_activities:
                for act in seg.activities:
                    if act.type in _PRICED and act.raw.get("avg_cost") is None:
                        location = act.raw.get("location", "")
                        message = f"Day {day.number}: {act.type} '{location}' 缺少 avg_cost"
                        issue = _cost_issue(day, act.type, location, message)
                        issues.append(OfficialIssue(8, f"{act.loc}.avg_cost", issue))
    return issues


def _cost_issue(day: DayRef, kind: Any, location: Any, message: str) -> dict[str, Any]:
    return {
        "type": MISSING_COST,
        "day": day.number,
        "activity_type": kind,
        "location": location,
        "message": message,
    }


def check_participants(view: PlanView) -> list[OfficialIssue]:
    """Check 9: a present, non-null `participants` is a non-empty list of known names.

    Names are valid if in `user_names` or "All". Hotels and intercity legs are never
    checked. Quirks: a missing or null value passes (it means everyone); mixing "All" with
    names, duplicates and uncovered travellers pass; children (not users) are invalid; an
    unhashable element raises TypeError as in the official code.
    """
    issues: list[OfficialIssue] = []
    valid = {*view.user_names, "All"}
    for day in view.days:
        for block in day.blocks:
            for act in block.activities:
                if act.type == "hotel":
                    continue
                value = act.raw.get("participants")
                if value is None:
                    continue
                if not isinstance(value, list):
                    issues.append(_participant_issue(day, block, act, "", "的 participants 不是列表"))
                elif not value:
                    issues.append(_participant_issue(day, block, act, "", "的 participants 为空列表"))
                elif not valid.issuperset(value):
                    for k, name in enumerate(value):
                        if name not in valid:
                            text = f"的参与者 '{name}' 不在用户列表中"
                            issues.append(_participant_issue(day, block, act, f"[{k}]", text, name))
    return issues


def _participant_issue(
    day: DayRef, block: SegmentRef, act: ActivityRef, index: str, text: str, *name: Any
) -> OfficialIssue:
    city, label = block.raw.get("city", ""), act.label
    issue: dict[str, Any] = {
        "type": INVALID_PARTICIPANTS,
        "day": day.number,
        "city": city,
        "activity_type": act.type,
        "location": label,
    }
    if name:
        issue["invalid_name"] = name[0]
    issue["message"] = f"Day {day.number} ({city}): {act.type} '{label}' {text}"
    return OfficialIssue(9, f"{act.loc}.participants{index}", issue)
