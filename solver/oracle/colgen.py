"""Column generation for the decomposed bound.

See docs/oracle.md#the-decomposed-bound-column-generation-over-day-blocks.

Each round solves the master LP over the columns so far (`master.LinearMaster`), prices — at
a point between its duals and the multipliers of the best bound so far (`smoothed`) — every
block for the whole group and — with splits — for every single user, and for larger teams
only where the single users' answers leave room (a team's best reduced cost is at most the sum
of its members' best, less the block's team dual counted once: `team_ceiling`), adds the
columns of positive reduced cost, and evaluates the Lagrangian function at the round's duals
(`master.lagrangian`, a block's columns bounded by the best packing of disjoint teams:
`block_ceilings`). Every round's value is a proven bound, so a run stopped by its time
limit keeps the best one; when a round adds no column and every pricing was solved to
optimality, the LP is optimal over all columns and the bound equals its value. Each call seeks
only columns above a floor (`single_floor`): the packing counts positive ceilings only. A
converged run's last duals also let `columns_above` enumerate every column a master solution
better than a given plan may take (closing the gap, `solve._Search.close`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from solver.oracle.blocks import TripFacts
from solver.oracle.catalog import CityCatalog
from solver.oracle.clock import Clock
from solver.oracle.labels import BlockLabels
from solver.oracle.master import BUDGET_UNIT, LinearMaster, Skeleton, lagrangian, skeleton
from solver.oracle.pricing import Column, Priced, RowKey, reduced_cost
from solver.oracle.scores import ScoredUser
from solver.oracle.warm_duals import warm_duals

FIRST_WORK_LIMIT = 1_000_000
"""The most work (`labels._Search.work`) a pricing call of the first rounds may do (heuristic
pricing; escalated, see `work_limit`)."""

FIRST_ROUNDS = 20
"""The first work limit is cut so that this many rounds fit in the clock (`first_limit`)."""

LEAST_WORK_LIMIT = 10_000
"""The least first work limit, however short the clock."""

FIRST_PASS_WORK = 1
"""The work limit of the first pass's calls (`ColumnGeneration.first_pass`): below any
origin's bound, so that a call returns the highest of its origins' bounds."""

SPLIT_WORK_LIMIT = 300_000
"""The most work a split seed's pricing call may do beyond its first dive (`held_price`)."""

SMOOTHING = Fraction(7, 10)
"""Wentges' α: a round prices at the point this far from the master's duals back toward the
stability centre (`smoothed`); after a round whose columns all fail to cut the master's duals
(a mis-price) the next prices at α − (1 − α)·k, down to the master's duals themselves."""

REDUCED_EPSILON = Fraction(1, 10**6)
"""A column enters the master when its exact reduced cost exceeds this."""

WORK_SECONDS = 2.5e-7
"""Deterministic seconds charged per unit of pricing work (measured: 0.16–0.22 µs a unit on the
whole group's first blocks of gtb tasks 000785, 004175 and 000203, 2–5 million units a call;
0.29 µs over the whole generation of the six-user task_004376, its LPs included)."""

HOP_WORK = 20
"""Work units charged per travel time a block's graph computes (measured on task_000785's
blocks, catalog caches warm: 2.5–5.5 µs a pair, about 20 units of pricing work)."""

LOOKUP_WORK = 2
"""Work units charged per travel time a block's graph finds already computed (measured on
task_000539's third day in 广州市: 160,801 of them in 0.06 s, 0.37 µs each)."""

LP_SECONDS = 8e-9
"""Deterministic seconds charged per simplex iteration of the master LP and per row and
variable of that LP (GLOP reports iterations, not time; an iteration's cost grows with the LP:
measured 4.8–9.6 ns a row and variable from 2,700 to 34,600 of them, on tasks 000854, 001419
and 004329)."""

Team = tuple[int, ...]
Group = tuple[tuple[int, str], Team]


