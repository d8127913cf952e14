"""Check 3 — times: every item runs forward on the absolute clock and inside the day window.

Why: the official check compares strings, skips hotels and lets stacked wrap-around times
dodge every overlap rule. Here format errors are input violations (the parser), and on the
absolute clock (`verifier.strict.clock`) every item must last a positive time: only a hotel
stay or an intercity leg may cross midnight, any other activity with end ≤ start is rejected.
Realism (day window): attractions, meals and rests happen between 06:00 and 24:00 of their
own day; transfers, hotels and legs may run at night (a taxi from a late arrival).
"""

from __future__ import annotations

from verifier.model.verdict import Violation
from verifier.strict.clock import DAY, NIGHT_END
from verifier.strict.finding import violation
from verifier.strict.trip import LEG, Item, Trip

DAY_WINDOW_KINDS = frozenset({"attraction", "food", "rest"})


def time_violations(trip: Trip) -> list[Violation]:
    """Check 3: positive durations (midnight only for hotels and legs) and the 06:00–24:00 day window."""
    out: list[Violation] = []
    for item in trip.items:
        start_time, end_time = _times(item)
        if not item.forward:
            what = "a hotel stay" if item.kind == "hotel" else "it"
            rule = (
                "" if item.kind in {"hotel", LEG} else " (only hotel stays and intercity legs cross midnight)"
            )
            message = f"{start_time}-{end_time}: {what} does not run forward{rule}"
            out.append(
                violation(
                    "strict.time_not_forward", 3, item.loc, message, start_time=start_time, end_time=end_time
                )
            )
        elif item.kind in DAY_WINDOW_KINDS and not _in_day_window(trip, item):
            message = f"{item.kind} at {start_time}-{end_time} outside the day window 06:00-24:00 of its day"
            out.append(
                violation(
                    "strict.outside_day_window",
                    3,
                    item.loc,
                    message,
                    start_time=start_time,
                    end_time=end_time,
                )
            )
    return out


def _times(item: Item) -> tuple[str, str]:
    part = item.activity or item.leg
    return (part.start_time, part.end_time) if part is not None else ("", "")


def _in_day_window(trip: Trip, item: Item) -> bool:
    base = trip.days[item.day].base
    return base + NIGHT_END <= item.start and item.end <= base + DAY
