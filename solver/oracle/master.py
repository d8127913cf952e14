"""The master of the decomposed bound: the trip skeleton and the rows that link day blocks.

Variables (all bounded, docs/oracle.md#the-decomposed-bound-column-generation-over-day-blocks):

- the skeleton, for every city order o: `z` (the order is taken), `on` (transition i happens on
  day d), `by` (it happened by day d); per (day, city) `e` (the block exists), per (night,
  city) `N` (the night is spent there) and `h` (in hotel class k), per (from, to, day) `x`
  (leg option k), per day `T` (transitions between task cities that day), per block `kappa`
  (it has K teams, charged `participants.phase_penalty(K)`);
- per user `o` (over budget, −2) and `r` per reject_visit item (hit, −2);
- the columns (`pricing.Column`): one team's day in one block.

Rows: the orders and the skeleton's definitions; per block and user, the columns covering the
user sum to `e` (`part`) and use the chosen gates (`orig`, `dest`); per block the columns
count the teams (`teams`, `kap`); an attraction once per traveller (`once`), a must_visit
item claimed once (`must`), a reject hit charges `r` (`rej`), a meal of a kind once per
traveller and date (`meal`), loose columns only on days with a transition (`loose`), and the
budget (`budget`, its over-variable taking up any excess).

Every row holds in every modelled plan, so for any multipliers π (≥ 0 on ≤ rows) of the rows
that link blocks and teams the Lagrangian function `lagrangian` — π·b over those rows, plus the
over-budget and reject variables' best contributions at their reduced costs, plus the best trip
skeleton (`best_skeleton`: the order, transition days, legs and hotels solved exactly, each
block it holds worth its own variables and the best packing of its teams' columns) — is an
upper bound on the GU of every plan. The skeleton's own rows (`STRUCTURE`) are kept, not priced.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from ortools.linear_solver import pywraplp

from solver.oracle.blocks import TripFacts
from solver.oracle.catalog import CityCatalog
from solver.oracle.participants import phase_penalty
from solver.oracle.pricing import Column, RowKey
from solver.oracle.scores import ScoredUser
from verifier.strict.costs import lowest_cost_fen
from verifier.strict.meals import MEALS

VarKey = tuple[object, ...]

BOX_RADIUS = Fraction(1)
"""Half the width of the box the master's duals are kept in around its centre (points of GU;
`LinearMaster.center`); 1 rather than 3 since the first centre (`warm_duals.py`), measured in
docs/oracle.md ("The first centre and the first pass")."""

BUDGET_UNIT = 100
"""Fen per unit of a budget row (rows in yuan keep the LP well scaled)."""


@dataclass
class Var:
    """A bounded master variable: objective coefficient, bounds and row coefficients."""

    key: VarKey
    cost: Fraction
    upper: int
    rows: dict[RowKey, Fraction]


@dataclass
class Rows:
    """The master's rows: sense ("=" or "<=") and right-hand side."""

    sense: dict[RowKey, str] = field(default_factory=dict)
    rhs: dict[RowKey, Fraction] = field(default_factory=dict)

    def add(self, key: RowKey, sense: str, rhs: Fraction | int = 0) -> None:
        self.sense[key] = sense
        self.rhs[key] = Fraction(rhs)


@dataclass
class Skeleton:
    """The master's rows and every non-column variable, and the trip facts they were built from."""

    rows: Rows
    variables: list[Var]
    facts: TripFacts
    users: tuple[ScoredUser, ...]


def skeleton(
    facts: TripFacts, cities: Mapping[str, CityCatalog], users: tuple[ScoredUser, ...], *, splits: bool
) -> Skeleton:
    """The rows and non-column variables of the master for `facts` (see module); without
    `splits` a block has one team."""
    rows = Rows()
    variables: list[Var] = []
    builder = _Builder(facts, cities, users, rows, variables, splits)
    builder.orders()
    builder.blocks()
    builder.hotels()
    builder.legs()
    builder.linking()
    return Skeleton(rows, variables, facts, users)


