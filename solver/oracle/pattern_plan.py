"""A pattern laid onto a primal model's variables: as values the plan writer writes as a plan
(`pattern_assignment`).

See docs/oracle.md#plans-from-the-columns.

The integer master's pattern names, per block, each team and its route: attractions, meals at
restaurant *classes*, service starts, and the gates it leaves from and arrives at. This module
answers the questions `emit.PlanWriter` asks of a solved model — which blocks exist, which legs
and hotels are taken and when, who is in which team, each team's route and times — from the
pattern instead of from CP-SAT. The pattern's times are a class's (a class's travel is its
closest member's, its service the shortest), so each route is re-timed earliest first on the
model's own places (`_schedule`): at a meal the member of the class that finishes first (or
the cheapest, for the teams of `pattern_assignment`'s `thrifty` users, or the nearest, for its
`tired` users), and attractions dropped where the real times no longer allow them. Nothing is
checked here: the written plan goes through strict and the official GU like every other
candidate, so a pattern that does not fit the real places is simply rejected.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Literal

from ortools.sat.python import cp_model

from solver.oracle.blocks import GateKey, TripFacts
from solver.oracle.catalog import CityCatalog, Place, classes
from solver.oracle.improve import Assignment
from solver.oracle.integer_master import Pattern
from solver.oracle.model import Block, TripModel, required_meals
from solver.oracle.pricing import Column
from verifier.strict.clock import DAY, NIGHT_END
from verifier.strict.costs import lowest_cost_fen
from verifier.strict.meals import MEALS


def class_members(pattern: Pattern, facts: TripFacts, cities: dict[str, CityCatalog]) -> set[str]:
    """Every member of the restaurant and hotel classes the pattern uses (the primal model's
    shortlists must hold them for `pattern_assignment` to choose among)."""
    names: set[str] = set()
    for column in pattern.columns:
        restaurants = _restaurant_classes(cities[column.block[1]])
        names |= {m for name, _, meal in column.visits if meal is not None for m in restaurants.get(name, ())}
        for gate in (column.origin, column.destination):
            if gate is not None and gate[0] == "hotel":
                names |= set(facts.hotel(gate).members)
    return names


def pattern_attractions(pattern: Pattern) -> frozenset[str]:
    """The names of the attractions the pattern's routes visit."""
    return frozenset(name for column in pattern.columns for name, _, meal in column.visits if meal is None)


def pattern_teams(pattern: Pattern) -> int:
    """The teams of the pattern's busiest block (a model to lay it on needs as many)."""
    return max(Counter(column.block for column in pattern.columns).values(), default=1)


def pattern_days(pattern: Pattern, order: tuple[str, ...], days: int) -> tuple[int, ...] | None:
    """The day of each transition of `order` (home → c1 → … → home) the pattern's columns
    arrive by leg, or None when they do not say (a transition no column uses)."""
    arrivals = {
        (gate[1], gate[2], gate[3])
        for column in pattern.columns
        if (gate := column.origin) is not None and gate[0] == "leg"
    }
    found: list[int] = [1]
    for i in range(1, len(order)):
        day = next((d for (a, b, d) in arrivals if a == order[i - 1] and b == order[i]), None)
        if day is None:
            return None
        found.append(int(day))
    return (*found, days)


def _restaurant_classes(catalog: CityCatalog) -> dict[str, tuple[str, ...]]:
    """A city's restaurant classes: name (first member) → members."""
    return {place.name: place.members for place in classes(catalog, catalog.restaurants)}


MealChoice = Literal["first", "cheap", "near"]
"""Which member of a restaurant class a team eats at (`_best`): the one whose visit ends first,
the one of least cost, or the one least travel away from where the team comes from and goes to
next."""


