"""Pricing: the best column of one block for one team, given the master's duals.

A *column* is one team's day in one block (`blocks.BlockSpec`): its gates, its route (the
relaxed catalog's attractions and restaurant classes, `routing.add_route`), and what it adds
to each member's official utility — attraction categories, must_visit items it claims (+2),
meals, −2 per intensity cap its own day breaks. Its coefficients in the master's rows
(`Terms`) are collected from the very terms its value is, so a column's value, its rows and
the pricing objective cannot disagree.

The pricing problem — a prize-collecting orienteering problem with time windows whose prizes
are the members' utilities less the duals — is one CP-SAT model per block, built once; each
call sets the team (through the objective and the `split` literal) and the duals. A *loose*
column (allowed on days with a transition between cities, see `master.py`) neither has its due
meals forced nor charges intensity: on a day cut into several blocks, the day's meals and caps
are not the block's alone. Every objective coefficient is rounded *up* to 1/`SCALE`, so the
solver's optimum, or its proven bound when stopped early, bounds the exact best reduced cost
from above: the Lagrangian bound stays valid whatever the time limit.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from ortools.sat.python import cp_model

from solver.oracle.blocks import BlockSpec, GateKey, block_graph
from solver.oracle.catalog import CityCatalog
from solver.oracle.cpsat_bound import proven_bound
from solver.oracle.model import Node, required_meals
from solver.oracle.routing import End, Graph, Route, add_route
from solver.oracle.scores import ScoredUser
from verifier.strict.clock import DAY, NIGHT_END
from verifier.strict.costs import lowest_cost_fen
from verifier.strict.meals import MEALS
from verifier.world_facts import PoiKind

RowKey = tuple[object, ...]
"""A master row: ("part", day, city, user), ("orig" | "dest", day, city, user, gate key),
("once", user, city, place), ("must", user, city, item), ("rej", user, city, item, day),
("meal", user, day, meal), ("loose", user, day), ("budget", user)."""

SCALE = 1_000_000
"""Pricing objectives are integers in 1/SCALE of a utility point (coefficients rounded up)."""

Duals = Callable[[RowKey], Fraction]


@dataclass(frozen=True)
class Column:
    """One team's day in one block, as the master sees it."""

    block: tuple[int, str]
    team: tuple[int, ...]
    """Scored-user indices, ascending."""
    loose: bool
    value: int
    """Σ over members of the column's part of their official utility."""
    rows: tuple[tuple[RowKey, Fraction], ...]
    """The column's coefficients in the master's rows."""
    visits: tuple[tuple[str, int, int | None], ...] = ()
    """(place name, service start, meal index or None) in route order (for plans and hints)."""
    active: int = 0
    """The route's active minutes (travel within the city and attraction visits), as the
    intensity rule counts them (`ScoredUser.intensity_penalty`)."""

    @property
    def attractions(self) -> int:
        """How many attractions the route visits."""
        return sum(meal is None for _, _, meal in self.visits)

    @property
    def origin(self) -> GateKey | None:
        """The gate the route leaves from (the key its "orig" rows name; None for no member)."""
        return self._gate("orig")

    @property
    def destination(self) -> GateKey | None:
        """The gate the route ends at (the key its "dest" rows name; None for no member)."""
        return self._gate("dest")

    def _gate(self, kind: str) -> GateKey | None:
        for key, _ in self.rows:
            if key[0] == kind and isinstance(gate := key[4], tuple):
                return gate
        return None


@dataclass(frozen=True)
class Priced:
    """A pricing answer: the best column found (None: no solution), its exact reduced cost,
    and an upper bound on every column's reduced cost for that block and team."""

    column: Column | None
    reduced: Fraction | None
    ceiling: Fraction
    proven: bool
    more: tuple[tuple[Column, Fraction], ...] = ()
    """Up to `labels.MORE_COLUMNS` other columns the search completed, each with its exact
    reduced cost, all positive (the column generation adds them with the best)."""


@dataclass
class _Term:
    """A literal of the pricing model, the utility it adds for one user and its rows."""

    literal: cp_model.IntVar
    user: int
    value: int
    rows: dict[RowKey, Fraction]


