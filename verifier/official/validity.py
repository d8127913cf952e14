"""Official plan validity (`evaluate_plan_validity`, docs/official.md#the-nine-checks): nine checks, one issue
list.

The checks run in the official order and append to one list; any single issue makes the
plan invalid. Each check lives with its family (`checks_route`, `checks_hotel`,
`checks_time`, `checks_hours`, `checks_fields`) and reads the one-walk `PlanView`.
Where the official code raises (docs/official.md#where-the-official-code-crashes), this raises the same
exception type with the same message: the view's structural error first, then whatever a check hits.
"""

from __future__ import annotations

from typing import Any

from verifier.official.checks_fields import check_avg_cost, check_participants
from verifier.official.checks_hotel import check_hotel
from verifier.official.checks_hours import check_opening_hours
from verifier.official.checks_route import check_intercity, check_intracity
from verifier.official.checks_time import check_overlap, check_time_order, check_timeline
from verifier.official.issue import OfficialIssue
from verifier.official.plan_view import PlanView
from verifier.official.poi_db import PoiDb

__all__ = ["OfficialIssue", "plan_validity_issues", "validity_report"]


def plan_validity_issues(view: PlanView, poi_db: PoiDb) -> list[OfficialIssue]:
    """All issues of checks 1–9 in official order; raises where the official code raises."""
    if view.structural_error is not None:
        raise view.structural_error
    issues = check_intercity(view)
    issues += check_hotel(view)
    issues += check_time_order(view)
    issues += check_overlap(view)
    issues += check_opening_hours(view, poi_db)
    issues += check_intracity(view)
    issues += check_timeline(view)
    issues += check_avg_cost(view)
    issues += check_participants(view)
    return issues


def validity_report(issues: list[OfficialIssue]) -> dict[str, Any]:
    """The official `{valid, total_issues, issue_counts, issues}` dict (counts in first-seen order)."""
    counts: dict[str, int] = {}
    for found in issues:
        kind = found.issue["type"]
        counts[kind] = counts.get(kind, 0) + 1
    return {
        "valid": not issues,
        "total_issues": len(issues),
        "issue_counts": counts,
        "issues": [found.issue for found in issues],
    }
