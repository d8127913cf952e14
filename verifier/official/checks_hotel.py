"""Official check 2 (a hotel every night), docs/official.md#the-nine-checks."""

from __future__ import annotations

from verifier.official.issue import OfficialIssue
from verifier.official.plan_view import DayRef, PlanView

MISSING_HOTEL = "missing_hotel"
HOTEL_NOT_LAST = "hotel_not_last_activity"


def check_hotel(view: PlanView) -> list[OfficialIssue]:
    """Check 2: every day but the last list element ends with a hotel.

    The night's hotel must be the last activity of the day's last block (last segment with
    an `activities` key that is not an intercity leg). No block, an empty last block, or no
    hotel at all → `missing_hotel`; a hotel elsewhere that day → `hotel_not_last_activity`.
    Quirks: skipped entirely for plans of 0–1 days; the last list element is never checked
    (whatever its day number); an intercity leg after the hotel is fine; hotel times, city and
    duplicates are not checked.
    """
    issues: list[OfficialIssue] = []
    if len(view.days) <= 1:
        return issues
    for day in view.days[:-1]:
        if not day.blocks:
            issues.append(_issue(day, MISSING_HOTEL, day.loc, "未安排住宿（无 city_block）"))
            continue
        last_block = day.blocks[-1]
        if not last_block.activities:
            issues.append(
                _issue(day, MISSING_HOTEL, last_block.loc, "未安排住宿（最后一个 city_block 无活动）")
            )
            continue
        last = last_block.activities[-1]
        if last.type == "hotel":
            continue
        if any(act.type == "hotel" for block in day.blocks for act in block.activities):
            message = "hotel 未安排在当天最后一个 city_block 的最后一个活动位置"
            issues.append(_issue(day, HOTEL_NOT_LAST, last.loc, message))
        else:
            issues.append(_issue(day, MISSING_HOTEL, last.loc, "未安排住宿"))
    return issues


def _issue(day: DayRef, kind: str, loc: str, text: str) -> OfficialIssue:
    return OfficialIssue(2, loc, {"type": kind, "day": day.number, "message": f"Day {day.number}: {text}"})