@dataclass
class BoundRun:
    """The state and answer of one column generation."""

    value: Fraction | None = None
    """The best (least) Lagrangian value found."""
    first: Fraction | None = None
    """The Lagrangian value of the first pass (`ColumnGeneration.first_pass`)."""
    duals: dict[RowKey, Fraction] = field(default_factory=dict)
    """The multipliers of `value`."""
    optimal: dict[RowKey, Fraction] | None = None
    """When the run converged: the duals of its last round, under which every column's
    reduced cost is proven at most `REDUCED_EPSILON` (what `columns_above` needs)."""
    optimal_value: Fraction | None = None
    """The Lagrangian value at `optimal`."""
    lp: float | None = None
    converged: bool = False
    rounds: int = 0
    columns: int = 0
    """Columns generated."""
    seeded: int = 0
    """Columns read from plans before the first round (`plan_columns.py`)."""
    split: int = 0
    """Columns priced after the run for the teams of the best seed's partitions, block by
    block (`split_seeds.split_seeds`), added to the pool only."""
    trips: int = 0
    """Columns priced after those for the same teams' own trips on the best seed's gates
    (`split_seeds.trip_seeds`), added to the pool only."""
    seconds: float = 0.0
    """Deterministic seconds charged (pricing labels and simplex iterations)."""

    @property
    def bound(self) -> int | None:
        """The proven integer bound: the floor of `value`."""
        return None if self.value is None else math.floor(self.value)

    def to_json(self) -> dict[str, Any]:
        """The record's `extra["decomposition"]`: the bound, how it was reached, and its
        multipliers (row key, exact value "n/d"), from which `certify.py` recomputes it."""
        return {
            "bound": self.bound,
            "lagrangian": None if self.value is None else float(self.value),
            "first": None if self.first is None else float(self.first),
            "lp": self.lp,
            "converged": self.converged,
            "rounds": self.rounds,
            "columns": self.columns,
            "seeded": self.seeded,
            "split": self.split,
            "trips": self.trips,
            "seconds": round(self.seconds, 3),
            "multipliers": [
                [key_to_json(key), f"{value.numerator}/{value.denominator}"]
                for key, value in sorted(self.duals.items(), key=lambda kv: repr(kv[0]))
            ],
        }


def key_to_json(key: object) -> Any:
    """A row key as JSON (tuples become lists)."""
    return [key_to_json(part) for part in key] if isinstance(key, tuple) else key


def key_from_json(value: Any) -> Any:
    """A row key read back from JSON (lists become tuples)."""
    return tuple(key_from_json(part) for part in value) if isinstance(value, list) else value


def teams_of(users: int, splits: bool) -> list[Team]:
    """Every team a block may have: the whole group, and with splits every non-empty subset."""
    everyone = tuple(range(users))
    if not splits or users == 1:
        return [everyone]
    return [team for size in range(users, 0, -1) for team in itertools.combinations(everyone, size)]


def block_ceilings(ceilings: Mapping[Group, Fraction]) -> dict[tuple[int, str], Fraction]:
    """Per block, an upper bound on the reduced costs of the columns a plan chooses there: the
    best packing of disjoint teams by their ceilings (`ceilings`: per (block, team), an upper
    bound on the best column's reduced cost). A plan's columns in a block cover each user at
    most once (the block's partition rows), so they are such a packing; summing every team's
    ceiling instead would count a user once per team it belongs to."""
    by_block: dict[tuple[int, str], dict[Team, Fraction]] = {}
    for (block, team), ceiling in ceilings.items():
        by_block.setdefault(block, {})[team] = ceiling
    return {block: best_packing(teams)[0] for block, teams in by_block.items()}