@dataclass
class _Builder:
    facts: TripFacts
    cities: Mapping[str, CityCatalog]
    users: tuple[ScoredUser, ...]
    rows: Rows
    variables: list[Var]
    splits: bool

    def var(self, key: VarKey, cost: Fraction | int, upper: int, rows: dict[RowKey, Fraction]) -> None:
        self.variables.append(Var(key, Fraction(cost), upper, rows))

    def orders(self) -> None:
        """z, on, by per order; their rows; block, night and T rows."""
        facts, rows = self.facts, self.rows
        days, home = facts.days, facts.home
        rows.add(("orders",), "=", 1)
        for d in range(1, days + 1):
            rows.add(("T", d), "=")
            for c in facts.cities:
                rows.add(("blk", d, c), "=")
                if d < days:
                    rows.add(("night", d, c), "=")
        for o, order in enumerate(facts.orders):
            m = len(order)
            stops = (home, *order, home)
            self.var(
                ("z", o),
                0,
                1,
                {("orders",): Fraction(1), **{("on", o, i): Fraction(-1) for i in range(m + 1)}},
            )
            for i in range(m + 1):
                rows.add(("on", o, i), "=")
                allowed = [1] if i == 0 else [days] if i == m else list(range(1, days + 1))
                for d in range(1, days + 1):
                    rows.add(("by", o, i, d), "=")
                    if i:
                        rows.add(("mono", o, i, d), "<=")
                for d in allowed:
                    coefficients: dict[RowKey, Fraction] = {("on", o, i): Fraction(1)}
                    for later in range(d, days + 1):
                        coefficients[("by", o, i, later)] = Fraction(-1)
                    coefficients[("legs", stops[i], stops[i + 1], d)] = Fraction(-1)
                    if 1 <= i <= m - 1:
                        coefficients[("T", d)] = Fraction(-1)
                    self.var(("on", o, i, d), 0, 1, coefficients)
                for d in range(1, days + 1):
                    coefficients = {("by", o, i, d): Fraction(1)}
                    if i:
                        coefficients[("mono", o, i, d)] = Fraction(1)
                    if i < m:
                        coefficients[("mono", o, i + 1, d)] = Fraction(-1)
                        coefficients[("blk", d, stops[i + 1])] = Fraction(-1)
                        if d < days:
                            coefficients[("night", d, stops[i + 1])] = Fraction(-1)
                    if i >= 1 and d < days:
                        coefficients[("blk", d + 1, stops[i])] = Fraction(1)
                        coefficients[("night", d, stops[i])] = Fraction(1)
                    self.var(("by", o, i, d), 0, 1, coefficients)
        for d in range(1, days + 1):
            transitions: dict[RowKey, Fraction] = {("T", d): Fraction(1)}
            for u in range(len(self.users)):
                transitions[("loose", u, d)] = Fraction(-1)
            self.var(("T", d), 0, max(len(facts.cities) - 1, 0), transitions)

    def blocks(self) -> None:
        """e and kappa per block; part, teams, kap rows."""
        users = len(self.users)
        for d, c in self.facts.blocks:
            self.rows.add(("teams", d, c), "=")
            self.rows.add(("kap", d, c), "=")
            coefficients: dict[RowKey, Fraction] = {("blk", d, c): Fraction(1), ("kap", d, c): Fraction(-1)}
            for u in range(users):
                self.rows.add(("part", d, c, u), "=")
                coefficients[("part", d, c, u)] = Fraction(-1)
            self.var(("e", d, c), 0, 1, coefficients)
            for k in range(1, (users if self.splits else 1) + 1):
                self.var(
                    ("kappa", d, c, k),
                    -phase_penalty(k),
                    1,
                    {("kap", d, c): Fraction(1), ("teams", d, c): Fraction(-k)},
                )

    def hotels(self) -> None:
        """N and h per night; hot rows; hotel gates' orig/dest coefficients and prices."""
        facts = self.facts
        for n in range(1, facts.days):
            for c in facts.cities:
                self.rows.add(("hot", n, c), "=")
                self.var(("N", n, c), 0, 1, {("night", n, c): Fraction(1), ("hot", n, c): Fraction(-1)})
                city = self.cities[c]
                for k, hotel in enumerate(facts.hotels[c]):
                    gate = ("hotel", n, c, k)
                    coefficients: dict[RowKey, Fraction] = {("hot", n, c): Fraction(1)}
                    for u, user in enumerate(self.users):
                        coefficients[("dest", n, c, u, gate)] = Fraction(-1)
                        coefficients[("orig", n + 1, c, u, gate)] = Fraction(-1)
                        if user.max_spend_fen is not None:
                            coefficients[("budget", u)] = Fraction(facts.hotel_price(city, n, k), BUDGET_UNIT)
                    cost = sum(hotel.scores)
                    self.var(("h", n, c, k), cost, 1, coefficients)

    def legs(self) -> None:
        """x per leg option; legs rows; leg gates' orig/dest coefficients and fares."""
        home = self.facts.home
        for (origin, destination, d), options in self.facts.legs.items():
            self.rows.add(("legs", origin, destination, d), "=")
            for k, leg in enumerate(options):
                gate = ("leg", origin, destination, d, k)
                coefficients: dict[RowKey, Fraction] = {("legs", origin, destination, d): Fraction(1)}
                for u, user in enumerate(self.users):
                    if destination != home:
                        coefficients[("orig", d, destination, u, gate)] = Fraction(-1)
                    if origin != home:
                        coefficients[("dest", d, origin, u, gate)] = Fraction(-1)
                    if user.max_spend_fen is not None:
                        fare = lowest_cost_fen(leg.option.fare_fen)
                        coefficients[("budget", u)] = Fraction(fare, BUDGET_UNIT)
                cost = sum(user.prefs.transport(leg.option.mode) for user in self.users)
                self.var(("x", origin, destination, d, k), cost, 1, coefficients)

    def linking(self) -> None:
        """orig/dest rows of every gate, once/must/rej/meal/loose rows, budget with its over-variable."""
        facts, rows = self.facts, self.rows
        for (d, c), spec in facts.blocks.items():
            for u in range(len(self.users)):
                for gate in spec.origins:
                    rows.add(("orig", d, c, u, gate.key), "=")
                for gate in spec.destinations:
                    rows.add(("dest", d, c, u, gate.key), "=")
        for u, user in enumerate(self.users):
            for d in range(1, facts.days + 1):
                rows.add(("loose", u, d), "<=")
                for meal in range(len(MEALS)):
                    rows.add(("meal", u, d, meal), "<=", 1)
            for c in facts.cities:
                city = self.cities[c]
                places = {place.place for place in city.attractions}
                for place in sorted(places):
                    rows.add(("once", u, c, place), "<=", 1)
                items = {item for place in city.attractions for item in place.musts[u]}
                for item in sorted(items):
                    rows.add(("must", u, c, item), "<=", 1)
                rejects = {item for place in city.attractions for item in place.rejects[u]}
                for item in sorted(rejects):
                    hits: dict[RowKey, Fraction] = {}
                    for d in range(1, facts.days + 1):
                        rows.add(("rej", u, c, item, d), "<=")
                        hits[("rej", u, c, item, d)] = Fraction(-1)
                    self.var(("r", u, c, item), -2, 1, hits)
            if user.max_spend_fen is None:
                continue
            rows.add(("budget", u), "<=", Fraction(user.max_spend_fen, BUDGET_UNIT))
            excess = max(self._most_spend() - user.max_spend_fen, 0)
            self.var(("o", u), -2, 1, {("budget", u): Fraction(-excess, BUDGET_UNIT)})

    def _most_spend(self) -> int:
        """More than any plan can spend per person: the dearest leg of every transition, the
        dearest hotel class every night, the dearest restaurant class at every meal."""
        facts = self.facts
        transitions = len(facts.cities) + 1
        fares = [lowest_cost_fen(leg.option.fare_fen) for options in facts.legs.values() for leg in options]
        nights = [
            facts.hotel_price(self.cities[c], n, k)
            for n in range(1, facts.days)
            for c in facts.cities
            for k in range(len(facts.hotels[c]))
        ]
        meals = [lowest_cost_fen(r.price_fen) for c in facts.cities for r in self.cities[c].restaurants]
        return (
            transitions * max(fares, default=0)
            + (facts.days - 1) * max(nights, default=0)
            + facts.days * len(MEALS) * max(meals, default=0)
        )


