"""Group-level split penalty (docs/official.md#scoring, split penalty).

Per day and city block, the candidates are splittable activities (attraction, food, rest,
intracity_transport) whose raw `participants` is truthy and not exactly ["All"] — exactly the
activities whose resolved members are not `user_names` itself (`participants_of`). Candidates are
grouped greedily and transitively by time overlap; in each group of two or more, the distinct
participant sets are the teams. Two or more teams that are pairwise disjoint cost
`teams − 1`; intersecting teams cost nothing here (the double-booked users' activities are
excluded from scoring instead, §3.2).
"""

from __future__ import annotations

from typing import Any

from verifier.official.plan_view import ActivityRef, PlanView

SPLITTABLE = ("attraction", "food", "rest", "intracity_transport")


def split_penalty(view: PlanView) -> dict[str, Any]:
    """`{total_penalty, split_events[{day, num_teams, penalty, activities[…]}]}` of a plan."""
    if view.structural_error is not None:
        raise view.structural_error
    total = 0
    events: list[dict[str, Any]] = []
    everyone = view.user_names
    for day in view.days:
        for block in day.blocks:
            candidates: list[ActivityRef] = []
            for act in block.activities:
                if act.members is not everyone and act.type in SPLITTABLE:
                    candidates.append(act)
            if len(candidates) < 2:
                continue
            for group in _overlap_groups(candidates):
                event = _split_event(day.number, group)
                if event is not None:
                    total += event["penalty"]
                    events.append(event)
    return {"total_penalty": total, "split_events": events}


def _overlaps(a: ActivityRef, b: ActivityRef) -> bool:
    """`ranges_overlap` on pre-parsed times: both forward, strictly intersecting."""
    if a.start is None or a.end is None or b.start is None or b.end is None:
        return False
    if a.end <= a.start or b.end <= b.start:
        return False
    return a.start < b.end and b.start < a.end


def _overlap_groups(candidates: list[ActivityRef]) -> list[list[ActivityRef]]:
    """Transitive overlap groups in first-member order; members in discovery order."""
    visited = [False] * len(candidates)
    groups: list[list[ActivityRef]] = []
    for i in range(len(candidates)):
        if visited[i]:
            continue
        visited[i] = True
        members = [i]
        grown = True
        while grown:
            grown = False
            for j in range(len(candidates)):
                if not visited[j] and any(_overlaps(candidates[m], candidates[j]) for m in members):
                    visited[j] = True
                    members.append(j)
                    grown = True
        if len(members) > 1:
            groups.append([candidates[m] for m in members])
    return groups


def _split_event(day: Any, group: list[ActivityRef]) -> dict[str, Any] | None:
    teams: list[frozenset[Any]] = []
    for act in group:
        team = frozenset(act.members)
        if team not in teams:
            teams.append(team)
    if len(teams) < 2:
        return None
    for i, first in enumerate(teams):
        for second in teams[i + 1 :]:
            if first & second:
                return None
    return {
        "day": day,
        "num_teams": len(teams),
        "penalty": len(teams) - 1,
        "activities": [
            {
                "location": act.label,
                "time": f"{act.raw.get('start_time', '')}-{act.raw.get('end_time', '')}",
                "participants": act.raw.get("participants"),
            }
            for act in group
        ],
    }