def pattern_assignment(
    trip: TripModel,
    facts: TripFacts,
    pattern: Pattern,
    *,
    thrifty: frozenset[int] = frozenset(),
    tired: frozenset[int] = frozenset(),
) -> Assignment:
    """The values of `trip`'s variables that the plan writer reads, from `pattern` (every other
    variable 0); `trip` is a model of the pattern's city order with enough teams. At a meal the
    member of the class that finishes first; the one of least cost for a team holding a user of
    `thrifty`, else the one least travel away for a team holding a user of `tired` (user
    indices; `_best`)."""
    values: dict[int, int] = {}
    blocks = list(_blocks(trip, pattern))
    layout = _Layout(
        trip, facts, thrifty, tired, {}, _latest_departures(trip, facts, blocks, cheap=bool(thrifty))
    )
    for i, (block, columns) in enumerate(blocks):
        after = next(
            ((b, c) for b, c in blocks[i + 1 :] if (b.day, b.city) == (block.day, block.city + 1)), None
        )
        if after is not None:
            layout.settle(block, columns, *after)
        layout.lay(block, columns, values)
    solution = [0] * len(trip.model.proto.variables)
    for index, value in values.items():
        solution[index] = value
    return Assignment(solution)


@dataclass
class _Layout:
    """What laying a pattern's blocks one after the other shares: the model and facts, the users
    whose teams eat at the cheapest or nearest members, the departures of the legs laid so far
    (`departs`, set by `_depart`) and the latest departure each leg may take (`latest`)."""

    trip: TripModel
    facts: TripFacts
    thrifty: frozenset[int]
    tired: frozenset[int]
    departs: dict[tuple[int, int], int]
    latest: dict[tuple[int, int], int]
    restaurants: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    """Per city the restaurant classes (`_restaurant_classes`), computed once for every team
    `settle` lays again."""

    def lay(self, block: Block, columns: list[Column], values: dict[int, int]) -> int:
        """Write `block`'s teams into `values` (then its leg's departure, `_depart`); the stops
        they keep, each counted once per member."""
        values[self.trip.skeleton.block[(block.day, block.city)].index] = 1
        kept = 0
        for k, column in enumerate(columns):
            choice: MealChoice = "first"
            if not self.thrifty.isdisjoint(column.team):
                choice = "cheap"
            elif not self.tired.isdisjoint(column.team):
                choice = "near"
            kept += self.team(block, k, column, values, choice) * len(column.team)
        _depart(self.trip, block, len(columns), values, self.departs)
        return kept

    def settle(self, block: Block, columns: list[Column], arriving: Block, later: list[Column]) -> None:
        """Before laying `block`, whose leg (a self-drive: a range of departures) `arriving`
        then arrives by on the same day: the latest departure (every `SETTLE_STEP` minutes of
        the range) that keeps the most stops over both blocks, each counted once per member.
        The master credits the leaving block up to the range's latest departure and the
        arriving one from its earliest, so written together one side must give way: on
        task_000316 six teams left 兰州 at 13:51 after their last visits and lost most of their
        afternoon in 甘南, 拉卜楞寺 with it."""
        key = (block.city, block.day)
        options = [leg for leg, _, _ in self.trip.skeleton.legs.get(key, [])]
        gate = next(
            (c.destination for c in columns if c.destination is not None and c.destination[0] == "leg"), None
        )
        if gate is None:
            return
        leg = self.facts.leg(gate)
        if leg.depart == leg.latest or leg not in options:
            return
        last = min(leg.latest, self.latest.get(key, leg.latest))
        best: tuple[int, int] | None = None
        for minute in range(last, leg.depart - 1, -SETTLE_STEP):
            trial = replace(self, departs=dict(self.departs), latest={**self.latest, key: minute})
            values: dict[int, int] = {}
            kept = trial.lay(block, columns, values) + trial.lay(arriving, later, values)
            if best is None or kept > best[0]:
                best = (kept, minute)
        if best is not None:
            self.latest[key] = best[1]

    def team(self, block: Block, k: int, column: Column, values: dict[int, int], choice: MealChoice) -> int:
        """Write team k of `block` into `values`: members, gates (`gate`), route and times; the
        stops it keeps."""
        values[block.teams.active[k].index] = 1
        for u in column.team:
            values[block.teams.member[k][u].index] = 1
        catalog = _catalog(self.trip, block)
        if catalog.key not in self.restaurants:
            self.restaurants[catalog.key] = _restaurant_classes(catalog)
        restaurants = self.restaurants[catalog.key]
        origin = self.gate(block, column.origin, values, arriving=True)
        destination = self.gate(block, column.destination, values, arriving=False)
        route = block.routes[k]
        split = len(column.team) < self.trip.users
        spec = self.facts.blocks[column.block]
        kept = {
            meal
            for gate in (*spec.origins, *spec.destinations)
            if gate.key in (column.origin, column.destination)
            for meal in gate.keeps
        }
        stops = _due_meals(block, column, restaurants, kept)
        leave, sequence, back = _schedule(
            catalog, block, stops, (origin, destination), split=split, optional=frozenset(kept), choice=choice
        )
        path = [0, *(i + 1 for i, _ in sequence), 0]
        for tail, head in itertools.pairwise(path):
            arc = route.arcs.get((tail, head))
            if arc is not None:
                values[arc.index] = 1
        for i, start in sequence:
            values[route.visit[i].index] = 1
            values[route.start[i].index] = start
        if not sequence:
            values[route.empty.index] = 1
        values[block.leave[k].index] = leave
        values[block.back[k].index] = back
        return len(sequence)

    def gate(
        self, block: Block, gate: GateKey | None, values: dict[int, int], *, arriving: bool
    ) -> tuple[tuple[str, ...], int | None] | None:
        """Set the model's literals of a column's gate (the hotel and the block's end, or the leg,
        its day and departure); its places and the time it sets, None when the model lacks it. A
        hotel is its class's first member the model holds — once any user is `thrifty`, the one
        of least cost: the master counts a night at its class's least cost, and the night's hotel
        is the whole group's, so it is the cheapest for every team once any user is charged for
        the budget. An arriving leg departs when its leaving block's teams let it (`departs`, set
        by `_depart`), else at its earliest; a leaving leg sets its latest minute (no later than
        the arriving teams allow: `latest`, `_latest_departures`) less check-in as the team's
        deadline, and `_depart` fixes the departure once the block's teams are timed."""
        if gate is None:
            return None
        ends = block.origins if arriving else block.destinations
        literals = block.origin_literals if arriving else block.destination_literals
        if gate[0] == "hotel":
            night = block.day - 1 if arriving else block.day
            hotel = _hotel(self.trip, self.facts, (night, block.city), gate, cheap=bool(self.thrifty))
            if hotel is None:
                return None
            place, literal = hotel
            values[literal.index] = 1
            return _end(ends, literals, place.name, values), None
        option = self.facts.leg(gate)
        transition = block.city - 1 if arriving else block.city
        for leg, literal, depart in self.trip.skeleton.legs.get((transition, block.day), []):
            if leg == option:
                values[literal.index] = 1
                values[self.trip.skeleton.on_day[(transition, block.day)].index] = 1
                hub = leg.option.to_hub if arriving else leg.option.from_hub
                if arriving:
                    minute = self.departs.get((transition, block.day), leg.depart)
                    values[depart.index] = minute
                    time = minute + leg.duration + leg.exit
                else:
                    time = (
                        min(leg.latest, self.latest.get((transition, block.day), leg.latest)) - leg.check_in
                    )
                return _end(ends, literals, hub, values), time
        return None


