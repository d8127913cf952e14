"""Relaxations of one OPTW route that bound what a partial route can still collect.

All three ignore that a node is visited at most once except where said, so each is an upper
bound on the best completion (`docs/oracle.md`, "Routing core on OPTW"):

* `shortest_times`: D[a][b], the least time from finishing at a to arriving at b over any path
  (travel plus the service of the nodes passed): no real path is quicker, even where truncated
  travel breaks the triangle inequality.
* `knapsack_weights`: each visit costs at least its service plus its cheapest incoming arc from a
  node that can precede it; a fractional knapsack over the remaining time bounds the prizes.
* `relaxed_table`: the best prize from (node, time) when nodes may repeat but never
  as i → j → i (2-cycle elimination: the best and the second-best first step are kept):
  Righini–Salani's relaxation with an empty critical set, computed backwards over time buckets
  of width Δ ≤ the shortest step (so every step moves on a bucket), with times rounded down
  (being earlier never hurts).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from solver.oracle.orienteering import Problem

IntArray = npt.NDArray[np.int64]
INFEASIBLE = -(2**30)
"""The table's value where not even the relaxation can reach the end in time."""
TABLE_WORK = 20_000_000
"""Buckets × (n + 1)² for the relaxed table: its buckets are as narrow as this allows (narrower
is tighter) but no wider than the shortest step; beyond ten times this it is skipped."""
TABLE_BUCKETS = 1500
"""At most this many buckets when the shortest step allows (each costs a round of numpy calls)."""


def shortest_times(problem: Problem) -> IntArray:
    """D[a][b] over the (n + 2) places, Floyd–Warshall with each middle node's service."""
    d = np.array(problem.travel, dtype=np.int64)
    for k, node in enumerate(problem.nodes):
        d = np.minimum(d, d[:, k, None] + node.service + d[None, k, :])
    return d


def earliest_finish(problem: Problem, d: IntArray) -> list[int | None]:
    """Each node's earliest service end on any route (None: it cannot be visited at all)."""
    finish: list[int | None] = []
    for j, node in enumerate(problem.nodes):
        arrive = problem.departure + int(d[problem.start][j])
        start = next((max(arrive, low) for low, high in node.windows if arrive <= high), None)
        fits = start is not None and start + node.service + int(d[j][problem.end]) <= problem.arrival
        finish.append(start + node.service if fits and start is not None else None)
    return finish


def knapsack_weights(problem: Problem, d: IntArray) -> list[int]:
    """Service plus the cheapest arc into j from a place that can precede it on a route."""
    finish = earliest_finish(problem, d)
    ready = [*finish, problem.departure]
    weights = []
    for j, node in enumerate(problem.nodes):
        last = node.windows[-1][1]
        arcs = [
            problem.travel[i][j]
            for i in range(problem.n + 1)
            if i != j and (at := ready[i]) is not None and at + problem.travel[i][j] <= last
        ]
        weights.append(node.service + min(arcs, default=0))
    return weights


@dataclass(frozen=True)
class RelaxedTable:
    """`value[place][k]`: the relaxation's best prize from finishing at `place` at any time in
    `[departure + kΔ, departure + (k + 1)Δ)`; the end's row is 0."""

    delta: int
    value: IntArray


