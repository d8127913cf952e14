"""The exact OPTW engine: dynamic programming over (unvisited set, place, time) solved by
didppy's complete anytime beam search (CABS, Rust core), with decremental state-space
relaxation (DSSR, Righini & Salani) to prove the bound.

State: `unvisited` (the nodes still allowed; a set resource, a superset is better), `place`,
`time` (service end at `place`; a resource, earlier is better). At one place a state dominates
another with a superset of allowed nodes, no later time and no less prize: every completion of
the other is open to it (waiting is free). Transitions: visit a node in its earliest open
window — it, its group and every node no path can still reach in time (`closing_sets`) leave
`unvisited` — or go to the end. The dual bound is the least of the positive prizes left, a
fractional knapsack on the time left and the relaxed table at (place, time)
(`orienteering_bounds`).

Solving: first the elementary model for a share of the time (a good route, often a proof);
then DSSR: the same model where only the nodes of a critical set Θ must be unvisited to be
visited (the others may repeat, never twice in a row; the knapsack and prize sum, which assume
no repeats, are left out). Its optimum bounds every route; if its best route is elementary it
is optimal, otherwise the repeated nodes join Θ and it is solved again. The incumbent is passed
as CABS's primal bound, so a relaxation that cannot beat it is proven so quickly: then the
incumbent is optimal. A time limit ends the loop with the best route and the least valid bound.

Exactness: prizes are scaled by the least common denominator to integers; the returned route is
replayed by `route_value`. Nodes leave `unvisited` inside the visit, not by forced transitions:
a forced drop's successor would be dominated by its own, already expanded, parent, which makes
didppy's searches that keep every state (A*, CBFS, CABS with `keep_all_layers`) lose routes.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import didppy as dp

from solver.oracle.orienteering import Prize, Problem, ProblemError, exact, route_value
from solver.oracle.orienteering_bounds import (
    Closing,
    IntArray,
    RelaxedTable,
    closing_sets,
    earliest_finish,
    knapsack_weights,
    relaxed_table,
    shortest_times,
)

COST_LIMIT = 2**29
"""didppy's integer costs are 32-bit: scaled prizes must sum below this."""
FIRST_SHARE = 0.25
"""The share of the time limit given to the elementary search before DSSR starts."""


@dataclass(frozen=True)
class Solution:
    """The best route found (node indices; None when not even the empty route fits), its exact
    value, an upper bound on every route's value, whether the route is proven optimal, seconds."""

    route: tuple[int, ...] | None
    value: Prize
    bound: Prize
    proven: bool
    seconds: float


@dataclass(frozen=True)
class Prepared:
    """What every model of one problem shares."""

    problem: Problem
    prizes: list[int]
    factor: int
    d: IntArray
    reachable: list[int]
    closing: Closing
    table: RelaxedTable | None
    weights: list[int]


def prepare(problem: Problem, table: bool = True) -> Prepared:
    """Integer prizes (scaled by the denominators' lcm) and the relaxations (without the relaxed
    table when `table` is false: it costs up to seconds, which a quick beam search saves)."""
    factor = math.lcm(*(Fraction(node.prize).denominator for node in problem.nodes)) if problem.nodes else 1
    prizes = [int(Fraction(node.prize) * factor) for node in problem.nodes]
    if sum(abs(p) for p in prizes) >= COST_LIMIT:
        raise ProblemError("nodes.prize", f"prizes scaled to integers (×{factor}) sum to 2^29 or more")
    d = shortest_times(problem)
    finish = earliest_finish(problem, d)
    reachable = [j for j in range(problem.n) if finish[j] is not None]
    relaxed = relaxed_table(problem, prizes, d) if table else None
    return Prepared(
        problem, prizes, factor, d, reachable, closing_sets(problem, d), relaxed, knapsack_weights(problem, d)
    )


