"""Split seeds (`solver/oracle/split_seeds.py`): teams' columns around a whole-group plan.

The partitions must be the best by brute force, the held duals must free exactly the priced
block's gates and what the rest of the plan leaves, and on a hand-made task whose users
disagree the pool holding the split seeds must make a split pattern worth more than the
whole-group plan alone; each team's trip seeds must keep the plan's gates and never take a
place, must item or meal twice.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.greedy import greedy_plan
from solver.oracle.blocks import trip_facts
from solver.oracle.clock import Clock
from solver.oracle.colgen import ColumnGeneration
from solver.oracle.integer_master import pool_master
from solver.oracle.plan_columns import plan_columns
from solver.oracle.pricing import Column
from solver.oracle.rules import Goal
from solver.oracle.scores import official_categories, scored_users
from solver.oracle.solve import OracleSettings, _Search, city_catalogs, frame_facts
from solver.oracle.split_seeds import (
    HELD,
    _partitions,
    agreement,
    held_duals,
    partitions,
    split_seeds,
    teams_of_partitions,
    trip_seeds,
)
from tests.unit.solver.test_oracle_exhaustive import HAND_MADE, WORLD

BELL = [1, 1, 2, 5, 15, 52, 203]


def test_every_partition_is_listed_once() -> None:
    """`_partitions` lists the Bell number of partitions, each covering every item once with
    teams ascending."""
    for n, count in enumerate(BELL):
        listed = list(_partitions(tuple(range(n))))
        assert len(listed) == count
        assert len({tuple(sorted(parts)) for parts in listed}) == count
        for parts in listed:
            assert sorted(u for team in parts for u in team) == list(range(n))
            assert all(list(team) == sorted(team) for team in parts)


@settings(max_examples=60, deadline=None)
@given(users=st.integers(1, 5), most=st.integers(1, 4), seed=st.integers(0, 10**6))
def test_the_chosen_partitions_are_the_best_of_their_size(users: int, most: int, seed: int) -> None:
    """For every count of teams from 2 to `most`, the chosen partition has exactly that many
    teams and no partition of that size is worth more (brute force over all of them); with
    more users than `most`, every user alone comes last."""

    def value(team: tuple[int, ...]) -> int:
        return hash((seed, team)) % 17 - 5

    chosen = partitions(users, most, value)
    sizes = [len(parts) for parts in chosen]
    alone = [users] if users > most else []
    assert sizes == list(range(2, min(users, most) + 1)) + alone
    if alone:
        assert chosen.pop() == tuple((u,) for u in range(users))
    for parts in chosen:
        best = max(
            sum(value(team) for team in other)
            for other in _partitions(tuple(range(users)))
            if len(other) == len(parts)
        )
        assert sum(value(team) for team in parts) == best


def test_teams_of_partitions_keeps_each_team_once_in_order() -> None:
    chosen = [((0, 1), (2,)), ((0,), (1,), (2,)), ((0, 1), (2,))]
    assert teams_of_partitions(chosen) == [(0, 1), (2,), (0,), (1,)]


def _column(block: tuple[int, str], rows: list[tuple[object, ...]]) -> Column:
    return Column(block, (0, 1), False, 5, tuple((row, Fraction(1)) for row in rows))


def test_held_duals_free_the_blocks_own_gates_and_what_the_rest_leaves() -> None:
    """Block 0's own gates, its own places and the rows nobody uses cost nothing; another gate,
    a place or meal the other block takes, and looseness block 0 lacks cost `HELD`."""
    first = _column(
        (1, "A"),
        [
            ("orig", 1, "A", 0, ("hotel", 0, "A", 0)),
            ("dest", 1, "A", 0, ("hotel", 1, "A", 0)),
            ("once", 0, "A", "p"),
        ],
    )
    second = _column((2, "A"), [("once", 0, "A", "q"), ("meal", 0, 2, 1), ("budget", 0)])
    dual = held_duals(first, [second])
    assert dual(("orig", 1, "A", 0, ("hotel", 0, "A", 0))) == 0
    assert dual(("dest", 1, "A", 0, ("hotel", 1, "A", 0))) == 0
    assert dual(("orig", 1, "A", 0, ("hotel", 0, "A", 1))) == HELD
    assert dual(("loose", 0, 1)) == HELD
    assert dual(("once", 0, "A", "p")) == 0
    assert dual(("once", 0, "A", "q")) == HELD
    assert dual(("meal", 0, 2, 1)) == HELD
    assert dual(("once", 1, "A", "q")) == 0
    assert dual(("budget", 0)) == 0
    assert dual(("part", 1, "A", 0)) == 0


def _disagree() -> tuple[ColumnGeneration, list[Column]]:
    """The column generation of "disagree" (splits on) and its greedy plan read as columns."""
    task = HAND_MADE["disagree"]
    days, start, home, keys = frame_facts(task, WORLD)
    users = scored_users(task, task.preference_table())
    cities = city_catalogs(task, WORLD, keys, users, official_categories(WORLD, keys))
    generation = ColumnGeneration(trip_facts(days, start, home, cities), cities, users, True)
    return generation, plan_columns(generation.facts, cities, users, greedy_plan(task, WORLD), (0, 1))


def test_split_seeds_let_the_pool_split_a_plan_where_it_pays() -> None:
    """On "disagree" (two users who like different places) the whole-group greedy plan's pattern
    is beaten once the teams of the best two-way partition are priced around it: every split
    seed keeps its block's gates, and the pool's pattern splits."""
    generation, plan = _disagree()
    places = list(generation.cities.values())
    chosen = partitions(len(generation.users), 3, lambda team: agreement(places, team))
    assert chosen == [((0,), (1,))]
    found = split_seeds(plan, teams_of_partitions(chosen), generation.held_price, Clock(60))
    gates = {column.block: (column.origin, column.destination) for column in plan}
    assert sorted((c.block, c.team) for c in found) == sorted(
        itertools.product([c.block for c in plan], [(0,), (1,)])
    )
    for column in found:
        assert (column.origin, column.destination) == gates[column.block]
    alone = pool_master(generation.master_skeleton, plan, Clock(60), seconds=10, seed=0)[0]
    pooled = pool_master(generation.master_skeleton, [*plan, *found], Clock(60), seconds=10, seed=0)[0]
    assert alone is not None and pooled is not None
    assert pooled.value > alone.value
    assert any(len(column.team) == 1 for column in pooled.columns)


def test_trip_seeds_are_whole_trips_on_the_plans_gates() -> None:
    """On "disagree" each user's trip seeds cover every block of the greedy plan on its gates,
    one column a block, no two of a user's columns sharing a place, must item or meal; the pool
    holding them makes a pattern in which the users go apart, worth 18 where the split seeds'
    is worth 15 (a split seed is priced around the whole-group plan's other blocks, a trip seed
    around the user's own earlier ones)."""
    generation, plan = _disagree()
    found = trip_seeds(plan, [(0,), (1,)], generation.held_price, Clock(60))
    gates = {column.block: (column.origin, column.destination) for column in plan}
    for team in [(0,), (1,)]:
        trip = [column for column in found if column.team == team]
        assert [column.block for column in trip] == [column.block for column in plan]
        kept = [key for column in trip for key, _ in column.rows if key[0] in ("once", "must", "meal")]
        assert len(kept) == len(set(kept))
        for column in trip:
            assert (column.origin, column.destination) == gates[column.block]
    split = split_seeds(plan, [(0,), (1,)], generation.held_price, Clock(60))
    skeleton = generation.master_skeleton
    by_split = pool_master(skeleton, [*plan, *split], Clock(60), seconds=10, seed=0)[0]
    by_trip = pool_master(skeleton, [*plan, *found], Clock(60), seconds=10, seed=0)[0]
    assert by_split is not None and by_trip is not None
    assert (by_split.value, by_trip.value) == (15, 18)
    assert any(len(column.team) == 1 for column in by_trip.columns)


def test_the_pattern_starts_from_the_seeds_and_their_split_and_trip_seeds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`_Search.split` adds the split and trip seeds to the pool and keeps them
    (`split_columns`); `pattern_of` solves them with the seeds first, its hint for the whole
    pool, so its pattern is worth at least what those columns make alone — on "three_ways" 23,
    and 27 with the rest of the pool (the optimum). Without that start the pool's master may
    lose its way: task_003012, a pattern of 82 where they make 129."""
    task = HAND_MADE["three_ways"]
    days, start, home, keys = frame_facts(task, WORLD)
    users = scored_users(task, task.preference_table())
    db = official_categories(WORLD, keys)
    cities = city_catalogs(task, WORLD, keys, users, db)
    settings = OracleSettings(time_limit=10, seed=0)
    table = task.preference_table()
    search = _Search(task, world=WORLD, settings=settings, table=table, db=db, users=users, goal=Goal())
    search.greedy(tuple(cities[key].label for key in keys))
    search.decomposed(days, start, home, cities, 2.0)
    search.split(cities, 2.0, 2.0)
    generation = search.generation
    assert generation is not None and search.decomposition is not None
    found = search.decomposition.split + search.decomposition.trips
    assert search.split_columns and len(search.split_columns) == found
    assert generation.columns[-found:] == search.split_columns
    first = [*generation.seeds, *search.split_columns]
    alone = pool_master(generation.master_skeleton, first, Clock(60), seconds=10, seed=0)[0]
    asked: list[Sequence[Column]] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs["first"])
        return pool_master(*args, **kwargs)

    monkeypatch.setattr("solver.oracle.solve.pool_master", spy)
    pattern = search.pattern_of(5.0)
    assert asked == [first]
    assert alone is not None and pattern is not None
    assert (alone.value, pattern.value) == (23, 27)
