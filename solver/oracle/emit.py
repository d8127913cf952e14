"""A solved trip model written as GroupTravelBench plan JSON that `strict` accepts.

Each day lists, city by city, the leg that arrives and the block spent there, then the leg
that leaves. In a block every team goes from the shared start (a hotel or an arrival hub) along
its route: a transfer by the quickest mode lasting exactly the world's minutes, then the visit
or meal of exactly its service minutes, and at the end to the shared destination (tonight's
hotel, checked in when the last team arrives, or the departure hub). A whole-group block
writes `["All"]` and leaves waiting implicit; a split block writes each team's names (children
with team 0) and fills every wait with a rest where the team is, so everybody is accounted for
(strict whereabouts). The official split rule charges a split block K − 1 only when its
activities overlap as one connected group, so each team may wait before or after its transfers
(`Timing`) and the first choice whose penalty is K − 1 is kept. Legs, hotels and meals declare
the lowest cost strict accepts (the price rounded down to whole yuan), which is what the
model's budget counts. Before writing, each team's visits move inside their windows to close
the waits between them (`TeamPlan.compacted`: no "rest 06:45–09:53 at a park"); a split block
whose compacted teams find no K − 1 layout is written from the times as solved.
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import replace
from typing import Any, Protocol

from ortools.sat.python import cp_model

from solver.greedy import cny
from solver.oracle.catalog import CityCatalog
from solver.oracle.model import Block, TripModel
from solver.oracle.team_plan import TeamPlan, Timing, Visit, arrival
from verifier.model.plan import ALL, hhmm, minutes
from verifier.official.plan_view import build_view
from verifier.official.poi_db import PoiDb
from verifier.official.split import split_penalty
from verifier.strict.clock import DAY
from verifier.strict.costs import lowest_cost_fen

Item = dict[str, Any]


class Values(Protocol):
    """A solution of a model: a `cp_model.CpSolver` after a solve, or an `Assignment`."""

    def value(self, variable: cp_model.IntVar) -> int: ...
    def boolean_value(self, literal: cp_model.IntVar) -> bool: ...


class PlanWriter:
    """Reads a solved `TripModel` and writes the plan. With `compact`, each team's visits move
    to close the waits between them (`TeamPlan.compacted`); with `official` (the official POI
    file), attraction visits the official opening-hours check would reject (its quirks:
    overnight windows, rule order) are left out, so the plan has a chance under both profiles."""

    def __init__(
        self,
        trip: TripModel,
        solver: Values,
        users: tuple[str, ...],
        children: tuple[str, ...],
        *,
        compact: bool = True,
        official: PoiDb | None = None,
    ):
        self.trip, self.solver = trip, solver
        self.users, self.children = users, children
        self.compact, self.official = compact, official
        self._layouts: dict[tuple[int, int], tuple[list[Item], list[TeamPlan]]] = {}

    def plan(self) -> dict[str, Any]:
        """The plan JSON (`days → city_segments`)."""
        trip, frame = self.trip, self.trip.frame
        legs = self._legs()
        days: list[dict[str, Any]] = []
        for day in range(1, frame.days + 1):
            segments: list[dict[str, Any]] = []
            for city in range(1, frame.cities + 2):
                if (city - 1, day) in legs:
                    segments.append(legs[(city - 1, day)])
                exists = trip.skeleton.block.get((day, city))
                if city <= frame.cities and exists is not None and self._on(exists):
                    segments.append(self._block(day, city))
            days.append({"day": day, "date": frame.date(day).isoformat(), "city_segments": segments})
        return {"days": days}

    def _on(self, literal: cp_model.IntVar) -> bool:
        return bool(self.solver.boolean_value(literal))

    def _legs(self) -> dict[tuple[int, int], dict[str, Any]]:
        out: dict[tuple[int, int], dict[str, Any]] = {}
        for (i, day), options in self.trip.skeleton.legs.items():
            for leg, literal, depart in options:
                if not self._on(literal):
                    continue
                start = int(self.solver.value(depart))
                option = leg.option
                out[(i, day)] = {
                    "type": "intercity_transport",
                    "from_city": self._label(i),
                    "to_city": self._label(i + 1),
                    "transport_mode": option.mode,
                    "start_time": hhmm(start),
                    "end_time": hhmm(start + leg.duration),
                    "avg_cost": cny(lowest_cost_fen(option.fare_fen)),
                }
        return out

    def _label(self, stop: int) -> str:
        frame = self.trip.frame
        if stop in (0, frame.cities + 1):
            return frame.stops[stop]
        return self.trip.place_sets[frame.stops[stop]].city.label

    def _block(self, day: int, city: int) -> dict[str, Any]:
        catalog = self.trip.place_sets[self.trip.frame.stops[city]].city
        items, teams = self._layout(day, city)
        return self._with_hotel(
            catalog, list(items), self._hotel(day, city), teams, self._checkout(day + 1, city)
        )

    def _layout(self, day: int, city: int) -> tuple[list[Item], list[TeamPlan]]:
        """The block's items and its teams as written (kept: the next checkout reads them)."""
        if (day, city) not in self._layouts:
            self._layouts[(day, city)] = self._lay_out(day, city)
        return self._layouts[(day, city)]

    def _lay_out(self, day: int, city: int) -> tuple[list[Item], list[TeamPlan]]:
        """One team: its items, waits implicit. Split: the compacted teams, else the teams as
        solved, laid out so the official rule charges K − 1 (`_split_layout`)."""
        block = self.trip.blocks[(day, city)]
        catalog = self.trip.place_sets[self.trip.frame.stops[city]].city
        teams = self._teams(block)
        if len(teams) == 1:
            return _team_items(catalog, teams[0], Timing.EARLY, rests=False), teams
        tries = [teams, self._teams(block, compact=False)] if self.compact else [teams]
        for candidate in tries:
            found = _split_layout(catalog, candidate, self.users)
            if found is not None:
                return found
        teams = tries[-1]
        return _split_items(catalog, teams, (Timing.EARLY,) * len(teams)), teams

    def _with_hotel(
        self,
        catalog: CityCatalog,
        items: list[Item],
        hotel: tuple[str, int] | None,
        teams: list[TeamPlan],
        checkout: int,
    ) -> dict[str, Any]:
        if hotel is not None:
            check_in = max(arrival(catalog, team) for team in teams)
            name, price = hotel
            items.append(
                {
                    "type": "hotel",
                    "location": name,
                    "start_time": hhmm(check_in),
                    "end_time": hhmm(checkout),
                    "avg_cost": cny(lowest_cost_fen(price)),
                    "participants": [ALL],
                }
            )
        return {"city": catalog.label, "activities": items}

    def _hotel(self, night: int, city: int) -> tuple[str, int] | None:
        """The night's hotel and its price on the night's date."""
        catalog = self.trip.place_sets[self.trip.frame.stops[city]].city
        for place, literal in self.trip.skeleton.hotels.get((night, city), []):
            if self._on(literal):
                return place.name, catalog.price_on(place, self.trip.frame.date(night))
        return None

    def _checkout(self, day: int, city: int) -> int:
        """When the group leaves last night's hotel: the first team out of the next block."""
        block = self.trip.blocks.get((day, city))
        if block is None or not self._on(self.trip.skeleton.block[(day, city)]):
            return 8 * 60
        catalog = self.trip.place_sets[self.trip.frame.stops[city]].city
        return min(team.departure(catalog) for team in self._layout(day, city)[1])

    def _teams(self, block: Block, *, compact: bool | None = None) -> list[TeamPlan]:
        """The block's active teams and their routes (compacted unless `compact` is False or
        the writer does not compact; attractions official rejects left out with `official`)."""
        compact = self.compact if compact is None else compact
        solver, out = self.solver, []
        catalog = self.trip.place_sets[self.trip.frame.stops[block.city]].city
        date = self.trip.frame.date(block.day)
        origin = _chosen(self, block.origins, block.origin_literals)
        destination = _chosen(self, block.destinations, block.destination_literals)
        for k, route in enumerate(block.routes):
            if not self._on(block.teams.active[k]):
                continue
            who = tuple(
                u for u, member in zip(self.users, block.teams.member[k], strict=True) if self._on(member)
            )
            if k == 0:
                who += self.children
            order = _order(route.arcs, solver)
            visits = tuple(
                Visit(
                    block.nodes[i].place.name,
                    "food" if block.nodes[i].meal is not None else "attraction",
                    int(solver.value(route.start[i])),
                    block.nodes[i].place.service,
                    catalog.price_on(block.nodes[i].place, date),
                    block.stops[i].starts,
                )
                for i in order
            )
            leave, back = int(solver.value(block.leave[k])), int(solver.value(block.back[k]))
            team = TeamPlan(who, origin, destination, leave, back, visits, self._limit(block))
            if compact:
                team = self._compacted(block, catalog, team)
            if self.official is not None:
                team = self._open_officially(block, catalog, team, compact=compact)
            out.append(team)
        return out

    def _compacted(self, block: Block, catalog: CityCatalog, team: TeamPlan) -> TeamPlan:
        """`team` compacted: its start is fixed unless it leaves last night's hotel, its end
        fixed unless it reaches tonight's."""
        fixed_start = self._hotel(block.day - 1, block.city) is None
        fixed_end = self._hotel(block.day, block.city) is None
        return team.compacted(catalog, fixed_start=fixed_start, fixed_end=fixed_end)

    def _open_officially(
        self, block: Block, catalog: CityCatalog, team: TeamPlan, *, compact: bool
    ) -> TeamPlan:
        """`team` without the attraction visits the official opening-hours check rejects at their
        written times (compacted again when the writer compacts)."""
        assert self.official is not None
        date = self.trip.frame.date(block.day).isoformat()
        kept = tuple(
            visit
            for visit in team.visits
            if visit.kind != "attraction"
            or self.official.is_within_opening_hours(
                visit.name, catalog.label, date, hhmm(visit.start), hhmm(visit.start + visit.service)
            )
            is not False
        )
        if len(kept) == len(team.visits):
            return team
        lighter = replace(team, visits=kept)
        return self._compacted(block, catalog, lighter) if compact else lighter

    def _limit(self, block: Block) -> int:
        """The latest arrival at the block's end: check-in by 23:59, or the departing leg's
        departure less its check-in minutes."""
        for leg, literal, depart in self.trip.skeleton.legs.get((block.city, block.day), []):
            if self._on(literal):
                return int(self.solver.value(depart)) - leg.check_in
        return DAY - 1


