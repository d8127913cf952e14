"""Check 9 (whereabouts) — when part of the group does something, everyone else is accounted for.

Why: an idle traveller is not a split for the official split penalty, nor are sequential solo
activities, so leaving the others unplanned dodges the penalty (and leaves children nowhere).
Here, for every activity of a proper subgroup, each traveller outside it must be covered by
their own items (a concurrent activity, transfer or rest) for the whole of its span.
"""

from __future__ import annotations

from verifier.model.plan import hhmm
from verifier.model.verdict import Violation
from verifier.strict.finding import violation
from verifier.strict.trip import Item, Trip


def whereabouts_violations(trip: Trip) -> list[Violation]:
    """Check 9: one violation per subgroup activity with travellers unaccounted for during it."""
    out: list[Violation] = []
    everyone = set(trip.travellers)
    for item in trip.items:
        if not item.forward or not item.who or set(item.who) == everyone:
            continue
        gaps: dict[str, list[str]] = {}
        for name in trip.travellers:
            if name in item.who:
                continue
            holes = _uncovered(item, trip.of(name))
            if holes:
                gaps[name] = [f"{hhmm(low)}-{hhmm(high)}" for low, high in holes]
        if gaps:
            message = "; ".join(f"{name} unaccounted for {', '.join(spans)}" for name, spans in gaps.items())
            out.append(
                violation("strict.whereabouts_unknown", 9, item.loc, message, users=list(gaps), gaps=gaps)
            )
    return out


def _uncovered(item: Item, others: list[Item]) -> list[tuple[int, int]]:
    """Parts of the item's span that none of `others` covers."""
    holes: list[tuple[int, int]] = []
    cursor = item.start
    for other in sorted((o for o in others if o.forward), key=lambda o: o.start):
        if other.end <= cursor:
            continue
        if other.start >= item.end:
            break
        if other.start > cursor:
            holes.append((cursor, other.start))
        cursor = max(cursor, other.end)
    if cursor < item.end:
        holes.append((cursor, item.end))
    return holes
