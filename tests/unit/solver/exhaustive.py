"""Exhaustive search for the best official GU over canonical strict plans of a tiny world.

Written independently of `solver.oracle` (it reads only the verifier, the spec, and the world).
Scope: a two-day trip home → one city → home (one night), no children, timetabled legs.

**Which plans.** For every outbound leg, return leg and hotel of the world (with `tolerances`, every
budget item — legs, hotel, meals — declared at the least cost strict accepts,
`verifier.strict.costs.lowest_cost_fen`; otherwise at its price), the search considers each
day-block (day 1: arrival hub → hotel; day 2: hotel → departure hub), each partition of the users
into teams (one team writes `["All"]`; a split writes each team's names, and a whole block is split:
teams part at the block's start and meet again at its end), and for each team each *day route*: an
ordered choice of attractions (no attraction twice per traveller per trip) interleaved with at most
one breakfast, lunch and dinner each at a restaurant, with every meal due by `verifier.strict.meals`
present. A route is scheduled earliest-first: each transfer takes the quickest intracity mode and
lasts exactly the world's minutes, leaving at once; each visit starts as soon as its opening window,
the meal window and the 06:00–24:00 day window allow, and lasts exactly `min_visit_minutes`; waiting
is implicit in a whole-group block and a rest of the team in a split block (idle travellers are
accounted for, strict whereabouts), and the hotel is checked into when the last team arrives and
left at 06:00. Connections (check-in before a departure, getting out after an arrival) follow
`verifier.strict.connections`.

**Why earliest-first loses nothing.** Official GU reads, per user: which attractions and meals
(by place), the legs' modes, the hotel, per day the attraction count and the attraction + transfer
minutes (only through the `max_active_hours` threshold), and the declared costs of legs, hotel and
own meals (only through the budget threshold); and, per block, the split penalty. For a fixed
sequence of stops, finishing every item as early as possible is feasible whenever any timing is
(every later constraint is a lower bound on a start or an upper bound on an end), and the shortest
visits and transfers give the fewest active minutes. So per block and per (attraction set, meals)
only the feasible route with the fewest active minutes matters; the search keeps exactly those.

**What it does not cover** (the oracle may legitimately do better there): regrouping within a
block (teams that part and meet more than once; strict's `split_regroup` keeps teams fixed only within
one overlap group), self-drive, three or more days, several cities.

**How.** Per context (legs, timings, hotel) every block's routes are enumerated by depth-first
search; per user the total of every official detail field for a pair of day-1 and day-2 routes
is tabulated with numpy (the official rules restated from `docs/official.md`), and a `Scoring`
hook turns a user's field tables into the user's value and values a written plan (`OfficialGU`,
the default: the sum of the fields and the official GU; the oracle's ceiling test adds the
fields given up); per pair of partitions the teams form a forest (users are edges between their
day-1 and day-2 teams), solved exactly by max-plus message passing, minus `teams − 1` per split
block. The best assignment is written as plan JSON, checked by `strict_violations` and valued by
the scoring; `ExhaustiveResult.exact` is False when that value fell short of the tabulated one
(the split rule charged more than `teams − 1` because the teams' items did not overlap as one
group) — then `value` is only a lower bound.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from solver.greedy_score import world_poi_db
from verifier.model.plan import hhmm
from verifier.model.task import Task
from verifier.official.plan_view import build_view
from verifier.official.utility import evaluate_group_utility
from verifier.strict.clock import NIGHT_END
from verifier.strict.connections import connection_minutes
from verifier.strict.costs import lowest_cost_fen
from verifier.strict.meals import MEALS, required_meals
from verifier.strict.profile import strict_violations
from verifier.strict.transfers import INTRACITY_MODES
from verifier.world import IntercityOption, PoiFact, WorldFacts

DAY_END = 1440
NEG = -1e9
Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Step:
    """One scheduled item of a route: a transfer, an attraction visit or a meal."""

    kind: str  # "intracity_transport" | "attraction" | "food"
    start: int
    end: int
    place: str  # the visited place, or the transfer's destination
    origin: str = ""  # a transfer's origin
    mode: str = ""
    cost_fen: int = 0


@dataclass(frozen=True)
class Route:
    """A team's scheduled day route and what official GU reads of it."""

    sights: frozenset[str]
    meals: tuple[tuple[str, str], ...]  # (meal kind, restaurant)
    active_minutes: int
    steps: tuple[Step, ...]

    @property
    def end(self) -> int:
        return self.steps[-1].end