SETTLE_STEP = 30
"""Minutes between the departures of a self-drive range `_Layout.settle` tries."""


def _due_meals(
    block: Block, column: Column, restaurants: dict[str, tuple[str, ...]], kept: set[int]
) -> list[list[int]]:
    """The column's stops as the model's options (`_nodes`), with every meal strict requires
    that its gates do not keep (`kept`) and its route lacks added at the block's restaurants,
    before the first visit the pattern starts once the meal's window opens. A loose column (a
    transition day's) may leave a due meal out — the master forces no meal there, since the
    day's other block may hold it —, so the written plan would miss it: task_003455's pattern
    of 109 sent a user into 丽江 at 06:01 after a dawn drive with no lunch all day, and strict
    rejected every plan of it."""
    timed = [
        (start, options)
        for name, start, meal in column.visits
        if (options := _nodes(block, restaurants.get(name, (name,)), meal))
    ]
    for meal in required_meals():
        if meal in kept or any(block.nodes[options[0]].meal == meal for _, options in timed):
            continue
        options = [i for i, node in enumerate(block.nodes) if node.meal == meal]
        if options:
            opens = MEALS[meal][1]
            at = next((p for p, (start, _) in enumerate(timed) if start >= opens), len(timed))
            timed.insert(at, (opens, options))
    return [options for _, options in timed]