def best_packing(ceilings: Mapping[Team, Fraction]) -> tuple[Fraction, list[Team]]:
    """The set of disjoint teams of largest total ceiling (only positive ones count), and that
    total: a dynamic programme over member sets, each set's least member either left out or
    packed with one team holding it."""
    teams = {sum(1 << u for u in team): (value, team) for team, value in ceilings.items() if value > 0}
    full = 0
    for mask in teams:
        full |= mask
    best: list[tuple[Fraction, int]] = [(Fraction(0), 0)] * (full + 1)
    for mask in range(1, full + 1):
        if mask & ~full:
            continue
        low = mask & -mask
        choice = (best[mask & ~low][0], 0)
        for team, (value, _) in teams.items():
            if team & low and team & mask == team and value + best[mask & ~team][0] > choice[0]:
                choice = (value + best[mask & ~team][0], team)
        best[mask] = choice
    chosen: list[Team] = []
    mask = full
    while mask:
        team = best[mask][1]
        if team:
            chosen.append(teams[team][1])
            mask &= ~team
        else:
            mask &= mask - 1
    return best[full][0], sorted(chosen)


def single_floor(users: int, teams_dual: Fraction) -> Fraction:
    """The floor below which a single user's best reduced cost need not be known: with every
    member's ceiling at most this, no team smaller than the group has a positive
    `team_ceiling` (k members: k·(floor + t) − t ≤ 0 for t the team dual), and the packing
    counts positive ceilings only."""
    return min(Fraction(0), -max(teams_dual, Fraction(0)) * (users - 1) / users)


def team_ceiling(team: Team, singles: Mapping[int, Fraction], teams_dual: Fraction) -> Fraction:
    """An upper bound on the reduced cost of any column of a team smaller than the group from
    its members' single-user ceilings: every term of a column belongs to one member, and the
    block's team row charges each column once."""
    return sum((singles[u] + teams_dual for u in team), Fraction(0)) - teams_dual


@dataclass(frozen=True)
class _Pricing:
    """One pricing of every block at one point (`ColumnGeneration._smoothed_round`)."""

    duals: dict[RowKey, Fraction]
    value: Fraction | None
    """Its Lagrangian value (None: no skeleton holds)."""
    proven: bool
    """Whether every ceiling was proven (no call cut short)."""
    found: bool
    """Whether it found a column."""


