"""Team orienteering with time windows (TOPTW, m identical routes) by column generation.

A column is one route of `problem` (`solver/oracle/orienteering.py`). The master is the set
packing LP "each node at most once, at most m routes", solved by GLOP; the pricing problem is the
OPTW engine (`orienteering_dp.solve`) with prizes `prize_i − π_i` and the route-count dual μ
subtracted. Any π ≥ 0, μ ≥ 0 give the Lagrangian bound

    z* ≤ Σ π_i + m μ + m · max(0, best reduced cost),

so the duals are rounded down to multiples of 1/DUAL_GRID (still ≥ 0) and the bound computed
exactly in rationals; when the pricing is stopped by its time limit its own upper bound is used,
so every iteration, even the last of a time-limited run, gives a proven bound. Each round first
prices with a beam search of width QUICK_BEAM (any improving route is a column) and only when
that finds none with the exact engine; if the rounds have not converged when FINAL_SHARE of the
time is left, one last full pricing gives the bound. The plan is the
best integer selection of generated columns (CP-SAT). There is no branching: when the integer
value is below the bound the result says `proven=False` with both numbers.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from fractions import Fraction

from ortools.linear_solver import pywraplp
from ortools.sat.python import cp_model

from solver.oracle.orienteering import Node, Prize, Problem, ProblemError, exact, route_value
from solver.oracle.orienteering_dp import solve

DUAL_GRID = 1000
"""Duals are rounded down to this grid so that pricing prizes stay small exact fractions."""
PRICING_SHARE = 0.5
"""A full pricing call gets this share of the time left (the rest is for later iterations)."""
FINAL_SHARE = 0.25
"""The share of the time kept for a last full pricing when the rounds have not converged."""
QUICK_BEAM = 32
"""Beam width of the first, heuristic pricing call; a full one follows only if it finds no column."""

Route = tuple[int, ...]


@dataclass(frozen=True)
class TeamSolution:
    """The routes chosen, their exact total, the best proven bound, whether they meet, the
    number of pricing rounds, of columns, and seconds."""

    routes: tuple[Route, ...]
    value: Prize
    bound: Prize
    proven: bool
    rounds: int
    columns: int
    seconds: float


def priced(problem: Problem, duals: list[Fraction]) -> Problem:
    """The pricing problem: each node's prize less its dual."""
    nodes = tuple(
        Node(n.service, n.windows, exact(Fraction(n.prize) - pi))
        for n, pi in zip(problem.nodes, duals, strict=True)
    )
    return replace(problem, nodes=nodes)


def master_lp(problem: Problem, m: int, columns: list[Route]) -> tuple[list[Fraction], Fraction]:
    """GLOP's duals of the set packing LP, rounded down to the grid: (π per node, μ)."""
    lp = pywraplp.Solver.CreateSolver("GLOP")
    use = [lp.NumVar(0.0, lp.infinity(), f"r{k}") for k in range(len(columns))]
    rows = [
        lp.Add(sum(use[k] for k, route in enumerate(columns) if i in route) <= 1) for i in range(problem.n)
    ]
    count = lp.Add(sum(use) <= m)
    lp.Maximize(sum(float(value_of(problem, route)) * use[k] for k, route in enumerate(columns)))
    if lp.Solve() != pywraplp.Solver.OPTIMAL:
        raise RuntimeError("the set packing LP did not solve to optimality")
    return [grid(row.dual_value()) for row in rows], grid(count.dual_value())


def grid(dual: float) -> Fraction:
    """A dual rounded down to the grid, never negative."""
    return Fraction(max(0, int(dual * DUAL_GRID)), DUAL_GRID)


def value_of(problem: Problem, route: Route) -> Fraction:
    """The exact sum of the route's prizes."""
    return sum((Fraction(problem.nodes[i].prize) for i in route), Fraction(0))


