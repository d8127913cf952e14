"""A concrete plan read as columns: the first columns of the column generation.

See docs/oracle.md#the-decomposed-bound-column-generation-over-day-blocks.

A whole-group plan (the greedy warm start of one city order) is one column per block it spends
in a city: the block's gates are its last night's hotel class or the leg it arrived by, and
tonight's hotel class or the leg it leaves by; its route is the plan's attractions and meals
mapped onto the block's nodes. Seeded into the first master, such a set makes the master
feasible without its penalty variables (`master.LinearMaster`'s box), so the first duals price
real trade-offs rather than the box's edges, and the integer master always has a pattern. Seeds
only steer the search: every bound is still the Lagrangian function at the master's duals,
valid whichever columns the master holds, and a written pattern is judged by strict like any
plan.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.oracle.blocks import BlockSpec, Gate, GateKey, TripFacts, block_nodes
from solver.oracle.catalog import CityCatalog
from solver.oracle.labels import route_column
from solver.oracle.master import BUDGET_UNIT
from solver.oracle.model import Node, activity_node, hop
from solver.oracle.pricing import Column
from solver.oracle.scores import ScoredUser
from verifier.errors import StructuredError
from verifier.model.plan import minutes


class PlanColumnsError(StructuredError, ValueError):
    """The plan does not map onto the blocks (a city, leg, hotel or block the facts lack);
    `field` is the plan's JSON path."""


@dataclass
class _Stay:
    """The plan's time in one city on one day, as it maps onto a block."""

    day: int
    city: str
    origin: GateKey
    activities: list[dict[str, Any]]
    destination: GateKey | None = None
    loose: bool = False


@dataclass
class _Walk:
    """The walk over a plan's days that cuts it into stays (`stays`)."""

    facts: TripFacts
    labels: Mapping[str, str]
    """Task city name → world key (any other name is home)."""
    stays: list[_Stay] = field(default_factory=list)
    night: GateKey | None = None

    def key(self, label: str) -> str:
        return self.labels.get(label, self.facts.home)

    def day(self, day: int, segments: Sequence[dict[str, Any]]) -> None:
        origin, open_stay = self.night, None
        transitions = 0
        for i, segment in enumerate(segments):
            path = f"days[{day - 1}].city_segments[{i}]"
            if segment.get("type") == "intercity_transport":
                gate = self.leg(day, segment, path)
                if open_stay is not None:
                    open_stay.destination = gate
                    open_stay = None
                if gate[1] != self.facts.home and gate[2] != self.facts.home:
                    transitions += 1
                origin = gate
                continue
            label = segment.get("city", "")
            if label not in self.labels:
                raise PlanColumnsError(f"{path}.city", f"{label!r} is not a task city")
            if origin is None:
                raise PlanColumnsError(
                    path, f"{label} is reached neither by a leg nor from last night's hotel"
                )
            open_stay = _Stay(day, self.labels[label], origin, list(segment.get("activities", [])))
            self.stays.append(open_stay)
            self.night = None
            for j, activity in enumerate(open_stay.activities):
                if activity.get("type") == "hotel":
                    where = f"{path}.activities[{j}].location"
                    self.night = open_stay.destination = self.hotel(
                        day, open_stay.city, activity["location"], where
                    )
        today = [stay for stay in self.stays if stay.day == day]
        for stay in today[:transitions]:
            stay.loose = len(self.facts.cities) > 1

    def leg(self, day: int, segment: dict[str, Any], path: str) -> GateKey:
        """The leg option the segment takes: the one of its mode whose departure window holds
        the segment's departure, else the one of its mode departing nearest to it."""
        origin, destination = self.key(segment["from_city"]), self.key(segment["to_city"])
        options = self.facts.legs.get((origin, destination, day), ())
        start = minutes(segment["start_time"])
        taken = segment.get("transport_mode")
        mode = [k for k, leg in enumerate(options) if leg.option.mode == taken]
        if not mode:
            raise PlanColumnsError(
                f"{path}.transport_mode", f"no {taken} leg {origin}→{destination} on day {day}"
            )
        window = [k for k in mode if options[k].depart <= start <= options[k].latest]
        k = (window or sorted(mode, key=lambda k: (abs(options[k].depart - start), k)))[0]
        return ("leg", origin, destination, day, k)

    def hotel(self, night: int, city: str, name: str, path: str) -> GateKey:
        for k, hotel in enumerate(self.facts.hotels[city]):
            if name in hotel.members:
                return ("hotel", night, city, k)
        raise PlanColumnsError(path, f"hotel {name!r} (night {night}) is in no hotel class of {city}")


