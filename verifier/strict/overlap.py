"""Check 4 — nobody is in two places at once, across blocks, segments, days, hotels and legs.

Why: the official check compares activities of one block only and ignores hotels, legs and
wrap-around times, so stacking overlapping activities in separate blocks (or behind bad times)
collects every credit. Here each traveller's items (legs and hotels involve everyone) are
compared pairwise on the absolute clock; two items overlap when each starts before the other
ends (touching ends do not overlap). Items that do not run forward are check 3's concern.
One violation per overlapping pair, listing the travellers affected.
"""

from __future__ import annotations

from verifier.model.verdict import Violation
from verifier.strict.clock import stamp
from verifier.strict.finding import violation
from verifier.strict.trip import Item, Trip


def overlap_violations(trip: Trip) -> list[Violation]:
    """Check 4: one violation per pair of overlapping items of a traveller (at the later-listed item)."""
    pairs: dict[tuple[int, int], list[str]] = {}
    for name in trip.travellers:
        timed = sorted(
            (item for item in trip.of(name) if item.forward), key=lambda item: (item.start, item.index)
        )
        for i, first in enumerate(timed):
            for second in timed[i + 1 :]:
                if second.start >= first.end:
                    break
                key = (max(first.index, second.index), min(first.index, second.index))
                pairs.setdefault(key, []).append(name)
    return [
        _report(trip.items[later], trip.items[earlier], users)
        for (later, earlier), users in sorted(pairs.items())
    ]


def _report(item: Item, other: Item, users: list[str]) -> Violation:
    span = f"{stamp(item.start)}–{stamp(item.end)}"
    other_span = f"{stamp(other.start)}–{stamp(other.end)}"
    message = f"{', '.join(users)}: {span} overlaps {other.loc} ({other_span})"
    return violation(
        "strict.double_booked",
        4,
        item.loc,
        message,
        other=other.loc,
        users=users,
        span=span,
        other_span=other_span,
    )