def build(prep: Prepared, critical: frozenset[int] | None) -> dp.Model:
    """The model; `critical` None is the elementary one, a set Θ the DSSR relaxation."""
    problem, d = prep.problem, prep.d
    n, end = problem.n, problem.end
    model = dp.Model(maximize=True, float_cost=False)
    nodes = model.add_object_type(number=max(n, 1))
    places = model.add_object_type(number=n + 2)
    unvisited = model.add_set_resource_var(object_type=nodes, target=prep.reachable, less_is_better=False)
    place = model.add_element_var(object_type=places, target=problem.start)
    moments = model.add_object_type(number=problem.arrival + 1)
    clock = model.add_element_resource_var(object_type=moments, target=problem.departure, less_is_better=True)
    travel = model.add_element_table([list(row) for row in problem.travel])
    model.add_base_case([place == end])
    home = clock + travel[place, end]
    nothing = model.create_set_const(object_type=nodes, value=[])
    model.add_transition(
        dp.Transition(
            name="end",
            cost=dp.IntExpr.state_cost(),
            effects=[(unvisited, nothing), (place, end), (clock, home)],
            preconditions=[home <= problem.arrival],
        )
    )
    out_of_reach = model.add_set_table(prep.closing.sets, object_type=nodes)
    rank = model.add_element_table(prep.closing.rank)
    for j in prep.reachable:
        node, arrive = problem.nodes[j], clock + travel[place, j]
        mates = {j}.union(*(group for group in problem.groups if j in group))
        gone = model.create_set_const(object_type=nodes, value=sorted(mates))
        allowed = unvisited.contains(j) if critical is None or j in critical else place != j
        for k, (low, high) in enumerate(node.windows):
            begin = dp.max(arrive, low)
            done = begin + node.service
            conditions = [allowed, arrive <= high, done + int(d[j][end]) <= problem.arrival]
            if k:
                conditions.append(arrive > node.windows[k - 1][1])
            after = out_of_reach[j, rank[j, (done - problem.departure) // prep.closing.delta]]
            model.add_transition(
                dp.Transition(
                    name=f"visit {j}",
                    cost=prep.prizes[j] + dp.IntExpr.state_cost(),
                    effects=[
                        (unvisited, unvisited.difference(gone).difference(after)),
                        (place, j),
                        (clock, done),
                    ],
                    preconditions=conditions,
                )
            )
    model.add_dual_bound(dual_bound(model, prep, unvisited, place, clock, elementary=critical is None))
    return model


def dual_bound(
    model: dp.Model,
    prep: Prepared,
    unvisited: dp.SetResourceVar,
    place: dp.ElementVar,
    clock: dp.ElementResourceVar,
    *,
    elementary: bool,
) -> dp.IntExpr | int:
    """The least of the relaxations that hold for the model (see the module docstring)."""
    problem = prep.problem
    bounds: list[dp.IntExpr] = []
    if elementary:
        gain = model.add_int_table([max(p, 0) for p in prep.prizes] or [0])
        bounds.append(gain[unvisited])
        if problem.n and min(prep.weights) > 0:
            left = model.add_int_table([problem.arrival - t for t in range(problem.arrival + 1)])[clock]
            knapsack = dp.fractional_knapsack(unvisited, left, gain, model.add_int_table(prep.weights))
            # its value is a ratio with denominator ≤ max weight, so this slack never rounds up past it
            bounds.append(math.floor(knapsack + 1 / (2 * max(prep.weights))))
    if prep.table is not None:
        relaxed = model.add_int_table(prep.table.value.tolist())
        bounds.append(relaxed[place, (clock - problem.departure) // prep.table.delta])
    if not bounds:
        return sum(max(p, 0) for p in prep.prizes)
    bound = bounds[0]
    for other in bounds[1:]:
        bound = dp.min(bound, other)
    step = grain(prep)
    return bound if step == 1 else (bound // step) * step


def grain(prep: Prepared) -> int:
    """The gcd of the scaled prizes: every route's value is a multiple of it, so any bound may
    be rounded down to one (c-type Solomon profits are multiples of 10)."""
    return math.gcd(*prep.prizes) or 1


def route_of(found: dp.Solution) -> tuple[int, ...]:
    """The visited nodes, in order, of a didppy solution."""
    return tuple(int(t.name.split()[1]) for t in found.transitions if t.name.startswith("visit"))


def solve(problem: Problem, time_limit: float = 60.0, beam: int | None = None) -> Solution:
    """The best route of `problem`, proven optimal unless `time_limit` (seconds) stopped it.
    With `beam`, only a beam search of that width runs (a quick heuristic, deterministic; no
    DSSR, no relaxed table): its bound is then the root's dual bound unless the beam happened
    to prune nothing."""
    began = time.perf_counter()
    if problem.departure + problem.travel[problem.start][problem.end] > problem.arrival:
        return Solution(None, 0, 0, True, time.perf_counter() - began)
    prep = prepare(problem, table=beam is None)
    if not prep.reachable:
        return Solution((), 0, 0, True, time.perf_counter() - began)
    deadline = began + time_limit

    def left() -> float:
        return max(deadline - time.perf_counter(), 0.01)

    model = build(prep, None)
    bound = model.eval_dual_bound(model.target_state)
    share = 1.0 if beam is not None else FIRST_SHARE
    found = dp.CABS(model, time_limit=left() * share, quiet=True, max_beam_size=beam).search()
    route = route_of(found)
    value = scaled(prep, route)
    if found.is_optimal:
        bound = value
    elif found.best_bound is not None:
        bound = min(bound, found.best_bound)
    if beam is None and bound > value:
        route, value, bound = dssr(prep, route, value, bound, deadline)
    played = route_value(problem, route)
    if not played.feasible:
        raise AssertionError(f"the engine's route does not replay: {played.error}")
    bound = max(bound // grain(prep) * grain(prep), value)
    return Solution(
        route, played.value, exact(Fraction(bound, prep.factor)), bound <= value, time.perf_counter() - began
    )


def scaled(prep: Prepared, route: tuple[int, ...]) -> int:
    """The route's value in scaled integer prizes."""
    return sum(prep.prizes[j] for j in route)


def dssr(
    prep: Prepared, route: tuple[int, ...], value: int, bound: int, deadline: float
) -> tuple[tuple[int, ...], int, int]:
    """Decremental state-space relaxation from the incumbent (`route`, scaled `value`) and a
    valid `bound`: returns the best route, its value and the least bound proven by `deadline`.
    The relaxed models' dual bound (the relaxed table) bounds every elementary completion, which
    is all the proof needs. Without the table (a zero-time step, or too large) DSSR is skipped:
    repeats that take no time would make the relaxation unbounded."""
    if prep.table is None:
        return route, value, bound
    critical: frozenset[int] = frozenset()
    while bound > value and time.perf_counter() < deadline:
        relaxed = build(prep, critical)
        left = max(deadline - time.perf_counter(), 0.01)
        result = dp.CABS(relaxed, primal_bound=value, time_limit=left, quiet=True).search()
        if result.is_infeasible and not result.time_out:  # nothing beats the incumbent
            return route, value, value
        if result.best_bound is not None:
            bound = min(bound, max(result.best_bound, value))
        if not result.is_optimal or result.cost is None:
            break
        if result.cost <= value:
            return route, value, value
        bound = min(bound, result.cost)
        path = route_of(result)
        repeated = {j for j, count in Counter(path).items() if count > 1}
        groups = prep.problem.groups
        repeated |= {j for group in groups if len(visits := group & set(path)) > 1 for j in visits}
        if not repeated:
            return path, result.cost, result.cost
        critical |= repeated
    return route, value, bound
