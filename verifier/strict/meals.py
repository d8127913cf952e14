"""Check 5 (meals) — meals happen in meal windows, at most one of each kind a day, none skipped.

Why: every official food activity is a preference credit, so ten "meals" a day score ten
times; and a plan without activities scores 0 for everyone, which maximises fairness. Here a
food activity must fit inside one meal window (breakfast 06:00–10:30, lunch 10:30–15:00,
dinner 16:30–22:30); a traveller has at most one breakfast, lunch and dinner per date; and
lunch and dinner are required on every date whose window lies wholly between the trip's first
arrival and its last departure and overlaps no intercity leg (breakfast is optional — hotels
serve it).
"""

from __future__ import annotations

from verifier.model.plan import hhmm
from verifier.model.verdict import Violation
from verifier.strict.finding import violation
from verifier.strict.trip import LEG, Item, Trip, TripDay

MEALS: tuple[tuple[str, int, int], ...] = (
    ("breakfast", 360, 630),
    ("lunch", 630, 900),
    ("dinner", 990, 1350),
)
REQUIRED = ("lunch", "dinner")


def meal_violations(trip: Trip) -> list[Violation]:
    """Check 5: meal window, one meal of each kind per traveller and date, lunch and dinner present."""
    out: list[Violation] = []
    eaten: dict[tuple[str, int, str], Item] = {}
    for item in trip.items:
        if item.kind != "food" or not item.forward:
            continue
        base = trip.days[item.day].base
        meal = _meal(item.start - base, item.end - base)
        if meal is None:
            span = f"{hhmm(item.start)}-{hhmm(item.end)}"
            message = f"food at {span} is not inside a meal window (06:00-10:30, 10:30-15:00, 16:30-22:30)"
            out.append(violation("strict.meal_outside_window", 5, item.loc, message, span=span))
            continue
        again = [name for name in item.who if eaten.setdefault((name, base, meal), item) is not item]
        if again:
            first = eaten[(again[0], base, meal)]
            message = f"{', '.join(again)} already had {meal} that day ({first.loc})"
            out.append(
                violation(
                    "strict.meal_repeated", 5, item.loc, message, meal=meal, users=again, first=first.loc
                )
            )
    for day in trip.days:
        out += _missing(trip, day, {key for key in eaten if key[1] == day.base})
    return out


def _meal(start: int, end: int) -> str | None:
    for name, low, high in MEALS:
        if low <= start and end <= high:
            return name
    return None


def required_meals(start: int, end: int) -> tuple[str, ...]:
    """The required meals whose whole window lies within [start, end] (minutes of one date)."""
    return tuple(name for name, low, high in MEALS if name in REQUIRED and start <= low and high <= end)


def _missing(trip: Trip, day: TripDay, eaten: set[tuple[str, int, str]]) -> list[Violation]:
    legs = [item for item in trip.items if item.kind == LEG]
    if not legs:
        return []
    arrival, departure = legs[0].end, legs[-1].start
    due = required_meals(arrival - day.base, departure - day.base)
    out: list[Violation] = []
    for name, low, high in MEALS:
        start, end = day.base + low, day.base + high
        if name not in due:
            continue
        if any(leg.start < end and start < leg.end for leg in legs):
            continue
        hungry = [who for who in trip.travellers if (who, day.base, name) not in eaten]
        if hungry:
            message = f"{', '.join(hungry)} have no {name} on {day.day.date}"
            out.append(violation("strict.meal_missing", 5, day.loc, message, meal=name, users=hungry))
    return out