@dataclass
class LinearMaster:
    """The master's LP relaxation over the columns generated so far (GLOP), stabilised by a box
    on its duals.

    Every row has two penalty variables, one adding to it and one taking from it, priced at
    the box's edges (centre ± `BOX_RADIUS`; ≤ rows: the lower edge at least 0): whatever the
    columns, the LP is feasible and its duals lie in the box — the BoxStep method, which keeps
    the duals of a degenerate master from jumping between extreme vertices while the columns
    are few. Any duals give a valid Lagrangian bound; when no column prices out and no penalty
    variable is used, the duals are optimal for the unboxed master over all columns."""

    skeleton: Skeleton
    solver: pywraplp.Solver = field(init=False)
    constraints: dict[RowKey, pywraplp.Constraint] = field(init=False, default_factory=dict)
    box: dict[RowKey, tuple[pywraplp.Variable, pywraplp.Variable]] = field(init=False, default_factory=dict)
    columns: list[Column] = field(init=False, default_factory=list)
    work: int = 0
    """Simplex iterations, each times the rows and variables of the LP it ran on, since the
    last `take_work`."""

    def __post_init__(self) -> None:
        solver = pywraplp.Solver.CreateSolver("GLOP")
        assert solver is not None
        self.solver = solver
        objective = solver.Objective()
        objective.SetMaximization()
        rows = self.skeleton.rows
        for key, sense in rows.sense.items():
            rhs = float(rows.rhs[key])
            low = rhs if sense == "=" else -solver.infinity()
            self.constraints[key] = solver.Constraint(low, rhs, repr(key))
        for var in self.skeleton.variables:
            self._add(var.key, float(var.cost), var.upper, var.rows)
        for key, constraint in self.constraints.items():
            adds, takes = solver.NumVar(0, solver.infinity(), ""), solver.NumVar(0, solver.infinity(), "")
            constraint.SetCoefficient(adds, 1.0)
            constraint.SetCoefficient(takes, -1.0)
            self.box[key] = (adds, takes)
        self.center({})

    def center(self, duals: Mapping[RowKey, Fraction]) -> None:
        """Centre the duals' box on `duals` (absent rows: 0)."""
        objective = self.solver.Objective()
        for key, (adds, takes) in self.box.items():
            middle = duals.get(key, Fraction(0))
            low = middle - BOX_RADIUS
            if self.skeleton.rows.sense[key] == "<=":
                low = max(low, Fraction(0))
            objective.SetCoefficient(adds, float(low))
            objective.SetCoefficient(takes, -float(middle + BOX_RADIUS))

    def boxed(self) -> bool:
        """Whether the last solution uses a penalty variable (its duals may lie on the box)."""
        return any(
            adds.solution_value() > 1e-9 or takes.solution_value() > 1e-9 for adds, takes in self.box.values()
        )

    def _add(self, key: VarKey, cost: float, upper: float, rows: Mapping[RowKey, Fraction]) -> None:
        variable = self.solver.NumVar(0, upper, repr(key))
        self.solver.Objective().SetCoefficient(variable, cost)
        for row, coefficient in rows.items():
            constraint = self.constraints.get(row)
            if constraint is not None:
                constraint.SetCoefficient(variable, float(coefficient))

    def add_column(self, column: Column) -> None:
        self.columns.append(column)
        self._add(("col", len(self.columns)), float(column.value), 1, dict(column.rows))

    def take_work(self) -> int:
        """The LP work since the last call (`work`)."""
        count, self.work = self.work, 0
        return count

    def solve(self) -> tuple[float, dict[RowKey, Fraction]]:
        """The LP optimum over the current columns and the row duals (exact rationals of
        GLOP's floats, clipped to ≥ 0 on ≤ rows)."""
        status = self.solver.Solve()
        if status != pywraplp.Solver.OPTIMAL:
            raise RuntimeError(f"master LP status {status}")
        size = self.solver.NumConstraints() + self.solver.NumVariables()
        self.work += int(self.solver.iterations()) * size
        duals: dict[RowKey, Fraction] = {}
        sense = self.skeleton.rows.sense
        for key, constraint in self.constraints.items():
            value = Fraction(constraint.dual_value())
            if sense[key] == "<=" and value < 0:
                value = Fraction(0)
            if value:
                duals[key] = value
        return self.solver.Objective().Value(), duals