@dataclass(frozen=True)
class Goal:
    """Where and by when a day route must end."""

    date: dt.date
    place: str
    deadline: int


@dataclass(frozen=True)
class Walk:
    """A route so far: where the team is, since when, its steps and its last meal (`MEALS` index)."""

    here: str
    now: int
    steps: tuple[Step, ...]
    meal: int


@dataclass(frozen=True)
class Leg:
    option: IntercityOption
    depart: int
    arrive: int


@dataclass(frozen=True)
class ExhaustiveResult:
    value: int | None
    """Best value (official GU unless another `Scoring` is given) among the strict-valid canonical
    plans found (None: none exists)."""
    plan: dict[str, Any] | None
    exact: bool
    """True when `value` is the optimum over every canonical plan (see the module docstring)."""


class Scoring(Protocol):
    """What the search maximises: a user's value from the user's field tables (official detail
    field → value per (day-1 route, day-2 route) pair), and the value of a written plan."""

    def combine(self, user: str, fields: dict[str, Matrix]) -> Matrix | float: ...

    def value(self, task: Task, plan: dict[str, Any], world: WorldFacts) -> int: ...


class OfficialGU:
    """The official GU: a user's value is the sum of the user's fields."""

    def combine(self, user: str, fields: dict[str, Matrix]) -> Matrix | float:
        return sum(fields.values(), start=0.0)

    def value(self, task: Task, plan: dict[str, Any], world: WorldFacts) -> int:
        return official_gu(task, plan, world)


