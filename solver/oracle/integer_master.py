"""The integer master: the best plan the generated columns make, for the primal search.

See docs/oracle.md#plans-from-the-columns.

The column generation leaves a pool of columns (one team's day in one block, each with its
exact contribution to the members' utility). The master's rows (`master.Skeleton`) with every
skeleton variable integer and every column binary is a small integer program: the best
combination of the pool's days that the trip skeleton, the once-per-traveller, must, meal and
budget rows allow. Its answer is a *pattern* — the city order, the teams of every block and
their routes — that `pattern_plan.py` lays onto the primal model, to be written as a plan and
completed by CP-SAT: the primal model, not this one, writes and checks the plan, so the pattern
needs to be good, not exact (its restaurants and hotels are the relaxed catalog's classes).

Solved by CP-SAT on one worker with a deterministic time limit (rows scaled to integers), so a
seed gives the same pattern on any machine. Without presolve: on these set-partitioning rows it
spent the whole of a short limit and found nothing (pools of 925–1,621 columns at 0.5
deterministic seconds: task_004556 none → 82, task_000203 none → 57, task_000692 51 → 77, the
last two proven optimal over their pools; task_000957 and task_001291 unchanged).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ortools.sat.python import cp_model

from solver.oracle.clock import Clock
from solver.oracle.cpsat_bound import proven_bound
from solver.oracle.master import Skeleton
from solver.oracle.pricing import Column, RowKey
from solver.oracle.scores import ScoredUser

FIRST_SHARE = 0.2
"""The share of its time the integer master spends on its `first` columns alone (`pool_master`)."""


@dataclass(frozen=True)
class Pattern:
    """An integer master's answer: the columns taken and the master's value of the plan they
    make (the skeleton's terms included)."""

    columns: tuple[Column, ...]
    value: Fraction

    def order(self, home: str, cities: Sequence[str]) -> tuple[str, ...]:
        """The city order the pattern's legs take from `home` (world keys); where its legs do
        not say (a block priced without legs), the cities by first day there, then the rest
        in task order."""
        legs = {
            str(gate[1]): str(gate[2])
            for column in self.columns
            if (gate := column.origin) is not None and gate[0] == "leg"
        }
        chain: list[str] = []
        here = home
        while (here := legs.get(here, home)) != home and here not in chain and here in cities:
            chain.append(here)
        first: dict[str, int] = {}
        for column in sorted(self.columns, key=lambda c: c.block[0]):
            first.setdefault(column.block[1], column.block[0])
        rest = sorted(
            (city for city in cities if city not in chain),
            key=lambda city: (first.get(city, 10**6), cities.index(city)),
        )
        return (*chain, *rest)


def pool_master(
    skeleton: Skeleton,
    columns: Sequence[Column],
    clock: Clock,
    *,
    seconds: float,
    seed: int,
    excluded: Sequence[Pattern] = (),
    first: Sequence[Column] = (),
) -> tuple[Pattern | None, Fraction | None]:
    """The integer master over `columns` (the skeleton free) within `seconds`: the best pattern
    found (None: none) and CP-SAT's proven bound on every master solution over them (None: none
    proven; an infeasible pool has none, reported as -10⁹). Each pattern of `excluded` (chosen
    from `columns`) is cut off (not all of its columns together): the bound is then over the
    others only. With `first` (some of `columns`, no `excluded`), the master over those alone
    is solved first, in `FIRST_SHARE` of the time, and its solution is the whole pool's
    complete hint: the pattern is then never worse than theirs."""
    if not columns:
        return None, Fraction(-(10**9))
    index = {id(column): i for i, column in enumerate(columns)}
    cuts = [[index[id(column)] for column in pattern.columns] for pattern in excluded]
    start = None
    if first and not excluded:
        began = clock.used
        small = _solve(skeleton, first, clock, seconds=seconds * FIRST_SHARE, seed=seed)
        seconds = max(seconds - (clock.used - began), 0.0)
        if small.found:
            chosen = {id(column) for column, value in zip(first, small.taken, strict=True) if value}
            start = (small.skeleton, [id(column) in chosen for column in columns])
    solved = _solve(skeleton, columns, clock, seconds=seconds, seed=seed, cuts=cuts, start=start)
    if solved.status == cp_model.INFEASIBLE:
        return None, Fraction(-(10**9))
    pattern = None
    if solved.found:
        chosen_columns = tuple(column for column, value in zip(columns, solved.taken, strict=True) if value)
        pattern = Pattern(chosen_columns, solved.value)
    return pattern, solved.ceiling


@dataclass(frozen=True)
class _Solved:
    status: int
    taken: tuple[bool, ...]
    value: Fraction
    ceiling: Fraction | None
    """CP-SAT's proven objective bound, unscaled (None when it proved none)."""
    skeleton: tuple[int, ...] = ()
    """The skeleton variables' values of the solution found (empty: none)."""

    @property
    def found(self) -> bool:
        """Whether a solution was found."""
        return self.status in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def _solve(
    skeleton: Skeleton,
    columns: Sequence[Column],
    clock: Clock,
    *,
    seconds: float,
    seed: int,
    cuts: Sequence[Sequence[int]] = (),
    start: tuple[Sequence[int], Sequence[bool]] | None = None,
) -> _Solved:
    """The integer master over `columns`: every skeleton variable integer, every column binary,
    the master's rows scaled to integers, and for each of `cuts` (column indices) not all of
    them taken; one worker, `seconds` deterministic seconds; `start` (the skeleton variables'
    values, each column taken or not) is a complete solution hinted."""
    model = cp_model.CpModel()
    rows: dict[RowKey, list[tuple[Fraction, cp_model.IntVar]]] = {key: [] for key in skeleton.rows.sense}
    objective: list[tuple[Fraction, cp_model.IntVar]] = []
    structure: list[cp_model.IntVar] = []
    for var in skeleton.variables:
        literal = model.new_int_var(0, var.upper, "")
        structure.append(literal)
        objective.append((var.cost, literal))
        for key, coefficient in var.rows.items():
            if key in rows:
                rows[key].append((coefficient, literal))
    taken: list[cp_model.IntVar] = [model.new_bool_var("") for _ in columns]
    worth, caps = _charge_days(model, skeleton.users, columns, taken, objective)
    for column, column_worth, literal in zip(columns, worth, taken, strict=True):
        objective.append((Fraction(column_worth), literal))
        for key, coefficient in column.rows:
            if key in rows:
                rows[key].append((coefficient, literal))
    for key, terms in rows.items():
        rhs = skeleton.rows.rhs[key]
        scale = _scale([rhs, *(c for c, _ in terms)])
        expression = sum(int(c * scale) * literal for c, literal in terms)
        if skeleton.rows.sense[key] == "=":
            model.add(expression == int(rhs * scale))
        else:
            model.add(expression <= int(rhs * scale))
    for cut in cuts:
        model.add(sum(taken[i] for i in cut) <= len(cut) - 1)
    if start is not None:
        for literal, hinted in zip([*structure, *taken], [*start[0], *map(int, start[1])], strict=True):
            model.add_hint(literal, hinted)
        for cap in caps:
            model.add_hint(cap.over, int(sum(amount for amount, k in cap.loads if start[1][k]) > cap.cap))
    scale = _scale([c for c, _ in objective])
    model.maximize(sum(int(c * scale) * literal for c, literal in objective))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed
    solver.parameters.max_deterministic_time = seconds
    solver.parameters.cp_model_presolve = False  # see the module's docstring
    status = solver.solve(model)
    clock.charge(solver)
    found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    values = tuple(bool(solver.value(literal)) for literal in taken) if found else ()
    value = Fraction(round(solver.objective_value)) / scale if found else Fraction(0)
    proven = proven_bound(solver, status)
    ceiling = None if proven is None else Fraction(math.floor(proven + 1e-6)) / scale
    chosen = tuple(int(solver.value(literal)) for literal in structure) if found else ()
    return _Solved(int(status), values, value, ceiling, chosen)


def _charge_days(
    model: cp_model.CpModel,
    users: Sequence[ScoredUser],
    columns: Sequence[Column],
    taken: Sequence[cp_model.IntVar],
    objective: list[tuple[Fraction, cp_model.IntVar]],
) -> tuple[list[int], list[_DayCap]]:
    """Charge the intensity caps by the day where a day may span blocks: each column's value
    in the integer master and the day caps, their charges added to `objective`.

    A loose column (a day cut by a transition: docs/oracle.md, "Plans from the columns")
    charges no cap, so the LP master never sees what the day's blocks break together. Here,
    for every user and day some loose column of the pool covers, every column of that day
    covering the user gives back its own cap charge and the day is charged on the sum, as the
    official rule does: per cap, a literal `over` that costs 2 and must hold when Σ amount·taken
    exceeds the cap (an enforced constraint: CP-SAT propagates it, where a big-M row left its
    search weaker). Other days keep the columns' own charges — the same sum, since such a day
    has one block."""
    spanning = {(u, column.block[0]) for column in columns if column.loose for u in column.team}
    values = [column.value for column in columns]
    caps: list[_DayCap] = []
    loads: dict[tuple[int, int], list[int]] = {key: [] for key in sorted(spanning)}
    for k, column in enumerate(columns):
        for u in column.team:
            if (u, column.block[0]) not in spanning:
                continue
            loads[(u, column.block[0])].append(k)
            if not column.loose:
                values[k] += users[u].intensity_penalty(column.attractions, column.active)
    for (u, _), chosen in loads.items():
        user = users[u]
        for cap, amounts in (
            (user.max_pois, [columns[k].attractions for k in chosen]),
            (user.max_minutes, [columns[k].active for k in chosen]),
        ):
            most = sum(amounts)
            if cap is None or most <= cap:
                continue
            over = model.new_bool_var("")
            load = sum(amount * taken[k] for amount, k in zip(amounts, chosen, strict=True))
            model.add(load <= cap).only_enforce_if(~over)
            objective.append((Fraction(-2), over))
            caps.append(_DayCap(over, cap, tuple(zip(amounts, chosen, strict=True))))
    return values, caps


@dataclass(frozen=True)
class _DayCap:
    """One cap of one user and day in the integer master (`_charge_days`)."""

    over: cp_model.IntVar
    """True when the day breaks the cap (−2)."""
    cap: int
    loads: tuple[tuple[int, int], ...]
    """(amount, column index) of the day's columns covering the user."""


def _scale(values: Sequence[Fraction]) -> int:
    """The least common multiple of the denominators: the factor that makes a row integral."""
    return math.lcm(*(value.denominator for value in values)) if values else 1
