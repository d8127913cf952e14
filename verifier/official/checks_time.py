"""Official checks 3 (time format/order), 4 (overlap) and 7 (per-user day timeline),
docs/official.md#the-nine-checks."""

from __future__ import annotations

from typing import Any

from verifier.model.plan import hhmm
from verifier.official.issue import OfficialIssue
from verifier.official.overlap import overlapping_pairs
from verifier.official.plan_view import ActivityRef, DayRef, PlanView, SegmentRef

INVALID_FORMAT = "invalid_time_format"
INVALID_RANGE = "invalid_time_range"
OVERLAP = "time_overlap"
TIMELINE = "timeline_order_violation"

# A day-timeline item: (members, start, end, is_hotel, the leg or activity).
_Item = tuple[Any, int | None, int | None, bool, "SegmentRef | ActivityRef"]


def check_time_order(view: PlanView) -> list[OfficialIssue]:
    """Check 3: times parse as "%H:%M" and, for activities, end after start.

    Intercity legs may run overnight, so only their format is checked. Block activities of
    every type except `hotel` (skipped entirely, not even the format) must have end > start.
    Quirks: a missing time is reported as "" and a non-string one raw (e.g. 1200); "24:00",
    "16:20:00" and " 12:50" are format errors while "9:00" passes; equal times are a range
    error; dates and day numbers are never checked.
    """
    issues: list[OfficialIssue] = []
    for day in view.days:
        for seg in day.segments:
            if seg.is_intercity:
                issue = _validate(day, seg.raw, seg.start, seg.end, overnight=True)
                if issue is not None:
                    issues.append(OfficialIssue(3, f"{seg.loc}.{issue[1]}", issue[0]))
            elif seg.has_activities:
                for act in seg.activities:
                    if act.type == "hotel":
                        continue
                    issue = _validate(day, act.raw, act.start, act.end, overnight=False)
                    if issue is not None:
                        issues.append(OfficialIssue(3, f"{act.loc}.{issue[1]}", issue[0]))
    return issues


def _validate(
    day: DayRef, raw: dict[str, Any], start: int | None, end: int | None, *, overnight: bool
) -> tuple[dict[str, Any], str] | None:
    """The issue and offending field name for one item, or None."""
    if start is not None and end is not None:
        if overnight or end > start:
            return None
        kind, text, field = INVALID_RANGE, "结束时间不晚于开始时间", "end_time"
    else:
        kind, text = INVALID_FORMAT, "时间格式无效"
        field = "start_time" if start is None else "end_time"
    item_type = raw.get("type")
    label = raw.get("location") or raw.get("to") or ""
    s, e = raw.get("start_time", ""), raw.get("end_time", "")
    issue = {
        "type": kind,
        "day": day.number,
        "activity_type": item_type,
        "location": label,
        "start_time": s,
        "end_time": e,
        "message": f"Day {day.number}: {item_type} '{label}' {text} ({s} - {e})",
    }
    return issue, field


def check_overlap(view: PlanView) -> list[OfficialIssue]:
    """Check 4: no traveller is in two activities of one block at the same time.

    Per block and per user in `user_names`, every unordered pair (list order) of the user's
    non-hotel activities whose forward ranges overlap is one issue (touching ends do not
    overlap). Quirks: an overlapping pair of two "All" activities yields one issue per user;
    overlaps across blocks of the same day, with intercity legs or hotels, and of unparseable
    or overnight ranges are never found; string participants are substring tests.
    """
    issues: list[OfficialIssue] = []
    users = view.user_names
    for day in view.days:
        for block in day.blocks:
            for user, first, second in overlapping_pairs(block, users):
                a, b = _overlap_side(first), _overlap_side(second)
                message = (
                    f"Day {day.number}: {user} 的活动时间冲突 - "
                    f"'{a['location']}' ({a['time']}) 与 '{b['location']}' ({b['time']})"
                )
                issue = {
                    "type": OVERLAP,
                    "day": day.number,
                    "user": user,
                    "activity_1": a,
                    "activity_2": b,
                    "message": message,
                }
                issues.append(OfficialIssue(4, second.loc, issue))
    return issues