class Search:
    """The exhaustive search for one task in one world."""

    def __init__(
        self,
        task: Task,
        world: WorldFacts,
        *,
        splits: bool = True,
        tolerances: bool = False,
        scoring: Scoring | None = None,
    ) -> None:
        self.task, self.world, self.splits, self.tolerances = task, world, splits, tolerances
        self.scoring = OfficialGU() if scoring is None else scoring
        home, city = world.city(task.metadata.departure_city), world.city(task.metadata.cities[0])
        start = task.departure_date()
        assert home and city and start and task.trip_days() == 2 and len(task.metadata.cities) == 1
        self.home, self.city, self.dates = home, city, (start, start + dt.timedelta(days=1))
        self.users = tuple(task.user_names)
        self.table = task.preference_table()
        self.prefs = [self.table[u].get("preference", {}) for u in self.users]
        self.db = world_poi_db(world, (city,))
        self.sights = tuple(world.pois(city, "attraction"))
        self.bit = {p.name: 1 << i for i, p in enumerate(self.sights)}
        self._routes: dict[tuple[Any, ...], list[Route]] = {}
        self._hops: dict[tuple[str, str], tuple[int, str, int] | None] = {}
        self._spans: dict[tuple[dt.date, str], list[tuple[int, int]]] = {}

    # -- routes ----------------------------------------------------------------------------------

    def routes(self, date: dt.date, origin: str, ready: int, goal: str, deadline: int) -> list[Route]:
        """Every route from `origin` (free at `ready`) to `goal` by `deadline`, the fewest active
        minutes per (attractions, meals)."""
        key = (date, origin, ready, goal, deadline)
        if key not in self._routes:
            best: dict[tuple[frozenset[str], tuple[tuple[str, str], ...]], Route] = {}
            for route in self._extend(Goal(date, goal, deadline), Walk(origin, ready, (), -1)):
                known = best.get((route.sights, route.meals))
                if known is None or route.active_minutes < known.active_minutes:
                    best[(route.sights, route.meals)] = route
            self._routes[key] = list(best.values())
        return self._routes[key]

    def _extend(self, goal: Goal, walk: Walk) -> Iterator[Route]:
        last = self._move(walk.here, goal.place, walk.now)
        if last is not None and last.end <= goal.deadline:
            yield self._route((*walk.steps, last))
        seen = {s.place for s in walk.steps if s.kind == "attraction"}
        for place in self.sights:
            if place.name not in seen:
                yield from self._visit(goal, walk, place, None)
        for index in range(walk.meal + 1, len(MEALS)):
            for place in self.world.pois(self.city, "restaurant"):
                yield from self._visit(goal, walk, place, index)

    def _visit(self, goal: Goal, walk: Walk, place: PoiFact, meal: int | None) -> Iterator[Route]:
        """Extend `walk` by visiting `place` (a meal when `meal` is a `MEALS` index) as early as possible."""
        hop = None if walk.here == place.name else self._move(walk.here, place.name, walk.now)
        if hop is None and walk.here != place.name:
            return
        low, high = (NIGHT_END, DAY_END) if meal is None else MEALS[meal][1:]
        ready = walk.now if hop is None else hop.end
        start = self._earliest(goal.date, place, ready, max(low, NIGHT_END), min(high, DAY_END))
        if start is None:
            return
        kind = "attraction" if meal is None else "food"
        step = Step(kind, start, start + place.min_visit_minutes, place.name, cost_fen=place.price_fen)
        steps = (*walk.steps, *((hop, step) if hop is not None else (step,)))
        yield from self._extend(goal, Walk(place.name, step.end, steps, walk.meal if meal is None else meal))

    def _earliest(self, date: dt.date, place: PoiFact, ready: int, low: int, high: int) -> int | None:
        if (date, place.name) not in self._spans:
            windows = self.world.opening_windows(self.city, place.name, date)
            self._spans[(date, place.name)] = (
                [(0, 2 * DAY_END)] if windows is None else [(w.open, w.close) for w in windows]
            )
        spans = self._spans[(date, place.name)]
        starts = [
            max(ready, low, open_)
            for open_, close in spans
            if max(ready, low, open_) + place.min_visit_minutes <= min(close, high)
        ]
        return min(starts, default=None)

    def _move(self, origin: str, destination: str, now: int) -> Step | None:
        """The quickest transfer, leaving at `now` (None: no route, or it would end after midnight)."""
        if (origin, destination) not in self._hops:
            hops = [
                (hop.minutes, mode, hop.cost_fen)
                for mode in INTRACITY_MODES
                if (hop := self.world.transfer(self.city, origin, destination, mode)) is not None
                and hop.minutes > 0
            ]
            self._hops[(origin, destination)] = min(hops, key=lambda h: h[0]) if hops else None
        quickest = self._hops[(origin, destination)]
        if quickest is None:
            return None
        minutes, mode, cost = quickest
        if now + minutes > DAY_END:
            return None
        return Step("intracity_transport", now, now + minutes, destination, origin, mode, cost)

    def _route(self, steps: tuple[Step, ...]) -> Route:
        return Route(
            frozenset(s.place for s in steps if s.kind == "attraction"),
            tuple((MEALS[self._meal_index(s)][0], s.place) for s in steps if s.kind == "food"),
            sum(s.end - s.start for s in steps if s.kind != "food"),
            steps,
        )

    @staticmethod
    def _meal_index(step: Step) -> int:
        return next(i for i, (_, low, high) in enumerate(MEALS) if low <= step.start and step.end <= high)

    # -- contexts --------------------------------------------------------------------------------

    def legs(self, origin: str, destination: str, date: dt.date) -> list[Leg]:
        out: list[Leg] = []
        for option in self.world.intercity_options(origin, destination, date):
            if option.flexible:
                continue
            out.append(Leg(option, option.depart, option.arrive))
        return out

    def due(self, out: Leg, back: Leg) -> tuple[set[str], set[str]]:
        """Meals strict requires on day 1 and day 2 (`verifier.strict.meals`)."""
        arrival, departure = out.arrive, DAY_END + back.depart
        legs = [(out.depart, out.arrive), (DAY_END + back.depart, DAY_END + back.arrive)]
        sets: list[set[str]] = []
        for base in (0, DAY_END):
            names = set(required_meals(arrival - base, departure - base))
            for name, low, high in MEALS:
                if any(s < base + high and base + low < e for s, e in legs):
                    names.discard(name)
            sets.append(names)
        return sets[0], sets[1]

    def run(self) -> ExhaustiveResult:
        """The best canonical plan (see the module docstring)."""
        candidates: list[tuple[float, int, tuple[Any, ...]]] = []
        for out in self.legs(self.home, self.city, self.dates[0]):
            for back in self.legs(self.city, self.home, self.dates[1]):
                for hotel in self.world.pois(self.city, "hotel"):
                    candidates += self._context(out, back, hotel)
        candidates.sort(key=lambda c: (-c[0], c[1]))
        best: tuple[int, dict[str, Any]] | None = None
        short: list[float] = []
        for value, _, context in candidates:
            if best is not None and value <= best[0]:
                break
            plan = self._plan(*context)
            found = self._verify(plan)
            if found < value:
                short.append(value)
            if best is None or found > best[0]:
                best = (found, plan)
        if best is None:
            return ExhaustiveResult(None, None, True)
        return ExhaustiveResult(best[0], best[1], all(value <= best[0] for value in short))

    def _context(self, out: Leg, back: Leg, hotel: PoiFact) -> list[tuple[float, int, tuple[Any, ...]]]:
        due1, due2 = self.due(out, back)
        exit_ = connection_minutes(out.option.mode)[1]
        check_in = connection_minutes(back.option.mode)[0]
        day1 = [
            r
            for r in self.routes(self.dates[0], out.option.to_hub, out.arrive + exit_, hotel.name, DAY_END)
            if due1 <= {kind for kind, _ in r.meals}
        ]
        day2 = [
            r
            for r in self.routes(
                self.dates[1], hotel.name, NIGHT_END, back.option.from_hub, back.depart - check_in
            )
            if due2 <= {kind for kind, _ in r.meals}
        ]
        if not day1 or not day2:
            return []
        tables = [self._user_table(u, (out, back), hotel, (day1, day2)) for u in range(len(self.users))]
        found: list[tuple[float, int, tuple[Any, ...]]] = []
        partitions = (
            list(_partitions(list(range(len(self.users)))))
            if self.splits
            else [[list(range(len(self.users)))]]
        )
        for first, second in itertools.product(partitions, repeat=2):
            value, choice = _forest(first, second, tables)
            if value <= NEG / 2:
                continue
            value -= len(first) - 1 + len(second) - 1
            teams = (
                [(team, day1[choice[(0, k)]]) for k, team in enumerate(first)],
                [(team, day2[choice[(1, k)]]) for k, team in enumerate(second)],
            )
            found.append((value, len(found), (out, back, hotel, teams)))
        return found

    # -- official GU restated, per user ----------------------------------------------------------

    def _user_table(
        self, u: int, legs: tuple[Leg, Leg], hotel: PoiFact, days: tuple[list[Route], list[Route]]
    ) -> Matrix:
        """The scoring's value of user `u` for every (day-1 route, day-2 route) pair (NEG: a sight
        twice)."""
        m1 = np.array([self._mask(r) for r in days[0]])
        m2 = np.array([self._mask(r) for r in days[1]])
        fields = self._user_fields(u, legs, hotel, days)
        table: Matrix = np.zeros((len(m1), len(m2))) + self.scoring.combine(self.users[u], fields)
        table[(m1[:, None] & m2[None, :]) != 0] = NEG
        return table

    def _user_fields(
        self, u: int, legs: tuple[Leg, Leg], hotel: PoiFact, days: tuple[list[Route], list[Route]]
    ) -> dict[str, Matrix]:
        """Per official detail field, its total for user `u` for every (day-1 route, day-2
        route) pair."""
        (out, back), (day1, day2) = legs, days
        prefs = self.prefs[u]
        glob = prefs.get("global_constraints", {})
        shape = (len(day1), len(day2))
        fields: dict[str, Matrix] = {}

        def add(field: str, value: Matrix | float) -> None:
            fields[field] = fields.get(field, np.zeros(shape)) + value

        for leg in (out, back):
            for field, score in _transport(glob.get("transport", {}), leg.option.mode):
                add(field, score)
        for field, score in _hotel(glob.get("hotel_preference", {}), hotel.category):
            add(field, score)
        city = prefs.get("city_specific_preferences", {}).get(self.city)
        m1 = np.array([self._mask(r) for r in day1])
        m2 = np.array([self._mask(r) for r in day2])
        sights = [
            _sights(city, self._names(mask), self.db, self.city) for mask in range(1 << len(self.sights))
        ]
        for field in sorted({field for scores in sights for field in scores}):
            column = np.array([scores.get(field, 0) for scores in sights], dtype=np.float64)
            add(field, column[m1[:, None] | m2[None, :]])
        for routes, axis in ((day1, 0), (day2, 1)):
            own = [self._route_fields(city, glob.get("intensity", {}), r) for r in routes]
            for field in sorted({field for scores in own for field in scores}):
                column = np.array([scores.get(field, 0) for scores in own], dtype=np.float64)
                add(field, column[:, None] if axis == 0 else column[None, :])
        budget = glob.get("avg_budget", 0)
        if budget:
            base = sum(
                self._declared(p) for p in (out.option.fare_fen, back.option.fare_fen, hotel.price_fen)
            )
            c1 = np.array([sum(self._declared(self._price(n)) for _, n in r.meals) for r in day1])
            c2 = np.array([sum(self._declared(self._price(n)) for _, n in r.meals) for r in day2])
            add("avg_budget", -2.0 * ((base + c1[:, None] + c2[None, :]) / 100 > budget))
        return fields

    def _route_fields(
        self, city: dict[str, Any] | None, intensity: dict[str, Any], route: Route
    ) -> dict[str, int]:
        """Per field, what a day route scores by its meals and its intensity."""
        out: dict[str, int] = {}
        parts = [part for _, name in route.meals for part in _meal(city, name, self._category(name))]
        parts += _intensity(intensity, len(route.sights), route.active_minutes)
        for field, score in parts:
            out[field] = out.get(field, 0) + score
        return out

    def _declared(self, price_fen: int) -> int:
        return lowest_cost_fen(price_fen) if self.tolerances else price_fen

    def _mask(self, route: Route) -> int:
        return sum(self.bit[name] for name in route.sights)

    def _names(self, mask: int) -> list[str]:
        return [p.name for p in self.sights if mask & self.bit[p.name]]

    def _category(self, name: str) -> str | None:
        return self.db.category(name, self.city)

    def _price(self, name: str) -> int:
        place = self.world.poi(self.city, name)
        assert place is not None
        return place.price_fen

    # -- plan JSON -------------------------------------------------------------------------------

    def _plan(
        self, out: Leg, back: Leg, hotel: PoiFact, teams: tuple[list[Any], list[Any]]
    ) -> dict[str, Any]:
        first, second = teams
        day1, checkin = self._block(first, None)
        day1.append(
            {
                "type": "hotel",
                "location": hotel.name,
                "start_time": hhmm(checkin),
                "end_time": hhmm(NIGHT_END),
                "participants": ["All"],
                "avg_cost": self._cny(hotel.price_fen),
            }
        )
        day2, _ = self._block(second, back.option.from_hub)
        return {
            "days": [
                {
                    "day": 1,
                    "date": self.dates[0].isoformat(),
                    "city_segments": [self._leg(out), {"city": self.city, "activities": day1}],
                },
                {
                    "day": 2,
                    "date": self.dates[1].isoformat(),
                    "city_segments": [{"city": self.city, "activities": day2}, self._leg(back)],
                },
            ]
        }

    def _block(
        self, teams: list[tuple[list[int], Route]], hub: str | None
    ) -> tuple[list[dict[str, Any]], int]:
        """A block's activities (sorted by start) and the time every team has arrived."""
        meet = max(route.end for _, route in teams)
        items: list[tuple[int, int, dict[str, Any]]] = []
        for k, (members, route) in enumerate(teams):
            who = ["All"] if len(teams) == 1 else [self.users[u] for u in members]
            now = route.steps[0].start
            for step in route.steps:
                if step.start > now and len(teams) > 1:
                    items.append(
                        (
                            now,
                            k,
                            {
                                "type": "rest",
                                "start_time": hhmm(now),
                                "end_time": hhmm(step.start),
                                "participants": who,
                            },
                        )
                    )
                items.append((step.start, k, self._activity(step, who)))
                now = step.end
            if now < meet and len(teams) > 1:
                items.append(
                    (
                        now,
                        k,
                        {
                            "type": "rest",
                            "start_time": hhmm(now),
                            "end_time": hhmm(meet),
                            "participants": who,
                        },
                    )
                )
        items.sort(key=lambda item: (item[0], item[1]))
        return [item for _, _, item in items], meet

    def _activity(self, step: Step, who: list[str]) -> dict[str, Any]:
        times = {"start_time": hhmm(step.start), "end_time": hhmm(step.end), "participants": who}
        if step.kind == "intracity_transport":
            return {
                "type": step.kind,
                "transport_mode": step.mode,
                "from": step.origin,
                "to": step.place,
                **times,
                "avg_cost": self._cny(step.cost_fen, lowest=False),
            }
        lowest = step.kind == "food"
        return {
            "type": step.kind,
            "location": step.place,
            **times,
            "avg_cost": self._cny(step.cost_fen, lowest=lowest),
        }

    def _leg(self, leg: Leg) -> dict[str, Any]:
        return {
            "type": "intercity_transport",
            "from_city": leg.option.from_city,
            "to_city": leg.option.to_city,
            "transport_mode": leg.option.mode,
            "start_time": hhmm(leg.depart),
            "end_time": hhmm(leg.arrive),
            "avg_cost": self._cny(leg.option.fare_fen),
        }

    def _cny(self, fen: int, *, lowest: bool = True) -> float | int:
        value = self._declared(fen) if lowest else fen
        return value // 100 if value % 100 == 0 else value / 100

    def _verify(self, plan: dict[str, Any]) -> int:
        """The scoring's value of a canonical plan; raises when strict rejects it (a bug of this
        search)."""
        violations = strict_violations(self.task, plan, self.world)
        if violations:
            raise AssertionError(f"canonical plan rejected by strict: {[v.code for v in violations]}\n{plan}")
        return self.scoring.value(self.task, plan, self.world)


