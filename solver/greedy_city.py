"""What the greedy planner asks about one city, memoised: scored places, opening spans, hops.

`CityFacts` wraps `WorldFacts` for one city: its attractions, restaurants and hotels with the
group's scores (`GroupPrefs`; a place with several names is listed once, under the name that
scores best, since the official scorer matches must_visit items in the written name), the
opening spans of a place on a date (today's windows plus yesterday's windows that run past
midnight, as the strict check reads them) and the quickest intracity hop between two places
(walking or taxi, whichever is faster; ties walk).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from solver.greedy_prefs import GroupPrefs
from verifier.strict.clock import DAY
from verifier.world_facts import PoiFact, PoiKind, WorldFacts

HOP_MODES = ("步行", "打车")
"""Intracity modes the planner uses, in tie order (intracity modes are not scored)."""


@dataclass(frozen=True)
class Style:
    """Knobs of one greedy variant (the thrifty ones serve tight budgets)."""

    cheap_legs: bool = False
    """Rank legs of equal transport score by fare before timing."""

    cheap_hotels: bool = False
    """Take the cheapest hotel whatever its category."""
    breakfast: bool = True
    """Plan an optional breakfast at a restaurant the group likes."""


@dataclass(frozen=True)
class Hop:
    """One intracity transfer: mode, door-to-door minutes, per-person cost in fen."""

    mode: str
    minutes: int
    cost_fen: int


def opening_spans(
    world: WorldFacts, city: str, name: str, date: dt.date
) -> tuple[tuple[int, int], ...] | None:
    """Opening spans of a place on a date in minutes of that date, yesterday's windows that run
    past midnight included, as the strict check reads them (None: open all day)."""
    today = world.opening_windows(city, name, date)
    if today is None:
        return None
    yesterday = world.opening_windows(city, name, date - dt.timedelta(days=1)) or ()
    shifted = [(w.open - DAY, w.close - DAY) for w in yesterday if w.close > DAY]
    return tuple(sorted([(w.open, w.close) for w in today] + shifted))


@dataclass
class CityFacts:
    """One city of the world as the planner sees it (memoised queries)."""

    world: WorldFacts
    city: str
    prefs: GroupPrefs
    _hops: dict[tuple[str, str], Hop | None] = field(default_factory=dict)
    _spans: dict[tuple[str, dt.date], tuple[tuple[int, int], ...] | None] = field(default_factory=dict)
    _prices: dict[tuple[str, dt.date], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        scored = (self._best_name(poi) for poi in self.world.pois(self.city, PoiKind.ATTRACTION))
        self.attractions: tuple[tuple[PoiFact, int, frozenset[tuple[int, int]]], ...] = tuple(
            entry for entry in scored if entry[1] + 2 * len(entry[2]) > 0
        )
        """Attractions that may score: (place under its best name, score apart from must_visit
        items, those items)."""
        restaurants = self.world.pois(self.city, PoiKind.RESTAURANT)
        self.restaurants: tuple[tuple[PoiFact, int], ...] = tuple(
            (poi, self.prefs.meal(self.city, poi.name, poi.category)) for poi in restaurants
        )
        self.hotels: tuple[PoiFact, ...] = tuple(self.world.pois(self.city, PoiKind.HOTEL))
        scores = sorted({score for _, score in self.restaurants}, reverse=True)
        self.restaurants_by_score: tuple[tuple[int, tuple[int, ...]], ...] = tuple(
            (score, tuple(i for i, (_, s) in enumerate(self.restaurants) if s == score)) for score in scores
        )
        self._near: dict[str | None, tuple[tuple[int, int], ...]] = {}

    def _best_name(self, poi: PoiFact) -> tuple[PoiFact, int, frozenset[tuple[int, int]]]:
        """The place under the name that scores most (its stored name on ties), with the scores."""
        best = (poi, *self.prefs.attraction(self.city, poi.name, poi.category))
        for alias in poi.aliases:
            named = self.world.poi(self.city, alias)
            if named is None:
                continue
            entry = (named, *self.prefs.attraction(self.city, alias, named.category))
            if entry[1] + 2 * len(entry[2]) > best[1] + 2 * len(best[2]):
                best = entry
        return best

    def restaurants_near(self, origin: str | None) -> tuple[tuple[int, int], ...]:
        """`(hop minutes, restaurant index)` of every reachable restaurant, nearest first."""
        if origin not in self._near:
            found: list[tuple[int, int]] = []
            for index, (poi, _) in enumerate(self.restaurants):
                hop = None if origin is None or origin == poi.name else self.hop(origin, poi.name)
                if origin is None or origin == poi.name:
                    found.append((0, index))
                elif hop is not None:
                    found.append((hop.minutes, index))
            self._near[origin] = tuple(sorted(found))
        return self._near[origin]

    def hop(self, origin: str, destination: str) -> Hop | None:
        """The quickest hop between two places of the city, or None when the world cannot route it."""
        key = (origin, destination)
        if key not in self._hops:
            best: Hop | None = None
            for mode in HOP_MODES:
                found = self.world.transfer(self.city, origin, destination, mode)
                if found is not None and (best is None or found.minutes < best.minutes):
                    best = Hop(mode, max(found.minutes, 1), found.cost_fen)
            self._hops[key] = best
        return self._hops[key]

    def spans(self, name: str, date: dt.date) -> tuple[tuple[int, int], ...] | None:
        """Opening spans of a place on a date in minutes of that date (None: open all day)."""
        key = (name, date)
        if key not in self._spans:
            self._spans[key] = opening_spans(self.world, self.city, name, date)
        return self._spans[key]

    def price(self, name: str, date: dt.date) -> int:
        """Per-person price in fen of a place of the city on a date (a hotel: the night starting
        then), holiday prices included, as the strict cost check reads it."""
        key = (name, date)
        if key not in self._prices:
            self._prices[key] = self.world.price_fen_on(self.city, name, date) or 0
        return self._prices[key]

    def earliest_start(
        self, name: str, date: dt.date, arrival: int, *, minutes: int, low: int, high: int
    ) -> int | None:
        """The earliest start ≥ max(arrival, low) of a `minutes`-long visit ending by `high` that
        fits inside one opening span of the place, or None."""
        first = max(arrival, low)
        spans = self.spans(name, date)
        if spans is None:
            return first if first + minutes <= high else None
        for opens, closes in spans:
            start = max(first, opens)
            if start + minutes <= min(closes, high):
                return start
        return None

    def hotel(self, style: Style) -> PoiFact | None:
        """The hotel for the group: best category score (unless `style.cheap_hotels`), then
        cheapest on an ordinary day, then world order."""

        def key(pair: tuple[int, PoiFact]) -> tuple[int, int, int]:
            score = 0 if style.cheap_hotels else -self.prefs.hotel(pair[1].category)
            return score, pair[1].price_fen, pair[0]

        ranked = sorted(enumerate(self.hotels), key=key)
        return ranked[0][1] if ranked else None
