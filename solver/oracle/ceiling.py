"""The compromise-aware ceiling of a plan, read from its official group-utility result.

A GroupTravelBench user whose table says `compromisable: true` may concede up to
`MAX_WAIVED` preferences during the chat (docs/runner.md, Compromises). The ceiling credits each such user
with the two concessions that would help the plan most: a *field* is one official detail
field of a user, per city for city-specific ones (`(深圳市, reject_visit)`,
`(None, avg_budget)`); giving a field up removes its details from that user's utility and
re-scores nothing else. So the ceiling of any plan is exact arithmetic on the official details
(`ceiling_value`), and the oracle's model of it can be checked plan by plan. docs/oracle.md
(Variants) states what it leaves out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

FieldKey = tuple[str | None, str]
"""(city, official detail field): the city for city-specific fields, None for global ones."""

MAX_WAIVED = 2
"""Fields a compromisable user may give up: the official `MAX_COMPROMISES_PER_USER`."""


@dataclass(frozen=True)
class Waived:
    """A field given up and the total its details scored in the plan (negative)."""

    city: str | None
    field: str
    total: int

    def to_json(self) -> dict[str, Any]:
        return {"city": self.city, "field": self.field, "total": self.total}


def is_compromisable(entry: Any) -> bool:
    """A table entry whose `compromisable` is JSON true."""
    return isinstance(entry, dict) and entry.get("compromisable") is True


def compromisable_users(table: Any) -> frozenset[str]:
    """The users of a preference table marked compromisable."""
    if not isinstance(table, dict):
        return frozenset()
    return frozenset(user for user, entry in table.items() if is_compromisable(entry))


def field_totals(details: Iterable[dict[str, Any]]) -> dict[FieldKey, int]:
    """The sum of the official details' scores per field, in first-seen order."""
    totals: dict[FieldKey, int] = defaultdict(int)
    for detail in details:
        totals[(detail.get("city"), detail["field"])] += int(detail["score"])
    return dict(totals)


def waived_fields(official: dict[str, Any], compromisable: Collection[str]) -> dict[str, tuple[Waived, ...]]:
    """Per compromisable scored user (official order): the fields the ceiling waives — the (at
    most) `MAX_WAIVED` most negative field totals, most negative first, ties by city then field."""
    out: dict[str, tuple[Waived, ...]] = {}
    for user, scored in official["per_user"].items():
        if user not in compromisable:
            continue
        totals = field_totals(scored["details"])
        losing = sorted(
            (total, city or "", field, city) for (city, field), total in totals.items() if total < 0
        )
        out[user] = tuple(Waived(city, field, total) for total, _, field, city in losing[:MAX_WAIVED])
    return out


def ceiling_value(official: dict[str, Any], compromisable: Collection[str]) -> int:
    """The official GU total plus, for every compromisable user, the negated sum of the user's
    (at most) two most negative field totals (`official` is `evaluate_group_utility`'s result)."""
    waived = waived_fields(official, compromisable)
    return int(official["total_score"]) - sum(w.total for fields in waived.values() for w in fields)