MAX_NUDGES = 8
"""How many single visits the writer may delay in one split block (`_nudged`)."""

MAX_STAGGER = 5
"""Up to this many minutes apart, team by team, when every team switching activity at the same
minute would cut a split into several (each charged by the official rule)."""


def _split_layout(
    catalog: CityCatalog, teams: list[TeamPlan], users: tuple[str, ...]
) -> tuple[list[Item], list[TeamPlan]] | None:
    """Items of a split block that the official rule charges K − 1, and the teams as written:
    teams staggered, waits before or after transfers, visits nudged at cuts; None when no such
    layout is found."""
    for _ in range(MAX_NUDGES + 1):
        for shift in range(MAX_STAGGER + 1):
            staggered = _staggered(catalog, teams, shift)
            if staggered is None:
                continue
            for timings in itertools.product(Timing, repeat=len(teams)):
                items = _split_items(catalog, staggered, timings)
                if _penalty(items, users) == len(teams) - 1:
                    return items, staggered
        nudged = _nudged(catalog, teams)
        if nudged is None:
            return None
        teams = nudged
    return None


def _staggered(catalog: CityCatalog, teams: list[TeamPlan], shift: int) -> list[TeamPlan] | None:
    """Team k's visits `k × shift` minutes later (None when some team cannot move so)."""
    out: list[TeamPlan] = []
    for k, team in enumerate(teams):
        moved = team.shifted(catalog, k * shift) if shift else team
        if moved is None:
            return None
        out.append(moved)
    return out


