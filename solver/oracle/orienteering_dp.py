"""The exact OPTW engine: elementary dynamic programming over (unvisited set, place, time),
solved by didppy's complete anytime beam search (CABS, Rust core).

State: `unvisited` (the nodes still allowed, a set resource: a superset is better), `place`,
`time` (service end at `place`, a resource: earlier is better). A state dominates another at the
same place when it has a superset of the allowed nodes, no later time and no less prize: every
completion of the other is then open to it (waiting is free). Transitions: visit a node in its
earliest open window (it and its group leave `unvisited`), or finish at the end. Forced
transitions drop nodes that no path can still reach in time (`shortest_times`), which keeps
equal states equal. The dual bound is the least of three relaxations (`orienteering_bounds`):
the positive prizes left, a fractional knapsack on the time left, and the relaxed table at
(place, time). CABS proves optimality when a beam completes without pruning; stopped by its time
limit it still returns its best route and a bound no lower than the optimum (tests check both).

Exactness: prizes are scaled by the least common denominator to integers; the route returned is
replayed by `route_value` and its exact value returned. Keep `keep_all_layers` off: with it a
forced drop's successor is discarded as dominated by its own (already expanded) parent.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction

import didppy as dp

from solver.oracle.orienteering import Prize, Problem, ProblemError, exact, route_value
from solver.oracle.orienteering_bounds import (
    INFEASIBLE,
    closing_sets,
    earliest_finish,
    knapsack_weights,
    relaxed_table,
    shortest_times,
)

COST_LIMIT = 2**29
"""didppy's integer costs are 32-bit: scaled prizes must sum below this."""


@dataclass(frozen=True)
class Solution:
    """The best route found (node indices, None when not even the empty route fits), its exact
    value, an upper bound on every route's value, whether the route is proven optimal, seconds."""

    route: tuple[int, ...] | None
    value: Prize
    bound: Prize
    proven: bool
    seconds: float


def scaled_prizes(problem: Problem) -> tuple[list[int], int]:
    """Integer prizes and the factor they were multiplied by (the denominators' lcm)."""
    factor = math.lcm(*(Fraction(node.prize).denominator for node in problem.nodes)) if problem.nodes else 1
    prizes = [int(Fraction(node.prize) * factor) for node in problem.nodes]
    if sum(abs(p) for p in prizes) >= COST_LIMIT:
        raise ProblemError("nodes.prize", f"prizes scaled to integers (×{factor}) sum to 2^29 or more")
    return prizes, factor


def build(problem: Problem, prizes: list[int]) -> dp.Model:
    """The DyPDL model (see the module docstring)."""
    n, start, end = problem.n, problem.start, problem.end
    d = shortest_times(problem)
    finish = earliest_finish(problem, d)
    model = dp.Model(maximize=True, float_cost=False)
    nodes = model.add_object_type(number=max(n, 1))
    places = model.add_object_type(number=n + 2)
    reachable = [j for j in range(n) if finish[j] is not None]
    unvisited = model.add_set_resource_var(object_type=nodes, target=reachable, less_is_better=False)
    place = model.add_element_var(object_type=places, target=start)
    moments = model.add_object_type(number=problem.arrival + 1)
    clock = model.add_element_resource_var(object_type=moments, target=problem.departure, less_is_better=True)
    travel = model.add_element_table([list(row) for row in problem.travel])
    model.add_base_case([place == end])
    nothing = model.create_set_const(object_type=nodes, value=[])
    home = clock + travel[place, end]
    model.add_transition(
        dp.Transition(
            name="end",
            cost=dp.IntExpr.state_cost(),
            effects=[(unvisited, nothing), (place, end), (clock, home)],
            preconditions=[home <= problem.arrival],
        )
    )
    closing = closing_sets(problem, d)
    out_of_reach = model.add_set_table(closing.sets, object_type=nodes)
    rank = model.add_element_table(closing.rank)
    for j in reachable:
        node, arrive = problem.nodes[j], clock + travel[place, j]
        closed = [g for g in problem.groups if j in g]
        gone = model.create_set_const(object_type=nodes, value=sorted({j}.union(*closed)))
        for k, (low, high) in enumerate(node.windows):
            begin = dp.max(arrive, low)
            conditions = [unvisited.contains(j), arrive <= high]
            if k:
                conditions.append(arrive > node.windows[k - 1][1])
            conditions.append(begin + node.service + int(d[j][end]) <= problem.arrival)
            after = out_of_reach[j, rank[j, (begin + node.service - problem.departure) // closing.delta]]
            model.add_transition(
                dp.Transition(
                    name=f"visit {j}",
                    cost=prizes[j] + dp.IntExpr.state_cost(),
                    effects=[
                        (unvisited, unvisited.difference(gone).difference(after)),
                        (place, j),
                        (clock, begin + node.service),
                    ],
                    preconditions=conditions,
                )
            )
    model.add_dual_bound(dual_bound(model, problem, prizes, unvisited, place, clock, d))
    return model


def dual_bound(
    model: dp.Model,
    problem: Problem,
    prizes: list[int],
    unvisited: dp.SetResourceVar,
    place: dp.ElementVar,
    clock: dp.ElementResourceVar,
    d: object,
) -> dp.IntExpr:
    """The least of the three relaxations at a state."""
    import numpy as np

    assert isinstance(d, np.ndarray)
    gains = [max(p, 0) for p in prizes] or [0]
    gain = model.add_int_table(gains)
    bound: dp.IntExpr = gain[unvisited]
    weights = knapsack_weights(problem, d)
    if problem.n and min(weights) > 0:
        left = model.add_int_table([problem.arrival - t for t in range(problem.arrival + 1)])[clock]
        knapsack = dp.fractional_knapsack(unvisited, left, gain, model.add_int_table(weights))
        # the knapsack value is a ratio of integers with denominator ≤ max weight: this slack is safe
        bound = dp.min(bound, math.floor(knapsack + 1 / (2 * max(weights))))
    table = relaxed_table(problem, prizes, d)
    if table is not None:
        relaxed = model.add_int_table(table.value.tolist())
        bound = dp.min(bound, relaxed[place, (clock - problem.departure) // table.delta])
    return bound


def solve(problem: Problem, time_limit: float | None = 60.0) -> Solution:
    """The best route of `problem`, proven optimal unless `time_limit` (seconds) stopped it."""
    began = time.perf_counter()
    prizes, factor = scaled_prizes(problem)
    if problem.departure + problem.travel[problem.start][problem.end] > problem.arrival:
        return Solution(None, 0, 0, True, time.perf_counter() - began)
    model = build(problem, prizes)
    root = model.eval_dual_bound(model.target_state)
    import os
    kind = os.environ.get("ALG", "CABS")
    found = getattr(dp, kind)(model, time_limit=time_limit, quiet=True).search()
    route = tuple(int(t.name.split()[1]) for t in found.transitions if t.name.startswith("visit"))
    played = route_value(problem, route)
    if not played.feasible:
        raise AssertionError(f"the engine's route does not replay: {played.error}")
    best = found.best_bound if found.best_bound is not None else root
    bound = max(min(best, root), int(Fraction(played.value) * factor))
    proven = bool(found.is_optimal)
    value = played.value
    return Solution(route, value, exact(Fraction(bound, factor)) if not proven else value, proven,
                    time.perf_counter() - began)
