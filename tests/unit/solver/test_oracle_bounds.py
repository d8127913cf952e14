"""The bound of last resort (`solver/oracle/bounds.py`): the days' spans its legs leave, meals
only where a restaurant serves them, attractions within the days' time and caps — exact values
on the strict fixture world, and never below a user's utility in the exhaustive optimum."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from solver.greedy_score import world_poi_db
from solver.oracle.bounds import (
    UNBOUNDED,
    _BestCase,
    _day_options,
    _Knapsack,
    _mixes,
    _rest,
    day_spans,
    trivial_bounds,
)
from solver.oracle.catalog import CityCatalog
from solver.oracle.scores import official_categories, scored_users
from solver.oracle.skeleton import Frame
from solver.oracle.solve import city_catalogs, frame_facts
from tests.fixtures.exhaustive import exhaustive_optimum
from tests.fixtures.preferences import city, prefs, with_prefs
from tests.fixtures.strict_world import TASK_A
from tests.fixtures.strict_world import WORLD as STRICT_WORLD
from tests.fixtures.tiny_world import TinyWorld, tiny_cases
from tests.unit.solver.test_oracle_exhaustive import HAND_MADE, WORLD
from verifier.model.task import Task
from verifier.official.plan_view import build_view
from verifier.official.utility import evaluate_group_utility
from verifier.world_facts import WorldFacts

HAIKOU_FIRST = 0
"""TASK_A's frames in `_facts` order: 海口 → 三亚, then 三亚 → 海口."""


def _facts(task: Task, world: WorldFacts) -> tuple[list[Frame], list[CityCatalog]]:
    days, start, home, keys = frame_facts(task, world)
    users = scored_users(task, task.preference_table())
    cities = city_catalogs(task, world, keys, users, official_categories(world, keys))
    orders = dict.fromkeys(itertools.permutations(keys))
    return [Frame(days, start, (home, *order, home)) for order in orders], list(cities.values())


def _capped_task(**intensity: int) -> Task:
    """TASK_A with User1 fond of every attraction category of both cities (three places in
    each), eating 川菜 (海口's 椰海川菜馆, open 10:30–14:00 and 17:00–22:00) as a must."""
    table: dict[str, Any] = prefs(
        海口市=city([], [], ["博物馆", "历史街区", "自然风光"], ["川菜"]),
        三亚市=city([], [], ["自然风光", "公园", "夜市"], []),
    )
    table["global_constraints"]["intensity"] = intensity
    return with_prefs(TASK_A, table)


def test_each_order_has_its_own_bound() -> None:
    """TASK_A's two orders for User1 (User2 likes nothing: 0): the 高铁 between the cities (a
    must, +2), two nights at 舒适型 (+1 each), the six places (6), and the meals of each order
    (`test_meals_count_only_where_a_restaurant_serves_them`): 10 海口 first, 8 三亚 first."""
    frames, cities = _facts(_capped_task(), STRICT_WORLD)
    assert trivial_bounds(STRICT_WORLD, frames, cities) == [[2 + 2 + 10 + 6, 0], [2 + 2 + 8 + 6, 0]]


def test_the_days_span_from_the_first_arrival_to_the_last_departure() -> None:
    """长春 → 海口 lands at 13:30 at the earliest (13:40 in 三亚); the last flight home leaves
    三亚 at 22:00 (海口 at 15:00)."""
    frames, _ = _facts(_capped_task(), STRICT_WORLD)
    assert [frame.stops[1] for frame in frames] == ["海口市", "三亚市"]
    assert day_spans(STRICT_WORLD, frames[0]) == [(810, 1440), (360, 1440), (360, 1320)]
    assert day_spans(STRICT_WORLD, frames[1]) == [(820, 1440), (360, 1440), (360, 900)]


def test_a_middle_day_keeps_the_least_of_two_meals_a_short_leg_and_the_night() -> None:
    """Restaurants take 45 minutes (two meals: 90), the 高铁 海口 → 三亚 90, the minutes after
    dinner's window 90."""
    frames, cities = _facts(_capped_task(), STRICT_WORLD)
    assert _rest(STRICT_WORLD, frames[0], cities) == 90


