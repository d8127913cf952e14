"""One prize-collecting route with time windows (OPTW): the problem, its checks and its replay.

This is the pricing problem of the oracle's column generation (a column is one route; its prizes
are utilities less the master's duals, so they may be negative or fractional) and, alone, the
OPTW of the public benchmarks. Nodes `0..n-1` are the optional stops; index `n` is the route's
start and `n + 1` its end (they may be the same place: the matrix says how far apart they are).
Times are non-negative integers; a node's windows bound the *start* of its service, waiting is free. The
route leaves the start at `departure` (leaving later never helps when waiting is free) and must
reach the end by `arrival` (its latest time). Of each group at most one node is visited.
The solver is `solver/oracle/orienteering_dp.py`; `route_value` is the independent replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from verifier.errors import StructuredError

Prize = int | Fraction
Window = tuple[int, int]


class ProblemError(StructuredError, ValueError):
    """Malformed input: `field` names the part of the problem, `problem` what is wrong."""


@dataclass(frozen=True)
class Node:
    """An optional stop: service minutes, start-of-service windows (sorted, disjoint, inclusive)
    and the prize for visiting it."""

    service: int
    windows: tuple[Window, ...]
    prize: Prize


@dataclass(frozen=True)
class Problem:
    """One route's pricing problem; `travel` is (n + 2) × (n + 2) with the start at `n` and the
    end at `n + 1`; `groups` are sets of node indices of which at most one may be visited."""

    nodes: tuple[Node, ...]
    travel: tuple[tuple[int, ...], ...]
    departure: int
    arrival: int
    groups: tuple[frozenset[int], ...] = ()

    def __post_init__(self) -> None:
        check(self)

    @property
    def n(self) -> int:
        return len(self.nodes)

    @property
    def start(self) -> int:
        return len(self.nodes)

    @property
    def end(self) -> int:
        return len(self.nodes) + 1


def check(problem: Problem) -> None:
    """Raise `ProblemError` naming the first malformed field."""
    size = problem.n + 2
    if len(problem.travel) != size or any(len(row) != size for row in problem.travel):
        raise ProblemError("travel", f"must be {size} × {size} (nodes, then start, then end)")
    for i, row in enumerate(problem.travel):
        for j, value in enumerate(row):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ProblemError(f"travel[{i}][{j}]", f"{value!r} is not a non-negative integer")
    for name, value in (("departure", problem.departure), ("arrival", problem.arrival)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ProblemError(name, f"{value!r} is not a non-negative integer")
    for index, node in enumerate(problem.nodes):
        where = f"nodes[{index}]"
        if not isinstance(node.service, int) or isinstance(node.service, bool) or node.service < 0:
            raise ProblemError(f"{where}.service", f"{node.service!r} is not a non-negative integer")
        if not isinstance(node.prize, int | Fraction) or isinstance(node.prize, bool):
            raise ProblemError(f"{where}.prize", f"{node.prize!r} is not an int or a Fraction")
        if not node.windows:
            raise ProblemError(f"{where}.windows", "no window")
        previous = None
        for low, high in node.windows:
            if not (isinstance(low, int) and isinstance(high, int)) or not 0 <= low <= high:
                raise ProblemError(f"{where}.windows", f"({low!r}, {high!r}) is not an integer interval")
            if previous is not None and low <= previous:
                raise ProblemError(f"{where}.windows", "windows must be sorted and disjoint")
            previous = high
    for index, group in enumerate(problem.groups):
        if any(not isinstance(i, int) or not 0 <= i < problem.n for i in group):
            raise ProblemError(f"groups[{index}]", f"holds an index outside 0..{problem.n - 1}")


def service_start(node: Node, arrival: int) -> int | None:
    """The earliest start of service at or after `arrival`, None when every window has closed."""
    for low, high in node.windows:
        if arrival <= high:
            return max(arrival, low)
    return None


@dataclass(frozen=True)
class Replay:
    """A replayed route: its value and each stop's service start, or `error`, the first reason
    it is infeasible."""

    value: Prize
    starts: tuple[int, ...]
    error: str | None = None

    @property
    def feasible(self) -> bool:
        return self.error is None


def route_value(problem: Problem, route: Sequence[int]) -> Replay:
    """Replay `route` (node indices in order) at its earliest schedule."""
    clock, here, starts, value = problem.departure, problem.start, list[int](), Fraction(0)
    seen: set[int] = set()
    for node in route:
        if not 0 <= node < problem.n:
            return Replay(0, (), f"no node {node}")
        if node in seen:
            return Replay(0, (), f"node {node} visited twice")
        seen.add(node)
        begin = service_start(problem.nodes[node], clock + problem.travel[here][node])
        if begin is None:
            return Replay(0, (), f"node {node} reached after its last window")
        starts.append(begin)
        value += problem.nodes[node].prize
        clock, here = begin + problem.nodes[node].service, node
    if clock + problem.travel[here][problem.end] > problem.arrival:
        return Replay(
            0, (), f"end reached at {clock + problem.travel[here][problem.end]} > {problem.arrival}"
        )
    for index, group in enumerate(problem.groups):
        if len(group & seen) > 1:
            return Replay(0, (), f"group {index} visited {len(group & seen)} times")
    return Replay(exact(value), tuple(starts))


def exact(value: Fraction) -> Prize:
    """An integral Fraction as an int."""
    return value.numerator if value.denominator == 1 else value
