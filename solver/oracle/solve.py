"""Solve one task: the best strict-valid group plan found and a proven bound on its GU.

For every order of the task's cities two CP-SAT models are built from the same code
(`model.py`, `rules.py`): the *relaxed* model — restaurants and hotels merged into classes
that score alike (`catalog.classes`), every partition of the users into teams allowed, the
split penalty at its least over regroupings (`participants.phase_penalty`) — whose best bound
is an upper bound on the GU of every plan of the modelled strict space in that order; and the
*primal* model — a concrete shortlist of restaurants and hotels (`catalog.picks`), up to
`max_teams` teams — whose solutions are written as plans (`emit.py`). The greedy plan is the
warm start and the fallback witness. Every plan returned has been checked by the strict profile
and its official GU recomputed; the bound is the largest relaxed bound over the orders. Every
candidate is also checked by the official profile (given its POI file), and two plans are kept:
the strict-best and the best that both profiles accept; among plans of equal value the one with
fewer idle minutes, then the lower cost, wins (`tiebreak.py`).
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial
from typing import Any

from ortools.sat.python import cp_model

from solver.errors import TaskInputError
from solver.greedy import GreedyError, greedy_plan
from solver.oracle.blocks import TripFacts, trip_facts
from solver.oracle.bounds import trivial_bounds
from solver.oracle.catalog import CityCatalog, classes, picks
from solver.oracle.ceiling import Waived, ceiling_value, compromisable_users, waived_fields
from solver.oracle.clock import Clock
from solver.oracle.colgen import REDUCED_EPSILON, BoundRun, ColumnGeneration
from solver.oracle.cpsat_bound import proven_bound
from solver.oracle.emit import PlanWriter
from solver.oracle.hints import Solved as _Solved
from solver.oracle.hints import completion, hint_by_name, hint_from_plan
from solver.oracle.improve import Assignment, improve
from solver.oracle.integer_master import Pattern, pool_master
from solver.oracle.model import PlaceSet, TripModel, build_model
from solver.oracle.pattern_plan import (
    class_members,
    pattern_assignment,
    pattern_attractions,
    pattern_days,
    pattern_teams,
)
from solver.oracle.plan_columns import PlanColumnsError, plan_columns
from solver.oracle.pricing import Column
from solver.oracle.result import ModelSize, OracleResult, Status, Witness
from solver.oracle.rules import MAXMIN_WEIGHT, Goal, add_rules_and_objective
from solver.oracle.scores import ScoredUser, official_categories, scored_users
from solver.oracle.skeleton import Frame
from solver.oracle.split_seeds import agreement, partitions, split_seeds, teams_of_partitions, trip_seeds
from solver.oracle.tiebreak import idle_minutes, plan_cost_fen
from solver.oracle.waivers import settle
from verifier.model.plan import ALL
from verifier.model.task import Task
from verifier.official.fairness import fairness_of
from verifier.official.plan_view import PlanView, build_view
from verifier.official.poi_db import PoiDb
from verifier.official.utility import evaluate_group_utility
from verifier.official.validity import plan_validity_issues
from verifier.strict.profile import strict_violations
from verifier.world_facts import PoiKind, WorldFacts, place_names


@dataclass(frozen=True)
class OracleSettings:
    """How to solve: time limit per task (deterministic seconds of CP-SAT), CP-SAT workers
    (1, the default, makes a run reproducible for a seed; more run CP-SAT's parallel portfolio,
    whose results depend on thread timing), seed,
    splits on/off, team slots of the primal model, relative gap limit (0: prove optimality),
    restaurants and hotels kept per score class in the primal shortlist."""

    time_limit: float = 60.0
    workers: int = 1
    seed: int = 0
    splits: bool = True
    max_teams: int = 3
    gap_limit: float = 0.0
    picks: int = 2
    objective: str = "gu"
    """"gu" (the GU total), "maxmin" (the least user's utility), "frontier" (GU–GF points) or
    "ceiling" (the compromise-aware ceiling, `solver.oracle.ceiling`)."""
    gf_floor: float | None = None
    """Only plans whose users' utilities satisfy 100 × least ≥ floor × greatest (`rules.Goal`)."""


class OracleInputError(TaskInputError):
    """A task the oracle cannot take: `field` names the task field, `problem` says why."""


@dataclass(frozen=True)
class _Best:
    objective: int | None = None
    plan: dict[str, Any] | None = None
    per_user: dict[str, int] | None = None
    source: str = ""
    total: int = 0
    """The plan's GU total (= `objective` when the goal is GU)."""
    waived: dict[str, tuple[Waived, ...]] | None = None
    """The ceiling's waived fields per compromisable user (the ceiling goal only)."""
    official_issues: tuple[str, ...] | None = None
    """The official issue types rejecting the plan (None: not checked, no official POI file)."""
    idle: int = 0
    cost: int = 0

    def rank(self) -> tuple[int, int, int, int]:
        """Higher is better: goal value, GU total, then fewer idle minutes, then lower cost."""
        assert self.objective is not None
        return (self.objective, self.total, -self.idle, -self.cost)

    def valid_under(self) -> tuple[str, ...]:
        return ("strict", "official") if self.official_issues == () else ("strict",)


OFFICIAL_SOURCE = "cp-sat-official"
"""The `source` of a plan written without the attractions the official profile rejects."""

MORE_PATTERNS = 3
"""How many further patterns of a pool the oracle writes while its plans fall short of the
first (`_Search.next_patterns`)."""

PATTERN_SOURCE = "pattern"
"""The `source` of a plan written straight from the integer master's pattern."""

OBJECTIVES = ("gu", "maxmin", "frontier", "ceiling")
"""The values of `OracleSettings.objective`."""

FRONTIER_FLOORS = (None, 25.0, 50.0, 75.0, 100.0)
"""GF floors of the frontier's points (None: GU alone)."""


def solve_task(
    task: Task,
    world: WorldFacts,
    settings: OracleSettings,
    *,
    table: dict[str, Any] | None = None,
    official: PoiDb | None = None,
) -> OracleResult:
    """The oracle's record for `task` in `world`, scored against `table` (default: the task's
    own preference table). `official` is the world's official POI file (opening hours
    included) that the official profile checks plans against; without it no plan's official
    validity is known and the record says so (`both_valid_missing`). With
    `objective="frontier"`, the GU record (no floor) carries the
    GU–GF points found under each of `FRONTIER_FLOORS` in `extra["frontier"]`; with
    `objective="ceiling"`, `objective` and `bound` are compromise-aware ceiling values and
    `extra` carries the plan's GU and the fields waived. Raises `OracleInputError` for a task
    it cannot read."""
    if settings.time_limit <= 0:
        raise OracleInputError("time_limit", f"must be positive, not {settings.time_limit}")
    if settings.objective not in OBJECTIVES:
        raise OracleInputError(
            "objective", f"must be one of {', '.join(OBJECTIVES)}, not {settings.objective!r}"
        )
    if settings.objective == "ceiling" and settings.gf_floor is not None:
        raise OracleInputError("gf_floor", "a fairness floor does not apply to the ceiling objective")
    if settings.objective != "frontier":
        goal = Goal(settings.objective, settings.gf_floor)
        return _solve_goal(task, world, settings, table, goal, official=official)
    share = replace(settings, time_limit=settings.time_limit / len(FRONTIER_FLOORS), objective="gu")
    results = [
        _solve_goal(task, world, share, table, Goal("gu", floor), official=official)
        for floor in FRONTIER_FLOORS
    ]
    points = [
        {
            "gf_floor": floor,
            "gu": r.objective,
            "bound": r.bound,
            "status": str(r.status),
            "gf": r.extra.get("gf"),
        }
        for floor, r in zip(FRONTIER_FLOORS, results, strict=True)
    ]
    first = results[0]
    seconds = sum(r.seconds for r in results)
    return replace(
        first,
        objective_kind="frontier",
        time_limit=settings.time_limit,
        seconds=seconds,
        extra={**first.extra, "frontier": points},
    )


def _solve_goal(
    task: Task,
    world: WorldFacts,
    settings: OracleSettings,
    table: dict[str, Any] | None,
    goal: Goal,
    *,
    official: PoiDb | None,
) -> OracleResult:
    started = time.monotonic()
    table = task.preference_table() if table is None else table
    days, start, home, keys = frame_facts(task, world)
    users = scored_users(task, table, waivers=goal.kind == "ceiling")
    db = official_categories(world, keys)
    cities = city_catalogs(task, world, keys, users, db)
    _check_places(task, cities)
    search = _Search(
        task, world=world, settings=settings, table=table, db=db, users=users, goal=goal, official=official
    )
    sequences = list(dict.fromkeys(itertools.permutations(keys)))
    for sequence in sequences:
        search.greedy(tuple(cities[key].label for key in sequence))
    frames = [Frame(days, start, (home, *sequence, home)) for sequence in sequences]
    per_frame = trivial_bounds(world, frames, list(cities.values()))
    budget = _Budget(search.clock, len(frames), max(len(users), 1) if settings.splits else 1)
    decomposed = None
    if goal.kind == "gu" or (goal.kind == "ceiling" and not any(user.waivable for user in users)):
        decomposed = search.decomposed(days, start, home, cities, budget.decomposition_share())
    bounds: list[tuple[int, Frame]] = []
    for frame, per_user in zip(frames, per_frame, strict=True):
        order = {key: cities[key] for key in frame.stops[1:-1]}
        fallback = min(per_user) if goal.kind == "maxmin" else sum(per_user)
        if decomposed is not None:
            fallback = min(fallback, decomposed)
        value = search.bound(frame, order, budget.bound_share(), fallback=fallback, per_user=per_user)
        bounds.append((value, frame))
    bounds.sort(key=lambda row: -row[0])
    search.split(cities, budget.split_share(), budget.trip_share())
    pattern = search.pattern_of(budget.pattern_share())
    if pattern is not None and (search.best.objective is None or pattern.value > search.best.objective):
        budget.reserved = budget.layout_share()
    closing = (
        budget.closing_share() if search.decomposition is not None and search.decomposition.converged else 0.0
    )
    budget.reserved += closing
    searched = 0
    for value, frame in bounds:
        if search.best.objective is not None and value <= search.best.objective:
            continue
        if budget.spent() and searched:
            search.notes.append("time limit reached before every order was searched")
            break
        searched += 1
        order = {key: cities[key] for key in frame.stops[1:-1]}
        together = search.primal(frame, order, budget.primal_share(), teams=1, hint=None)
        if settings.splits and len(users) > 1 and not budget.spent():
            teams = min(len(users), settings.max_teams)
            search.primal(frame, order, budget.primal_share(), teams=teams, hint=together)
    budget.reserved = 0.0
    bound = max((value for value, _ in bounds), default=None)
    if pattern is not None and search.generation is not None:
        search.lay_out(pattern, search.generation.columns, cities, keep=closing)
    if closing and bound is not None and search.best.objective is not None and search.best.objective < bound:
        bound, closed, pool = search.close(bound, max(search.clock.left(), 0.5))
        if closed is not None:
            search.lay_out(closed, pool, cities, keep=0.0)
    return search.result(bound, time.monotonic() - started)


def frame_facts(task: Task, world: WorldFacts) -> tuple[int, Any, str, tuple[str, ...]]:
    """The trip's days, first date, home city and the world keys of its cities; raises
    `OracleInputError` naming the task field the world cannot read."""
    days = task.trip_days()
    if days is None or days < 2:
        raise OracleInputError("metadata.date", f"unreadable or too short trip {task.metadata.date!r}")
    start = task.departure_date()
    if start is None:
        raise OracleInputError("time", f"not a date: {task.time!r}")
    home = world.city(task.metadata.departure_city)
    if home is None:
        raise OracleInputError(
            "metadata.departure_city", f"the world knows no city {task.metadata.departure_city!r}"
        )
    keys: list[str] = []
    for k, name in enumerate(task.metadata.cities):
        key = world.city(name)
        if key is None:
            raise OracleInputError(f"metadata.cities[{k}]", f"the world knows no city {name!r}")
        keys.append(key)
    if not keys:
        raise OracleInputError("metadata.cities", "no city to visit")
    return days, start, home, tuple(keys)


def city_catalogs(
    task: Task, world: WorldFacts, keys: tuple[str, ...], users: tuple[ScoredUser, ...], db: PoiDb
) -> dict[str, CityCatalog]:
    """The catalog of each task city (by world key, in task order) for `users`, places scored
    with the official categories of `db`."""
    return {
        key: CityCatalog(world, key, label, users, db)
        for key, label in zip(keys, task.metadata.cities, strict=True)
    }


def _check_places(task: Task, cities: dict[str, CityCatalog]) -> None:
    """Every must_visit and reject_visit entry names a place the world knows in its city (some
    attraction's name contains it): a preference on an unknown place is a task the world
    cannot judge."""
    for user, entry in task.preference_table().items():
        prefs = entry.get("preference", entry) if isinstance(entry, dict) else {}
        per_city = prefs.get("city_specific_preferences", {}) if isinstance(prefs, dict) else {}
        for city in cities.values():
            section = per_city.get(city.label, {}) if isinstance(per_city, dict) else {}
            attractions = section.get("attractions", {}) if isinstance(section, dict) else {}
            names = [
                name for poi in city.world.pois(city.key, PoiKind.ATTRACTION) for name in place_names(poi)
            ]
            for field in ("must_visit", "reject_visit"):
                items = attractions.get(field, []) if isinstance(attractions, dict) else []
                for k, item in enumerate(items if isinstance(items, list) else []):
                    if isinstance(item, str) and not any(item in name for name in names):
                        path = f"user_preferences.{user}.preference.city_specific_preferences.{city.label}"
                        raise OracleInputError(
                            f"{path}.attractions.{field}[{k}]",
                            f"the world knows no place {item!r} in {city.label}",
                        )


BOUND_LINEARIZATION = 2
"""CP-SAT's `linearization_level` for the relaxed models: level 2 also linearises the circuit
and the enforced (big-M) rows, which lowered the proven bound by 15–25 % on the tasks tried
(task_000203: 67 → 50, task_004189: 92 → 82 in 40 s; docs/oracle.md)."""

MIN_BOUND_SECONDS = 1.0
"""A relaxed model given less time than this is not built: its trivial bound stands in."""


@dataclass
class _Budget:
    """How the time limit is spent, in deterministic seconds (`clock.Clock`): 20 % on the
    decomposed bound (GU), 40 % on the relaxed models of all orders — or on the decomposed
    bound too when a relaxed model's share would be under `MIN_BOUND_SECONDS` (none is then
    built: the trivial bound stands in for it; an order has `models` of them, one per user
    with splits, sharing its part) — 10 % on split seeds and 10 % on trip seeds (GU,
    with splits: `_Search.split`), 15 % on the decomposition's integer master (GU) and, when its
    pattern beats the warm starts, 10 % kept back (`reserved`) for laying the pattern out once
    the primal search is done (its next patterns' integer masters), 15 % kept back for closing the gap when
    the decomposition converged (`_Search.close`), the rest on primal models, order by order,
    each taking half of what is left."""

    clock: Clock
    orders: int
    models: int = 1
    reserved: float = 0.0
    """Seconds the primal search leaves for the pattern."""

    def decomposition_share(self) -> float:
        built = self.bound_share() / self.models >= MIN_BOUND_SECONDS
        relaxed = 0.0 if built else 0.4 * self.clock.limit
        return 0.2 * self.clock.limit + relaxed

    def pattern_share(self) -> float:
        return 0.15 * self.clock.limit

    def layout_share(self) -> float:
        return 0.1 * self.clock.limit

    def split_share(self) -> float:
        return 0.1 * self.clock.limit

    def trip_share(self) -> float:
        return 0.1 * self.clock.limit

    def closing_share(self) -> float:
        return 0.15 * self.clock.limit

    def bound_share(self) -> float:
        return 0.4 * self.clock.limit / self.orders

    def spent(self) -> bool:
        return self.clock.left() <= self.reserved

    def primal_share(self) -> float:
        return max(0.5 * (self.clock.left() - self.reserved), 0.5)


class _Search:
    """The incumbent, the models built and the notes of one task's solve."""

    def __init__(
        self,
        task: Task,
        *,
        world: WorldFacts,
        settings: OracleSettings,
        table: dict[str, Any],
        db: PoiDb,
        users: tuple[ScoredUser, ...],
        goal: Goal,
        official: PoiDb | None = None,
    ) -> None:
        self.task, self.world, self.settings, self.table, self.db, self.users = (
            task,
            world,
            settings,
            table,
            db,
            users,
        )
        self.goal, self.official = goal, official
        self.clock = Clock(settings.time_limit)
        self.compromisable = compromisable_users(table) if goal.kind == "ceiling" else frozenset()
        self.best = _Best()
        self.both = _Best()
        """The best plan both profiles accept."""
        self.warm: dict[tuple[str, ...], dict[str, Any]] = {}
        """Greedy plans by city order (task city names)."""
        self.warm_places: set[str] = set()
        self.notes: list[str] = []
        self.size: ModelSize | None = None
        self.decomposition: BoundRun | None = None
        self.generation: ColumnGeneration | None = None
        self.seed_plans: list[list[Column]] = []
        """The warm-start plans read as columns (`plan_columns.py`), one list a plan."""
        self.split_columns: list[Column] = []
        """The split and trip seeds around the best of them (`split`)."""
        self.facts: TripFacts | None = None
        self.pattern: dict[str, Any] | None = None
        """The integer master's pattern: its master value, size, teams and whether it was
        written as a plan strict accepts (`from_pattern`)."""
        self.closing: dict[str, Any] | None = None
        """What closing the gap did (`close`), for the record."""

    def greedy(self, labels: tuple[str, ...]) -> None:
        """The warm start of one city order (task city names): the greedy plan visiting the
        cities in that order, when strict accepts it; a candidate answer too."""
        metadata = self.task.metadata.model_copy(update={"cities": list(labels)})
        try:
            plan = greedy_plan(
                self.task.model_copy(update={"metadata": metadata}), self.world, effective=self.table
            )
        except GreedyError as error:
            self.notes.append(f"greedy {'→'.join(labels)}: {error}")
            return
        if not self._consider(plan, None, "greedy"):
            return
        self.warm[labels] = plan
        self.warm_places |= {
            act["location"]
            for day in plan["days"]
            for segment in day["city_segments"]
            for act in segment.get("activities", [])
            if act.get("type") in ("food", "hotel")
        }

    def primal(
        self,
        frame: Frame,
        cities: dict[str, CityCatalog],
        seconds: float,
        *,
        teams: int,
        hint: _Solved | None,
    ) -> _Solved | None:
        """Solve the primal model of one order with up to `teams` teams from the warm start (the
        whole-group solution, else the greedy plan) by day-window search; keep its plan."""
        warm = self.warm.get(tuple(city.label for city in cities.values()))
        fixed = None if warm is None else _transition_days(warm)
        trip = self._trip(frame, cities, teams=teams, relaxed=False, fixed=fixed)
        if hint is not None:
            hint_by_name(trip.model, hint)
        elif warm is not None:
            hint_from_plan(trip, warm)
        return self._improve(trip, frame, seconds)

    def split(self, cities: dict[str, CityCatalog], seconds: float, trip_seconds: float) -> None:
        """Split seeds and trip seeds (`split_seeds.py`) for the teams of the best partitions of
        the users into 2 to `max_teams` teams (with more users, every user alone too): each
        team priced in each block of the best seed plan with the rest of it held, within
        `seconds`, then each team's own trip on that plan's gates, within `trip_seconds`;
        their columns join the pool the integer master chooses from."""
        generation, run = self.generation, self.decomposition
        if generation is None or run is None or not generation.splits or not self.seed_plans:
            return
        best = max(self.seed_plans, key=lambda plan: sum(column.value for column in plan))
        places = list(cities.values())
        teams = teams_of_partitions(
            partitions(len(self.users), self.settings.max_teams, partial(agreement, places))
        )
        clock, trip_clock = Clock(seconds), Clock(trip_seconds)
        found = split_seeds(best, teams, generation.held_price, clock)
        trips = trip_seeds(best, teams, generation.held_price, trip_clock)
        generation.columns = [*generation.columns, *found, *trips]
        self.split_columns = [*found, *trips]
        run.split, run.trips = len(found), len(trips)
        self.clock.add(clock.used + trip_clock.used)

    def pattern_of(self, seconds: float) -> Pattern | None:
        """The integer master's pattern (`integer_master.py`: the best plan the decomposition's
        columns make) within `seconds`, the master over the seeds and their split and trip
        seeds solved first (never a pattern below theirs); None without a decomposition, or
        when no user is scored (an empty preference table: the columns then have no team to
        hand to a model)."""
        generation = self.generation
        if generation is None or not self.users:
            return None
        return pool_master(
            generation.master_skeleton,
            generation.columns,
            self.clock,
            seconds=seconds,
            seed=self.settings.seed,
            first=[*generation.seeds, *self.split_columns],
        )[0]

    def close(self, bound: int, seconds: float) -> tuple[int, Pattern | None, list[Column]]:
        """Close the gap of a converged decomposition (docs/oracle.md, Closing the gap): with
        the duals of its last round every column prices at most 0 (up to `REDUCED_EPSILON`), so
        a master solution worth more than the incumbent's I takes only columns of reduced cost
        above I − L (L the Lagrangian value there, at most the LP's). Those are enumerated
        (`ColumnGeneration.columns_above`) and the integer master solved over them: no master
        solution — hence no modelled plan — is worth more than the larger of I and its proven
        bound there. Within `seconds`; the bound (lowered when this proves less), the pool's
        best pattern (None: none found) and the pool (empty when the enumeration gave up)."""
        run, generation = self.decomposition, self.generation
        incumbent = self.best.objective
        assert run is not None and run.optimal is not None and run.optimal_value is not None
        assert generation is not None and incumbent is not None
        clock = Clock(seconds)
        # every column prices at most REDUCED_EPSILON: a solution's other columns (at most one
        # per user and block) may add that much each
        slack = REDUCED_EPSILON * len(generation.facts.blocks) * len(self.users)
        threshold = Fraction(incumbent) - run.optimal_value - slack
        columns = generation.columns_above(run.optimal, threshold, clock)
        record: dict[str, Any] = {"incumbent": incumbent, "threshold": float(threshold), "columns": None}
        pattern, proven = None, None
        pool = [] if columns is None else [*columns, *generation.columns]  # the seeds too
        if columns is not None:
            record["columns"] = len(columns)
            pattern, ceiling = pool_master(
                generation.master_skeleton,
                pool,  # the generated columns too, whatever the labelling reaches
                clock,
                seconds=max(clock.left(), 0.1),
                seed=self.settings.seed,
            )
            if ceiling is not None:
                proven = max(incumbent, math.floor(ceiling))
                record["ceiling"] = float(ceiling)
        record["bound"] = proven
        record["seconds"] = round(clock.used, 3)
        self.clock.add(clock.used)
        self.closing = record
        if proven is None:
            self.notes.append("closing the gap: the enumeration or its master did not finish in time")
            return bound, pattern, pool
        return min(bound, proven), pattern, pool

    def lay_out(
        self, pattern: Pattern, pool: Sequence[Column], cities: dict[str, CityCatalog], *, keep: float
    ) -> None:
        """`from_pattern`, then `next_patterns` over `pool` (the columns `pattern` was chosen
        from), each in the time left but `keep` seconds (at least 0.5 and 1 s)."""
        facts = self.facts
        if facts is None:
            return
        self.from_pattern(pattern, facts, cities)
        self.next_patterns(pool, pattern, facts, cities, max(self.clock.left() - keep, 1.0))

    def from_pattern(self, pattern: Pattern, facts: TripFacts, cities: dict[str, CityCatalog]) -> None:
        """The pattern written straight as a plan (`_lay`), when its master value — no less than
        what a plan written from it is worth, its classes relaxing the places — beats the
        incumbent (the seeds make the greedy plans patterns)."""
        self.pattern = {"value": float(pattern.value), "columns": len(pattern.columns), "used": False}
        if self.best.objective is not None and pattern.value <= self.best.objective:
            return
        teams, written = self._lay(pattern, facts, cities)
        self.pattern.update(used=True, teams=teams, written=written)

    def _lay(self, pattern: Pattern, facts: TripFacts, cities: dict[str, CityCatalog]) -> tuple[int, bool]:
        """The pattern written (`_write_pattern`) on a bare model of it (`pattern_model`); its
        teams and whether strict accepted the written plan."""
        return pattern_teams(pattern), self._write_pattern(
            self.pattern_model(pattern, facts, cities), facts, pattern
        )

    def pattern_model(self, pattern: Pattern, facts: TripFacts, cities: dict[str, CityCatalog]) -> TripModel:
        """A bare primal model (variables only: it is written, not solved; `_trip`) of the
        pattern's order with as many teams as its busiest block and its attractions only (its
        classes' members in the shortlists). Bare: building the constraints of a six-user
        pattern's model took 5–7 CPU s (uncharged) and up to 800 MiB, and completing its hint
        with CP-SAT gave the final plan on none of the 304 gtb tasks whose pattern was laid at
        10 s (docs/oracle.md, Plans from the columns)."""
        order = pattern.order(facts.home, list(cities))
        frame = Frame(facts.days, facts.start, (facts.home, *order, facts.home))
        self.warm_places |= class_members(pattern, facts, cities)
        return self._trip(
            frame,
            {key: cities[key] for key in order},
            teams=pattern_teams(pattern),
            relaxed=False,
            fixed=pattern_days(pattern, order, facts.days),
            attractions=pattern_attractions(pattern),
            bare=True,
        )

    def next_patterns(
        self,
        pool: Sequence[Column],
        first: Pattern,
        facts: TripFacts,
        cities: dict[str, CityCatalog],
        seconds: float,
    ) -> None:
        """While the best plan is worth less than `first` (the pool's best pattern), write the
        pool's next patterns worth more than the best plan, each cut off once written (at most
        `MORE_PATTERNS`, within `seconds`): equal-valued patterns are not equally writable — a
        class's closest member arc by arc, the regrouping rule — so another may be written at
        its value where the first was not. The record keeps how many were written
        (`extra.decomposition.pattern.more`)."""
        generation = self.generation
        if generation is None or self.pattern is None or not self.pattern["used"]:
            return
        started = self.clock.used
        tried = [first]
        for _ in range(MORE_PATTERNS):
            left = seconds - (self.clock.used - started)
            if self.best.objective is None or self.best.objective >= first.value or left <= 0:
                break
            pattern, _ = pool_master(
                generation.master_skeleton,
                pool,
                self.clock,
                seconds=left / 2,
                seed=self.settings.seed,
                excluded=tried,
            )
            if pattern is None or pattern.value <= self.best.objective:
                break
            tried.append(pattern)
            self._lay(pattern, facts, cities)
        self.pattern["more"] = len(tried) - 1

    def _write_pattern(self, trip: TripModel, facts: TripFacts, pattern: Pattern) -> bool:
        """Write the pattern as a plan straight from its columns (`pattern_plan.py`), compacted,
        else as timed; whether strict accepted it. Each meal is at its class's member that
        finishes first. When that plan charges users for their budget (the master counts a meal
        at its class's least cost) or their intensity caps (a class's travel is its closest
        member's, arc by arc), the teams holding them are written again — at the cheapest
        members, or the nearest — until no new user is charged; the best plan is kept."""
        thrifty: frozenset[int] = frozenset()
        tired: frozenset[int] = frozenset()
        written = False
        while (
            plan := self._write_values(
                trip, pattern_assignment(trip, facts, pattern, thrifty=thrifty, tired=tired)
            )
        ) is not None:
            written = True
            over, capped = self._charged(plan)
            if over <= thrifty and capped <= tired | thrifty:
                break
            thrifty |= over
            tired |= capped
        return written

    def _write_values(self, trip: TripModel, values: Assignment) -> dict[str, Any] | None:
        """The plan of `values` (a pattern's), compacted, else as timed, that strict accepts."""
        users, children = tuple(self.task.user_names), tuple(self.task.child_names)
        for compact in (True, False):
            plan = PlanWriter(trip, values, users, children, compact=compact).plan()
            if self._consider(plan, None, PATTERN_SOURCE):
                return plan
        return None

    def _charged(self, plan: dict[str, Any]) -> tuple[frozenset[int], frozenset[int]]:
        """The scored users (indices) the official GU charges in `plan` for their budget, and
        those it charges for their intensity caps."""
        result = evaluate_group_utility(build_view(plan, self.task.user_names), self.table, self.db)

        def charged(part: str) -> frozenset[int]:
            return frozenset(
                u
                for u, user in enumerate(self.users)
                if result["per_user"].get(user.name, {}).get("breakdown", {}).get(part, 0) < 0
            )

        return charged("budget"), charged("intensity")

    def _improve(self, trip: TripModel, frame: Frame, seconds: float) -> _Solved | None:
        """Improve the completion of the model's hint (else any solution) by day-window search
        within `seconds` and keep its plan."""
        seed = self.settings.seed
        start = completion(trip.model, seconds / 4, seed, self.clock) or self._first(
            trip, max(seconds / 2, 2.0)
        )
        if start is None:
            return None
        solution, value = improve(
            trip.model,
            start,
            frame.days,
            clock=Clock(seconds),
            step=seconds / 8,
            seed=seed,
            workers=self.settings.workers,
            account=self.clock,
            settle=partial(settle, trip.waivers) if trip.waivers else None,
        )
        self._write(trip, Assignment(solution), round(value))
        return _Solved(trip.model, solution)

    def _write(self, trip: TripModel, solution: Assignment, value: int) -> None:
        """Consider the solution's plan, compacted (as solved when strict rejects that); with
        the official POI file also the plan without the attractions official rejects
        (`OFFICIAL_SOURCE`), when it differs."""
        users, children = tuple(self.task.user_names), tuple(self.task.child_names)
        written: list[dict[str, Any]] = []
        for official in dict.fromkeys((None, self.official)):
            for compact in (True, False):
                plan = PlanWriter(trip, solution, users, children, compact=compact, official=official).plan()
                if plan in written:
                    break
                written.append(plan)
                source = "cp-sat" if official is None else OFFICIAL_SOURCE
                if self._consider(plan, value if official is None else None, source):
                    break

    def _first(self, trip: TripModel, seconds: float) -> list[int] | None:
        """Any solution of the model, when no warm start fits it."""
        solver = self._solver(seconds)
        status = solver.solve(trip.model)
        self.clock.charge(solver)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        return list(solver.response_proto.solution)

    def bound(
        self,
        frame: Frame,
        cities: dict[str, CityCatalog],
        seconds: float,
        *,
        fallback: int,
        per_user: Sequence[int],
    ) -> int:
        """A proven upper bound for one order: without splits the relaxed model's; with splits the
        sum of every user's own relaxed optimum (a user's utility in any plan, split or not, is at
        most what the best plan for that user alone gives, and the split penalty is never
        negative), each capped by that user's own trivial bound (`per_user`) — never by the
        group's `fallback`, which bounds the total only (a user may score more than the group).
        The trivial bound where CP-SAT returns none; minus infinity when the order has no
        modelled plan."""
        if not self.settings.splits or len(self.users) == 1:
            return self._relaxed(frame, cities, self.users, seconds, fallback)
        values = []
        for user, own in zip(self.users, per_user, strict=True):
            alone = {key: city.alone(user) for key, city in cities.items()}
            value = self._relaxed(frame, alone, (user,), seconds / len(self.users), own)
            if value < -(10**8):
                return value
            values.append(value)
        return min(min(values) if self.goal.kind == "maxmin" else sum(values), fallback)

    def decomposed(
        self, days: int, start: dt.date, home: str, cities: dict[str, CityCatalog], seconds: float
    ) -> int:
        """The decomposed bound (`colgen.py`) within `seconds` deterministic seconds; its run
        is kept for the record (`extra["decomposition"]`)."""
        facts = trip_facts(days, start, home, cities)
        generation = ColumnGeneration(facts, cities, self.users, self.settings.splits)
        everyone = tuple(range(len(self.users)))
        for order, plan in self.warm.items() if everyone else ():
            try:
                self.seed_plans.append(plan_columns(facts, cities, self.users, plan, everyone))
            except PlanColumnsError as error:
                self.notes.append(f"greedy {'→'.join(order)} gives no columns: {error}")
        generation.seeds += [column for plan in self.seed_plans for column in plan]
        run = generation.run(Clock(seconds))
        self.clock.add(run.seconds)
        self.decomposition, self.generation, self.facts = run, generation, facts
        return 10**9 if run.bound is None else run.bound

    def _relaxed(
        self,
        frame: Frame,
        cities: dict[str, CityCatalog],
        users: tuple[ScoredUser, ...],
        seconds: float,
        fallback: int,
    ) -> int:
        if seconds < MIN_BOUND_SECONDS:
            self.notes.append(f"no time for a relaxed model of {'→'.join(frame.stops)}: trivial bound used")
            return fallback
        goal = Goal(
            self.goal.kind if len(users) > 1 else "gu", self.goal.gf_floor if len(users) > 1 else None, False
        )
        trip = self._trip(frame, cities, teams=1, relaxed=True, users=users, goal=goal)
        warm = self.warm.get(_labels(trip))
        if warm is not None:
            hint_from_plan(trip, warm)
        solver = self._solver(seconds)
        solver.parameters.linearization_level = BOUND_LINEARIZATION
        status = solver.solve(trip.model)
        self.clock.charge(solver)
        if status == cp_model.INFEASIBLE:
            return -(10**9)
        bound = proven_bound(solver, status)
        if bound is not None:
            return min(math.floor(bound + 1e-6), fallback)
        self.notes.append(
            f"relaxed model of {'→'.join(frame.stops)} gave no bound in time: trivial bound used"
        )
        return fallback

    def _trip(
        self,
        frame: Frame,
        cities: dict[str, CityCatalog],
        *,
        teams: int,
        relaxed: bool,
        users: tuple[ScoredUser, ...] | None = None,
        fixed: tuple[int, ...] | None = None,
        goal: Goal | None = None,
        attractions: frozenset[str] | None = None,
        bare: bool = False,
    ) -> TripModel:
        """The model of `frame` over `cities` (`attractions`: only those, by name; None: all);
        `bare`: variables only, no route constraint, rule or objective (`model.build_model`), a
        model to write a pattern's values from."""
        users = self.users if users is None else users
        place_sets: dict[str, PlaceSet] = {}
        for key, city in cities.items():
            kept = tuple(a for a in city.attractions if attractions is None or a.name in attractions)
            if relaxed:
                place_sets[key] = PlaceSet(
                    city, kept, classes(city, city.restaurants), classes(city, city.hotels)
                )
            else:
                keep = frozenset(self.warm_places)
                restaurants = picks(city, city.restaurants, kept, self.settings.picks, keep)
                hotels = picks(city, city.hotels, kept, 1, keep)
                place_sets[key] = PlaceSet(city, kept, restaurants, hotels)
        trip = build_model(
            frame,
            place_sets,
            users=len(users),
            children=bool(self.task.child_names),
            teams=teams,
            relaxed=relaxed,
            fixed=fixed,
            bare=bare,
        )
        if bare:
            return trip
        add_rules_and_objective(trip, users, self.goal if goal is None else goal)
        proto = trip.model.proto
        size = ModelSize(len(proto.variables), len(proto.constraints))
        if self.size is None or size.variables > self.size.variables:
            self.size = size
        return trip

    def _solver(self, seconds: float) -> cp_model.CpSolver:
        """A CP-SAT solver set for a reproducible run: one worker, `seconds` of deterministic
        time."""
        solver = cp_model.CpSolver()
        parameters = solver.parameters
        parameters.num_workers = self.settings.workers
        parameters.random_seed = self.settings.seed
        parameters.max_deterministic_time = seconds
        parameters.relative_gap_limit = self.settings.gap_limit
        return solver

    def _consider(self, plan: dict[str, Any], objective: int | None, source: str) -> bool:
        """Keep a plan that strict accepts and that beats the incumbent (False: strict rejects
        it) — as the strict-best, and as the both-valid best when the official profile accepts
        it too; note any disagreement between a model's objective and the official GU."""
        violations = strict_violations(self.task, plan, self.world)
        if violations:
            self.notes.append(f"{source} plan rejected by strict: {sorted({v.code for v in violations})}")
            return False
        view = build_view(plan, self.task.user_names)
        result = evaluate_group_utility(view, self.table, self.db)
        total = int(result["total_score"])
        if objective is not None and self.goal.kind == "gu" and total != objective:
            self.notes.append(f"{source}: model objective {objective} but official GU {total}")
        per_user = {name: int(user["total_score"]) for name, user in result["per_user"].items()}
        least = min(per_user.values(), default=0)
        if not self._admits(per_user):
            return True
        waived = None
        if self.goal.kind == "ceiling":
            value = ceiling_value(result, self.compromisable)
            if objective is not None and objective != value:
                self.notes.append(f"{source}: model objective {objective} but official ceiling {value}")
            waived = waived_fields(result, self.compromisable)
        else:
            value = least if self.goal.kind == "maxmin" else total
        fair = MAXMIN_WEIGHT * least + total
        if objective is not None and self.goal.kind == "maxmin" and objective != fair:
            self.notes.append(f"{source}: model objective {objective} but official {fair}")
        users = self.task.user_names
        candidate = _Best(
            value,
            plan,
            per_user,
            source,
            total,
            waived,
            self._official_issues(view),
            idle_minutes(plan, users),
            plan_cost_fen(plan, users),
        )
        if self.best.objective is None or candidate.rank() > self.best.rank():
            self.best = candidate
        if candidate.official_issues == () and (
            self.both.objective is None or candidate.rank() > self.both.rank()
        ):
            self.both = candidate
        return True

    def _official_issues(self, view: PlanView) -> tuple[str, ...] | None:
        """The official issue types of a walked plan, sorted (None without the official POI file)."""
        if self.official is None:
            return None
        issues = plan_validity_issues(view, self.official)
        return tuple(sorted({str(issue.issue["type"]) for issue in issues}))

    def _admits(self, per_user: dict[str, int]) -> bool:
        """The plan meets the goal's fairness floor (the warm starts may not)."""
        floor = self.goal.gf_floor
        if floor is None or not per_user:
            return True
        return 100 * min(per_user.values()) >= math.ceil(floor) * max(per_user.values())

    def result(self, bound: int | None, seconds: float) -> OracleResult:
        best, settings = self.best, self.settings
        if bound is not None and best.objective is not None and bound < best.objective:
            self.notes.append(f"bound {bound} below a verified plan's {best.objective}: bound raised to it")
            bound = best.objective
        if best.objective is None:
            status = Status.INFEASIBLE if bound is not None and bound < -(10**8) else Status.UNKNOWN
            bound = None if status is Status.INFEASIBLE else bound
        elif bound is not None and best.objective >= bound:
            status = Status.OPTIMAL
        else:
            status = Status.FEASIBLE
        return OracleResult(
            task_id=self.task.task_id,
            status=status,
            objective=best.objective,
            bound=bound,
            per_user=best.per_user or {user.name: 0 for user in self.users},
            plan=best.plan,
            seconds=round(seconds, 3),
            seed=settings.seed,
            workers=settings.workers,
            time_limit=settings.time_limit,
            gap_limit=settings.gap_limit,
            splits=settings.splits,
            splits_used=_splits(best.plan),
            source=best.source,
            model_size=self.size,
            notes=tuple(dict.fromkeys(self.notes)),  # each said once (one a user's relaxed model)
            objective_kind=self.goal.kind,
            extra=self._extra(),
            valid_under=best.valid_under() if best.plan is not None else (),
            official_issues=best.official_issues or (),
            idle_minutes=None if best.plan is None else best.idle,
            cost_fen=None if best.plan is None else best.cost,
            both_valid=_witness(self.both),
            both_valid_missing=self._both_missing(),
        )

    def _both_missing(self) -> str | None:
        """Why the record has no both-valid plan (None when it has one)."""
        if self.both.plan is not None:
            return None
        if self.official is None:
            return "official validity not checked: no official POI file given"
        if self.best.plan is None:
            return "no plan found"
        return "no plan found that both profiles accept"

    def _extra(self) -> dict[str, Any]:
        """The best plan's GU total and official fairness (GF); for the ceiling, the fields it
        waives per compromisable user (most negative first); the decomposed bound's run and
        multipliers (`colgen.BoundRun.to_json`)."""
        extra: dict[str, Any] = {}
        if self.decomposition is not None:
            extra["decomposition"] = self.decomposition.to_json()
            if self.pattern is not None:
                extra["decomposition"]["pattern"] = self.pattern
            if self.closing is not None:
                extra["decomposition"]["closing"] = self.closing
        if self.best.per_user is None:
            return extra
        gf = fairness_of(self.best.per_user)["fairness_score"]
        extra |= {"gu": self.best.total, "gf": gf, "gf_floor": self.goal.gf_floor}
        if self.best.waived is not None:
            extra["waived"] = {
                user: [field.to_json() for field in fields] for user, fields in self.best.waived.items()
            }
        return extra


def _witness(best: _Best) -> Witness | None:
    if best.plan is None or best.objective is None or best.per_user is None:
        return None
    return Witness(
        best.plan,
        best.objective,
        best.total,
        best.per_user,
        best.source,
        best.valid_under(),
        best.idle,
        best.cost,
        best.official_issues or (),
    )


def _transition_days(plan: dict[str, Any]) -> tuple[int, ...]:
    """The day of each intercity leg of a plan, in order."""
    return tuple(
        day
        for day, entry in enumerate(plan["days"], start=1)
        for segment in entry["city_segments"]
        if segment.get("type") == "intercity_transport"
    )


def _labels(trip: TripModel) -> tuple[str, ...]:
    """The task city names of a model's order."""
    return tuple(trip.place_sets[key].city.label for key in trip.frame.stops[1:-1])


def _splits(plan: dict[str, Any] | None) -> int:
    """City blocks of `plan` where the group splits."""
    if plan is None:
        return 0
    return sum(
        1
        for day in plan["days"]
        for segment in day["city_segments"]
        if any(act.get("participants") not in (None, [ALL]) for act in segment.get("activities", []))
    )