def test_meals_count_only_where_a_restaurant_serves_them() -> None:
    """User1's +2 restaurant serves no breakfast and no lunch after 13:30 (it closes at 14:00,
    a meal takes 45 minutes): 海口 first, dinner on day 1, lunch and dinner on days 2 and 3 —
    10, where three meals a day at the best restaurant (the version before) made 18; 三亚
    first, no dinner on day 3 either (the last flight leaves at 15:00): 8."""
    frames, cities = _facts(_capped_task(), STRICT_WORLD)
    spans = [day_spans(STRICT_WORLD, frame) for frame in frames]
    assert _BestCase(cities, 0).meals(frames[0], spans[0]) == 10
    assert _BestCase(cities, 0).meals(frames[1], spans[1]) == 8


def test_attractions_fit_the_days_caps_and_time() -> None:
    """Six places worth 1 each (visits of 60–90 minutes); caps of one attraction and one hour
    a day: a day within both holds one, a day over both (−4) all six, and 3 is the most —
    the version before charged −2 for a day over both caps and gave 4. Without caps every
    place fits: 6."""
    frames, cities = _facts(_capped_task(max_poi_per_day=1, max_active_hours=1), STRICT_WORLD)
    spans = day_spans(STRICT_WORLD, frames[0])
    rest = _rest(STRICT_WORLD, frames[0], cities)
    assert _BestCase(cities, 0).attractions(spans, rest) == 3
    frames, cities = _facts(_capped_task(max_poi_per_day=9, max_active_hours=24), STRICT_WORLD)
    assert _BestCase(cities, 0).attractions(spans, rest) == 6


def test_a_short_day_holds_only_what_its_minutes_fit() -> None:
    """One day of 100 minutes and no caps: the fractional knapsack of (1, 60) and (1, 90)
    items takes the first whole and 40/90 of the second — floor 1."""
    assert _Knapsack([(1, 60), (1, 90)])(100) == 1 + Fraction(40, 90)
    assert _Knapsack([(3, 60), (2, 60), (1, 90)])(0) == 0
    assert _Knapsack([(3, 60), (2, 60), (1, 90)])(10_000) == 6


def test_day_options_and_their_mixes() -> None:
    assert _day_options(600, 3, 480) == [(3, 480, 0), (UNBOUNDED, 480, 2), (3, 600, 2), (UNBOUNDED, 600, 4)]
    assert _day_options(600, None, 480) == [(UNBOUNDED, 480, 0), (UNBOUNDED, 600, 2)]
    assert _day_options(300, None, None) == [(UNBOUNDED, 300, 0)]
    assert _mixes(3, 2) == [(0, 0, 2), (0, 1, 1), (0, 2, 0), (1, 0, 1), (1, 1, 0), (2, 0, 0)]
    assert _mixes(1, 4) == [(4,)]


def _per_user(task: Task, world: TinyWorld, plan: dict[str, Any]) -> list[int]:
    cities = tuple(c for name in task.metadata.cities if (c := world.city(name)))
    db = world_poi_db(world, cities)
    scored = evaluate_group_utility(build_view(plan, task.user_names), task.preference_table(), db)
    users = scored_users(task, task.preference_table())
    return [int(scored["per_user"][user.name]["total_score"]) for user in users]


def _check_covers(task: Task, world: TinyWorld) -> None:
    """Every user's bound (of the task's one city order) is at least the user's utility in the
    exhaustive optimum (splits on), and their sum at least its GU."""
    found = exhaustive_optimum(task, world, splits=True, tolerances=True)
    frames, cities = _facts(task, world)
    (bounds,) = trivial_bounds(world, frames, cities)  # a tiny task has one city: one order
    if found.plan is None or found.value is None:
        return
    utilities = _per_user(task, world, found.plan)
    assert all(b >= v for b, v in zip(bounds, utilities, strict=True)), (bounds, utilities)
    assert sum(bounds) >= found.value


@pytest.mark.parametrize("task_id", sorted(HAND_MADE))
def test_each_users_bound_covers_the_exhaustive_optimum(task_id: str) -> None:
    _check_covers(HAND_MADE[task_id], WORLD)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # no shrinking: each example searches
)
@given(case=tiny_cases())
def test_each_users_bound_covers_the_exhaustive_optimum_of_generated_tasks(
    case: tuple[Task, TinyWorld],
) -> None:
    _check_covers(*case)