def _blocks(trip: TripModel, pattern: Pattern) -> Iterator[tuple[Block, list[Column]]]:
    """Each block of `trip` the pattern uses with its columns, teams ranked by their least
    member (the model's canonical numbering); day by day in the order of the trip's cities, so
    a leg's leaving block comes before its arriving one (`_depart`). Blocks the model lacks, or
    with more teams than it allows, are passed over."""
    stage = {key: index for index, key in enumerate(trip.frame.stops[1:-1], start=1)}
    by_block: dict[tuple[int, int], list[Column]] = {}
    for column in pattern.columns:
        by_block.setdefault((column.block[0], stage[column.block[1]]), []).append(column)
    for key, columns in sorted(by_block.items()):
        block = trip.blocks.get(key)
        if block is not None and len(columns) <= len(block.routes):
            yield block, sorted(columns, key=lambda c: c.team[0])


def _latest_departures(
    trip: TripModel, facts: TripFacts, blocks: list[tuple[Block, list[Column]]], *, cheap: bool
) -> dict[tuple[int, int], int]:
    """Per (transition, day) the latest departure that still lets every team of the pattern's
    `blocks` (`_blocks`) arriving by it reach the hotel it sleeps in by 23:59 — straight from
    the hub, to the member `_hotel` writes (`cheap` as there). The master credits each side of a
    leg alone (the arriving block from the earliest departure, the leaving one up to the
    latest), so a leaving team writes its route to this deadline too: a self-drive left at 18:39
    for five hours on the road, and the arriving team's transfer to its hotel ran past midnight
    (task_003408). Blocks `_blocks` passes over are written nowhere and set no deadline."""
    found: dict[tuple[int, int], int] = {}
    for block, columns in blocks:
        for column in columns:
            origin, destination = column.origin, column.destination
            if origin is None or origin[0] != "leg" or destination is None or destination[0] != "hotel":
                continue
            hotel = _hotel(trip, facts, (block.day, block.city), destination, cheap=cheap)
            if hotel is None:
                continue
            leg = facts.leg(origin)
            travel = _travel(_catalog(trip, block), (leg.option.to_hub,), (hotel[0].name,))
            key = (block.city - 1, block.day)
            found[key] = min(found.get(key, DAY), DAY - 1 - travel - leg.exit - leg.duration)
    return found


def _catalog(trip: TripModel, block: Block) -> CityCatalog:
    """The city catalog of `block`."""
    return trip.place_sets[trip.frame.stops[block.city]].city


def _depart(
    trip: TripModel, block: Block, teams: int, values: dict[int, int], departs: dict[tuple[int, int], int]
) -> None:
    """The departure of the leg leaving `block` once its `teams` are timed: the earliest the
    leg allows that leaves every team its check-in minutes after reaching the hub, so the
    arriving block (timed after, from `departs`) starts when the written leg arrives. A team
    with no visits is moved to reach the hub just in time. A departure fixed by a timetable
    stays; a self-drive range, whose arriving block the master credits from its earliest
    departure, departs as early as its teams allow (never past its latest minute)."""
    for leg, literal, depart in trip.skeleton.legs.get((block.city, block.day), []):
        if values.get(literal.index) != 1:
            continue
        ready = max(values.get(block.back[k].index, 0) for k in range(teams))
        minute = min(leg.latest, max(leg.depart, ready + leg.check_in))
        for k in range(teams):
            if values.get(block.routes[k].empty.index) == 1:
                shift = minute - leg.check_in - values.get(block.back[k].index, 0)
                values[block.leave[k].index] = values.get(block.leave[k].index, 0) + shift
                values[block.back[k].index] = minute - leg.check_in
        values[depart.index] = minute
        departs[(block.city, block.day)] = minute
        return