def relaxed_table(problem: Problem, prizes: Sequence[int], d: IntArray) -> RelaxedTable | None:
    """The bucketed relaxation, or None when a zero-time step or the size rules it out."""
    n, end = problem.n, problem.end
    travel = np.array(problem.travel, dtype=np.int64)
    service = np.array([node.service for node in problem.nodes], dtype=np.int64)
    steps = travel[: n + 1, :n] + service[None, :]
    np.fill_diagonal(steps[:n], np.iinfo(np.int64).max)
    shortest = int(steps.min()) if n else 1
    horizon = problem.arrival - problem.departure
    if horizon < 0 or shortest <= 0:
        return None
    wide = max(1, -(-(horizon + 1) * (n + 1) ** 2 // TABLE_WORK), -(-(horizon + 1) // TABLE_BUCKETS))
    delta = min(wide, shortest)
    if (horizon // delta + 1) * (n + 1) ** 2 > 10 * TABLE_WORK:
        return None
    buckets = horizon // delta + 1
    width = max(len(node.windows) for node in problem.nodes) if n else 0
    lows = np.full((width, n), 0, dtype=np.int64)
    highs = np.full((width, n), -1, dtype=np.int64)
    for j, node in enumerate(problem.nodes):
        for k, (low, high) in enumerate(node.windows):
            lows[k, j], highs[k, j] = low, high
    prize = np.array(prizes, dtype=np.int64)
    back = d[:n, end]
    value = np.full((n + 2, buckets), INFEASIBLE, dtype=np.int64)
    value[end, :] = 0
    second = np.full((n + 1, buckets), INFEASIBLE, dtype=np.int64)
    first_step = np.full((n + 1, buckets), -1, dtype=np.int64)
    rows, columns = np.arange(n + 1), np.arange(n)[None, :]
    for b in range(buckets - 1, -1, -1):
        clock = problem.departure + b * delta
        arrive = clock + travel[: n + 1, :n]
        begin = np.full_like(arrive, -1)
        for k in range(width - 1, -1, -1):
            open_k = arrive <= highs[k][None, :]
            begin = np.where(open_k, np.maximum(arrive, lows[k][None, :]), begin)
        done = begin + service[None, :]
        ok = (begin >= 0) & (done + back[None, :] <= problem.arrival)
        ok[rows[:n], rows[:n]] = False
        later = np.clip((done - problem.departure) // delta, 0, buckets - 1)
        # no i → j → i: from j, take the best first step that does not go straight back to i
        back_to_i = first_step[columns, later] == rows[:, None]
        rest = np.where(back_to_i, second[columns, later], value[columns, later])
        gain = np.full((n + 1, n + 1), INFEASIBLE, dtype=np.int64)
        gain[:, :n] = np.where(ok & (rest > INFEASIBLE), prize[None, :] + rest, INFEASIBLE)
        gain[:, n] = np.where(clock + travel[: n + 1, end] <= problem.arrival, 0, INFEASIBLE)
        top = gain.argmax(axis=1)
        value[: n + 1, b] = gain[rows, top]
        first_step[:, b] = np.where(top == n, -1, top)
        gain[rows, top] = INFEASIBLE
        second[:, b] = gain.max(axis=1)
    return RelaxedTable(delta, value)


CLOSING_CELLS = 2_000_000
"""At most this many (node, time bucket) cells in the table of nodes out of reach."""


@dataclass(frozen=True)
class Closing:
    """`sets[j][rank[j][k]]`: the nodes that no path reaches in time once service at j ends at
    or after `departure + kΔ` (a subset of those out of reach at the real time, which is no
    earlier). The sets grow with k, so each j has at most n + 1 distinct ones, indexed by rank."""

    delta: int
    rank: list[list[int]]
    sets: list[list[list[int]]]


def closing_sets(problem: Problem, d: IntArray) -> Closing:
    """Node b is out of reach from j at time t when t + D[j][b] passes b's last window or leaves
    too little time to serve b and reach the end: t > L[j][b] = min(last_b, arrival − s_b −
    D[b][end]) − D[j][b]; so from bucket ⌈(L + 1 − departure) / Δ⌉ on."""
    n, end = problem.n, problem.end
    horizon = max(problem.arrival - problem.departure, 0)
    delta = max(1, -(-(horizon + 1) * max(n, 1) // CLOSING_CELLS))
    buckets = horizon // delta + 1
    last = np.array([node.windows[-1][1] for node in problem.nodes], dtype=np.int64)
    service = np.array([node.service for node in problem.nodes], dtype=np.int64)
    latest = np.minimum(last, problem.arrival - service - d[:n, end])
    ranks: list[list[int]] = []
    sets: list[list[list[int]]] = []
    for j in range(n):
        threshold = latest - d[j, :n] + 1 - problem.departure
        first_bucket = np.maximum(-(-threshold // delta), 0)
        order = np.argsort(first_bucket, kind="stable")
        moments = sorted(set(first_bucket.tolist()))
        sets.append([sorted(order[first_bucket[order] <= m].tolist()) for m in [-1, *moments]])
        rank = np.searchsorted(np.array(moments, dtype=np.int64), np.arange(buckets), side="right")
        ranks.append(rank.tolist())
    return Closing(delta, ranks, sets)
