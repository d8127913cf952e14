"""Official check 5 (attraction opening hours), docs/official.md#the-nine-checks and #the-poi-file."""

from __future__ import annotations

from typing import Any

from verifier.official.issue import OfficialIssue
from verifier.official.plan_view import ActivityRef, DayRef, PlanView
from verifier.official.poi_db import PoiDb

OUTSIDE_HOURS = "outside_opening_hours"
CLOSED = "当天不开放"


def check_opening_hours(view: PlanView, poi_db: PoiDb) -> list[OfficialIssue]:
    """Check 5: an attraction visit lies inside one opening window of its POI on that date.

    Only `attraction` activities with truthy location, start and end, in a block with a
    truthy `city`, on a day with a truthy `date`. Unknown POI (exact city key), no or
    always-open hours, no applicable rule or an unparseable date → no issue; a closed day →
    "当天不开放". Quirks: times compare as raw strings ("9:45" > "17:00"), so non-padded
    times and overnight windows are always "outside"; a lunch break splits the day; food is
    never checked; a non-string time raises TypeError and a window without `close` KeyError,
    as in the official code.
    """
    issues: list[OfficialIssue] = []
    for day in view.days:
        date = day.raw.get("date")
        if not date:
            continue
        for block in day.blocks:
            city = block.raw.get("city")
            if not city:
                continue
            for act in block.activities:
                if act.type != "attraction":
                    continue
                raw = act.raw
                location, start, end = raw.get("location"), raw.get("start_time"), raw.get("end_time")
                if not (location and start and end):
                    continue
                if poi_db.is_within_opening_hours(location, city, date, start, end) is False:
                    windows = poi_db.time_windows(location, city, date) or []
                    issues.append(_outside(day, act, date, city, windows))
    return issues


def _outside(
    day: DayRef, act: ActivityRef, date: Any, city: Any, windows: list[dict[str, Any]]
) -> OfficialIssue:
    raw = act.raw
    location, start, end = raw["location"], raw["start_time"], raw["end_time"]
    if windows:
        hours = ", ".join(f"{window['open']}-{window['close']}" for window in windows)
        message = f"Day {day.number} ({date}): '{location}' 的活动时间 {start}-{end} 不在开放时间 {hours} 内"
    else:
        hours = CLOSED
        message = f"Day {day.number} ({date}): '{location}' {CLOSED}"
    issue = {
        "type": OUTSIDE_HOURS,
        "day": day.number,
        "date": date,
        "location": location,
        "city": city,
        "activity_time": f"{start}-{end}",
        "opening_hours": hours,
        "message": message,
    }
    return OfficialIssue(5, act.loc, issue)
