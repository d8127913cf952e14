"""OPTW parsing, replay and the routing core's optimum against brute force on tiny instances."""

from __future__ import annotations

import dataclasses
import itertools
import math
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.oracle.optw import (
    Instance,
    OptwFormatError,
    Vertex,
    parse_instance,
    replay,
    solve_optw,
)

# depot at (0, 0), window [0, 60]; customers: i x y service profit ... O C (last two tokens)
SIX = """\
1 1 6 1\r
0 0\r
 0 0.00 0.00 0.00 0.00 0 0 0 60\r
 1 3.00 4.00 2.00 5.00 1 1 1 0 20\r
 2 6.00 8.00 1.50 7.00 1 2 1 2 10 40\r
 3 -3.00 4.00 2.00 4.00 1 0 0 15\r
 4 0.00 10.00 0.00 9.00 1 1 1 30 35\r
 5 1.00 1.00 1.00 3.00 1 0 5 50\r
 6 -5.00 -5.00 2.00 6.00 1 0 20 40\r
"""
BEST_1, BEST_2 = 28, 34  # brute force below; with two tours every customer fits


def write(tmp_path: Path, text: str, name: str = "tiny.txt") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode())
    return path


def brute_force(instance: Instance, m: int) -> int:
    """The best profit over every set of m disjoint tours, by enumerating orderings."""
    v, travel, best_of = instance.vertices, instance.travel, dict[frozenset[int], int]()

    def extend(tour: list[int], clock: int, service: int) -> None:
        here = tour[-1] if tour else 0
        if clock + service + travel[here][0] <= v[0].close:
            visited = frozenset(tour)
            best_of[visited] = sum(v[c].profit for c in visited)
        for customer in range(1, instance.n + 1):
            start = max(clock + service + travel[here][customer], v[customer].open)
            if customer not in tour and start <= v[customer].close:
                extend([*tour, customer], start, v[customer].service)

    extend([], v[0].open, 0)
    sets = list(best_of.items())
    return max(
        sum(profit for _, profit in combo)
        for combo in itertools.combinations_with_replacement(sets, m)
        if sum(len(s) for s, _ in combo) == len(frozenset().union(*(s for s, _ in combo)))
    )


def test_parses_crlf_scaled_and_last_two_tokens(tmp_path: Path) -> None:
    instance = parse_instance(write(tmp_path, SIX))
    assert (instance.n, instance.tmax, instance.scale) == (6, 600, 10)
    assert instance.vertices[2] == Vertex(Decimal("6.00"), Decimal("8.00"), 15, 7, 100, 400)
    assert instance.vertices[3] == Vertex(Decimal("-3.00"), Decimal("4.00"), 20, 4, 0, 150)
    assert instance.travel[0][1] == 50  # 3-4-5
    assert instance.travel[0][5] == 14  # sqrt 2 = 1.414… truncated to 1.4
    assert instance.travel[1][3] == 60
    assert instance.travel[5][6] == 84  # sqrt 72 = 8.485…