@dataclass
class BlockPricer:
    """The pricing model of one block (built once, re-solved per team and duals)."""

    spec: BlockSpec
    city: CityCatalog
    users: tuple[ScoredUser, ...]
    budget_scale: tuple[int, ...]
    """Per user, the divisor of the budget row (`master.py`: fen per unit of the row)."""
    loose_allowed: bool = True
    """Whether a column may be loose (a task with one city has no day cut by a transition)."""
    model: cp_model.CpModel = field(init=False)
    terms: list[_Term] = field(init=False, default_factory=list)
    constants: dict[int, dict[RowKey, Fraction]] = field(init=False, default_factory=dict)
    nodes: tuple[Node, ...] = field(init=False, default=())
    route: Route = field(init=False)
    split: cp_model.IntVar = field(init=False)
    loose: cp_model.IntVar = field(init=False)
    origins: list[cp_model.IntVar] = field(init=False, default_factory=list)
    destinations: list[cp_model.IntVar] = field(init=False, default_factory=list)
    deterministic: float = field(init=False, default=0.0)
    """Deterministic seconds of every pricing solve so far."""

    def __post_init__(self) -> None:
        self.model = cp_model.CpModel()
        model, spec = self.model, self.spec
        block = block_graph(spec, self.city)
        self.nodes = block.nodes
        self.origins = [model.new_bool_var(f"o{k}") for k in range(len(spec.origins))]
        self.destinations = [model.new_bool_var(f"d{k}") for k in range(len(spec.destinations))]
        model.add_exactly_one(self.origins)
        model.add_exactly_one(self.destinations)
        graph = Graph(
            block.stops,
            block.travel,
            tuple(End(lit, travel) for lit, travel in zip(self.origins, block.out_of, strict=True)),
            tuple(End(lit, travel) for lit, travel in zip(self.destinations, block.into, strict=True)),
            block.direct,
        )
        leave = model.new_int_var(0, DAY - 1, "leave")
        back = model.new_int_var(0, DAY - 1, "back")
        self.route = add_route(model, graph, leave, back, name="r")
        self.split = model.new_bool_var("split")
        self.loose = model.new_bool_var("loose")
        if not self.loose_allowed:
            model.add(self.loose == 0)
        model.add(leave >= NIGHT_END).only_enforce_if(self.split)
        for gate, literal in zip(spec.origins, self.origins, strict=True):
            if gate.time is not None:
                model.add(leave >= gate.time).only_enforce_if(literal)
        for gate, literal in zip(spec.destinations, self.destinations, strict=True):
            if gate.time is not None:
                model.add(back <= gate.time).only_enforce_if(literal)
        self._places()
        self._meals()
        for u in range(len(self.users)):
            self._user(u)

    def _places(self) -> None:
        """One visit per place identity (a place written under several names is several nodes)."""
        by_place: dict[str, list[cp_model.IntVar]] = defaultdict(list)
        for i, node in enumerate(self.nodes):
            if node.meal is None:
                by_place[node.place.place].append(self.route.visit[i])
        for visits in by_place.values():
            if len(visits) > 1:
                self.model.add(sum(visits) <= 1)

    def _meals(self) -> None:
        """At most one meal of a kind; a due meal (lunch, dinner) is eaten unless a chosen gate
        keeps it from being due, or the column is loose."""
        for meal in range(len(MEALS)):
            visits = [self.route.visit[i] for i, node in enumerate(self.nodes) if node.meal == meal]
            self.model.add(sum(visits) <= 1)
            if meal not in required_meals():
                continue
            kept = [
                lit
                for gates, lits in (
                    (self.spec.origins, self.origins),
                    (self.spec.destinations, self.destinations),
                )
                for gate, lit in zip(gates, lits, strict=True)
                if meal in gate.keeps
            ]
            self.model.add(sum(visits) + sum(kept) + self.loose >= 1)

    def _user(self, u: int) -> None:
        """User u's terms: visits, items, meals, intensity, gates, loose; the partition constant."""
        model, spec, route, user = self.model, self.spec, self.route, self.users[u]
        day, city = spec.day, spec.city
        musts: dict[int, list[cp_model.IntVar]] = defaultdict(list)
        rejects: dict[int, list[cp_model.IntVar]] = defaultdict(list)
        for i, node in enumerate(self.nodes):
            place, visit = node.place, route.visit[i]
            if node.meal is None:
                self._term(visit, u, place.scores[u], {("once", u, city, place.place): Fraction(1)})
                for item in place.musts[u]:
                    musts[item].append(visit)
                for item in place.rejects[u]:
                    rejects[item].append(visit)
                continue
            price = Fraction(lowest_cost_fen(place.price_fen), self.budget_scale[u])
            rows: dict[RowKey, Fraction] = {("meal", u, day, node.meal): Fraction(1)}
            if user.max_spend_fen is not None:
                rows[("budget", u)] = price
            self._term(visit, u, place.scores[u], rows)
        for item, visits in musts.items():
            claim = model.new_bool_var(f"must{u}_{item}")
            model.add(claim <= sum(visits))
            self._term(claim, u, 2, {("must", u, city, item): Fraction(1)})
        for item, visits in rejects.items():
            hit = model.new_bool_var(f"rej{u}_{item}")
            for visit in visits:
                model.add(hit >= visit)
            self._term(hit, u, 0, {("rej", u, city, item, day): Fraction(1)})
        self._intensity(u)
        self._term(self.loose, u, 0, {("loose", u, day): Fraction(1)})
        for gates, lits, kind in (
            (spec.origins, self.origins, "orig"),
            (spec.destinations, self.destinations, "dest"),
        ):
            for gate, lit in zip(gates, lits, strict=True):
                self._term(lit, u, 0, {(kind, day, city, u, gate.key): Fraction(1)})
        self.constants[u] = {("part", day, city, u): Fraction(1)}

    def _intensity(self, u: int) -> None:
        """−2 when the block alone breaks a cap of user u (not charged by a loose column)."""
        model, route, user = self.model, self.route, self.users[u]
        attractions = [i for i, node in enumerate(self.nodes) if node.place.kind == PoiKind.ATTRACTION]
        count = sum(route.visit[i] for i in attractions)
        minutes = route.moving + sum(self.nodes[i].place.service * route.visit[i] for i in attractions)
        for cap, amount, most in (
            (user.max_pois, count, len(attractions)),
            (user.max_minutes, minutes, 3 * DAY),
        ):
            if cap is None:
                continue
            over = model.new_bool_var(f"over{u}")
            model.add(amount <= cap + most * over)
            charged = model.new_bool_var(f"pen{u}")
            model.add(charged >= over - self.loose)
            self._term(charged, u, -2, {})

    def _term(self, literal: cp_model.IntVar, user: int, value: int, rows: dict[RowKey, Fraction]) -> None:
        self.terms.append(_Term(literal, user, value, rows))

    def price(self, team: tuple[int, ...], duals: Duals, *, seconds: float, seed: int = 0) -> Priced:
        """The best column of this block for `team` under `duals` (CP-SAT, one worker,
        `seconds` of deterministic time)."""
        members = set(team)
        objective: list[tuple[int, cp_model.IntVar]] = []
        constant = Fraction(0)
        for term in self.terms:
            if term.user in members:
                coefficient = _ceil(term.value - _charge(term.rows.items(), duals))
                if coefficient:
                    objective.append((coefficient, term.literal))
        for u in team:
            constant -= _charge(self.constants[u].items(), duals)
        constant -= duals(self._teams_row)
        offset = _ceil(constant)
        self.model.maximize(sum(c * lit for c, lit in objective) + offset)
        _fix(self.model, self.split, 0 if len(team) == len(self.users) else 1)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = seed
        solver.parameters.max_deterministic_time = seconds
        status = solver.solve(self.model)
        self.deterministic += solver.deterministic_time
        if status == cp_model.INFEASIBLE:
            return Priced(None, None, Fraction(-(10**9)), True)
        bound = proven_bound(solver, status)
        if bound is None:  # every term at its best bounds the block
            bound = sum(max(c, 0) for c, _ in objective) + offset
        ceiling = Fraction(math.ceil(bound - 1e-9), SCALE)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Priced(None, None, ceiling, False)
        column = self._column(solver, team)
        return Priced(column, reduced_cost(column, duals), ceiling, status == cp_model.OPTIMAL)

    @property
    def _teams_row(self) -> RowKey:
        """The master row counting the block's teams (one per column)."""
        return ("teams", self.spec.day, self.spec.city)

    def _column(self, solver: cp_model.CpSolver, team: tuple[int, ...]) -> Column:
        members = set(team)
        rows: dict[RowKey, Fraction] = defaultdict(Fraction)
        value = 0
        for term in self.terms:
            if term.user in members and solver.boolean_value(term.literal):
                value += term.value
                for key, coefficient in term.rows.items():
                    rows[key] += coefficient
        for u in team:
            for key, coefficient in self.constants[u].items():
                rows[key] += coefficient
        rows[self._teams_row] += 1
        chosen = [i for i in range(len(self.nodes)) if solver.boolean_value(self.route.visit[i])]
        chosen.sort(key=lambda i: solver.value(self.route.start[i]))
        visits = tuple(
            (self.nodes[i].place.name, solver.value(self.route.start[i]), self.nodes[i].meal) for i in chosen
        )
        services = sum(self.nodes[i].place.service for i in chosen if self.nodes[i].meal is None)
        return Column(
            self.spec.key,
            team,
            solver.boolean_value(self.loose),
            value,
            tuple(sorted(((k, c) for k, c in rows.items() if c), key=lambda kc: repr(kc[0]))),
            visits,
            solver.value(self.route.moving) + services,
        )


def reduced_cost(column: Column, duals: Duals) -> Fraction:
    """A column's exact reduced cost under `duals`: its value less what its rows are charged."""
    return column.value - _charge(column.rows, duals)


def _charge(rows: Iterable[tuple[RowKey, Fraction]], duals: Duals) -> Fraction:
    """What `rows` (row, coefficient) are charged under `duals`."""
    return sum((coefficient * duals(key) for key, coefficient in rows), Fraction(0))


def _ceil(value: Fraction) -> int:
    """`value` in 1/SCALE units, rounded up."""
    return math.ceil(value * SCALE)


def _fix(model: cp_model.CpModel, literal: cp_model.IntVar, value: int) -> None:
    domain = model.proto.variables[literal.index].domain
    domain[0] = value
    domain[1] = value
