"""The oracle's CP-SAT model of a whole trip for one city order.

It puts together the skeleton (`skeleton.py`: transition days, legs, nights, hotels), one set
of teams per city block (`participants.py`) and one route per team (`routing.py`) whose stops
are the city's attractions and its restaurants at each meal, then the rules of strict that
routes do not already carry (`meals.py`: required lunch and dinner, one meal of a kind a day;
`places.py`: an attraction once per traveller) and the official group utility as objective
(`objective.py`). Times are integer minutes of each block's date.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from solver.oracle.catalog import CityCatalog, Place
from solver.oracle.legs import LegOption, Side
from solver.oracle.participants import Teams, add_teams
from solver.oracle.routing import End, Graph, Route, Stop, add_route
from solver.oracle.skeleton import Frame, Skeleton, build_skeleton
from solver.oracle.waivers import Waiver
from verifier.strict.clock import DAY, NIGHT_END
from verifier.strict.meals import MEALS, REQUIRED
from verifier.world_facts import PoiKind

LegVars = tuple[LegOption, cp_model.IntVar, cp_model.IntVar]


@dataclass(frozen=True)
class Node:
    """A route stop of a block: a place, and for a restaurant the meal it serves."""

    place: Place
    meal: int | None = None
    """Index into `verifier.strict.meals.MEALS`."""


@dataclass(frozen=True)
class PlaceSet:
    """The places a model may use in one city: attractions, restaurants, hotels (concrete, or
    classes for the relaxed model)."""

    city: CityCatalog
    attractions: tuple[Place, ...]
    restaurants: tuple[Place, ...]
    hotels: tuple[Place, ...]


@dataclass
class Block:
    """One (day, city) block: its nodes, teams, and one route per team."""

    day: int
    city: int
    nodes: tuple[Node, ...]
    origins: tuple[tuple[str, ...], ...]
    """Members of each origin alternative (hotel or hub names), in `Graph.origins` order."""
    destinations: tuple[tuple[str, ...], ...]
    teams: Teams
    routes: list[Route]
    leave: list[cp_model.IntVar]
    back: list[cp_model.IntVar]
    origin_literals: list[cp_model.IntVar]
    destination_literals: list[cp_model.IntVar]
    stops: tuple[Stop, ...] = ()
    """The routes' stops (service and feasible starts of each node)."""


@dataclass
class TripModel:
    """The model and the handles the objective, the hints and the plan writer need."""

    model: cp_model.CpModel
    frame: Frame
    skeleton: Skeleton
    place_sets: dict[str, PlaceSet]
    users: int
    children: bool
    blocks: dict[tuple[int, int], Block] = field(default_factory=dict)
    waivers: list[Waiver] = field(default_factory=list)
    """The waivable users' waiver variables (`waivers.py`), set with the objective."""


def build_model(
    frame: Frame,
    place_sets: dict[str, PlaceSet],
    *,
    users: int,
    children: bool,
    teams: int,
    relaxed: bool,
    fixed: tuple[int, ...] | None = None,
    bare: bool = False,
) -> TripModel:
    """The trip model of one city order (place sets by city key), without objective; `fixed`
    pins the transition days (`skeleton.build_skeleton`); `bare`: its routes without
    constraints (`routing.add_route`), a model to write given values from."""
    model = cp_model.CpModel()
    world = next(iter(place_sets.values())).city.world
    hotels = {key: c.hotels for key, c in place_sets.items()}
    skeleton = build_skeleton(model, world, frame, hotels, fixed)
    trip = TripModel(model, frame, skeleton, place_sets, users, children)
    for (day, city), exists in skeleton.block.items():
        trip.blocks[(day, city)] = _block(trip, day, city, exists, teams=teams, relaxed=relaxed, bare=bare)
    return trip


def _block(
    trip: TripModel, day: int, city: int, exists: cp_model.IntVar, *, teams: int, relaxed: bool, bare: bool
) -> Block:
    model, skeleton, frame = trip.model, trip.skeleton, trip.frame
    place_set = trip.place_sets[frame.stops[city]]
    date = frame.date(day)
    stops = block_stops(place_set, date)
    nodes = tuple(node for node, _ in stops)
    places = place_set.city
    origins, origin_literals = _ends(trip, day, city, arriving=True)
    destinations, destination_literals = _ends(trip, day, city, arriving=False)
    graph = Graph(
        tuple(stop for _, stop in stops),
        tuple(tuple(hop(places, a, b) for b in nodes) for a in nodes),
        tuple(
            End(lit, tuple(places.travel(members, node.place.members) for node in nodes))
            for members, lit in zip(origins, origin_literals, strict=True)
        ),
        tuple(
            End(lit, tuple(places.travel(node.place.members, members) for node in nodes))
            for members, lit in zip(destinations, destination_literals, strict=True)
        ),
        tuple(tuple(places.travel(a, b) for b in destinations) for a in origins),
    )
    name = f"d{day}c{city}"
    team_vars = add_teams(model, trip.users, exists, teams, relaxed=relaxed, name=name)
    block = Block(
        day,
        city,
        nodes,
        origins,
        destinations,
        team_vars,
        [],
        [],
        [],
        origin_literals,
        destination_literals,
        graph.stops,
    )
    for k in range(teams):
        leave = model.new_int_var(0, DAY - 1, f"{name}k{k}leave")
        back = model.new_int_var(0, DAY - 1, f"{name}k{k}back")
        block.routes.append(
            add_route(model, graph, leave, back, active=team_vars.active[k], name=f"{name}k{k}", bare=bare)
        )
        block.leave.append(leave)
        block.back.append(back)
        model.add(leave >= NIGHT_END).only_enforce_if(team_vars.split)
        _leg_times(model, skeleton.legs.get((city - 1, day), []), leave, back, arriving=True)
        _leg_times(model, skeleton.legs.get((city, day), []), leave, back, arriving=False)
    return block