STRUCTURE = frozenset({"orders", "on", "by", "mono", "blk", "night", "T", "legs", "hot", "kap"})
"""The kinds of rows that define the trip skeleton (which order, when each transition happens,
which blocks and nights exist, which leg and hotel, one team count per block). The Lagrangian
keeps them: `best_skeleton` maximises over the skeletons they allow instead of pricing them."""

SKELETON_VARIABLES = frozenset({"z", "on", "by", "T", "e", "kappa", "N", "h", "x"})
"""The kinds of variables a skeleton fixes (`best_skeleton`); the others ("o", "r") are free."""

Block = tuple[int, str]


def lagrangian(
    skeleton: Skeleton, duals: Mapping[RowKey, Fraction], packings: Mapping[Block, Fraction]
) -> Fraction | None:
    """The Lagrangian function at `duals`: π·b over the priced rows, plus upper × the positive
    reduced cost of each free variable, plus `best_skeleton` with the skeleton's variables at
    their reduced costs — `packings` giving per block an upper bound on the sum of the reduced
    costs of the columns a plan chooses there (`colgen.block_ceilings`). An upper bound on every
    plan's GU when ≤ rows have π ≥ 0; None when no skeleton exists (then no plan does).

    The skeleton's rows (`STRUCTURE`) are kept rather than priced: pricing them too (the
    function the master LP's dual minimises) counts every positive packing and variable
    whether or not one trip holds them all, never less."""
    total = Fraction(0)
    for key, rhs in skeleton.rows.rhs.items():
        dual = duals.get(key)
        if dual and key[0] not in STRUCTURE:
            total += dual * rhs
    reduced: dict[VarKey, Fraction] = {}
    for var in skeleton.variables:
        value = var.cost - sum(
            (c * dual for row, c in var.rows.items() if row[0] not in STRUCTURE and (dual := duals.get(row))),
            Fraction(0),
        )
        if var.key[0] in SKELETON_VARIABLES:
            reduced[var.key] = value
        elif value > 0:
            total += var.upper * value
    best = best_skeleton(skeleton.facts, reduced, packings)
    return None if best is None else total + best