def _hotel(
    trip: TripModel, facts: TripFacts, night: tuple[int, int], gate: GateKey, *, cheap: bool
) -> tuple[Place, cp_model.IntVar] | None:
    """The member of a hotel gate's class the night (day, stage) is written at, with its
    literal: the first the model holds, or with `cheap` the one of least cost; None when the
    model holds none."""
    members = set(facts.hotel(gate).members)
    held = [(p, lit) for p, lit in trip.skeleton.hotels.get(night, []) if p.name in members]
    if not held:
        return None
    return min(held, key=lambda h: lowest_cost_fen(h[0].price_fen)) if cheap else held[0]


def _end(
    ends: tuple[tuple[str, ...], ...], literals: list[cp_model.IntVar], name: str, values: dict[int, int]
) -> tuple[str, ...]:
    """Set the literal of the block end holding `name`; its places."""
    for members, literal in zip(ends, literals, strict=True):
        if name in members:
            values[literal.index] = 1
            return members
    return (name,)


def _nodes(block: Block, members: tuple[str, ...], meal: int | None) -> list[int]:
    """The model's nodes that can stand for a pattern visit: the attraction itself (`members`
    its name), or at a meal every member of the class (`members`) the model holds."""
    return [i for i, n in enumerate(block.nodes) if n.meal == meal and n.place.name in members]


UNDUE = frozenset(range(len(MEALS))) - frozenset(required_meals())
"""Meals strict never requires (breakfast): a late team may drop them."""

Gate = tuple[tuple[str, ...], int | None] | None
"""A team's end as `_Layout.gate` finds it: its places and the time it sets."""


def _schedule(
    catalog: CityCatalog,
    block: Block,
    stops: list[list[int]],
    gates: tuple[Gate, Gate],
    *,
    split: bool,
    optional: frozenset[int],
    choice: MealChoice,
) -> tuple[int, list[tuple[int, int]], int]:
    """The team's times on the model's own places (the pattern's times are a class's: its
    members may be farther or serve longer): `_timed`, dropping the last attraction while the
    team would reach its destination too late (its time, else 23:59), then the last meal no
    rule makes due — one strict never requires (breakfast) or one of the `optional` ones (its
    gates keep it from being due). A team with no visits waits for the morning (06:00, or the
    latest it may leave) before heading to a hotel, and leaves at once for a leg (`_depart`
    then moves it to reach the hub just in time)."""
    origin, destination = gates
    limit = DAY - 1 if destination is None or destination[1] is None else destination[1]
    undue = optional | UNDUE
    while True:
        leave, sequence = _timed(catalog, block, stops, gates, split=split, choice=choice, undue=undue)
        if not sequence:
            direct = (
                0 if origin is None or destination is None else _travel(catalog, origin[0], destination[0])
            )
            if destination is None or destination[1] is None:
                leave = max(leave, min(NIGHT_END, limit - direct))
            return leave, [], leave + direct
        back = _back(catalog, block, sequence, destination)
        droppable = [p for p, options in enumerate(stops) if block.nodes[options[0]].meal is None]
        droppable = droppable or [
            p for p, options in enumerate(stops) if block.nodes[options[0]].meal in undue
        ]
        if back <= limit or not droppable:
            return leave, sequence, back
        stops = [options for p, options in enumerate(stops) if p != droppable[-1]]


