"""Opening-hour patterns by kind of place (realistic shapes, seeded variants).

Museums close on Mondays; temples and scenic areas have summer and winter hours (winter wraps
the year); theme parks open longer at weekends; small museums break for lunch; restaurants
serve lunch and dinner with a break, snack bars from breakfast, barbecues and night markets
past midnight; hot springs close after midnight; beaches and rafting open in summer only
(unless `off_season_ok` is False, as for places the tasks name); hotels never close.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from sandbox.world.model import OpeningHours, OpeningRule, Window

ALL = (1, 2, 3, 4, 5, 6, 7)
NOT_MONDAY = (2, 3, 4, 5, 6, 7)
WEEKDAYS = (1, 2, 3, 4, 5)
WEEKEND = (6, 7)
SUMMER = ("04-01", "10-31")
WINTER = ("11-01", "03-31")


def _hm(text: str) -> int:
    h, m = text.split(":")
    return int(h) * 60 + int(m)


def _w(spec: str) -> tuple[Window, ...]:
    """Windows from "09:00-12:00 14:00-17:00"; a close at or before the open runs past midnight."""
    out = []
    for part in spec.split():
        a, b = (_hm(x) for x in part.split("-"))
        out.append(Window(a, b if b > a else b + 1440))
    return tuple(out)


def _rules(*rules: tuple[tuple[str, str] | None, tuple[int, ...], str]) -> OpeningHours:
    return OpeningHours(False, tuple(OpeningRule(season, days, _w(spec)) for season, days, spec in rules))


def _museum(r: random.Random) -> OpeningHours:
    close = r.choice(["17:00", "17:30", "18:00"])
    return _rules((None, NOT_MONDAY, f"09:00-{close}"))


def _museum_break(r: random.Random) -> OpeningHours:
    return _rules((None, NOT_MONDAY, r.choice(["09:00-11:30 14:00-17:00", "08:30-12:00 13:30-17:00"])))


def _temple(r: random.Random) -> OpeningHours:
    return _rules((SUMMER, ALL, r.choice(["07:00-17:30", "06:30-17:00"])), (WINTER, ALL, "07:30-16:30"))


def _scenic(r: random.Random) -> OpeningHours:
    summer = r.choice(["07:30-18:00", "08:00-17:30", "07:00-18:30"])
    return _rules((("03-01", "11-30"), ALL, summer), (("12-01", "02-29"), ALL, "08:30-17:00"))


def _amusement(r: random.Random) -> OpeningHours:
    return _rules((None, WEEKDAYS, "10:00-18:00"), (None, WEEKEND, r.choice(["09:30-21:00", "09:00-22:00"])))


def _simple(spec: str) -> Callable[[random.Random], OpeningHours]:
    return lambda r: _rules((None, ALL, r.choice(spec.split("|"))))


def _seasonal(season: tuple[str, str], spec: str) -> Callable[[random.Random], OpeningHours]:
    return lambda r: _rules((season, ALL, spec))


def _always(r: random.Random) -> OpeningHours:
    return OpeningHours(True)


PATTERNS: dict[str, Callable[[random.Random], OpeningHours]] = {
    "museum": _museum,
    "museum_break": _museum_break,
    "temple": _temple,
    "scenic": _scenic,
    "amusement": _amusement,
    "park": _simple("06:00-22:00|05:30-22:30|06:00-21:00"),
    "open": _always,
    "street": _simple("09:00-22:30|10:00-23:00|10:00-00:00"),
    "zoo": lambda r: _rules((SUMMER, ALL, "07:30-18:00"), (WINTER, ALL, "08:00-17:00")),
    "day": _simple("08:30-17:30|09:00-17:00|08:00-18:00"),
    "late": _simple("09:00-22:00|10:00-22:30"),
    "spa": _simple("10:00-01:00|09:00-00:00"),
    "summer": _seasonal(("05-01", "10-15"), "09:00-18:00"),
    "beach": _seasonal(("05-01", "10-31"), "08:00-19:00"),
    "winter_night": _seasonal(("12-15", "02-28"), "11:00-21:30"),
    "meals": _simple("11:00-14:00 17:00-21:30|10:30-14:30 16:30-21:00|11:00-21:30"),
    "breakfast": _simple("06:30-14:00 17:00-20:30|06:00-21:00|07:00-20:00"),
    "all_day": _simple("10:00-22:00|11:00-23:00|10:30-02:00"),
    "night": _simple("17:00-02:00|18:00-01:00|16:30-00:30"),
    "hotel": _always,
}
YEAR_ROUND = {"summer": "day", "beach": "open", "winter_night": "late"}


def opening_hours(
    pattern: str, r: random.Random, *, off_season_ok: bool = True, shift: int = 0
) -> OpeningHours:
    """Opening hours of a pattern; with `off_season_ok` False, never closed for a whole season;
    every window `shift` minutes later (the local working clock, `regional.clock_shift`)."""
    if not off_season_ok:
        pattern = YEAR_ROUND.get(pattern, pattern)
    hours = PATTERNS[pattern](r)
    if shift == 0 or hours.always_open:
        return hours
    rules = tuple(
        OpeningRule(
            rule.date_range,
            rule.weekdays,
            tuple(Window(w.open + shift, w.close + shift) for w in rule.windows),
        )
        for rule in hours.rules
    )
    return OpeningHours(False, rules)
