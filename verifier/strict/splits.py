"""Check 9 (splits) — while the group is split, nobody changes team.

Why: the official split penalty groups a block's subgroup activities that overlap, directly or
through others, and charges K − 1 for K teams only when the teams are pairwise disjoint; teams
that share a traveller cost nothing, on the assumption that the traveller is double-booked.
Strict forbids double-booking, so in a strict-valid plan such teams can only mean a traveller
left one team for another while the group was apart — or one team's rest was written once per
traveller — and the split would go unpenalised. Here, within one such group of overlapping
subgroup activities, any two activities name the same travellers or none in common: teams stay
fixed until the whole group is back together (an activity of everyone, or a moment when every
activity of the block ends).
"""

from __future__ import annotations

from verifier.model.verdict import Violation
from verifier.strict.finding import violation
from verifier.strict.trip import Item, Trip

SPLITTABLE = ("attraction", "food", "rest", "intracity_transport")
"""The activity types the official split rule groups (docs/official.md#scoring, split penalty)."""


def split_violations(trip: Trip) -> list[Violation]:
    """Check 9: one violation per activity whose travellers partly overlap an earlier activity's in
    the same group of overlapping subgroup activities."""
    everyone = set(trip.travellers)
    out: list[Violation] = []
    for day in trip.days:
        for stop in day.stops:
            items = [
                item
                for item in stop.items
                if item.kind in SPLITTABLE and item.forward and item.who and set(item.who) != everyone
            ]
            for group in _groups(items):
                out += _mixed(group)
    return out


def _groups(items: list[Item]) -> list[list[Item]]:
    """Items joined by chains of overlapping spans (touching ends do not overlap), in plan order."""
    parent = list(range(len(items)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(items):
        for j in range(i):
            b = items[j]
            if a.start < b.end and b.start < a.end:
                parent[root(i)] = root(j)
    groups: dict[int, list[Item]] = {}
    for i, item in enumerate(items):
        groups.setdefault(root(i), []).append(item)
    return list(groups.values())


def _mixed(group: list[Item]) -> list[Violation]:
    out: list[Violation] = []
    for k, item in enumerate(group):
        mine = set(item.who)
        for earlier in group[:k]:
            theirs = set(earlier.who)
            if mine != theirs and mine & theirs:
                shared = sorted(mine & theirs)
                message = (
                    f"{', '.join(shared)} change team during a split: {sorted(theirs)} ({earlier.loc}) and "
                    f"{sorted(mine)} overlap in time through the split's activities"
                )
                out.append(
                    violation("strict.split_regroup", 9, item.loc, message, users=shared, other=earlier.loc)
                )
                break
    return out
