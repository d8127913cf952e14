"""What opening hours mean on a date (the intended semantics, not the official quirks).

For a date D the applicable rules are those whose season contains D (or have none) and whose
weekdays contain D's weekday; D's windows are the union of their windows. A rule that
matches with no windows, or no matching rule at all (weekly closure, off season), means
closed on D. Windows that run past midnight on D-1 also open D from 00:00, so a visit at
01:00 is inside yesterday's 18:00–02:00 night market. `always_open` or no data → None.
"""

from __future__ import annotations

import datetime as dt

from sandbox.world.model import OpeningHours, OpeningRule, Window

DAY = 1440


def in_season(date_range: tuple[str, str] | None, date: dt.date) -> bool:
    """Whether a date's "MM-DD" lies in an inclusive season (start > end wraps the year)."""
    if date_range is None:
        return True
    start, end = date_range
    md = f"{date.month:02d}-{date.day:02d}"
    if start <= end:
        return start <= md <= end
    return md >= start or md <= end


def _rule_applies(rule: OpeningRule, date: dt.date) -> bool:
    return date.isoweekday() in rule.weekdays and in_season(rule.date_range, date)


def own_windows(hours: OpeningHours, date: dt.date) -> tuple[Window, ...]:
    """Windows that open on `date` itself (may close after midnight), merged and sorted."""
    found = [w for rule in hours.rules if _rule_applies(rule, date) for w in rule.windows]
    return merge(found)


def merge(windows: list[Window]) -> tuple[Window, ...]:
    """Sort windows and merge the ones that overlap or touch."""
    merged: list[Window] = []
    for w in sorted(windows, key=lambda x: (x.open, x.close)):
        if merged and w.open <= merged[-1].close:
            last = merged[-1]
            merged[-1] = Window(last.open, max(last.close, w.close))
        else:
            merged.append(w)
    return tuple(merged)


def windows_on(hours: OpeningHours | None, date: dt.date) -> tuple[Window, ...] | None:
    """Opening windows on a date: None = open all day (or no data), () = closed."""
    if hours is None or hours.always_open or not hours.rules:
        return None
    previous = own_windows(hours, date - dt.timedelta(days=1)) if date > dt.date.min else ()
    spill = [Window(0, w.close - DAY) for w in previous if w.close > DAY]
    return merge([*spill, *own_windows(hours, date)])
