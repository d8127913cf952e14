"""Check 7 — each traveller's items are listed in chronological order, across days and midnight.

Why: the official check works per day on raw strings and lets hotels and wrap-around items
leave the clock untouched. Here a traveller's items, in list order over the whole plan, must
start no earlier than the item listed before (absolute clock, so a 00:30 check-in after a
22:00 flight is in order and a day is later than the day before). Overlap is check 4.
"""

from __future__ import annotations

from verifier.model.verdict import Violation
from verifier.strict.clock import stamp
from verifier.strict.finding import violation
from verifier.strict.trip import Item, Trip


def order_violations(trip: Trip) -> list[Violation]:
    """Check 7: one violation per item that starts before the traveller's previous item."""
    found: dict[tuple[int, int], list[str]] = {}
    for name in trip.travellers:
        previous: Item | None = None
        for item in trip.of(name):
            if previous is not None and item.start < previous.start:
                found.setdefault((item.index, previous.index), []).append(name)
            previous = item
    out: list[Violation] = []
    for (index, before), users in sorted(found.items()):
        item, prev = trip.items[index], trip.items[before]
        who = ", ".join(users)
        message = f"{who}: starts {stamp(item.start)}, before {prev.loc} listed earlier ({stamp(prev.start)})"
        out.append(
            violation(
                "strict.out_of_order",
                7,
                item.loc,
                message,
                previous=prev.loc,
                users=users,
                start=stamp(item.start),
                previous_start=stamp(prev.start),
            )
        )
    return out
