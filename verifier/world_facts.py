"""`WorldFacts`: the read-only questions the `strict` profile asks about the world.

The verifier owns this protocol and imports nothing that implements it; a sandbox World
satisfies it by shape (a contract test checks that). Every record type is itself a Protocol
of read-only properties, so an implementation returns its own frozen dataclasses. Units are
fixed so that rules compare integers: times in minutes since midnight of the day in question
(an arrival after midnight is > 1440), money in integer fen (1 CNY = 100 fen), per person.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from enum import StrEnum
from typing import Protocol, runtime_checkable


class PoiKind(StrEnum):
    """The three kinds of place a plan visits."""

    ATTRACTION = "attraction"
    RESTAURANT = "restaurant"
    HOTEL = "hotel"


class PoiFact(Protocol):
    """A place in a city.

    `price_fen` is per person: the ticket of an attraction, the average spend of a meal,
    one night in a hotel, on an ordinary day (`WorldFacts.price_fen_on` gives the price of a
    date). `min_visit_minutes` is the shortest visit that counts as a visit.
    `aliases` are the place's other names (empty when it has one): `WorldFacts.poi` answers to
    each of them with `name` = the asked name and `aliases` = all the others, so
    `{name, *aliases}` is the same set under every name and identifies the place.
    """

    @property
    def name(self) -> str: ...
    @property
    def city(self) -> str: ...
    @property
    def kind(self) -> str:
        """One of the `PoiKind` values."""
        ...

    @property
    def category(self) -> str: ...
    @property
    def lon(self) -> float: ...
    @property
    def lat(self) -> float: ...
    @property
    def price_fen(self) -> int: ...
    @property
    def min_visit_minutes(self) -> int: ...
    @property
    def aliases(self) -> tuple[str, ...]: ...


def place_names(place: PoiFact) -> frozenset[str]:
    """Every name of a place (the same set whichever name it was asked by)."""
    return frozenset((place.name, *place.aliases))


class TimeWindow(Protocol):
    """An opening window on one date: `open` ≤ time ≤ `close`, in minutes; `close` > 1440
    means the window runs past midnight (a night market open 18:00–02:00 is 1080–1560)."""

    @property
    def open(self) -> int: ...
    @property
    def close(self) -> int: ...


class IntercityOption(Protocol):
    """One bookable departure between two cities on a date.

    `depart` / `arrive` are minutes since midnight of the departure date (`arrive` may
    exceed 1440). `from_hub` / `to_hub` name the station or airport (places `transfer`
    knows). Self-drive has no timetable: `flexible` is True, any departure time works and
    `arrive - depart` is the driving time.
    """

    @property
    def mode(self) -> str: ...
    @property
    def from_city(self) -> str: ...
    @property
    def to_city(self) -> str: ...
    @property
    def date(self) -> dt.date: ...
    @property
    def depart(self) -> int: ...
    @property
    def arrive(self) -> int: ...
    @property
    def fare_fen(self) -> int: ...
    @property
    def code(self) -> str: ...
    @property
    def from_hub(self) -> str: ...
    @property
    def to_hub(self) -> str: ...
    @property
    def flexible(self) -> bool: ...


class Transfer(Protocol):
    """Getting across town: door-to-door minutes and cost per person in fen."""

    @property
    def minutes(self) -> int: ...
    @property
    def cost_fen(self) -> int: ...


@runtime_checkable
class WorldFacts(Protocol):
    """Read-only facts a world answers for the strict profile."""

    def city(self, name: str) -> str | None:
        """The world's key for a city name ("海口" or "海口市" → "海口市"), or None if unknown."""
        ...

    def poi(self, city: str, name: str) -> PoiFact | None:
        """The place with exactly this name (or alias) in this city, or None."""
        ...

    def pois(self, city: str, kind: str | None = None) -> Sequence[PoiFact]:
        """Every place of a city (of one `PoiKind` when given), in a stable order."""
        ...

    def opening_windows(self, city: str, name: str, date: dt.date) -> Sequence[TimeWindow] | None:
        """Opening windows of a place on a date: None = open all day, () = closed that day."""
        ...

    def price_fen_on(self, city: str, name: str, date: dt.date) -> int | None:
        """Per-person price of a place on a date, in fen: a hotel's night starting that date, an
        attraction's ticket for a visit that date, a meal that date (holiday prices included; on
        an ordinary day `PoiFact.price_fen`); None when the city has no place of that name."""
        ...

    def intercity_options(self, from_city: str, to_city: str, date: dt.date) -> Sequence[IntercityOption]:
        """Every departure from one city to another on a date, all modes."""
        ...

    def transfer(self, city: str, origin: str, destination: str, mode: str) -> Transfer | None:
        """Travel between two named places of a city (a POI or a station / airport) by an
        intracity mode (公共交通, 骑车, 步行, 自驾, 打车); None when either place is unknown."""
        ...
