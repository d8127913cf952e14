"""The task cut into day blocks for the decomposed bound.

See docs/oracle.md#the-decomposed-bound-column-generation-over-day-blocks.

A *block* is one (day, city) of the trip: the part of that day the group spends in that city,
whatever the city order. A team's day in a block starts at a *gate* — last night's hotel, or
the hub of the leg that arrives that day — and ends at one — tonight's hotel, or the hub of the
leg that leaves. Everything GU scores is local to a block except the skeleton (city order,
transition days, legs, hotels), which the master chooses, and the rows that link blocks
(an attraction once per traveller, must_visit items, meals of a date, the budget).

Gates carry what a block needs of the skeleton: the places (for travel), the time the city
time starts or ends (`time`, arriving legs: arrival plus exit minutes at the earliest
departure; leaving legs: check-in minutes before the latest departure — the loosest the leg
allows) and the meals whose window the gate keeps from being due in the block (strict's meal
rule, `legs.Side`). Hotels and restaurants are the relaxed catalog's classes
(`catalog.classes`), so every concrete plan maps onto them.
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass

from solver.oracle.catalog import CityCatalog, Place, classes
from solver.oracle.legs import LegOption, Side, leg_options
from solver.oracle.model import Node, PlaceSet, block_stops, hop
from solver.oracle.routing import Stop
from verifier.strict.costs import lowest_cost_fen

GateKey = tuple[str | int, ...]
"""("hotel", night, city, class index) or ("leg", from city, to city, day, option index)."""


@dataclass(frozen=True)
class Gate:
    """Where a block's routes start (an origin) or end (a destination)."""

    key: GateKey
    members: tuple[str, ...]
    """The places (hotel class members, or the leg's hub) travel is measured from or to."""
    time: int | None
    """Origin: the earliest minute the city time starts; destination: the latest it ends
    (None for a hotel)."""
    keeps: frozenset[int]
    """Meals (indices into MEALS) this gate keeps from being due in the block."""


@dataclass(frozen=True)
class BlockSpec:
    """One (day, city) block: its date and its gates."""

    day: int
    city: str
    date: dt.date
    origins: tuple[Gate, ...]
    destinations: tuple[Gate, ...]

    @property
    def key(self) -> tuple[int, str]:
        return (self.day, self.city)


@dataclass(frozen=True)
class TripFacts:
    """What the master needs of the task: days, cities, orders, legs, hotel classes, blocks."""

    days: int
    start: dt.date
    home: str
    cities: tuple[str, ...]
    """World keys of the task's cities, in task order."""
    orders: tuple[tuple[str, ...], ...]
    """Every visiting order of `cities`."""
    legs: dict[tuple[str, str, int], tuple[LegOption, ...]]
    """(from, to, day) → the leg options of that transition that day."""
    hotels: dict[str, tuple[Place, ...]]
    """City → hotel classes."""
    blocks: dict[tuple[int, str], BlockSpec]

    def date(self, day: int) -> dt.date:
        return self.start + dt.timedelta(days=day - 1)

    def leg(self, gate: GateKey) -> LegOption:
        """The leg option a leg gate ("leg", from, to, day, option) names."""
        return self.legs[(str(gate[1]), str(gate[2]), int(gate[3]))][int(gate[4])]

    def hotel(self, gate: GateKey) -> Place:
        """The hotel class a hotel gate ("hotel", night, city, class) names."""
        return self.hotels[str(gate[2])][int(gate[3])]

    def hotel_price(self, city: CityCatalog, night: int, k: int) -> int:
        """The lowest declarable per-person price of hotel class k of `city` for night `night`."""
        return lowest_cost_fen(city.price_on(self.hotels[city.key][k], self.date(night)))