@dataclass
class ColumnGeneration:
    """One task's column generation."""

    facts: TripFacts
    cities: Mapping[str, CityCatalog]
    users: tuple[ScoredUser, ...]
    splits: bool
    work_limit: int | None = None
    """Work a pricing call may do (None: `first_limit` when the run starts); multiplied by 4
    after a round that adds no column without proving that none exists."""
    master_skeleton: Skeleton = field(init=False)
    columns: list[Column] = field(init=False, default_factory=list)
    """Every column of the master: the seeds, then those generated (the pool the integer
    master chooses from)."""
    seeds: list[Column] = field(default_factory=list)
    """Columns the first master starts with (`plan_columns.py`: the warm-start plans)."""
    pricers: dict[tuple[int, str], BlockLabels] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        splits = self.splits and len(self.users) > 1
        self.splits = splits
        self.master_skeleton = skeleton(self.facts, self.cities, self.users, splits=splits)

    def pricer(self, block: tuple[int, str], clock: Clock | None = None) -> BlockLabels:
        """The labelling pricer of `block`, built on first use; building it (its graph's
        travel minutes: `HOP_WORK` a pair the city computes anew, `LOOKUP_WORK` one it has
        computed before, for another block or another search) is charged to `clock`."""
        if block not in self.pricers:
            scale = tuple(BUDGET_UNIT for _ in self.users)
            spec = self.facts.blocks[block]
            loose = len(self.facts.cities) > 1
            city = self.cities[spec.city]
            known = city.travels_known()
            pricer = BlockLabels(spec, city, self.users, scale, loose)
            self.pricers[block] = pricer
            if clock is not None:
                computed = city.travels_known() - known
                work = computed * HOP_WORK + (pricer.graph.pairs - computed) * LOOKUP_WORK
                clock.add(work * WORK_SECONDS)
        return self.pricers[block]

    def first_limit(self, seconds: float) -> int:
        """The first work limit for a clock of `seconds`: `FIRST_ROUNDS` rounds of the group
        and (with splits) every single user priced in every block at this limit fit in it,
        within [`LEAST_WORK_LIMIT`, `FIRST_WORK_LIMIT`]."""
        calls = len(self.facts.blocks) * (1 + (len(self.users) if self.splits else 0))
        fitting = int(seconds / (FIRST_ROUNDS * calls * WORK_SECONDS))
        return max(LEAST_WORK_LIMIT, min(FIRST_WORK_LIMIT, fitting))

    def _price(
        self,
        pricer: BlockLabels,
        team: Team,
        dual: Callable[[RowKey], Fraction],
        clock: Clock,
        floor: Fraction = Fraction(0),
        *,
        most: int | None = None,
        dive: bool = True,
    ) -> Priced:
        """A team's pricing, seeking only columns above `floor` (`single_floor`; 0 for the
        others: the packing counts positive ceilings only), within `most` units of work (None:
        `work_limit`) and what is left of `clock`, which is charged; `dive` as in
        `BlockLabels.price`."""
        before = pricer.work
        most = self.work_limit if most is None else most
        assert most is not None
        limit = max(1, min(most, int(clock.left() / WORK_SECONDS)))
        priced = pricer.price(team, dual, limit=limit, floor=floor, dive=dive)
        clock.add((pricer.work - before) * WORK_SECONDS)
        return priced

    def held_price(
        self,
        block: tuple[int, str],
        team: Team,
        dual: Callable[[RowKey], Fraction],
        floor: Fraction,
        clock: Clock,
    ) -> Column | None:
        """`team`'s best column of `block` under `dual` (`split_seeds.py`: the rest of a plan
        held) if its reduced cost is above `floor`, within `SPLIT_WORK_LIMIT` and `clock`."""
        priced = self._price(self.pricer(block, clock), team, dual, clock, floor, most=SPLIT_WORK_LIMIT)
        return priced.column if priced.reduced is not None and priced.reduced > floor else None

    def run(self, clock: Clock) -> BoundRun:
        """The first pass at the first centre (`warm_duals.py`, `first_pass`), then rounds until
        the LP is optimal over all columns or `clock` is spent."""
        run = BoundRun()
        if self.work_limit is None:
            self.work_limit = self.first_limit(clock.left())
        master = LinearMaster(self.master_skeleton)
        self.columns = master.columns
        for column in self.seeds:
            master.add_column(column)
        run.seeded = len(self.seeds)
        everyone = tuple(range(len(self.users)))
        warm = warm_duals(self.facts, self.cities, self.users, splits=self.splits)
        master.center(warm)
        first = self.first_pass(warm, clock)
        if first is not None:
            run.value = run.first = lagrangian(self.master_skeleton, warm, block_ceilings(first))
            run.duals = warm
        while not clock.spent():
            lp, out = master.solve()
            clock.add(master.take_work() * LP_SECONDS)
            run.lp = lp
            boxed = master.boxed()
            found, priced = self._smoothed_round(run, out, clock, everyone)
            for column in found:
                master.add_column(column)
                run.columns += 1
            if priced is None:
                break
            if not priced.found and priced.proven:
                if not boxed:
                    run.converged, run.optimal, run.optimal_value = True, priced.duals, priced.value
                    break
                master.center(priced.duals)
                continue
            master.center(run.duals)
            if not priced.found:
                self.work_limit = self.work_limit * 4
        run.seconds = clock.used
        return run

    def _smoothed_round(
        self, run: BoundRun, out: dict[RowKey, Fraction], clock: Clock, everyone: Team
    ) -> tuple[list[Column], _Pricing | None]:
        """Price at the point `SMOOTHING` of the way from the master's duals `out` back to the
        stability centre (`run.duals` when the round starts: the multipliers of the best bound
        so far, which each pricing's Lagrangian value may replace for the next round); while
        none of the columns found cuts `out` (a mis-price), again nearer `out`, down to `out`
        itself (Wentges' smoothing: the master's extreme duals jump, the centre holds what was
        learnt). The columns found, and the round's last pricing (None when the clock ran out
        mid-round)."""
        found: list[Column] = []
        master_dual = _lookup(out)
        centre = run.duals if run.value is not None else None
        step = 1
        while True:
            alpha = max(Fraction(0), 1 - step * (1 - SMOOTHING)) if centre is not None else Fraction(0)
            duals = smoothed(centre, out, alpha) if centre is not None and alpha else out
            columns, ceilings, proven = self._round(duals, clock, everyone)
            found += columns
            if ceilings is None:
                return found, None
            run.rounds += 1
            value = lagrangian(self.master_skeleton, duals, block_ceilings(ceilings))
            if value is not None and (run.value is None or value < run.value):
                run.value, run.duals = value, duals
            if not alpha or any(reduced_cost(column, master_dual) > REDUCED_EPSILON for column in columns):
                return found, _Pricing(duals, value, proven, bool(columns))
            step += 1

    def columns_above(
        self, duals: dict[RowKey, Fraction], threshold: Fraction, clock: Clock
    ) -> list[Column] | None:
        """Every column of every block and team whose reduced cost under `duals` exceeds
        `threshold` (`BlockLabels.columns_above`), or None when one enumeration was cut short
        (by `clock` or its size). With the duals of a converged run and the threshold I − L —
        I a plan's value, L the bound — these are all the columns a master solution worth more
        than I may take (`solve._Search.close`)."""
        dual = _lookup(duals)
        found: list[Column] = []
        for block in self.facts.blocks:
            pricer = self.pricer(block, clock)
            for team in teams_of(len(self.users), self.splits):
                if clock.spent():
                    return None
                before = pricer.work
                limit = max(1, int(clock.left() / WORK_SECONDS))
                columns = pricer.columns_above(team, dual, threshold, limit=limit)
                clock.add((pricer.work - before) * WORK_SECONDS)
                if columns is None:
                    return None
                found += columns
        return found

    def first_pass(self, duals: dict[RowKey, Fraction], clock: Clock) -> dict[Group, Fraction] | None:
        """The ceiling of every (block, team) group under `duals` from its origins' bounds alone
        (`BlockLabels.price` without a dive, `FIRST_PASS_WORK`): the group and (with splits)
        each single user priced, the other teams at their `team_ceiling`; None when `clock`
        ran out. A bound for the cost of building the blocks' graphs and a few bounds a block,
        which the largest tasks, whose first round the clock cuts short, otherwise lack."""
        dual = _lookup(duals)
        everyone = tuple(range(len(self.users)))
        ceilings: dict[Group, Fraction] = {}
        for block in self.facts.blocks:
            pricer = self.pricer(block, clock)
            teams_dual = dual(("teams", *block))
            for team in teams_of(len(everyone), False) + ([(u,) for u in everyone] if self.splits else []):
                if clock.spent():
                    return None
                low = Fraction(0) if team == everyone else single_floor(len(everyone), teams_dual)
                ceilings[(block, team)] = self._price(
                    pricer, team, dual, clock, low, most=FIRST_PASS_WORK, dive=False
                ).ceiling
            if self.splits:
                singles = {u: ceilings[(block, (u,))] for u in everyone}
                for team in teams_of(len(everyone), True):
                    ceilings.setdefault((block, team), team_ceiling(team, singles, teams_dual))
        return ceilings

    def _round(
        self, duals: dict[RowKey, Fraction], clock: Clock, everyone: Team
    ) -> tuple[list[Column], dict[Group, Fraction] | None, bool]:
        """Price every block; the columns to add, the ceiling of every (block, team) group (None
        when the clock ran out mid-round) and whether every pricing was proven.

        The group and (with splits) each single user are priced in every block; a larger team
        only when it belongs to the block's best packing by ceilings (`best_packing`, the others
        at their `team_ceiling`): the teams a plan would use first. A round that finds no column
        then prices every team whose estimate is still positive: only then may it report that
        nothing prices out."""

        dual = _lookup(duals)
        answers: dict[tuple[int, str], dict[Team, Priced]] = {}
        estimates: dict[tuple[int, str], dict[Team, Fraction]] = {}
        for block in self.facts.blocks:
            pricer = self.pricer(block, clock)
            priced = answers[block] = {}
            teams_dual = dual(("teams", *block))
            if clock.spent():
                return _entering(answers), None, False
            priced[everyone] = self._price(pricer, everyone, dual, clock)
            for u in everyone if self.splits else ():
                if clock.spent():
                    return _entering(answers), None, False
                priced[(u,)] = self._price(pricer, (u,), dual, clock, single_floor(len(everyone), teams_dual))
            if not self.splits:
                continue
            singles = {u: priced[(u,)].ceiling for u in everyone}
            estimates[block] = {
                team: team_ceiling(team, singles, teams_dual)
                for team in teams_of(len(everyone), True)
                if team not in priced
            }
            by_team = {team: answer.ceiling for team, answer in priced.items()} | estimates[block]
            for team in best_packing(by_team)[1]:
                if team not in priced:
                    if clock.spent():
                        return _entering(answers), None, False
                    priced[team] = self._price_team(pricer, team, estimates[block][team], dual, clock)
        rest = [
            (block, team)
            for block, teams in estimates.items()
            for team, estimate in teams.items()
            if team not in answers[block] and estimate > REDUCED_EPSILON
        ]
        if not any(_enters(answer) for teams in answers.values() for answer in teams.values()):
            for block, team in rest:
                if clock.spent():
                    return _entering(answers), None, False
                pricer = self.pricer(block, clock)
                answers[block][team] = self._price_team(pricer, team, estimates[block][team], dual, clock)
            rest = []
        ceilings: dict[Group, Fraction] = {
            (block, team): estimate for block, teams in estimates.items() for team, estimate in teams.items()
        }
        proven = not rest
        for block, teams in answers.items():
            for team, answer in teams.items():
                ceilings[(block, team)] = answer.ceiling
                proven = proven and answer.proven
        return _entering(answers), ceilings, proven

    def _price_team(
        self,
        pricer: BlockLabels,
        team: Team,
        estimate: Fraction,
        dual: Callable[[RowKey], Fraction],
        clock: Clock,
    ) -> Priced:
        """A team's pricing, its ceiling no higher than its members' `estimate`."""
        priced = self._price(pricer, team, dual, clock)
        return replace(priced, ceiling=min(priced.ceiling, estimate))