def best_skeleton(
    facts: TripFacts, reduced: Mapping[VarKey, Fraction], packings: Mapping[Block, Fraction]
) -> Fraction | None:
    """The most Σ reduced cost × value over the skeleton's variables, plus each existing block's
    packing when positive, that a trip skeleton reaches (None: no skeleton).

    A skeleton is an order o of the cities (stops home, c₁ … c_m, home) and nondecreasing days
    1 = t₀ ≤ t₁ ≤ … ≤ t_m = last day, transition i (stops[i] → stops[i + 1]) on day tᵢ by a leg
    option of that day: z_o = 1, on(o, i, tᵢ) = 1, by(o, i, d) = 1 for d ≥ tᵢ, T_d the middle
    transitions on day d, city cⱼ's blocks on days t_{j−1} … tⱼ and its nights t_{j−1} … tⱼ − 1 —
    exactly the assignments the skeleton rows allow. Legs, hotel classes and team counts are
    chosen per transition, night and block, each at its best reduced cost (their rows are
    separate); a transition on a day without a leg option or a night in a city without a hotel
    class is never taken. Solved per order by a dynamic programme over the transitions: the
    best value up to transition i on day t is its own terms plus the best, over days t' ≤ t,
    of the value up to transition i − 1 on day t' and city cᵢ's stay from t' to t."""
    zero = Fraction(0)

    def cost(key: VarKey) -> Fraction:
        return reduced.get(key, zero)

    teams: dict[VarKey, Fraction] = {}
    for key, charge in reduced.items():
        if key[0] == "kappa":
            block = key[1:3]
            teams[block] = max(teams.get(block, charge), charge)
    stays = {city: _stays(facts, city, cost, teams, packings) for city in facts.cities}
    best: Fraction | None = None
    for o, order in enumerate(facts.orders):
        found = _best_of_order(facts, o, order, cost, stays)
        if found is not None and (best is None or found > best):
            best = found
    return best