def plan_columns(
    facts: TripFacts,
    cities: Mapping[str, CityCatalog],
    users: Sequence[ScoredUser],
    plan: dict[str, Any],
    team: tuple[int, ...],
) -> list[Column]:
    """The columns of a whole-group `plan` (see module), `team` its scored users. A must item is
    claimed by the first column that visits it; places the block lacks are left out of the
    route. Raises `PlanColumnsError` when the plan's cities, legs or hotels are not the facts'
    (then no column is returned). Only the route's own travel times are looked up, not the
    block's graph (on task_000785 the graphs of all 21 blocks take about 20 s)."""
    walk = _Walk(facts, {city.label: key for key, city in cities.items()})
    for day, entry in enumerate(plan["days"], start=1):
        walk.day(day, entry["city_segments"])
    claimed: set[tuple[int, str, int]] = set()
    scale = tuple(BUDGET_UNIT for _ in users)
    columns = []
    for stay in walk.stays:
        spec = facts.blocks.get((stay.day, stay.city))
        if spec is None or stay.destination is None:
            raise PlanColumnsError(
                "days", f"the stay in {stay.city} on day {stay.day} has no block or no end"
            )
        city = cities[stay.city]
        ends = (_index(spec.origins, stay.origin, spec), _index(spec.destinations, stay.destination, spec))
        route = _route([node for node, _ in block_nodes(spec, city)], stay.activities)
        claims = {
            (u, item)
            for node, _ in route
            if node.meal is None
            for u in team
            for item in node.place.musts[u]
            if (u, stay.city, item) not in claimed
        }
        claimed |= {(u, stay.city, item) for u, item in claims}
        moving = _moving(city, spec.origins[ends[0]], spec.destinations[ends[1]], [node for node, _ in route])
        columns.append(
            route_column(
                spec,
                users,
                scale,
                team=team,
                route=route,
                moving=moving,
                ends=ends,
                loose=stay.loose,
                claims=frozenset(claims),
            )
        )
    return columns


def _index(gates: Sequence[Gate], key: GateKey, spec: BlockSpec) -> int:
    for i, gate in enumerate(gates):
        if gate.key == key:
            return i
    raise PlanColumnsError("days", f"gate {key} is not a gate of block ({spec.day}, {spec.city})")


def _route(nodes: Sequence[Node], activities: Sequence[dict[str, Any]]) -> list[tuple[Node, int]]:
    """The plan's attractions and meals as (node, service start) pairs: an attraction's node by
    name, a meal's by its restaurant class and the meal window its start lies in; each node
    once."""
    route: list[tuple[Node, int]] = []
    used: set[int] = set()
    for activity in activities:
        kind = activity.get("type")
        if kind not in ("attraction", "food"):
            continue
        start = minutes(activity["start_time"])
        i = activity_node(nodes, activity["location"], kind, start, used)
        if i is not None:
            route.append((nodes[i], start))
            used.add(i)
    return route


def _moving(city: CityCatalog, origin: Gate, destination: Gate, nodes: Sequence[Node]) -> int:
    """The route's travel minutes: gate to first stop, stop to stop, last stop to gate."""
    if not nodes:
        return city.travel(origin.members, destination.members) or 0
    legs = [
        city.travel(origin.members, nodes[0].place.members),
        city.travel(nodes[-1].place.members, destination.members),
    ]
    legs += [hop(city, a, b) for a, b in itertools.pairwise(nodes)]
    return sum(m or 0 for m in legs)