def official_gu(task: Task, plan: dict[str, Any], world: WorldFacts) -> int:
    """The official GU total of a plan (the task's own table, the world's categories)."""
    cities = tuple(c for name in task.metadata.cities if (c := world.city(name)))
    result = evaluate_group_utility(
        build_view(plan, task.user_names), task.preference_table(), world_poi_db(world, cities)
    )
    total = result["total_score"]
    assert float(total).is_integer()
    return int(total)


def exhaustive_optimum(
    task: Task,
    world: WorldFacts,
    *,
    splits: bool = True,
    tolerances: bool = False,
    scoring: Scoring | None = None,
) -> ExhaustiveResult:
    """The best value (default: official GU) over the canonical strict plans of a tiny task
    (module docstring)."""
    return Search(task, world, splits=splits, tolerances=tolerances, scoring=scoring).run()


def _partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    head, rest = items[0], items[1:]
    for partition in _partitions(rest):
        yield [[head], *partition]
        for k in range(len(partition)):
            yield [*partition[:k], [head, *partition[k]], *partition[k + 1 :]]


def _forest(
    first: list[list[int]], second: list[list[int]], tables: Sequence[Matrix]
) -> tuple[float, dict[tuple[int, int], int]]:
    """Max over route choices of Σ_u tables[u][route of u's day-1 team, route of u's day-2 team]: the
    teams form a forest (edges: users), solved by max-plus message passing; the chosen route per team."""
    team1 = {u: k for k, team in enumerate(first) for u in team}
    team2 = {u: k for k, team in enumerate(second) for u in team}
    weight: dict[tuple[int, int], Matrix] = {}
    for u, table in enumerate(tables):
        key = (team1[u], team2[u])
        weight[key] = weight[key] + table if key in weight else table.copy()
    nodes = [(0, k) for k in range(len(first))] + [(1, k) for k in range(len(second))]
    near: dict[tuple[int, int], list[tuple[int, int]]] = {n: [] for n in nodes}
    for a, b in weight:
        near[(0, a)].append((1, b))
        near[(1, b)].append((0, a))
    choice: dict[tuple[int, int], int] = {}
    total = 0.0
    for root in nodes:
        if root in choice:
            continue
        order, parent = [root], {root: root}
        for node in order:
            for other in near[node]:
                if other not in parent:
                    parent[other] = node
                    order.append(other)
        edges = sum(len(near[n]) for n in order) // 2
        assert edges == len(order) - 1, "the teams of two blocks form a forest for at most 3 users"
        size = {n: tables[0].shape[n[0]] for n in order}
        inbox: dict[tuple[int, int], Matrix] = {n: np.zeros(size[n]) for n in order}
        argmax: dict[tuple[int, int], npt.NDArray[np.intp]] = {}
        for node in reversed(order[1:]):
            up = parent[node]
            w = weight[(up[1], node[1])] if up[0] == 0 else weight[(node[1], up[1])].T
            scores = w + inbox[node][None, :]
            argmax[node] = scores.argmax(axis=1)
            inbox[up] = inbox[up] + scores.max(axis=1)
        choice[root] = int(inbox[root].argmax())
        total += float(inbox[root][choice[root]])
        for node in order[1:]:
            choice[node] = int(argmax[node][choice[parent[node]]])
    return total, choice


