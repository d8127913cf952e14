"""The strict profile's clock: every plan time as integer minutes on one absolute axis.

An absolute time is `date.toordinal() * 1440 + minutes`, so times of different days compare
as integers and nothing ever compares `HH:MM` strings. How a day's `HH:MM` times map onto the
axis (the only place midnight is handled):

- an item belongs to its day's date, except items listed after an intercity leg that crosses
  midnight, which belong to the next date (the small hours after a late arrival);
- an intercity leg whose end is earlier than its start arrives on the next date;
- a hotel is a night stay: it starts on its day's date (or, for a check-in before 06:00 or one
  listed after a midnight-crossing leg, in the small hours of the next date) and ends the next
  morning (next date + end time);
- any other activity starts and ends on the same date; end ≤ start is a check-3 violation.
"""

from __future__ import annotations

import datetime as dt

from verifier.model.plan import hhmm

DAY = 1440
NIGHT_END = 6 * 60
"""06:00: hotel check-ins before it are in the small hours after the day; the day window opens."""
NIGHT_CHECK = 3 * 60
"""03:00 of the next date: a leg still in transit at this minute spends the night (no hotel needed)."""


def day_base(date: dt.date) -> int:
    """Absolute minute of midnight starting `date`."""
    return date.toordinal() * DAY


def date_of(absolute: int) -> dt.date:
    """Calendar date an absolute minute falls on."""
    return dt.date.fromordinal(absolute // DAY)


def stamp(absolute: int) -> str:
    """`YYYY-MM-DD HH:MM` of an absolute minute (for ctx)."""
    return f"{date_of(absolute).isoformat()} {hhmm(absolute)}"


def leg_span(base: int, start: int, end: int) -> tuple[int, int]:
    """Absolute span of an intercity leg starting at `base + start` (may arrive the next date)."""
    first = base + start
    if end >= start:
        return first, base + end
    return first, base + DAY + end


def hotel_span(base: int, start: int, end: int, after_midnight: bool) -> tuple[int, int]:
    """Absolute span of a night stay listed on the day whose midnight is `base`."""
    first = base + start + (DAY if after_midnight or start < NIGHT_END else 0)
    return first, base + DAY + end


def activity_span(base: int, start: int, end: int) -> tuple[int, int]:
    """Absolute span of any other activity (same date; not forward when end ≤ start)."""
    return base + start, base + end
