"""The column generation's first multipliers (`warm_duals.py`) and its first pass
(`ColumnGeneration.first_pass`): exact duals on hand-built catalogs, ceilings that never fall
below a block's exact best column, and a bound that never falls below the exhaustive optimum."""

from __future__ import annotations

import math
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest

from solver.oracle.blocks import trip_facts
from solver.oracle.clock import Clock
from solver.oracle.colgen import ColumnGeneration, teams_of
from solver.oracle.scores import official_categories, scored_users
from solver.oracle.solve import city_catalogs, frame_facts
from solver.oracle.warm_duals import DAILY_VISITS, warm_duals
from tests.fixtures.exhaustive import exhaustive_optimum
from tests.unit.solver.test_oracle_exhaustive import HAND_MADE, WORLD


def _place(place: str, scores: tuple[int, ...], musts: tuple[frozenset[int], ...]) -> Any:
    return SimpleNamespace(place=place, scores=scores, musts=musts)


def _facts(days: int, cities: tuple[str, ...]) -> Any:
    blocks = {(d, c): None for d in range(1, days + 1) for c in cities}
    return SimpleNamespace(days=days, cities=cities, blocks=blocks)


def test_attractions_are_priced_at_what_they_score_above_the_first_one_left_out() -> None:
    """User 0 may visit 2 × 1 attractions: of 5, 4 (another name of A, scored less), 3, 2, 0
    and −1 the best two are A and B, the first left out scores 2: A at 3, B at 1, C at 0.
    User 1 has no cap (`DAILY_VISITS` a day): nothing is left out, every positive score is its
    dual. A must item is priced at its bonus, 2, in each city it is in."""
    one = frozenset[int]()
    cities = {
        "甲": SimpleNamespace(
            attractions=(
                _place("A", (5, 1), (one, frozenset({0}))),
                _place("A", (4, 1), (one, one)),
                _place("B", (3, 0), (frozenset({0}), one)),
                _place("C", (2, 2), (one, one)),
                _place("D", (0, 0), (one, one)),
                _place("E", (-1, 3), (one, one)),
            )
        )
    }
    users: Any = (SimpleNamespace(max_pois=1), SimpleNamespace(max_pois=None))
    assert 2 * DAILY_VISITS > 4
    duals = warm_duals(_facts(2, ("甲",)), cities, users, splits=False)
    assert duals == {
        ("once", 0, "甲", "A"): Fraction(3),
        ("once", 0, "甲", "B"): Fraction(1),
        ("must", 0, "甲", 0): Fraction(2),
        ("once", 1, "甲", "A"): Fraction(1),
        ("once", 1, "甲", "C"): Fraction(2),
        ("once", 1, "甲", "E"): Fraction(3),
        ("must", 1, "甲", 0): Fraction(2),
    }


@pytest.mark.parametrize(
    ("users", "share"), [(2, Fraction(1)), (3, Fraction(1)), (4, Fraction(2, 3)), (6, Fraction(3, 5))]
)
def test_the_split_penalty_is_spread_over_the_teams_of_a_group_all_apart(users: int, share: Fraction) -> None:
    """phase_penalty(n) / (n − 1) a team, in every block (2 users: 1; 3: 2/2; 4: 2/3; 6: 3/5);
    none without splits."""
    cities = {"甲": SimpleNamespace(attractions=())}
    scored: Any = tuple(SimpleNamespace(max_pois=None) for _ in range(users))
    facts = _facts(2, ("甲",))
    duals = warm_duals(facts, cities, scored, splits=True)
    assert duals == {("teams", 1, "甲"): share, ("teams", 2, "甲"): share}
    assert warm_duals(facts, cities, scored, splits=False) == {}


def _generation(task_id: str, splits: bool) -> ColumnGeneration:
    task = HAND_MADE[task_id]
    days, start, home, keys = frame_facts(task, WORLD)
    users = scored_users(task, task.preference_table())
    cities = city_catalogs(task, WORLD, keys, users, official_categories(WORLD, keys))
    return ColumnGeneration(trip_facts(days, start, home, cities), cities, users, splits)


@pytest.mark.parametrize("task_id", sorted(HAND_MADE))
def test_first_pass_ceilings_are_never_below_a_blocks_best_column(task_id: str) -> None:
    """Under the first multipliers, every (block, team) ceiling of the first pass is at least
    the exact best reduced cost the labelling proves without a work limit (or its floor)."""
    generation = _generation(task_id, True)
    duals = warm_duals(generation.facts, generation.cities, generation.users, splits=True)
    ceilings = generation.first_pass(duals, Clock(60))
    assert ceilings is not None
    for block in generation.facts.blocks:
        pricer = generation.pricer(block)
        for team in teams_of(len(generation.users), True):
            exact = pricer.price(team, lambda key: duals.get(key, Fraction(0)), floor=Fraction(-1000))
            assert exact.proven
            assert ceilings[(block, team)] >= exact.ceiling


@pytest.mark.parametrize("task_id", sorted(HAND_MADE))
@pytest.mark.parametrize("splits", [True, False], ids=["splits", "no_splits"])
def test_the_first_pass_bounds_the_exhaustive_optimum(task_id: str, splits: bool) -> None:
    """A run stopped right after its first pass keeps that pass's bound — no round done — and
    the bound is at least the exhaustive optimum."""
    generation = _generation(task_id, splits)
    duals = warm_duals(generation.facts, generation.cities, generation.users, splits=splits)
    probe = Clock(60)
    assert generation.first_pass(duals, probe) is not None
    run = _generation(task_id, splits).run(Clock(probe.used))
    assert run.rounds == 0 and run.first is not None and run.value == run.first
    optimum = exhaustive_optimum(HAND_MADE[task_id], WORLD, splits=splits, tolerances=True).value
    assert run.bound == math.floor(run.first)
    assert optimum is not None and run.bound >= optimum