def hop(places: CityCatalog, a: Node, b: Node) -> int | None:
    """Travel between two stops; none between two meals of one kind (one a block per team)."""
    if a.meal is not None and a.meal == b.meal:
        return None
    return places.travel(a.place.members, b.place.members)


def activity_node(
    nodes: Sequence[Node], name: str, kind: str, start: int, skip: Collection[int] = ()
) -> int | None:
    """The index of the node a plan activity stands on: an attraction by its name, a meal by
    the restaurant (a member of the node's place) and the meal window its start lies in; nodes
    in `skip` are passed over. None when no node fits."""
    for i, node in enumerate(nodes):
        if i in skip or name not in node.place.members or (node.meal is None) != (kind == "attraction"):
            continue
        if node.meal is None:
            return i
        _, low, high = MEALS[node.meal]
        if low <= start < high:
            return i
    return None


def block_stops(place_set: PlaceSet, date: dt.date) -> list[tuple[Node, Stop]]:
    """Attractions, then each restaurant at each meal, that can be visited that date. An
    optional meal (breakfast) only where some user may gain from it (`Place.promising`): any
    other optional meal only costs money and time (exact)."""
    due = set(required_meals())
    nodes = [Node(place) for place in place_set.attractions]
    nodes += [
        Node(place, meal)
        for meal in range(len(MEALS))
        for place in place_set.restaurants
        if meal in due or place.promising
    ]
    out: list[tuple[Node, Stop]] = []
    for node in nodes:
        if node.meal is None:
            starts = place_set.city.starts(node.place, date)
        else:
            _, low, high = MEALS[node.meal]
            starts = place_set.city.starts(node.place, date, low, high)
        if starts:
            out.append((node, Stop(node.place.service, starts)))
    return out


def _ends(
    trip: TripModel, day: int, city: int, *, arriving: bool
) -> tuple[tuple[tuple[str, ...], ...], list[cp_model.IntVar]]:
    """Alternatives for where the block starts (`arriving`) or ends: last or tonight's hotel, or
    the hub of the leg that arrives or leaves that day (one literal per hub)."""
    skeleton, model = trip.skeleton, trip.model
    night = day - 1 if arriving else day
    members: list[tuple[str, ...]] = []
    literals: list[cp_model.IntVar] = []
    for place, literal in skeleton.hotels.get((night, city), []):
        members.append(place.members)
        literals.append(literal)
    legs = skeleton.legs.get((city - 1, day) if arriving else (city, day), [])
    hubs: dict[str, list[cp_model.IntVar]] = {}
    for leg, literal, _ in legs:
        hubs.setdefault(leg.option.to_hub if arriving else leg.option.from_hub, []).append(literal)
    for hub, chosen in hubs.items():
        literal = model.new_bool_var(f"hub{day}c{city}{'in' if arriving else 'out'}{len(literals)}")
        model.add(literal == sum(chosen))
        members.append((hub,))
        literals.append(literal)
    return tuple(members), literals


def _leg_times(
    model: cp_model.CpModel,
    legs: list[LegVars],
    leave: cp_model.IntVar,
    back: cp_model.IntVar,
    *,
    arriving: bool,
) -> None:
    """City time starts `exit` minutes after the arriving leg and ends `check_in` minutes before
    the departing one."""
    for leg, literal, depart in legs:
        if arriving:
            model.add(leave >= depart + leg.duration + leg.exit).only_enforce_if(literal)
        else:
            model.add(back <= depart - leg.check_in).only_enforce_if(literal)


def meal_nodes(block: Block, meal: int) -> list[int]:
    """Indices of the block's nodes that serve `meal`."""
    return [i for i, node in enumerate(block.nodes) if node.meal == meal]


def attraction_nodes(block: Block) -> list[int]:
    return [i for i, node in enumerate(block.nodes) if node.place.kind == PoiKind.ATTRACTION]


def required_meals() -> list[int]:
    """Indices into MEALS of the meals strict requires."""
    return [k for k, (name, _, _) in enumerate(MEALS) if name in REQUIRED]


def meal_side_terms(trip: TripModel, day: int, city: int, meal: int) -> list[cp_model.IntVar]:
    """Chosen-leg literals that keep `meal` from being due in block (day, city): the arriving leg
    not before it, the departing leg not after it, any other leg of the day overlapping it."""
    skeleton, terms = trip.skeleton, []
    for i in range(trip.frame.cities + 1):
        for leg, literal, _ in skeleton.legs.get((i, day), []):
            side = leg.sides[meal]
            if (
                (i == city - 1 and side != Side.AFTER)
                or (i == city and side != Side.BEFORE)
                or (i not in (city - 1, city) and side == Side.BLOCKED)
            ):
                terms.append(literal)
    return terms