def _nudged(catalog: CityCatalog, teams: list[TeamPlan]) -> list[TeamPlan] | None:
    """The teams with one visit delayed by 1 to `MAX_STAGGER` minutes at a *cut*: a minute where
    every team ends one item and starts the next, so that no item spans it and the official rule
    counts the split twice. None when there is no cut or no visit starting at one can move."""
    items = _split_items(catalog, teams, (Timing.EARLY,) * len(teams))
    ends = [
        {minutes(item["end_time"]) for item in items if item["participants"] == list(team.who)}
        for team in teams
    ]
    for minute in sorted(set.intersection(*ends)):
        for k in reversed(range(len(teams))):
            index = next((i for i, visit in enumerate(teams[k].visits) if visit.start == minute), None)
            if index is None:
                continue
            for delay in range(1, MAX_STAGGER + 1):
                moved = teams[k].delayed(catalog, index, delay)
                if moved is not None:
                    return [*teams[:k], moved, *teams[k + 1 :]]
    return None


def _chosen(writer: PlanWriter, members: tuple[tuple[str, ...], ...], literals: list[cp_model.IntVar]) -> str:
    for names, literal in zip(members, literals, strict=True):
        if writer.solver.boolean_value(literal):
            return names[0]
    raise AssertionError("an existing block has a start and an end")


