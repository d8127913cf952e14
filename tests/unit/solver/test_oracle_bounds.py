"""The bound of last resort (`solver/oracle/bounds.py`): the days' spans its legs leave, meals
only where a restaurant serves them, attractions within the days' time and caps — exact values
on the strict fixture world, and never below a user's utility in the exhaustive optimum."""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from solver.greedy_score import world_poi_db
from solver.oracle.bounds import (
    UNBOUNDED,
    _arrivals,
    _BestCase,
    _day_options,
    _departures,
    _End,
    _free_transfers,
    _front,
    _Knapsack,
    _mixes,
    _plans_of_days,
    _rest,
    _travel_in,
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


def _case(task: Task) -> tuple[list[Frame], list[CityCatalog], _BestCase]:
    """TASK_A-like task's frames, catalogs and User1's best case."""
    frames, cities = _facts(task, STRICT_WORLD)
    travel_in = {city.key: _travel_in(STRICT_WORLD, frames, city) for city in cities}
    return frames, cities, _BestCase(cities, 0, travel_in)


def _spans(frame: Frame) -> list[tuple[int, int]]:
    """User1's spans of a frame whose home legs all score alike for User1 (one end each)."""
    _, cities = _facts(_capped_task(), STRICT_WORLD)
    (arrive,) = _arrivals(STRICT_WORLD, frame, cities[0].users[0])
    (leave,) = _departures(STRICT_WORLD, frame, cities[0].users[0])
    return day_spans(frame, arrive, leave)


def test_the_days_span_from_the_first_arrival_to_the_last_departure() -> None:
    """长春 → 海口 lands at 13:30 at the earliest, the city time starting 20 minutes later (a
    flight's exit); the last flight home leaves 三亚 at 22:00, the city time ending an hour
    before (check-in). 三亚 first: lands at 13:40, the last flight home leaves 海口 at 15:00."""
    frames, cities = _facts(_capped_task(), STRICT_WORLD)
    user = cities[0].users[0]
    assert [frame.stops[1] for frame in frames] == ["海口市", "三亚市"]
    assert _arrivals(STRICT_WORLD, frames[0], user) == [_End(0, 830)]
    assert _departures(STRICT_WORLD, frames[0], user) == [_End(0, 1260)]
    assert _spans(frames[0]) == [(830, 1440), (360, 1440), (360, 1260)]
    assert _spans(frames[1]) == [(840, 1440), (360, 1440), (360, 840)]


def test_only_legs_no_other_beats_on_score_and_minute_are_ends() -> None:
    """A must mode's later arrival stays beside an earlier one of a mode the user does not
    care for, and an earlier one still of a mode the user avoids; a leg of the same score
    arriving later, or of a lower score arriving no earlier, never gives more."""
    arrivals = [_End(2, 900), _End(0, 600), _End(0, 700), _End(-1, 500), _End(2, 950), _End(-1, 650)]
    assert _front(arrivals, earliest=True) == [_End(2, 900), _End(0, 600), _End(-1, 500)]
    departures = [_End(2, 900), _End(0, 1200), _End(0, 1000), _End(-1, 1100)]
    assert _front(departures, earliest=False) == [_End(2, 900), _End(0, 1200)]
    assert _front([], earliest=True) == []


class _LateTrain:
    """The strict fixture world with one more leg out of home: a 高铁 (User1's must, +2)
    leaving 长春 at 06:00 and reaching 海口 at 23:00, too late for dinner."""

    def __init__(self, world: WorldFacts) -> None:
        self.world = world

    def __getattr__(self, name: str) -> Any:
        return getattr(self.world, name)

    def intercity_options(self, origin: str, destination: str, date: dt.date) -> list[Any]:
        options: list[Any] = list(self.world.intercity_options(origin, destination, date))
        if (origin, destination) == ("长春市", "海口市") and options:
            options.append(dataclasses.replace(options[0], mode="高铁", depart=360, arrive=1380, code="G1"))
        return options


def test_a_home_leg_scores_with_the_days_it_leaves() -> None:
    """With the late train, 海口 first: the train (+2) and no dinner on day 1 (−2 of the meals'
    10), or the flight (0) and the dinner — 20 either way, as without the train; the best leg
    and the earliest arrival taken apart would give 22."""
    frames, cities = _facts(_capped_task(), STRICT_WORLD)
    late = _LateTrain(STRICT_WORLD)
    assert _arrivals(late, frames[0], cities[0].users[0]) == [_End(2, 1390), _End(0, 830)]
    assert (
        trivial_bounds(late, frames, cities)
        == trivial_bounds(STRICT_WORLD, frames, cities)
        == [[20, 0], [18, 0]]
    )


def test_a_middle_day_keeps_the_least_of_two_meals_a_short_leg_and_the_night() -> None:
    """Restaurants take 45 minutes (two meals: 90), the 高铁 海口 → 三亚 90, the minutes after
    dinner's window 90."""
    frames, cities = _facts(_capped_task(), STRICT_WORLD)
    assert _rest(STRICT_WORLD, frames[0], cities) == 90


def test_each_attraction_is_reached_from_its_nearest_node() -> None:
    """The least transfer into each place of the fixture world, from any other attraction,
    restaurant, hotel or hub: 海南省博物馆 8 (from 椰海川菜馆), 骑楼老街 6 (老爸茶餐厅), 假日海滩 14
    (骑楼老街); 椰梦长廊 6 (三亚椰子鸡), 鹿回头风景区 18 (三亚海鲜大排档), 第一市场夜市 8 (the same)."""
    frames, cities = _facts(_capped_task(), STRICT_WORLD)
    found = [
        {place.name: minutes for place, minutes in _travel_in(STRICT_WORLD, frames, city).items()}
        for city in cities
    ]
    assert found == [
        {"海南省博物馆": 8, "骑楼老街": 6, "假日海滩": 14},
        {"椰梦长廊": 6, "鹿回头风景区": 18, "第一市场夜市": 8},
    ]


def test_meals_count_only_where_a_restaurant_serves_them() -> None:
    """User1's +2 restaurant serves no breakfast and no lunch after 13:50 (it closes at 14:00,
    a meal takes 45 minutes): 海口 first, dinner on day 1, lunch and dinner on days 2 and 3 —
    10, where three meals a day at the best restaurant (the version before last) made 18; the
    middle day's two apart (their minutes are the day's rest). 三亚 first, no dinner on day 3
    either (the city time ends at 14:00): 8."""
    frames, _, case = _case(_capped_task())
    assert case.meals(frames[0], _spans(frames[0])) == (4, [2, 2, 2])
    assert case.meals(frames[1], _spans(frames[1])) == (4, [2, 2])


def test_attractions_fit_the_days_caps_and_time() -> None:
    """Six places worth 1 each (visits of 60–90 minutes, each with 6–18 minutes of transfer
    in: weights 66–108); caps of one attraction and one hour a day: a day within both holds
    60 minutes, less than any visit with its transfer, so three such days fit 1 + 1 + 48/68
    of the lightest; a day over both (−4) holds all six: 2 beside the meals' 10 — the version
    before, without the transfers, gave 3 (a 60-minute visit a day within the caps), the one
    before that 4. A self-drive into 三亚 (door to door: its first visit needs no transfer)
    gives back up to 18 minutes: 198, still two short of the three lightest (200), so 2; 20
    minutes would make it 3. Without caps every place fits: 6."""
    frames, cities, case = _case(_capped_task(max_poi_per_day=1, max_active_hours=1))
    spans = _spans(frames[0])
    rest = _rest(STRICT_WORLD, frames[0], cities)
    assert case.meals_and_attractions(frames[0], spans, rest) == 10 + 2
    assert case.meals_and_attractions(frames[0], spans, rest, 18) == 10 + 2
    assert case.meals_and_attractions(frames[0], spans, rest, 20) == 10 + 3
    frames, cities, case = _case(_capped_task(max_poi_per_day=9, max_active_hours=24))
    assert case.meals_and_attractions(frames[0], spans, rest) == 10 + 6


def test_a_self_drive_lets_the_first_visit_skip_its_transfer() -> None:
    """TASK_A's legs between 海口 and 三亚 include a self-drive (door to door): 海口 first, the
    largest transfer into a place of 三亚, 18 minutes (鹿回头风景区); 三亚 first, into 海口, 14
    (假日海滩). The legs out of home are flights: nothing more."""
    frames, cities = _facts(_capped_task(), STRICT_WORLD)
    travel_in = {city.key: _travel_in(STRICT_WORLD, frames, city) for city in cities}
    assert [_free_transfers(STRICT_WORLD, frame, travel_in) for frame in frames] == [18, 14]


def test_a_meal_beside_the_rest_takes_its_minutes_from_the_attractions() -> None:
    """Days of 190, 240 (less a rest of 90) and 40 minutes, no caps: without the day-1 dinner
    (+2, not a middle day's) the 380 minutes fit the weights 66, 66, 68, 74, 98 and 8/108 of
    the last — 5; with it 335 minutes fit 4 and 61/98 — 4 + 2. Counting the dinner's minutes
    for nothing would give 7."""
    frames, _, case = _case(_capped_task(max_poi_per_day=9, max_active_hours=24))
    spans = [(1250, 1440), (360, 600), (360, 400)]
    assert case.meals(frames[0], spans) == (0, [2])
    assert case.knapsack.items == [(1, 66), (1, 66), (1, 68), (1, 74), (1, 98), (1, 108)]
    assert case.meals_and_attractions(frames[0], spans, 90) == 6


def test_a_short_day_holds_only_what_its_minutes_fit() -> None:
    """One day of 100 minutes and no caps: the fractional knapsack of (1, 60) and (1, 90)
    items takes the first whole and 40/90 of the second — floor 1."""
    assert _Knapsack([(1, 60), (1, 90)])(100) == 1 + Fraction(40, 90)
    assert _Knapsack([(3, 60), (2, 60), (1, 90)])(0) == 0
    assert _Knapsack([(3, 60), (2, 60), (1, 90)])(10_000) == 6


def test_plans_of_days_keep_only_the_undominated() -> None:
    """Days of 100, 600 and 600 minutes, caps of one attraction and 60 minutes, six places:
    keeping both caps every day (3, 180, 0); breaking the count cap on one day lets the count
    reach the six places (6, 180, 2), and on two days as well but at −4: left out."""
    assert _plans_of_days([100, 600, 600], 1, 60, 6) == [
        (3, 180, 0),
        (6, 180, 2),
        (3, 720, 2),
        (6, 720, 4),
        (3, 1260, 4),
        (6, 1260, 6),
        (3, 1300, 6),
        (6, 1300, 8),
    ]


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