def _overlap_side(act: ActivityRef) -> dict[str, Any]:
    raw = act.raw
    return {"type": act.type, "location": act.label, "time": f"{raw['start_time']}-{raw['end_time']}"}


def check_timeline(view: PlanView) -> list[OfficialIssue]:
    """Check 7: per user, no item of a day starts before the previous item ended.

    Items are the day's intercity legs (everyone) and block activities (their participants)
    in list order. An item starting (strictly) before the last recorded end is a violation.
    A forward or zero-length item records its end; overnight items do not, and hotels are
    checked but never record an end. Quirks: a hotel violation's `prev_end_time` key is always
    "" (the official code reads a key that never exists) while its message shows the real
    end; equal times are fine; no cross-day or date ordering. When every item of a day is a
    whole-group one, the violations are found once and repeated per user.
    """
    issues: list[OfficialIssue] = []
    users = view.user_names
    for day in view.days:
        items, everyone = _timeline_items(day, users)
        if everyone:
            shared = _backsteps(items)
            for user in users:
                for found in shared:
                    issues.append(_violation(day, user, *found))
            continue
        for user in users:
            own = [item for item in items if user in item[0]]
            for found in _backsteps(own):
                issues.append(_violation(day, user, *found))
    return issues


def _backsteps(items: list[_Item]) -> list[tuple[_Item, _Item, int]]:
    """(previous item, item, previous end) for each item of one traveller starting too early."""
    found: list[tuple[_Item, _Item, int]] = []
    prev_end: int | None = None
    prev: _Item | None = None
    for item in items:
        _, start, end, is_hotel, _ = item
        if prev is not None and prev_end is not None and start is not None and start < prev_end:
            found.append((prev, item, prev_end))
        if not is_hotel and end is not None and (start is None or end >= start):
            prev_end, prev = end, item
    return found


def _timeline_items(day: DayRef, users: list[str]) -> tuple[list[_Item], bool]:
    """The day's items in list order, and whether every one of them is a whole-group item."""
    items: list[_Item] = []
    everyone = True
    for seg in day.segments:
        if seg.is_intercity:
            items.append((users, seg.start, seg.end, False, seg))
        elif seg.has_activities:
            for act in seg.activities:
                members = act.members
                everyone = everyone and members is users
                items.append((members, act.start, act.end, act.type == "hotel", act))
    return items, everyone


def _describe(ref: SegmentRef | ActivityRef) -> str:
    raw = ref.raw
    if isinstance(ref, SegmentRef):
        return f"城际交通 {raw.get('from_city', '')}→{raw.get('to_city', '')}"
    kind = ref.type
    if kind == "intracity_transport":
        return f"城内交通 {raw.get('from', '')}→{raw.get('to', '')}"
    if kind in ("attraction", "food", "hotel"):
        return f"{kind} {raw.get('location', '')}"
    if kind == "rest":
        return "休息"
    return f"{kind}"


def _violation(day: DayRef, user: str, prev: _Item, item: _Item, prev_end: int) -> OfficialIssue:
    before, ref, is_hotel = _describe(prev[4]), item[4], item[3]
    desc, start = _describe(ref), ref.raw.get("start_time")
    ended = hhmm(prev_end)
    message = f"Day {day.number}: {user} 的时间线倒流 - '{before}' 结束于 {ended}，但 '{desc}' 开始于 {start}"
    issue = {
        "type": TIMELINE,
        "day": day.number,
        "user": user,
        "prev_activity": before,
        "curr_activity": desc,
        "prev_end_time": "" if is_hotel else ended,
        "curr_start_time": start,
        "message": message,
    }
    return OfficialIssue(7, f"{ref.loc}.start_time", issue)