def trip_facts(days: int, start: dt.date, home: str, cities: dict[str, CityCatalog]) -> TripFacts:
    """The blocks, legs and hotel classes of a task (cities by world key, in task order)."""
    world = next(iter(cities.values())).world
    keys = tuple(cities)
    orders = tuple(dict.fromkeys(itertools.permutations(keys)))
    legs: dict[tuple[str, str, int], tuple[LegOption, ...]] = {}
    pairs = {(order[i], order[i + 1]) for order in orders for i in range(len(order) - 1)}
    pairs |= {(home, order[0]) for order in orders} | {(order[-1], home) for order in orders}
    for origin, destination in sorted(pairs):
        for day in range(1, days + 1):
            if (origin == home and day != 1) or (destination == home and day != days):
                continue
            date = start + dt.timedelta(days=day - 1)
            legs[(origin, destination, day)] = leg_options(
                world, origin, destination, date, first=origin == home, last=destination == home
            )
    hotels = {key: classes(city, city.hotels) for key, city in cities.items()}
    facts = TripFacts(days, start, home, keys, orders, legs, hotels, {})
    for day in range(1, days + 1):
        for key in keys:
            facts.blocks[(day, key)] = _block(facts, day, key)
    return facts


def _block(facts: TripFacts, day: int, city: str) -> BlockSpec:
    origins: list[Gate] = []
    destinations: list[Gate] = []
    if day > 1:
        origins += _hotel_gates(facts, day - 1, city)
    if day < facts.days:
        destinations += _hotel_gates(facts, day, city)
    for (origin, destination, leg_day), options in facts.legs.items():
        if leg_day != day:
            continue
        for k, leg in enumerate(options):
            key: GateKey = ("leg", origin, destination, day, k)
            if destination == city:
                keeps = frozenset(m for m, side in enumerate(leg.sides) if side != Side.AFTER)
                start = leg.depart + leg.duration + leg.exit
                origins.append(Gate(key, (leg.option.to_hub,), start, keeps))
            if origin == city:
                keeps = frozenset(m for m, side in enumerate(leg.sides) if side != Side.BEFORE)
                destinations.append(Gate(key, (leg.option.from_hub,), leg.latest - leg.check_in, keeps))
    return BlockSpec(day, city, facts.date(day), tuple(origins), tuple(destinations))


def _hotel_gates(facts: TripFacts, night: int, city: str) -> list[Gate]:
    return [
        Gate(("hotel", night, city, k), hotel.members, None, frozenset())
        for k, hotel in enumerate(facts.hotels[city])
    ]


@dataclass(frozen=True)
class BlockGraph:
    """What a route in one block may visit, for both pricers: the nodes (the relaxed catalog's
    attractions and restaurant classes at each meal, `model.block_stops`), their stops, and the
    travel minutes between nodes, from each origin gate to each node, from each node to each
    destination gate, and straight from origin to destination (None: no trip)."""

    nodes: tuple[Node, ...]
    stops: tuple[Stop, ...]
    travel: tuple[tuple[int | None, ...], ...]
    out_of: tuple[tuple[int | None, ...], ...]
    into: tuple[tuple[int | None, ...], ...]
    direct: tuple[tuple[int | None, ...], ...]

    @property
    def pairs(self) -> int:
        """How many travel times the graph holds (what building it costs)."""
        return sum(len(row) for table in (self.travel, self.out_of, self.into, self.direct) for row in table)


def block_nodes(spec: BlockSpec, city: CityCatalog) -> list[tuple[Node, Stop]]:
    """The nodes of `spec` in `city` and their stops: the relaxed catalog's attractions and
    restaurant classes at each meal (`model.block_stops`)."""
    return block_stops(PlaceSet(city, city.attractions, classes(city, city.restaurants), ()), spec.date)


def block_graph(spec: BlockSpec, city: CityCatalog) -> BlockGraph:
    """The graph of `spec` in `city` (see `BlockGraph`)."""
    pairs = block_nodes(spec, city)
    nodes = tuple(node for node, _ in pairs)
    return BlockGraph(
        nodes,
        tuple(stop for _, stop in pairs),
        tuple(tuple(hop(city, a, b) for b in nodes) for a in nodes),
        tuple(tuple(city.travel(g.members, n.place.members) for n in nodes) for g in spec.origins),
        tuple(tuple(city.travel(n.place.members, g.members) for n in nodes) for g in spec.destinations),
        tuple(tuple(city.travel(a.members, b.members) for b in spec.destinations) for a in spec.origins),
    )