def _transport(section: dict[str, Any], mode: str) -> list[tuple[str, int]]:
    must, reject = mode in section.get("must", []), mode in section.get("reject", [])
    if must or reject:
        return [("transport.must", 2)] * must + [("transport.reject", -2)] * reject
    if mode in section.get("prefer", []):
        return [("transport.prefer", 1)]
    return [("transport.avoid", -1)] if mode in section.get("avoid", []) else []


def _hotel(section: dict[str, Any], category: str) -> list[tuple[str, int]]:
    if category in section.get("prefer", []):
        return [("hotel_preference.prefer", 1)]
    return [("hotel_preference.avoid", -1)] if category in section.get("avoid", []) else []


def _sights(city: dict[str, Any] | None, names: list[str], db: Any, city_key: str) -> dict[str, int]:
    """Official attraction score of visiting `names` (each once) in a city, per field."""
    out: dict[str, int] = {}
    if city is None:
        return out
    section = city.get("attractions", {})
    strong = set()
    for field, value in (("must_visit", 2), ("reject_visit", -2)):
        for item in section.get(field, []):
            hits = [name for name in names if item in name]
            if hits:
                out[field] = out.get(field, 0) + value
                strong.update(hits)
    pref = section.get("category_pref", {})
    for name in names:
        category = db.category(name, city_key)
        if name in strong or category is None:
            continue
        for field, words, value in (
            ("category_pref.positive", pref.get("positive", []), 1),
            ("category_pref.negative", pref.get("negative", []), -1),
        ):
            if _word(words, name, category):
                out[field] = out.get(field, 0) + value
    return out


def _word(words: list[str], name: str, category: str) -> int:
    return int(any(word in name for word in words) or category in words)


def _meal(city: dict[str, Any] | None, name: str, category: str | None) -> list[tuple[str, int]]:
    if city is None or category is None:
        return []
    food = city.get("food", {})
    stages = (("must_eat", 2), ("reject_eat", -2), ("prefer_eat", 1), ("avoid_eat", -1))
    for field, value in stages:
        if any(item in name for item in food.get(field, [])):
            return [(field, value)]
    hard = [(field, value) for field, value in stages[:2] if category in food.get(field, [])]
    if hard:
        return hard
    return next(([(field, value)] for field, value in stages[2:] if category in food.get(field, [])), [])


def _intensity(section: dict[str, Any], count: int, minutes: int) -> list[tuple[str, int]]:
    max_poi, max_hours = section.get("max_poi_per_day", 0), section.get("max_active_hours", 0)
    out = []
    if bool(max_poi) and max_poi > 0 and count > max_poi:
        out.append(("intensity.max_poi_per_day", -2))
    if bool(max_hours) and max_hours > 0 and minutes / 60 > max_hours:
        out.append(("intensity.max_active_hours", -2))
    return out