def test_cordeau_scale_truncates_to_two_decimals(tmp_path: Path) -> None:
    text = "1 1 1 1\n0\n 0 0.000 0.000 0 0 0 0 0 10\n 1 1.001 1.000 1 2 1 1 1 0 5\n"
    instance = parse_instance(write(tmp_path, text, "pr99.txt"))
    assert instance.scale == 100
    assert instance.travel[0][1] == 141  # sqrt(1.001² + 1) = 1.41492…
    assert (instance.tmax, instance.vertices[1].service) == (1000, 100)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("1 1\n", 1, "missing header"),
        ("1\n1\n", 1, "customer count"),
        ("1 1 x 1\n0 0\n", 1, "N 'x'"),
        ("1 1 1 1\n0 0\n 0 0 0 0 0 0 0 0 10\n", 3, "expected 2 vertex lines"),
        ("1 1 1 1\n0 0\n 0 0 0 0 0 0 0 0 10\n 1 1 1 1 1 1 1 5\n", 4, "8 tokens"),
        ("1 1 1 1\n0 0\n 0 0 0 0 0 0 0 0 10\n 2 1 1 1 1 1 0 0 5\n", 4, "expected 1"),
        ("1 1 1 1\n0 0\n 0 0 0 0 0 0 0 0 10\n 1 1 y 1 1 1 0 0 5\n", 4, "coordinate 'y'"),
        ("1 1 1 1\n0 0\n 0 0 0 0 0 0 0 0 10\n 1 1 1 1 1 1 0 6 5\n", 4, "closes"),
        ("1 1 1 1\n0 0\n 0 0 0 0 0 0 0 0 10\n 1 1 1 0.05 1 1 0 0 5\n", 4, "service '0.05'"),
        ("1 1 1 1\n0 0\n 0 0 0 0 0 0 0 0 10\n 1 1 1 1 -1 1 0 0 5\n", 4, "profit '-1'"),
    ],
)
def test_malformed_files_name_file_and_line(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(OptwFormatError, match=message) as caught:
        parse_instance(path)
    assert (caught.value.path, caught.value.line) == (path, line)
    assert str(caught.value).startswith(f"{path}:{line}: ")


def test_replay_schedules_earliest_and_says_why_not(tmp_path: Path) -> None:
    instance = parse_instance(write(tmp_path, SIX))
    played = replay(instance, [(1, 2)])
    assert (played.error, played.profit, played.starts) == (None, 12, ((50, 120),))
    assert replay(instance, [(3,), (5, 6)]).starts == ((50,), (50, 200))
    assert replay(instance, [(4, 1)]).error == "tour 0: customer 1 starts at 367 > 200"
    assert replay(instance, [(1,), (1,)]).error == "tour 1: customer 1 visited twice"
    assert replay(instance, [(7,)]).error == "tour 0: no customer 7"
    early = dataclasses.replace(instance.vertices[0], close=200)
    short = dataclasses.replace(instance, vertices=(early, *instance.vertices[1:]))
    assert replay(short, [(2,)]).error == "tour 0: back at the depot at 215 > 200"


def test_exact_travel_is_untruncated(tmp_path: Path) -> None:
    instance = parse_instance(write(tmp_path, SIX))
    assert math.isclose(instance.exact_travel()[0][5], 10 * math.sqrt(2))
    assert replay(instance, [(1, 5)]).starts == ((50, 106),)
    assert replay(instance, [(1, 5)], instance.exact_travel()).starts == ((50, 70 + 10 * math.sqrt(13)),)


def test_six_customers_match_brute_force(tmp_path: Path) -> None:
    instance = parse_instance(write(tmp_path, SIX))
    assert (brute_force(instance, 1), brute_force(instance, 2)) == (BEST_1, BEST_2)
    for m, best in ((1, BEST_1), (2, BEST_2)):
        result = solve_optw(instance, m, time_limit=10, workers=1, deterministic=True)
        assert (result.status, result.value, result.bound) == ("OPTIMAL", best, best)
        played = replay(instance, result.tours)
        assert (played.error, played.profit) == (None, best)


@st.composite
def tiny(draw: st.DrawFn) -> Instance:
    """Up to 7 customers on a small grid, with windows and services in scaled units."""
    n, tmax = draw(st.integers(1, 7)), draw(st.integers(20, 150))
    points = [(0, 0)] + [(draw(st.integers(-20, 20)), draw(st.integers(-20, 20))) for _ in range(n)]
    vertices = [Vertex(Decimal(0), Decimal(0), 0, 0, 0, tmax)]
    for x, y in points[1:]:
        opening = draw(st.integers(0, tmax))
        closing = draw(st.integers(opening, tmax))
        service, profit = draw(st.integers(0, 15)), draw(st.integers(1, 9))
        vertices.append(Vertex(Decimal(x), Decimal(y), service, profit, opening, closing))
    travel = tuple(
        tuple(math.isqrt((px - qx) ** 2 + (py - qy) ** 2) for qx, qy in points) for px, py in points
    )
    return Instance("tiny", 1, tuple(vertices), travel)


@settings(max_examples=100, deadline=None)
@given(tiny(), st.sampled_from([1, 2]))
def test_routing_core_optimum_equals_brute_force(instance: Instance, m: int) -> None:
    result = solve_optw(instance, m, time_limit=10, workers=1, deterministic=True)
    assert (result.status, result.value, result.bound) == ("OPTIMAL",) + (brute_force(instance, m),) * 2
    assert replay(instance, result.tours).profit == result.value
