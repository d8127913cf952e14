"""One city as the oracle sees it: candidate places, their per-user scores, travel and hours.

A `Place` is a node the model may visit: a concrete attraction, restaurant or hotel, or — in
the relaxed catalog that proves the bound — a *class* of restaurants or hotels that score the
same for every user, standing for all of them at once (its travel to any other node is the
least over its members, its service the shortest, its price the lowest, its opening the union),
so every visit of a member maps to a visit of the class that is at least as easy. Pruning is
exact (docs/oracle.md): an attraction no user could score positively is left out, because
dropping such a visit from a plan — the traveller rests there instead — never lowers GU (nor
the ceiling, where a waivable user's positive field parts count: `Place.promising`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from solver.greedy_city import Hop, opening_spans
from solver.greedy_prefs import Parts
from solver.oracle.scores import ScoredUser
from verifier.official.poi_db import PoiDb
from verifier.strict.clock import DAY, NIGHT_END
from verifier.strict.transfers import INTRACITY_MODES
from verifier.world_facts import PoiFact, PoiKind, WorldFacts

Interval = tuple[int, int]


@dataclass(frozen=True)
class Place:
    """A node of the model: one world place, or a class of interchangeable ones (`members`)."""

    kind: str
    members: tuple[str, ...]
    service: int
    price_fen: int
    scores: tuple[int, ...]
    """Per scored user: category score of a visit, score of a meal, or of a hotel night."""
    musts: tuple[frozenset[int], ...] = ()
    """Per scored user (attractions): positions of the must_visit items the name contains."""
    rejects: tuple[frozenset[int], ...] = ()
    identity: str = ""
    """The place this node visits (its stored name): one place written under several of its
    names is several nodes, visited at most once together."""
    fields: tuple[Parts, ...] = ()
    """Per scored user, `scores` split by official field for a `waivable` user, () for the
    others (and for every user when nobody is waivable)."""

    @property
    def name(self) -> str:
        return self.members[0]

    @property
    def promising(self) -> bool:
        """Some user may gain from a visit: a positive score, a must_visit item, or a positive
        field part of a waivable user (its negative parts may be waived)."""
        parts = (score for user in self.fields for _, score in user)
        return any(s > 0 for s in self.scores) or any(self.musts) or any(s > 0 for s in parts)

    def best_case(self, u: int) -> int:
        """The most a visit gives user u: the score, or for a waivable user the sum of its
        positive field parts (every negative one may be waived)."""
        parts = self.fields[u] if self.fields else ()
        return sum(max(score, 0) for _, score in parts) if parts else self.scores[u]

    @property
    def place(self) -> str:
        return self.identity or self.members[0]


@dataclass
class CityCatalog:
    """The oracle's catalog of one city: the world, the scored users and memoised queries."""

    world: WorldFacts
    key: str
    """The world's key of the city."""
    label: str
    """The city name the task (and so every preference table) uses: blocks are written with it."""
    users: tuple[ScoredUser, ...]
    db: PoiDb
    _hops: dict[tuple[str, str], Hop | None] = field(default_factory=dict)
    _spans: dict[tuple[str, dt.date], tuple[Interval, ...] | None] = field(default_factory=dict)
    _travel: dict[tuple[tuple[str, ...], tuple[str, ...]], int | None] = field(default_factory=dict)

    def alone(self, user: ScoredUser) -> CityCatalog:
        """The same city scored for one user (world queries shared)."""
        return replace(self, users=(user,))

    def category(self, poi: PoiFact) -> str:
        """The category the official resolver gives this name ('' when it resolves none)."""
        return self.db.category(poi.name, self.label) or ""

    @cached_property
    def attractions(self) -> tuple[Place, ...]:
        """Attractions some user may score positively (a category hit or a must_visit item),
        under each of their names that scores differently (official scoring reads the name a
        plan writes, and the world answers to every name of a place)."""
        out: list[Place] = []
        for poi in self.world.pois(self.key, PoiKind.ATTRACTION):
            variants: dict[tuple[object, ...], Place] = {}
            for name in (poi.name, *poi.aliases):
                place = self._attraction(poi, name)
                key = (place.scores, place.musts, place.rejects, place.fields)
                if key not in variants and place.promising:
                    variants[key] = place
            out += variants.values()
        return tuple(out)

    def _attraction(self, poi: PoiFact, name: str) -> Place:
        category = self.db.category(name, self.label) or ""
        rows = [user.prefs.attraction(self.label, name, category) for user in self.users]
        return Place(
            PoiKind.ATTRACTION,
            (name,),
            _service(poi),
            poi.price_fen,
            tuple(score for score, _, _ in rows),
            tuple(musts for _, musts, _ in rows),
            tuple(rejects for _, _, rejects in rows),
            poi.name,
            self._fields(lambda user: user.prefs.attraction_fields(self.label, name, category)),
        )

    def _fields(self, split: Callable[[ScoredUser], Parts]) -> tuple[Parts, ...]:
        """Per user, `split(user)` for a waivable user and () for the others; () when nobody
        is waivable."""
        if not any(user.waivable for user in self.users):
            return ()
        return tuple(split(user) if user.waivable else () for user in self.users)

    @cached_property
    def restaurants(self) -> tuple[Place, ...]:
        """Every restaurant, concrete, with each user's meal score."""
        return tuple(self._restaurant(poi) for poi in self.world.pois(self.key, PoiKind.RESTAURANT))

    def _restaurant(self, poi: PoiFact) -> Place:
        category = self.category(poi)
        return Place(
            PoiKind.RESTAURANT,
            (poi.name,),
            _service(poi),
            poi.price_fen,
            tuple(user.prefs.meal(self.label, poi.name, category) for user in self.users),
            fields=self._fields(lambda user: user.prefs.meal_fields(self.label, poi.name, category)),
        )

    @cached_property
    def hotels(self) -> tuple[Place, ...]:
        """Every hotel, concrete, with each user's score of a night there (0 for every user when
        the official resolver finds no category: official GU skips such a hotel)."""
        return tuple(self._hotel(poi) for poi in self.world.pois(self.key, PoiKind.HOTEL))

    def _hotel(self, poi: PoiFact) -> Place:
        category = self.category(poi)
        return Place(
            PoiKind.HOTEL,
            (poi.name,),
            0,
            poi.price_fen,
            tuple(user.prefs.hotel(category) for user in self.users),
            fields=self._fields(lambda user: user.prefs.hotel_fields(category)),
        )

    def hop(self, origin: str, destination: str) -> Hop | None:
        """The quickest transfer between two named places of the city (at least 1 minute between
        different places: every plan item lasts a positive time); None when unroutable."""
        key = (origin, destination)
        if key not in self._hops:
            best: Hop | None = None
            for mode in INTRACITY_MODES:
                found = self.world.transfer(self.key, origin, destination, mode)
                if found is None:
                    continue
                hop = Hop(mode, max(found.minutes, 1), found.cost_fen)
                if best is None or (hop.minutes, hop.cost_fen) < (best.minutes, best.cost_fen):
                    best = hop
            self._hops[key] = best
        return self._hops[key]

    def travel(self, a: Sequence[str], b: Sequence[str]) -> int | None:
        """Least transfer minutes from any member of `a` to any member of `b` (0 when they share
        a place), None when no pair is routable; computed once a pair of member lists
        (`travels_known`)."""
        key = (tuple(a), tuple(b))
        if key not in self._travel:
            if set(a) & set(b):
                self._travel[key] = 0
            else:
                found = [hop.minutes for x in a for y in b if (hop := self.hop(x, y)) is not None]
                self._travel[key] = min(found) if found else None
        return self._travel[key]

    def travels_known(self) -> int:
        """How many pairs of member lists `travel` has computed so far (a block's graph is
        charged for the new ones, `colgen.ColumnGeneration.pricer`)."""
        return len(self._travel)

    def price_on(self, place: Place, date: dt.date) -> int:
        """A node's per-person price on a date (a hotel: the night starting then; holiday prices
        included): its world price, the least over a class's members."""
        dated = (self.world.price_fen_on(self.key, name, date) for name in place.members)
        return min((fen for fen in dated if fen is not None), default=place.price_fen)

    def spans(self, name: str, date: dt.date) -> tuple[Interval, ...] | None:
        """Opening spans of a place on a date in minutes of that date, yesterday's windows that
        run past midnight included (None: open all day)."""
        key = (name, date)
        if key not in self._spans:
            self._spans[key] = opening_spans(self.world, self.key, name, date)
        return self._spans[key]

    def starts(
        self, place: Place, date: dt.date, low: int = NIGHT_END, high: int = DAY
    ) -> tuple[Interval, ...]:
        """Service starts of a visit that lies inside [low, high] and inside one opening span of a
        member, on `date` (the union over members, each with its own service time)."""
        found: list[Interval] = []
        for name in place.members:
            service = self._service_of(name, place)
            spans = self.spans(name, date)
            for opens, closes in ((low, high),) if spans is None else spans:
                first, last = max(opens, low), min(closes, high) - service
                if first <= last:
                    found.append((first, last))
        return merge(found)

    def _service_of(self, name: str, place: Place) -> int:
        if len(place.members) == 1:
            return place.service
        poi = self.world.poi(self.key, name)
        return place.service if poi is None else _service(poi)