def _order(arcs: dict[tuple[int, int], cp_model.IntVar], solver: Values) -> list[int]:
    """Stop indices in route order (following the chosen arcs from the depot)."""
    successor = {tail: head for (tail, head), arc in arcs.items() if solver.boolean_value(arc)}
    order, node = [], successor.get(0, 0)
    while node != 0:
        order.append(node - 1)
        node = successor[node]
    return order


def _team_items(catalog: CityCatalog, team: TeamPlan, timing: Timing, *, rests: bool) -> list[Item]:
    """A team's transfers, visits and (with `rests`) waits, from its origin to its destination."""
    who = [ALL] if not rests else list(team.who)
    items: list[Item] = []
    here, now = team.origin, team.departure(catalog)
    stops = [*team.visits, Visit(team.destination, "", -1, 0, 0)]
    for visit in stops:
        target = visit.start if visit.start >= 0 else None
        if visit.name != here:
            hop = catalog.hop(here, visit.name)
            assert hop is not None, f"no transfer {here} → {visit.name}"
            depart = now if timing is Timing.EARLY or target is None else target - hop.minutes
            if rests and depart > now:
                items.append(_rest(here, now, depart, who))
            items.append(
                {
                    "type": "intracity_transport",
                    "from": here,
                    "to": visit.name,
                    "transport_mode": hop.mode,
                    "start_time": hhmm(depart),
                    "end_time": hhmm(depart + hop.minutes),
                    "avg_cost": cny(hop.cost_fen),
                    "participants": who,
                }
            )
            here, now = visit.name, depart + hop.minutes
        if target is None:
            break
        if rests and target > now:
            items.append(_rest(here, now, target, who))
        items.append(
            {
                "type": visit.kind,
                "location": visit.name,
                "start_time": hhmm(target),
                "end_time": hhmm(target + visit.service),
                "avg_cost": cny(
                    lowest_cost_fen(visit.price_fen) if visit.kind == "food" else visit.price_fen
                ),
                "participants": who,
            }
        )
        now = target + visit.service
    return items


def _rest(place: str, start: int, end: int, who: list[str]) -> Item:
    return {
        "type": "rest",
        "location": place,
        "start_time": hhmm(start),
        "end_time": hhmm(end),
        "participants": who,
    }


def _split_items(catalog: CityCatalog, teams: list[TeamPlan], timings: tuple[Timing, ...]) -> list[Item]:
    """Every team's items with waits filled so that all teams span the same stretch of time;
    what every team does alike at the start and at the end is written once, for everyone."""
    first = min(team.departure(catalog) for team in teams)
    last = max(arrival(catalog, team) for team in teams)
    lists: list[list[Item]] = []
    for team, timing in zip(teams, timings, strict=True):
        items = _team_items(catalog, team, timing, rests=True)
        who = list(team.who)
        if team.departure(catalog) > first:
            items.insert(0, _rest(team.origin, first, team.departure(catalog), who))
        reached = arrival(catalog, team)
        if reached < last:
            items.append(_rest(team.destination, reached, last, who))
        lists.append(items)
    head = _common(lists)
    tail = _common([items[head:][::-1] for items in lists])
    rows = [
        (minutes(item["start_time"]), k, item)
        for k, items in enumerate(lists)
        for item in items[head : len(items) - tail]
    ]
    middle = [item for _, _, item in sorted(rows, key=lambda row: (row[0], row[1]))]
    together = [lists[0][:head], lists[0][len(lists[0]) - tail :]]
    return [*_for_all(together[0]), *middle, *_for_all(together[1])]


def _common(lists: list[list[Item]]) -> int:
    """How many leading items all lists share (participants aside)."""
    count = 0
    for items in zip(*lists, strict=False):
        keys = {tuple(sorted((k, str(v)) for k, v in item.items() if k != "participants")) for item in items}
        if len(keys) != 1:
            break
        count += 1
    return count


def _for_all(items: list[Item]) -> list[Item]:
    return [item | {"participants": [ALL]} for item in items]


def _penalty(items: list[Item], users: tuple[str, ...]) -> int:
    """The official split penalty of one block of items."""
    block = {"city": "", "activities": items}
    plan = {"days": [{"day": 1, "date": dt.date(2000, 1, 1).isoformat(), "city_segments": [block]}]}
    return int(split_penalty(build_view(plan, list(users)))["total_penalty"])
