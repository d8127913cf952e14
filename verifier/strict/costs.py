"""Check 8 — costs: every priced item declares the world's price per person.

Why: official costs are self-declared (0 or negative passes and lowers the budget total).
Here the price of an item is the world's: a leg's matched departure `fare_fen`, a transfer's
`cost_fen`, and a place's price on its date (`WorldFacts.price_fen_on`: a hotel night on the
date of the day whose night it is, a ticket or a meal on the date the visit starts), so a
holiday night or ticket is priced at the holiday price (rests are unpriced; items whose place or
departure is unknown are reported by their own check and not priced here).
`avg_cost` is CNY per person; it must be finite and non-negative, present when the price is
positive, and the price itself or the price rounded to whole yuan, down or up
(`declarable_fen`) — except that 0 never stands for a positive price. Rounding is what the
tolerance is for; any other shading would lower the official budget total.
"""

from __future__ import annotations

import math

from verifier.model.verdict import Violation
from verifier.strict.clock import date_of
from verifier.strict.finding import violation
from verifier.strict.transfers import INTRACITY_MODES
from verifier.strict.trip import LEG, Item, Trip


def declarable_fen(price_fen: int) -> frozenset[int]:
    """The costs in fen strict accepts for a price: exact, or rounded to whole yuan down or up
    (never 0 for a positive price)."""
    down, up = price_fen // 100 * 100, -(-price_fen // 100) * 100
    return frozenset(fen for fen in (price_fen, down, up) if fen > 0 or price_fen == 0)


def lowest_cost_fen(price_fen: int) -> int:
    """The least cost strict accepts for a price (what a plan may count towards its budget)."""
    return min(declarable_fen(price_fen))


def cost_violations(trip: Trip) -> list[Violation]:
    """Check 8: finite, non-negative, present where priced, equal to the world's price within tolerance."""
    out: list[Violation] = []
    for item in trip.items:
        part = item.leg or item.activity
        declared = part.avg_cost if part is not None else None
        where = f"{item.loc}.avg_cost"
        if declared is not None and not math.isfinite(declared):
            out.append(
                violation("strict.cost_not_finite", 8, where, f"avg_cost {declared} is not a finite number")
            )
            continue
        if declared is not None and declared < 0:
            out.append(
                violation(
                    "strict.cost_negative", 8, where, f"avg_cost {declared} is negative", declared=declared
                )
            )
            continue
        price = _price(trip, item)
        if price is None:
            continue
        if declared is None:
            if price > 0:
                message = f"no avg_cost; the world's price is {price / 100:.2f} CNY per person"
                out.append(violation("strict.cost_missing", 8, where, message, price_fen=price))
            continue
        fen = round(declared * 100) if math.isfinite(declared * 100) else None
        if fen not in declarable_fen(price):
            message = f"avg_cost {declared} CNY but the world's price is {price / 100:.2f} CNY per person"
            out.append(
                violation("strict.cost_mismatch", 8, where, message, declared_fen=fen, price_fen=price)
            )
    return out


def _price(trip: Trip, item: Item) -> int | None:
    """The world's per-person price of an item in fen, or None when it has none here."""
    if item.kind == LEG:
        option = item.match.option if item.match is not None else None
        return option.fare_fen if option is not None else None
    act = item.activity
    if act is None or item.kind == "rest":
        return None
    if item.kind == "intracity_transport":
        if act.transport_mode not in INTRACITY_MODES:
            return None
        hop = trip.world.transfer(item.city, act.from_place, act.to, act.transport_mode)
        return hop.cost_fen if hop is not None else None
    place = trip.world.poi(item.city, act.location)
    kinds = {"attraction": "attraction", "food": "restaurant", "hotel": "hotel"}
    if place is None or place.kind != kinds[item.kind]:
        return None
    date = trip.days[item.day].day.date if item.kind == "hotel" else date_of(item.start)
    return trip.world.price_fen_on(item.city, act.location, date)