def best_selection(problem: Problem, m: int, columns: list[Route], time_limit: float) -> tuple[Route, ...]:
    """At most m node-disjoint columns of greatest total prize (CP-SAT, exact on the grid of
    the prizes' common denominator)."""
    model = cp_model.CpModel()
    pick = [model.new_bool_var(f"r{k}") for k in range(len(columns))]
    for i in range(problem.n):
        model.add_at_most_one(pick[k] for k, route in enumerate(columns) if i in route)
    model.add(sum(pick) <= m)
    values = [value_of(problem, route) for route in columns]
    scale = math.lcm(*(v.denominator for v in values))
    model.maximize(sum(int(v * scale) * p for v, p in zip(values, pick, strict=True)))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(time_limit, 1.0)
    solver.parameters.num_workers = 1
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return ()
    return tuple(route for route, p in zip(columns, pick, strict=True) if solver.boolean_value(p) and route)


def solve_team(problem: Problem, m: int, time_limit: float = 60.0) -> TeamSolution:
    """TOPTW with m routes by column generation (see the module docstring)."""
    if m < 1:
        raise ProblemError("m", f"must be at least 1, got {m}")
    began = time.perf_counter()
    deadline = began + time_limit
    columns: list[Route] = [()]
    columns.extend(greedy_routes(problem, m, deadline))
    bound: Fraction | None = None
    rounds, converged = 0, False
    while time.perf_counter() < deadline - time_limit * FINAL_SHARE:
        duals, mu = master_lp(problem, m, columns)
        rounds += 1
        prices = priced(problem, duals)
        pricing = solve(prices, max(deadline - time.perf_counter(), 0.05) * PRICING_SHARE, beam=QUICK_BEAM)
        if Fraction(pricing.value) - mu <= 0 and not pricing.proven:
            pricing = solve(prices, max(deadline - time.perf_counter(), 0.05) * PRICING_SHARE)
        bound = tightest(bound, lagrangian(duals, mu, m, pricing.bound))
        route = pricing.route or ()
        if Fraction(pricing.value) - mu <= 0 or route in columns:
            converged = True
            break
        columns.append(route)
    if not converged:  # the last share of the time: one full pricing for the bound
        duals, mu = master_lp(problem, m, columns)
        pricing = solve(priced(problem, duals), max(deadline - time.perf_counter(), 0.05))
        bound = tightest(bound, lagrangian(duals, mu, m, pricing.bound))
        if pricing.route and pricing.route not in columns:
            columns.append(pricing.route)
    chosen = best_selection(problem, m, columns, max(deadline - time.perf_counter(), 1.0))
    value = sum((value_of(problem, route) for route in chosen), Fraction(0))
    for route in chosen:
        played = route_value(problem, route)
        if not played.feasible:
            raise AssertionError(f"a column does not replay: {played.error}")
    everything = sum((max(Fraction(n.prize), Fraction(0)) for n in problem.nodes), Fraction(0))
    bound = everything if bound is None else min(bound, everything)  # early rounds can exceed it
    proven = value >= bound or (
        all(Fraction(n.prize).denominator == 1 for n in problem.nodes) and value >= int(bound)
    )
    return TeamSolution(
        chosen, exact(value), exact(bound), proven, rounds, len(columns) - 1, time.perf_counter() - began
    )


def lagrangian(duals: list[Fraction], mu: Fraction, m: int, pricing_bound: Prize) -> Fraction:
    """Σπ + mμ + m · max(0, bound on the best reduced cost): valid for any π, μ ≥ 0."""
    return sum(duals, Fraction(0)) + m * mu + m * max(Fraction(0), Fraction(pricing_bound) - mu)


def tightest(bound: Fraction | None, candidate: Fraction) -> Fraction:
    return candidate if bound is None else min(bound, candidate)


def greedy_routes(problem: Problem, m: int, deadline: float) -> list[Route]:
    """m routes found one after another, each the engine's best with the nodes already taken
    priced below anything they could enable (a short search each): the first columns."""
    routes: list[Route] = []
    taken: set[int] = set()
    shun = -1 - sum((max(Fraction(n.prize), Fraction(0)) for n in problem.nodes), Fraction(0))
    for _ in range(m):
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        nodes = tuple(
            Node(n.service, n.windows, exact(shun) if i in taken else n.prize)
            for i, n in enumerate(problem.nodes)
        )
        found = solve(replace(problem, nodes=nodes), max(left / (4 * m), 0.05))
        route = tuple(i for i in (found.route or ()) if i not in taken)
        if not route or not route_value(problem, route).feasible:
            break
        routes.append(route)
        taken.update(route)
    return routes
