"""The exact OPTW engine against brute force, its bounds, its input checks, and TOPTW by column
generation against brute force on tiny instances."""

from __future__ import annotations

import itertools
import time
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from solver.oracle.orienteering import Node, Prize, Problem, ProblemError, route_value, service_start
from solver.oracle.orienteering_dp import dssr, prepare, solve
from solver.oracle.toptw import solve_team


def feasible_routes(problem: Problem) -> dict[tuple[int, ...], Fraction]:
    """Every feasible route (all orders, earliest schedule) with its value."""
    found: dict[tuple[int, ...], Fraction] = {}

    def extend(route: tuple[int, ...], clock: int, here: int) -> None:
        if clock + problem.travel[here][problem.end] <= problem.arrival and all(
            len(group & set(route)) <= 1 for group in problem.groups
        ):
            found[route] = sum((Fraction(problem.nodes[j].prize) for j in route), Fraction(0))
        for j in range(problem.n):
            begin = service_start(problem.nodes[j], clock + problem.travel[here][j])
            if j not in route and begin is not None:
                extend((*route, j), begin + problem.nodes[j].service, j)

    if problem.departure + problem.travel[problem.start][problem.end] <= problem.arrival:
        extend((), problem.departure, problem.start)
    return found


def brute_force(problem: Problem) -> Fraction | None:
    routes = feasible_routes(problem)
    return max(routes.values()) if routes else None


def brute_force_team(problem: Problem, m: int) -> Fraction:
    """The best total over at most m node-disjoint feasible routes."""
    routes = list(feasible_routes(problem).items())
    best = Fraction(0)
    for k in range(1, m + 1):
        for combo in itertools.combinations(routes, k):
            sets = [set(route) for route, _ in combo]
            if sum(map(len, sets)) == len(set().union(*sets)):
                best = max(best, sum((value for _, value in combo), Fraction(0)))
    return best


prizes = st.one_of(
    st.integers(-5, 20),
    st.fractions(min_value=-3, max_value=15, max_denominator=6),
)


@st.composite
def problems(draw: st.DrawFn, max_nodes: int = 6, negative: bool = True) -> Problem:
    n = draw(st.integers(0, max_nodes))
    nodes = []
    for _ in range(n):
        cuts = sorted(draw(st.lists(st.integers(0, 60), min_size=2, max_size=4, unique=True)))
        windows = tuple((cuts[i], cuts[i + 1]) for i in range(0, len(cuts) - 1, 2))
        prize = draw(prizes) if negative else draw(st.integers(0, 20))
        nodes.append(Node(draw(st.integers(0, 6)), windows, prize))
    size = n + 2
    points = [(draw(st.integers(0, 12)), draw(st.integers(0, 12))) for _ in range(size)]
    travel = tuple(tuple(abs(a[0] - b[0]) + abs(a[1] - b[1]) for b in points) for a in points)
    groups: tuple[frozenset[int], ...] = ()
    if n >= 2 and draw(st.booleans()):
        groups = (frozenset(draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=3, unique=True))),)
    departure = draw(st.integers(0, 10))
    return Problem(tuple(nodes), travel, departure, departure + draw(st.integers(0, 70)), groups)


@settings(max_examples=60, deadline=None)
@given(problems())
def test_engine_equals_brute_force(problem: Problem) -> None:
    best = brute_force(problem)
    found = solve(problem, time_limit=30)
    if best is None:
        assert found.route is None
        return
    assert found.proven
    assert found.value == best == found.bound
    assert found.route is not None
    played = route_value(problem, found.route)
    assert played.feasible and played.value == best


@settings(max_examples=40, deadline=None)
@given(problems())
def test_a_beam_search_never_overstates_the_value_nor_understates_the_bound(problem: Problem) -> None:
    best = brute_force(problem)
    found = solve(problem, time_limit=30, beam=1)
    if best is None:
        return
    assert found.value <= best <= found.bound
    assert found.proven == (found.value == found.bound)


@settings(max_examples=40, deadline=None)
@given(problems())
def test_dssr_alone_proves_the_optimum_from_the_empty_route(problem: Problem) -> None:
    best = brute_force(problem)
    prep = prepare(problem)
    assume(best is not None and prep.reachable and prep.table is not None)
    total = sum(max(p, 0) for p in prep.prizes)
    route, value, bound = dssr(prep, (), 0, total, time.perf_counter() + 30)
    assert Fraction(value, prep.factor) == best == Fraction(bound, prep.factor)
    assert route_value(problem, route).value == best


