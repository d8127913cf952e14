"""The Lagrangian keeps the trip skeleton: `master.best_skeleton` is the exact maximum over the
skeleton's own rows (checked against CP-SAT on them), and keeping those rows never gives a
larger value than pricing them (`_priced`)."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from solver.oracle.blocks import trip_facts
from solver.oracle.certify import certify_record
from solver.oracle.master import (
    SKELETON_VARIABLES,
    STRUCTURE,
    Skeleton,
    VarKey,
    best_skeleton,
    lagrangian,
    skeleton,
)
from solver.oracle.pricing import RowKey
from solver.oracle.scores import official_categories, scored_users
from solver.oracle.solve import OracleSettings, city_catalogs, frame_facts, solve_task
from tests.fixtures.preferences import city, prefs, with_prefs
from tests.fixtures.strict_world import TASK_A, WORLD, task

TASKS = {
    "two_cities_three_days": task("skel_3", ["海口市", "三亚市"], "三天两夜", "2025-09-02", users=["A", "B"]),
    "two_cities_five_days": task("skel_5", ["海口市", "三亚市"], "五天四夜", "2025-09-02", users=["A", "B"]),
}


@cache
def _master(name: str) -> Skeleton:
    trip = TASKS[name]
    days, start, home, keys = frame_facts(trip, WORLD)
    users = scored_users(trip, trip.preference_table())
    cities = city_catalogs(trip, WORLD, keys, users, official_categories(WORLD, keys))
    return skeleton(trip_facts(days, start, home, cities), cities, users, splits=True)


def _cp_sat_best(master: Skeleton, reduced: dict[VarKey, int], packings: dict[tuple[int, str], int]) -> int:
    """The most Σ reduced × value + Σ positive packing × e over the skeleton's rows alone."""
    model = cp_model.CpModel()
    variables = {
        var.key: model.new_int_var(0, var.upper, repr(var.key))
        for var in master.variables
        if var.key[0] in SKELETON_VARIABLES
    }
    rows: dict[object, list[tuple[int, cp_model.IntVar]]] = {}
    for var in master.variables:
        if var.key in variables:
            for row, coefficient in var.rows.items():
                if row[0] in STRUCTURE:
                    assert coefficient.denominator == 1
                    rows.setdefault(row, []).append((int(coefficient), variables[var.key]))
    for row, sense in master.rows.sense.items():
        if row[0] not in STRUCTURE:
            continue
        total = sum(c * v for c, v in rows.get(row, []))
        rhs = int(master.rows.rhs[row])
        model.add(total == rhs if sense == "=" else total <= rhs)
    objective = sum(reduced.get(key, 0) * v for key, v in variables.items())
    objective += sum(max(p, 0) * variables[("e", *block)] for block, p in packings.items())
    model.maximize(objective)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(model) == cp_model.OPTIMAL
    return round(solver.objective_value)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(TASKS)), seed=st.integers(0, 10**6))
def test_the_best_skeleton_is_the_optimum_over_the_skeleton_rows(name: str, seed: int) -> None:
    master = _master(name)
    rng = random.Random(seed)
    reduced = {var.key: rng.randint(-6, 6) for var in master.variables if var.key[0] in SKELETON_VARIABLES}
    packings = {block: rng.randint(-3, 8) for block in master.facts.blocks}
    exact = best_skeleton(
        master.facts,
        {key: Fraction(value) for key, value in reduced.items()},
        {block: Fraction(value) for block, value in packings.items()},
    )
    assert exact == _cp_sat_best(master, reduced, packings)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(TASKS)), seed=st.integers(0, 10**6))
def test_keeping_the_skeleton_rows_never_raises_the_lagrangian(name: str, seed: int) -> None:
    master = _master(name)
    rng = random.Random(seed)
    duals = {}
    for key, sense in master.rows.sense.items():
        value = Fraction(rng.randint(-8, 8), rng.choice([1, 2, 3]))
        duals[key] = max(value, Fraction(0)) if sense == "<=" else value
    packings = {block: Fraction(rng.randint(-4, 10)) for block in master.facts.blocks}
    value = lagrangian(master, duals, packings)
    assert value is not None and value <= _priced(master, duals, packings)


def test_the_skeleton_counts_only_the_blocks_of_one_trip() -> None:
    """Three days, two cities, every reduced cost 0: a trip spends city c on the days from its
    arrival to its departure, so the best one gains 7 + 1 + 3 of the second city and 5 of the
    first (arriving there on day 1 and leaving on day 1): 16, where pricing the skeleton's rows
    adds every positive packing (19)."""
    master = _master("two_cities_three_days")
    first, second = master.facts.cities
    packings = {
        (1, first): Fraction(5),
        (1, second): Fraction(7),
        (2, first): Fraction(1),
        (2, second): Fraction(1),
        (3, first): Fraction(2),
        (3, second): Fraction(3),
    }
    assert best_skeleton(master.facts, {}, packings) == 16
    assert lagrangian(master, {}, packings) == 16
    assert _priced(master, {}, packings) == 19


@pytest.mark.parametrize("splits", [False, True], ids=["no_splits", "splits"])
def test_a_two_city_record_is_proven_and_certified(splits: bool) -> None:
    """Two cities, three days (User1 likes parks, must see 鹿回头风景区 and eat seafood in 三亚):
    the decomposition converges to the plan's 10 and proves it (as the priced function did);
    certify recomputes 10 from the record's multipliers — the skeleton kept, CP-SAT on the
    blocks — and refuses a bound lowered to 9."""
    trip = with_prefs(
        TASK_A,
        prefs(三亚市=city(["鹿回头风景区"], [], ["公园"], ["海鲜"]), 海口市=city([], [], ["公园"], [])),
    )
    record = solve_task(trip, WORLD, OracleSettings(time_limit=4, seed=0, splits=splits)).to_json()
    assert record["extra"]["decomposition"]["converged"]
    assert (record["objective"], record["bound"], record["status"]) == (10, 10, "OPTIMAL")
    certificate = certify_record(trip, WORLD, record)
    assert certificate.certified and certificate.recomputed == 10
    assert (
        certify_record(trip, WORLD, {**record, "bound": 9}).problem
        == "stored bound 9 is below the recomputed 10"
    )


def _priced(
    master: Skeleton, duals: dict[RowKey, Fraction], packings: dict[tuple[int, str], Fraction]
) -> Fraction:
    """The Lagrangian with the skeleton's rows priced too (the master LP's dual function): π·b
    over every row, every variable at upper × its positive reduced cost, every positive
    packing."""
    total = sum((duals.get(key, Fraction(0)) * rhs for key, rhs in master.rows.rhs.items()), Fraction(0))
    for var in master.variables:
        value = var.cost - sum((c * duals.get(row, Fraction(0)) for row, c in var.rows.items()), Fraction(0))
        total += var.upper * max(value, Fraction(0))
    return total + sum((max(value, Fraction(0)) for value in packings.values()), Fraction(0))
