"""Holiday prices of hotel nights and attraction tickets (public holidays of `holidays.HOLIDAYS`).

A POI's `price_fen` is its ordinary-day price; on a public holiday some places cost more:

- **hotel nights** leading into a day off — the eve of a break and every night of it but the
  last (for 国庆节 2025, the nights of 09-30 to 10-07) — cost the room × `LONG_BREAK_FACTOR` on
  the long breaks (春节, 劳动节, 国庆节) and × `SHORT_BREAK_FACTOR` on the others; on 春节 the four
  first-tier cities empty out and keep their ordinary prices (`QUIET_AT_SPRING_FESTIVAL`);
- **tickets of commercially priced attractions** (`PEAK_PRICED`: theme and amusement parks, water
  parks, aquariums) cost × `PEAK_TICKET_FACTOR` on every day off; tickets of scenic areas,
  museums, temples and parks are government-priced and do not rise;
- restaurants are unchanged.

Rooms are rounded to 10 CNY (per person: half the room), tickets to 5 CNY. The figures and their
sources are in docs/world.md ("Holiday prices of hotels and tickets").
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import cache

from sandbox.world.holidays import HOLIDAYS
from sandbox.world.model import Poi
from sandbox.world.prices import per_person_fen

LONG_BREAKS = frozenset({"春节", "劳动节", "国庆节"})
LONG_BREAK_FACTOR = 1.5
SHORT_BREAK_FACTOR = 1.2
QUIET_AT_SPRING_FESTIVAL = frozenset({"北京市", "上海市", "广州市", "深圳市"})
PEAK_PRICED = frozenset({"主题公园", "游乐园", "儿童乐园", "水上乐园", "海洋馆"})
PEAK_TICKET_FACTOR = 1.75
ROOM_STEP_FEN, TICKET_STEP_FEN = 1000, 500
ONE_DAY = dt.timedelta(days=1)


@dataclass(frozen=True, slots=True)
class HolidayPrice:
    """A place's price over one holiday: the dates it applies to (inclusive; for a hotel, the
    nights by check-in date), per person and, for a hotel, the room."""

    holiday: str
    first: dt.date
    last: dt.date
    price_fen: int
    room_price_fen: int


@cache
def _breaks() -> tuple[tuple[str, dt.date, dt.date], ...]:
    return tuple((name, dt.date.fromisoformat(a), dt.date.fromisoformat(b)) for name, a, b in HOLIDAYS)


def _break_of(date: dt.date) -> str | None:
    return next((name for name, first, last in _breaks() if first <= date <= last), None)


def governing_holiday(kind: str, date: dt.date) -> str | None:
    """The holiday whose prices apply to a place of this kind on a date: for a hotel, the break
    the night's next morning falls in; for an attraction, the break the date falls in."""
    if kind == "hotel":
        return _break_of(date + ONE_DAY)
    return _break_of(date) if kind == "attraction" else None


def factor(poi: Poi, holiday: str) -> float:
    """How much dearer the place is over this holiday (1.0: unchanged)."""
    if poi.kind == "hotel":
        if holiday == "春节" and poi.city in QUIET_AT_SPRING_FESTIVAL:
            return 1.0
        return LONG_BREAK_FACTOR if holiday in LONG_BREAKS else SHORT_BREAK_FACTOR
    if poi.kind == "attraction" and poi.category in PEAK_PRICED:
        return PEAK_TICKET_FACTOR
    return 1.0


def _raised(poi: Poi, by: float) -> tuple[int, int]:
    """(per-person price, room price) raised by a factor and rounded."""
    if poi.kind == "hotel" and poi.room_price_fen > 0:
        room = max(ROOM_STEP_FEN, round(poi.room_price_fen * by / ROOM_STEP_FEN) * ROOM_STEP_FEN)
        return per_person_fen("hotel", room), room
    price = round(poi.price_fen * by / TICKET_STEP_FEN) * TICKET_STEP_FEN
    return (max(TICKET_STEP_FEN, price) if poi.price_fen else 0), poi.room_price_fen


def price_on(poi: Poi, date: dt.date) -> int:
    """The per-person price of a place on a date (a hotel: the night starting that date)."""
    holiday = governing_holiday(poi.kind, date)
    by = factor(poi, holiday) if holiday is not None else 1.0
    return poi.price_fen if by == 1.0 or poi.price_fen == 0 else _raised(poi, by)[0]


def holiday_prices(poi: Poi) -> tuple[HolidayPrice, ...]:
    """Every holiday on which the place costs more than its ordinary price, in calendar order."""
    if poi.price_fen == 0:
        return ()
    shift = ONE_DAY if poi.kind == "hotel" else dt.timedelta(0)
    out = []
    for name, first, last in _breaks():
        by = factor(poi, name)
        price, room = _raised(poi, by)
        if by != 1.0 and price != poi.price_fen:
            out.append(HolidayPrice(name, first - shift, last - shift, price, room))
    return tuple(out)
