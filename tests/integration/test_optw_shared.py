"""The routing core on the public OPTW instances of ../shared/optw (see its README)."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.oracle.optw import (
    LoggedRoute,
    parse_instance,
    problem_of,
    read_bks,
    read_logged_routes,
    replay,
    solve_optw,
)
from solver.oracle.orienteering_dp import solve
from solver.oracle.toptw import solve_team

pytestmark = pytest.mark.shared

CORDEAU_N = {1: 48, 2: 96, 3: 144, 4: 192, 5: 240, 6: 288, 7: 72, 8: 144, 9: 216, 10: 288}
TMAX = {"c1": 1236, "r1": 230, "rc1": 240, "c2": 3390, "r2": 1000, "rc2": 960, "pr": 1000}
# The README lists seven routes that break under exact distances; r108's logged route
# (a lower bound, not an optimum) is an eighth: customer 13 would start at 179.28 > 179.
EXACT_INFEASIBLE = {"r104", "r107", "r108", "r111", "rc102", "rc103", "rc104", "rc108"}


@pytest.fixture(scope="module")
def optw(shared_dir: Path) -> Path:
    if not (shared_dir / "optw").is_dir():
        pytest.skip("../shared/optw is not available")
    return shared_dir / "optw"


@pytest.fixture(scope="module")
def routes(optw: Path) -> list[LoggedRoute]:
    return read_logged_routes(optw / "righini_salani_solomon_m1_routes.csv")


def test_all_52_files_parse_with_the_readme_sizes(optw: Path) -> None:
    paths = sorted(optw.glob("*/*.txt"))
    assert len(paths) == 52
    for path in paths:
        instance = parse_instance(path)
        name = instance.name
        if name.startswith("pr"):
            expected_n, scale, family = CORDEAU_N[(int(name[2:]) - 1) % 10 + 1], 100, "pr"
        else:
            expected_n, scale, family = 100, 10, name[:-2]
        assert (instance.n, instance.scale, instance.tmax) == (expected_n, scale, TMAX[family] * scale), name


def test_bks_table(optw: Path) -> None:
    bks = read_bks(optw / "bks.csv")
    assert len(bks) == 112
    assert sum(entry.optimal for entry in bks.values()) == 37
    assert [key for key, entry in bks.items() if entry.kind == "lower_bound"] == [("r108", 1)]
    assert (bks[("pr01", 4)].value, bks[("c101", 1)].value, bks[("rc201", 1)].value) == (657, 320, 795)


def test_logged_routes_replay_with_profit_and_start_times(optw: Path, routes: list[LoggedRoute]) -> None:
    assert len(routes) == 29
    for route in routes:
        instance = parse_instance(optw / "solomon" / f"{route.instance}.txt")
        played = replay(instance, [route.tour])
        assert (played.error, played.profit) == (None, route.profit), route.instance
        pairs = zip(played.starts[0], route.starts, strict=True)
        assert all(abs(ours / 10 - logged) <= 0.01 for ours, logged in pairs), route.instance


def test_exact_distances_break_the_published_routes(optw: Path, routes: list[LoggedRoute]) -> None:
    broken = set()
    for route in routes:
        instance = parse_instance(optw / "solomon" / f"{route.instance}.txt")
        if not replay(instance, [route.tour], instance.exact_travel()).feasible:
            broken.add(route.instance)
    assert broken == EXACT_INFEASIBLE


@pytest.mark.parametrize("name", ["c101", "r104", "r108", "rc104", "rc108"])
def test_logged_route_is_accepted_as_a_fixed_hint(optw: Path, routes: list[LoggedRoute], name: str) -> None:
    route = next(route for route in routes if route.instance == name)
    instance = parse_instance(optw / "solomon" / f"{name}.txt")
    result = solve_optw(
        instance, 1, time_limit=10, workers=1, hint=[route.tour], fix_hint=True, deterministic=True
    )
    assert (result.status, result.value) == ("OPTIMAL", route.profit)
    assert result.tours == (route.tour,)


@pytest.mark.parametrize(("name", "best"), [("c101", 320), ("r101", 198)])
def test_small_solomon_cases_are_proven(optw: Path, name: str, best: int) -> None:
    result = solve_optw(
        parse_instance(optw / "solomon" / f"{name}.txt"), 1, time_limit=30, workers=1, deterministic=True
    )
    assert (result.status, result.value, result.bound) == ("OPTIMAL", best, best)


@pytest.mark.parametrize(("name", "m"), [("pr01", 1), ("pr01", 4), ("rc101", 1)])
def test_short_runs_respect_proven_optima(optw: Path, name: str, m: int) -> None:
    """An anytime run never beats a proven optimum, and its bound never falls below it."""
    best = read_bks(optw / "bks.csv")[(name, m)]
    assert best.optimal
    instance = parse_instance(next(optw.glob(f"*/{name}.txt")))
    result = solve_optw(instance, m, time_limit=3, workers=1, deterministic=True)
    assert result.value <= best.value
    assert result.bound is None or result.bound >= best.value
    assert replay(instance, result.tours).profit == result.value


@pytest.mark.parametrize(("name", "best"), [("c101", 320), ("r101", 198), ("rc101", 219)])
def test_engine_proves_solomon_optima(optw: Path, name: str, best: int) -> None:
    instance = parse_instance(optw / "solomon" / f"{name}.txt")
    found = solve(problem_of(instance), time_limit=60)
    assert (found.value, found.bound, found.proven) == (best, best, True)
    assert found.route is not None
    played = replay(instance, [tuple(j + 1 for j in found.route)])
    assert (played.feasible, played.profit) == (True, best)


@pytest.mark.parametrize("name", ["c103", "r102", "pr01"])
def test_engine_beam_respects_proven_optima(optw: Path, name: str) -> None:
    """A beam search's value never beats a proven optimum, and its bound never falls below it."""
    best = read_bks(optw / "bks.csv")[(name, 1)]
    assert best.optimal
    instance = parse_instance(next(optw.glob(f"*/{name}.txt")))
    found = solve(problem_of(instance), time_limit=30, beam=8)
    assert found.value <= best.value <= found.bound
    assert found.route is not None
    assert replay(instance, [tuple(j + 1 for j in found.route)]).profit == found.value


def test_column_generation_bounds_pr01_with_four_tours(optw: Path) -> None:
    """pr01 with m = 4 takes every customer (657, proven): a short run brackets it."""
    instance = parse_instance(optw / "cordeau" / "pr01.txt")
    found = solve_team(problem_of(instance), 4, time_limit=2)
    assert found.value <= 657 <= found.bound
    played = replay(instance, [tuple(j + 1 for j in route) for route in found.routes])
    assert (played.feasible, played.profit) == (True, found.value)