def _timed(
    catalog: CityCatalog,
    block: Block,
    stops: list[list[int]],
    gates: tuple[Gate, Gate],
    *,
    split: bool,
    choice: MealChoice,
    undue: frozenset[int],
) -> tuple[int, list[tuple[int, int]]]:
    """Earliest-first times: when the team leaves its origin (a leg's hub once out of it, a
    hotel at any time — transfers may run before 06:00 —, and not before 06:00 when the group
    splits, since its waits are written as rests) and each visit with its start — at a meal
    the member `_best` picks; an attraction, or a meal of `undue` (no rule makes it due), is
    dropped when its windows no longer take it, an attraction also when it would make the next
    meal miss its window (a due meal is kept whatever happens: strict judges the plan)."""
    origin = gates[0]
    start_time = 0 if origin is None or origin[1] is None else origin[1]
    if split:
        start_time = max(start_time, NIGHT_END)
    here, ready = None if origin is None else origin[0], start_time
    leave: int | None = None
    sequence: list[tuple[int, int]] = []
    for position, options in enumerate(stops):
        best = _best(
            catalog, block, options, here, ready, choice=choice, then=_next(block, stops, position, gates)
        )
        if best is None:
            if block.nodes[options[0]].meal is None or block.nodes[options[0]].meal in undue:
                continue
            best = (options[0], ready + _travel(catalog, here, block.nodes[options[0]].place.members))
        i, start = best
        node = block.nodes[i]
        after = start + block.stops[i].service
        rest = stops[position + 1 :]
        if node.meal is None and not _meal_reachable(catalog, block, rest, node.place.members, after):
            continue
        if leave is None:
            leave = start - _travel(catalog, here, node.place.members)
        sequence.append((i, start))
        ready, here = after, node.place.members
    return (start_time if leave is None else leave), sequence


def _back(catalog: CityCatalog, block: Block, sequence: list[tuple[int, int]], destination: Gate) -> int:
    """When the team reaches its destination after its last visit."""
    last, start = sequence[-1]
    end = start + block.stops[last].service
    return end + (
        0 if destination is None else _travel(catalog, block.nodes[last].place.members, destination[0])
    )


def _next(
    block: Block, stops: list[list[int]], position: int, gates: tuple[Gate, Gate]
) -> tuple[str, ...] | None:
    """Where the team goes after the stop at `position`: the next attraction's place, the
    destination's places after the last stop, None before a meal (a class, not yet a place)."""
    if position + 1 < len(stops):
        node = block.nodes[stops[position + 1][0]]
        return None if node.meal is not None else node.place.members
    return None if gates[1] is None else gates[1][0]


def _best(
    catalog: CityCatalog,
    block: Block,
    options: list[int],
    here: tuple[str, ...] | None,
    ready: int,
    *,
    choice: MealChoice = "first",
    then: tuple[str, ...] | None = None,
) -> tuple[int, int] | None:
    """Of `options`, the node whose visit (from `here`, ready at `ready`) ends first — with
    "cheap", the one of least cost strict accepts; with "near", the one of least travel from
    `here` and on to `then`; ending first among equals — and its start; among visits that end
    at the same minute (a meal's window opening after the team is ready) the one of least
    travel from `here`, since the transfer counts against the intensity caps and the wait does
    not. The master counts a meal at its class's least cost and a class's travel as its closest
    member's, so the member that ends first may cost a user the budget, or the intensity cap,
    the pattern kept."""
    found: list[tuple[int, int, int, int, int]] = []
    for i in options:
        places = block.nodes[i].place.members
        travel = _travel(catalog, here, places)
        start = block.stops[i].first_start(ready + travel)
        if start is None:
            continue
        key = 0
        if choice == "cheap":
            key = lowest_cost_fen(block.nodes[i].place.price_fen)
        elif choice == "near":
            key = travel + (0 if then is None else _travel(catalog, places, then))
        found.append((key, start + block.stops[i].service, travel, i, start))
    if not found:
        return None
    _, _, _, i, start = min(found)
    return i, start


def _meal_reachable(
    catalog: CityCatalog, block: Block, rest: list[list[int]], here: tuple[str, ...], ready: int
) -> bool:
    """Whether the next meal of `rest` (if any) can still start in its window."""
    for options in rest:
        if block.nodes[options[0]].meal is not None:
            return _best(catalog, block, options, here, ready) is not None
    return True


def _travel(catalog: CityCatalog, origin: tuple[str, ...] | None, destination: tuple[str, ...]) -> int:
    return 0 if origin is None else catalog.travel(origin, destination) or 0
