"""The world's records: frozen, slotted dataclasses in integer minutes and fen.

Times are minutes since midnight of the day in question; a value above 1440 runs past
midnight (a night market open 18:00–02:00 is `Window(1080, 1560)`). Money is integer fen
(1 CNY = 100 fen), per person. These shapes satisfy the verifier's `WorldFacts` record
protocols (`PoiFact`, `TimeWindow`, `IntercityOption`, `Transfer`) without importing them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

INTERCITY_MODES: tuple[str, ...] = ("高铁", "飞机", "火车", "自驾")
INTRACITY_MODES: tuple[str, ...] = ("公共交通", "骑车", "步行", "自驾", "打车")
POI_KINDS: tuple[str, ...] = ("attraction", "restaurant", "hotel")


@dataclass(frozen=True, slots=True)
class Window:
    """Open from `open` to `close` minutes (`close` > `open`; `close` > 1440 = past midnight)."""

    open: int
    close: int


@dataclass(frozen=True, slots=True)
class OpeningRule:
    """Windows on the listed ISO weekdays (1 = Mon … 7 = Sun) within an optional season.

    `date_range` is ("MM-DD", "MM-DD"), inclusive; start > end wraps the year ("11-01",
    "03-31"). `None` means all year. Empty `windows` means closed on those days.
    """

    date_range: tuple[str, str] | None
    weekdays: tuple[int, ...]
    windows: tuple[Window, ...]


@dataclass(frozen=True, slots=True)
class OpeningHours:
    """Opening hours: `always_open`, or the rules (see `sandbox.world.opening` for semantics)."""

    always_open: bool
    rules: tuple[OpeningRule, ...] = ()


@dataclass(frozen=True, slots=True)
class City:
    """A city key as tasks use it ("海口市"), its province, 6-digit adcode and centre.

    `hsr` tells whether the city is on the high-speed rail network.
    """

    name: str
    province: str
    adcode: str
    lon: float
    lat: float
    hsr: bool = True


@dataclass(frozen=True, slots=True)
class Hub:
    """Where intercity travel starts and ends in a city: an airport, a railway station, or
    the city centre (the start and end of a self-drive leg, named after the city).

    `kind` is "airport", "station" or "centre"; `iata` is set for airports.
    """

    name: str
    city: str
    kind: str
    lon: float
    lat: float
    iata: str | None = None


@dataclass(frozen=True, slots=True)
class Poi:
    """A place of a city.

    `kind` is one of `POI_KINDS`. `price_fen` is per person: ticket (attraction), average
    spend (restaurant), one night per person in a double room (hotel; `room_price_fen` is
    the room). `opening` None means no opening-hours data (no constraint). `source` is the
    real data set the record comes from ("ChinaTravel", "scenic5a") or "synthetic"; `aliases`
    are the place's other names (`World.poi` answers to each of them, with the others as aliases).
    """

    id: str
    name: str
    city: str
    kind: str
    category: str
    lon: float
    lat: float
    price_fen: int
    room_price_fen: int
    min_visit_minutes: int
    suggested_visit_minutes: int
    rating: float
    address: str
    opening: OpeningHours | None
    source: str = "synthetic"
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class IntercityOption:
    """One bookable departure; `depart`/`arrive` in minutes of the departure `date`.

    Self-drive is `flexible`: any departure time works and `arrive - depart` is the driving
    time (the listed times are a suggestion). `source` is where the departure comes from:
    "ChinaTravel" (real number, times, fare), "RailwayVIS" (real train and stop times, fare by
    rule), "OpenFlights" (real route and airline, number and times by rule) or "synthetic".
    """

    mode: str
    from_city: str
    to_city: str
    date: dt.date
    depart: int
    arrive: int
    fare_fen: int
    code: str
    from_hub: str
    to_hub: str
    flexible: bool
    source: str = "synthetic"


@dataclass(frozen=True, slots=True)
class Transfer:
    """Getting across town: door-to-door minutes and cost per person in fen."""

    minutes: int
    cost_fen: int