def line(prizes_: list[Prize], service: int = 1) -> Problem:
    """Nodes on a line 1..n from a depot at 0, all open [0, 100], back by 100."""
    n = len(prizes_)
    places = [*range(1, n + 1), 0, 0]
    travel = tuple(tuple(abs(a - b) for b in places) for a in places)
    return Problem(tuple(Node(service, ((0, 100),), p) for p in prizes_), travel, 0, 100)


def test_dssr_grows_the_critical_set_until_the_route_is_elementary() -> None:
    # with wide windows the relaxation with an empty critical set cycles 0 → 1 → 2 → 0 …
    prep = prepare(line([3, 4, 5, 6]))
    route, value, bound = dssr(prep, (), 0, 10**6, time.perf_counter() + 30)
    assert (sorted(route), value, bound) == ([0, 1, 2, 3], 18, 18)


def test_skips_negative_and_keeps_fractions_exact() -> None:
    found = solve(line([Fraction(1, 3), -4, Fraction(5, 6)]))
    assert (found.route, found.value, found.bound, found.proven) == (
        (0, 2),
        Fraction(7, 6),
        Fraction(7, 6),
        True,
    )


def test_groups_allow_one_visit() -> None:
    base = line([3, 4, 5])
    grouped = Problem(base.nodes, base.travel, 0, 100, (frozenset({1, 2}),))
    assert (solve(grouped).route, solve(grouped).value) == ((0, 2), 8)  # 3 + 5, not 4 + 5
    assert route_value(grouped, (0, 1, 2)).error == "group 0 visited 2 times"


def test_second_window_and_different_end() -> None:
    # node 0 opens [0, 2] and [50, 60]; it is 5 away, so only the second window fits
    travel = ((0, 5, 30), (5, 0, 1), (30, 1, 0))  # node, start, end: the end is 30 from the node
    problem = Problem((Node(2, ((0, 2), (50, 60)), 9),), travel, 0, 82)
    assert route_value(problem, (0,)).starts == (50,)
    assert solve(problem).value == 9
    tight = Problem(problem.nodes, travel, 0, 81)
    assert (solve(tight).value, solve(tight).route) == (0, ())


def test_no_route_when_the_end_is_out_of_reach() -> None:
    found = solve(Problem((), ((0, 9), (9, 0)), 0, 8))
    assert (found.route, found.value, found.bound, found.proven) == (None, 0, 0, True)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"travel": ((0, 1), (1, 0))}, "travel"),
        ({"travel": ((0, 1, 1), (1, 0, -1), (1, 1, 0))}, "travel[1][2]"),
        ({"departure": -1}, "departure"),
        ({"nodes": (Node(-1, ((0, 5),), 1),)}, "nodes[0].service"),
        ({"nodes": (Node(1, ((5, 9), (0, 3)), 1),)}, "nodes[0].windows"),
        ({"nodes": (Node(1, (), 1),)}, "nodes[0].windows"),
        ({"nodes": (Node(1, ((0, 5),), 1.5),)}, "nodes[0].prize"),  # type: ignore[arg-type]
        ({"groups": (frozenset({3}),)}, "groups[0]"),
    ],
)
def test_bad_input_names_the_field(change: dict[str, object], field: str) -> None:
    good: dict[str, object] = {
        "nodes": (Node(1, ((0, 5),), 1),),
        "travel": ((0, 1, 1), (1, 0, 1), (1, 1, 0)),
        "departure": 0,
        "arrival": 10,
        "groups": (),
    }
    with pytest.raises(ProblemError) as error:
        Problem(**{**good, **change})  # type: ignore[arg-type]
    assert error.value.field == field


def test_prizes_too_large_for_didppy_are_refused() -> None:
    with pytest.raises(ProblemError, match="2\\^29"):
        solve(line([Fraction(1, 2**15), Fraction(2**14, 3)]))


@settings(max_examples=25, deadline=None)
@given(problems(max_nodes=5, negative=False), st.integers(2, 3))
def test_team_column_generation_brackets_brute_force(problem: Problem, m: int) -> None:
    best = brute_force_team(problem, m)
    found = solve_team(problem, m, time_limit=30)
    assert found.value <= best <= found.bound
    taken = [j for route in found.routes for j in route]
    assert len(taken) == len(set(taken)) and len(found.routes) <= m
    assert all(route_value(problem, route).feasible for route in found.routes)
    if found.proven:
        assert found.value == best


def test_team_on_a_line_is_exact() -> None:
    # back by 12 on a line: one route reaches position 5 with one service or 4 with two
    base = line([5, 6, 7, 8, 9, 10])
    problem = Problem(base.nodes, base.travel, 0, 12)
    found = solve_team(problem, 2, time_limit=30)
    assert found.value == brute_force_team(problem, 2) == 35
    assert found.proven and 35 <= found.bound < 36  # duals rounded to 1/1000 add at most that much
