"""Check 5 (places) — attractions and restaurants are real, open, visited long enough, once.

Why: the official check covers attractions only, skips unknown names (so a fabricated or
concatenated name scores every must-visit it contains and escapes the hours check), compares
time strings (overnight windows always fail) and lets repeat visits earn credit again. Here:

- the place exists in the world in the block's city (`world.poi`) with the right kind
  (attraction → attraction, food → restaurant);
- the visit fits inside ONE opening window of its date (`world.opening_windows`: None = open
  all day, () = closed that date; a window closing after 24:00 also covers the small hours of
  the next date, so a lunch break splits the day and a night market 18:00–02:00 is open at 23:00);
- it lasts at least the place's `min_visit_minutes`;
- a traveller visits each attraction at most once per trip, under whichever of its names
  (`PoiFact.aliases`: 上海迪士尼乐园 then 上海迪士尼度假区 is one place twice).
"""

from __future__ import annotations

import datetime as dt

from verifier.model.plan import hhmm
from verifier.model.verdict import Violation
from verifier.strict.clock import DAY, date_of, day_base
from verifier.strict.finding import violation
from verifier.strict.trip import Item, Trip
from verifier.world_facts import PoiFact, PoiKind, place_names

KIND_OF = {"attraction": PoiKind.ATTRACTION, "food": PoiKind.RESTAURANT}


def place_violations(trip: Trip) -> list[Violation]:
    """Check 5: existence and kind, opening windows, minimum visit length, no repeated attraction."""
    out: list[Violation] = []
    seen: dict[tuple[str, str, frozenset[str]], Item] = {}
    for item in trip.items:
        want = KIND_OF.get(item.kind)
        if want is None:
            continue
        place = trip.world.poi(item.city, item.place)
        where = f"{item.loc}.location"
        if place is None:
            message = f"the world has no {want} {item.place!r} in {item.city}"
            out.append(violation("strict.poi_unknown", 5, where, message, city=item.city, name=item.place))
            continue
        if place.kind != want:
            message = f"{item.place!r} is of kind {place.kind}, not {want}"
            out.append(
                violation("strict.poi_wrong_kind", 5, where, message, expected=str(want), actual=place.kind)
            )
            continue
        if item.forward:
            out += _opening(trip, item, place)
            out += _visit_length(item, place)
        if item.kind == "attraction":
            out += _repeat(item, place_names(place), seen)
    return out


def _opening(trip: Trip, item: Item, place: PoiFact) -> list[Violation]:
    date = date_of(item.start)
    today = trip.world.opening_windows(item.city, place.name, date)
    if today is None:
        return []
    yesterday = trip.world.opening_windows(item.city, place.name, date - dt.timedelta(days=1)) or ()
    spans = [(w.open, w.close) for w in today] + [(w.open - DAY, w.close - DAY) for w in yesterday]
    start, end = item.start - day_base(date), item.end - day_base(date)
    if any(low <= start and end <= high for low, high in spans):
        return []
    visit = f"{hhmm(item.start)}-{hhmm(item.end)}"
    if not today and not any(high > 0 for _, high in spans):
        message = f"{place.name} is closed on {date} ({date.strftime('%A')})"
        return [violation("strict.closed_on_date", 5, item.loc, message, date=str(date), visit=visit)]
    windows = [_window_text(max(low, 0), high) for low, high in sorted(spans) if high > 0]
    message = f"{place.name} {visit} on {date} is not inside one opening window ({', '.join(windows)})"
    return [
        violation(
            "strict.outside_opening_hours", 5, item.loc, message, date=str(date), visit=visit, windows=windows
        )
    ]


def _window_text(low: int, high: int) -> str:
    """`HH:MM-HH:MM` of a window on the visit's date (`+1` marks a close after midnight)."""

    def text(minute: int) -> str:
        return hhmm(minute) + ("+1" if minute >= DAY else "")

    return f"{text(low)}-{text(high)}"


def _visit_length(item: Item, place: PoiFact) -> list[Violation]:
    minutes = item.end - item.start
    if minutes >= place.min_visit_minutes:
        return []
    message = f"{minutes} min at {place.name}; a visit takes at least {place.min_visit_minutes} min"
    return [
        violation(
            "strict.visit_too_short", 5, item.loc, message, minutes=minutes, minimum=place.min_visit_minutes
        )
    ]


def _repeat(
    item: Item, names: frozenset[str], seen: dict[tuple[str, str, frozenset[str]], Item]
) -> list[Violation]:
    again: list[str] = []
    for name in item.who:
        key = (name, item.city, names)
        if key in seen:
            again.append(name)
        else:
            seen[key] = item
    if not again:
        return []
    first = seen[(again[0], item.city, names)]
    as_named = "" if first.place == item.place else f" as {first.place}"
    message = f"{', '.join(again)} already visited {item.place}{as_named} ({first.loc})"
    return [violation("strict.attraction_repeated", 5, item.loc, message, users=again, first=first.loc)]
