"""Tie-breaks among oracle plans of equal value: fewer idle minutes, then lower cost.

Both measures read a plan that `strict` accepts (well-formed `HH:MM` times, known participants)
and count the task's users only: children always go with a user (team 0), so they add nothing a
user's timeline does not show.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from verifier.model.plan import ALL, minutes
from verifier.strict.clock import DAY

BUSY = frozenset({"attraction", "food", "intracity_transport", "intercity_transport", "hotel"})
"""Item types whose minutes are not idle (a rest, or a gap between items, is)."""


def idle_minutes(plan: dict[str, Any], users: Sequence[str]) -> int:
    """Σ over users and days of the minutes between the user's first and last busy minute of the
    day that none of their busy items covers.

    Busy items: attractions, meals, intracity transfers, intercity legs and hotel stays (legs and
    hotels are everybody's; an activity is its participants', `["All"]` or none meaning every
    user). An item running past midnight (a hotel night, an overnight leg) counts up to 24:00 of
    its day. Rests and unplanned gaps inside that span are idle: waiting for a place to open, at
    a station for a leg, for the other team of a split. Before the first busy item of a day (the
    morning at the hotel) and after the last nothing counts."""
    total = 0
    for day in plan["days"]:
        spans: dict[str, list[tuple[int, int]]] = {user: [] for user in users}
        for who, start, end in _busy(day, users):
            for user in who:
                spans[user].append((start, end))
        total += sum(_gaps(intervals) for intervals in spans.values())
    return total


def plan_cost_fen(plan: dict[str, Any], users: Sequence[str]) -> int:
    """Σ over users of the declared `avg_cost` (in fen) of every item they take part in: legs and
    hotels for everyone, each activity for its participants."""
    total = 0
    for day in plan["days"]:
        for segment in day["city_segments"]:
            if segment.get("type") == "intercity_transport":
                total += _fen(segment.get("avg_cost")) * len(users)
                continue
            for item in segment.get("activities", []):
                total += _fen(item.get("avg_cost")) * len(_who(item, users))
    return total


def _busy(day: dict[str, Any], users: Sequence[str]) -> Iterator[tuple[tuple[str, ...], int, int]]:
    """(users, start, end) of the day's busy items, ends clipped to 24:00."""
    for segment in day["city_segments"]:
        if segment.get("type") == "intercity_transport":
            yield tuple(users), *_span(segment)
            continue
        for item in segment.get("activities", []):
            if item.get("type") in BUSY:
                yield _who(item, users), *_span(item)


def _span(item: dict[str, Any]) -> tuple[int, int]:
    start, end = minutes(item["start_time"]), minutes(item["end_time"])
    return start, end if end >= start else DAY


def _who(item: dict[str, Any], users: Sequence[str]) -> tuple[str, ...]:
    names = item.get("participants")
    if not names or ALL in names:
        return tuple(users)
    return tuple(user for user in users if user in names)


def _gaps(intervals: list[tuple[int, int]]) -> int:
    """Minutes between the first start and the last end that no interval covers."""
    if not intervals:
        return 0
    intervals.sort()
    idle, reach = 0, intervals[0][1]
    for start, end in intervals[1:]:
        if start > reach:
            idle += start - reach
        reach = max(reach, end)
    return idle


def _fen(cost: Any) -> int:
    if isinstance(cost, bool) or not isinstance(cost, int | float):
        return 0
    return round(cost * 100)