def smoothed(
    centre: Mapping[RowKey, Fraction], out: Mapping[RowKey, Fraction], alpha: Fraction
) -> dict[RowKey, Fraction]:
    """Wentges' smoothing: the point `alpha` of the way from the master's duals `out` back to
    the stability centre (multipliers of the best Lagrangian value so far). Convex: ≤ rows keep
    π ≥ 0, so the Lagrangian there is a bound."""
    zero = Fraction(0)
    keys = centre.keys() | out.keys()
    mixed = {key: alpha * centre.get(key, zero) + (1 - alpha) * out.get(key, zero) for key in keys}
    return {key: value for key, value in mixed.items() if value}


def _lookup(duals: Mapping[RowKey, Fraction]) -> Callable[[RowKey], Fraction]:
    """The dual of a row (0 for rows the master has not priced)."""

    def dual(key: RowKey) -> Fraction:
        return duals.get(key, Fraction(0))

    return dual


def _enters(answer: Priced) -> bool:
    """Whether a pricing's column enters the master (its reduced cost is positive)."""
    return answer.column is not None and answer.reduced is not None and answer.reduced > REDUCED_EPSILON


def _entering(answers: Mapping[tuple[int, str], Mapping[Team, Priced]]) -> list[Column]:
    """The columns of `answers` that enter the master, block by block (a round the clock cuts
    short still adds those it found)."""
    out = []
    for teams in answers.values():
        for answer in teams.values():
            if _enters(answer) and answer.column is not None:
                out.append(answer.column)
                out += [column for column, reduced in answer.more if reduced > REDUCED_EPSILON]
    return out