def _best_of_order(
    facts: TripFacts,
    o: int,
    order: tuple[str, ...],
    cost: Callable[[VarKey], Fraction],
    stays: Mapping[str, _Stays],
) -> Fraction | None:
    """`best_skeleton` for order o: None when no skeleton of it exists."""
    days, m = facts.days, len(order)
    stops = (facts.home, *order, facts.home)
    # value[t]: the best value up to transition i, made on day t (None: impossible)
    value: dict[int, Fraction] = {}
    for i in range(m + 1):
        allowed = [1] if i == 0 else [days] if i == m else list(range(1, days + 1))
        reached: dict[int, Fraction] = {}
        for t in allowed:
            own = _transition(facts, cost, o=o, i=i, stops=stops, day=t)
            if own is None:
                continue
            if i == 0:
                reached[t] = cost(("z", o)) + own
                continue
            stay = stays[stops[i]]
            options = [
                before + spent
                for start, before in value.items()
                if start <= t and (spent := stay.between(start, t)) is not None
            ]
            if options:
                reached[t] = own + max(options)
        value = reached
    return value.get(days)


def _transition(
    facts: TripFacts, cost: Callable[[VarKey], Fraction], *, o: int, i: int, stops: tuple[str, ...], day: int
) -> Fraction | None:
    """Transition i's own terms on `day`: its best leg option, `on`, the `by` variables it sets
    and, between task cities, `T`; None when no leg option leaves that day."""
    origin, destination = stops[i], stops[i + 1]
    options = range(len(facts.legs.get((origin, destination, day), ())))
    fare = max((cost(("x", origin, destination, day, k)) for k in options), default=None)
    if fare is None:
        return None
    value = fare + cost(("on", o, i, day))
    value += sum((cost(("by", o, i, d)) for d in range(day, facts.days + 1)), Fraction(0))
    if 1 <= i <= len(stops) - 3:
        value += cost(("T", day))
    return value


@dataclass(frozen=True)
class _Stays:
    """One city's blocks and nights as prefix sums: a stay from day a to day b holds blocks
    a … b (each at its existence, best team count and positive packing) and nights a … b − 1
    (each at its best hotel class)."""

    blocks: list[Fraction]
    nights: list[Fraction]
    missing: list[int]
    """missing[n]: nights before n without a hotel class."""

    def between(self, first: int, last: int) -> Fraction | None:
        """The stay from day `first` to day `last` (None: a night without a hotel class)."""
        if self.missing[last - 1] - self.missing[first - 1]:
            return None
        return self.blocks[last] - self.blocks[first - 1] + self.nights[last - 1] - self.nights[first - 1]


def _stays(
    facts: TripFacts,
    city: str,
    cost: Callable[[VarKey], Fraction],
    teams: Mapping[VarKey, Fraction],
    packings: Mapping[Block, Fraction],
) -> _Stays:
    """`city`'s `_Stays` at these reduced costs, best team counts and packings."""
    zero = Fraction(0)
    blocks, nights, missing = [zero], [zero], [0]
    for d in range(1, facts.days + 1):
        packing = max(packings.get((d, city), zero), zero)
        blocks.append(blocks[-1] + cost(("e", d, city)) + teams.get((d, city), zero) + packing)
        hotels = range(len(facts.hotels[city])) if d < facts.days else range(0)
        hotel = max((cost(("h", d, city, k)) for k in hotels), default=None)
        nights.append(nights[-1] + (zero if hotel is None else cost(("N", d, city)) + hotel))
        missing.append(missing[-1] + (hotel is None and d < facts.days))
    return _Stays(blocks, nights, missing)