def _service(poi: PoiFact) -> int:
    """The shortest visit that counts (strict `visit_too_short`), at least a minute."""
    return max(poi.min_visit_minutes, 1)


def merge(intervals: Sequence[Interval]) -> tuple[Interval, ...]:
    """The union of closed integer intervals, sorted, touching ones joined."""
    out: list[Interval] = []
    for low, high in sorted(intervals):
        if out and low <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], high))
        else:
            out.append((low, high))
    return tuple(out)


def classes(city: CityCatalog, places: Sequence[Place]) -> tuple[Place, ...]:
    """Relaxed catalog: one class per per-user score vector and field split (`Place.fields`),
    standing for all its members (shortest service, lowest price); travel and opening come from
    the members (`CityCatalog.travel`, `CityCatalog.starts`)."""
    groups: dict[tuple[object, ...], list[Place]] = {}
    for place in places:
        groups.setdefault((place.scores, place.fields), []).append(place)
    return tuple(
        Place(
            members[0].kind,
            tuple(name for member in members for name in member.members),
            min(member.service for member in members),
            min(member.price_fen for member in members),
            members[0].scores,
            fields=members[0].fields,
        )
        for members in groups.values()
    )


def picks(
    city: CityCatalog,
    places: Sequence[Place],
    anchors: Sequence[Place],
    per_class: int,
    keep: frozenset[str] = frozenset(),
) -> tuple[Place, ...]:
    """A concrete shortlist: in each class (same per-user scores and field splits), the
    `per_class` members with the least mean travel to `anchors` (the city's candidate
    attractions), the cheapest, and every place named in `keep` (the warm start's)."""
    groups: dict[tuple[object, ...], list[Place]] = {}
    for place in places:
        groups.setdefault((place.scores, place.fields), []).append(place)
    kept: list[Place] = []
    for members in groups.values():
        ranked = sorted(members, key=lambda place: _mean_travel(city, place, anchors))
        chosen = ranked[:per_class]
        cheapest = min(members, key=lambda place: place.price_fen)
        kept += chosen if cheapest in chosen else [*chosen, cheapest]
    return tuple(place for place in places if place in kept or place.name in keep)


def _mean_travel(city: CityCatalog, place: Place, anchors: Sequence[Place]) -> float:
    if not anchors:
        return 0.0
    minutes = [city.travel(place.members, anchor.members) for anchor in anchors]
    known = [m for m in minutes if m is not None]
    return sum(known) / len(known) if known else float("inf")
