"""The greedy constructive planner on the fixture world: strict-valid, deterministic, preference-led."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.greedy import GreedyError, allocations, greedy_plan
from tests.fixtures.holiday_world import DISNEY, HOLIDAY, ORDINARY, holiday_task, holiday_world
from tests.fixtures.preferences import city, prefs, with_prefs
from tests.fixtures.strict_world import TASK_A, TASK_B, WORLD, FixtureWorld, task
from verifier.model.task import Task
from verifier.strict.profile import strict_violations

DURATIONS = {2: "两天一夜", 3: "三天两夜", 4: "四天三夜", 5: "五天四夜"}


def _items(plan: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [
        activity
        for day in plan["days"]
        for segment in day["city_segments"]
        for activity in segment.get("activities", [])
        if activity["type"] == kind
    ]


PREF_TASK = with_prefs(
    TASK_A,
    prefs(
        三亚市=city(["南山文化旅游区"], ["椰梦长廊"], ["夜市"], ["椰子鸡"]),
        海口市=city(["海南省博物馆"], [], [], ["川菜"]),
    ),
)


@pytest.mark.parametrize("fixture_task", [TASK_A, TASK_B, PREF_TASK], ids=lambda t: t.task_id)
def test_greedy_plan_is_strict_valid(fixture_task: Task) -> None:
    plan = greedy_plan(fixture_task, WORLD)
    assert strict_violations(fixture_task, plan, WORLD) == []
    assert [day["day"] for day in plan["days"]] == [1, 2, 3]


def test_greedy_plan_is_deterministic() -> None:
    first = json.dumps(greedy_plan(PREF_TASK, WORLD), ensure_ascii=False)
    again = json.dumps(greedy_plan(PREF_TASK, FixtureWorld()), ensure_ascii=False)
    assert first == again


def test_greedy_plan_follows_the_preferences() -> None:
    plan = greedy_plan(PREF_TASK, WORLD)
    visited = [item["location"] for item in _items(plan, "attraction")]
    # 南山 (a 3-hour visit 65 min from town) no longer fits before the 15:00 flight's 14:00 check-in
    assert {"海南省博物馆", "第一市场夜市"} <= set(visited)
    assert "椰梦长廊" not in visited
    assert {item["location"] for item in _items(plan, "hotel")} == {"观海舒适酒店", "椰林度假酒店"}
    legs = [s for day in plan["days"] for s in day["city_segments"] if s.get("type") == "intercity_transport"]
    assert [(leg["from_city"], leg["to_city"], leg["transport_mode"]) for leg in legs] == [
        ("长春市", "海口市", "飞机"),
        ("海口市", "三亚市", "高铁"),
        ("三亚市", "长春市", "飞机"),
    ]
    meals = [item["location"] for item in _items(plan, "food")]
    assert "三亚椰子鸡" in meals and "椰海川菜馆" in meals


def test_must_visit_written_under_an_alias_is_visited_under_that_name() -> None:
    alias_task = with_prefs(TASK_A, prefs(三亚市=city(["三亚湾椰梦长廊"], [], [], [])))
    plan = greedy_plan(alias_task, WORLD)
    visited = [item["location"] for item in _items(plan, "attraction")]
    assert visited.count("三亚湾椰梦长廊") == 1 and "椰梦长廊" not in visited
    assert strict_violations(alias_task, plan, WORLD) == []
    either = with_prefs(TASK_A, prefs(三亚市=city(["椰梦长廊"], [], [], [])))
    visited = [item["location"] for item in _items(greedy_plan(either, WORLD), "attraction")]
    assert (
        visited.count("椰梦长廊") == 1 and "三亚湾椰梦长廊" not in visited
    )  # both names score: the stored one


def test_effective_table_overrides_the_task_table() -> None:
    table = {"User1": {"preference": prefs(三亚市=city(["鹿回头风景区"], [], [], []))}, "User2": {}}
    plan = greedy_plan(TASK_A, WORLD, effective=table)
    assert "鹿回头风景区" in [item["location"] for item in _items(plan, "attraction")]
    assert strict_violations(TASK_A, plan, WORLD) == []


def test_costs_are_the_world_prices_in_cny() -> None:
    plan = greedy_plan(PREF_TASK, WORLD)
    for item in _items(plan, "attraction") + _items(plan, "food") + _items(plan, "hotel"):
        place = WORLD.poi(
            next(c for c in ("海口市", "三亚市") if WORLD.poi(c, item["location"])), item["location"]
        )
        assert place is not None and item["avg_cost"] * 100 == place.price_fen
    assert all(item["participants"] == ["All"] for kind in ("food", "hotel") for item in _items(plan, kind))


@pytest.mark.parametrize("date", [HOLIDAY, ORDINARY])
def test_costs_are_the_prices_of_their_dates(date: str) -> None:
    """On 国庆节 the night and the theme-park ticket cost their holiday prices (265 and 700 CNY),
    a week earlier their ordinary ones; every place's cost is the world's price of its date."""
    task, world = holiday_task(date), holiday_world()
    plan = greedy_plan(task, world)
    assert strict_violations(task, plan, world) == []
    priced = {}
    for day in plan["days"]:
        for segment in day["city_segments"]:
            for item in segment.get("activities", []):
                if item["type"] in ("attraction", "food", "hotel"):
                    on = dt.date.fromisoformat(day["date"])
                    assert item["avg_cost"] * 100 == world.price_fen_on("上海市", item["location"], on)
                    priced[item["location"]] = item["avg_cost"]
    night, ticket = (265, 700) if date == HOLIDAY else (175.5, 399)
    assert (priced["上海崇明云朵·墅酒店"], priced[DISNEY]) == (night, ticket)


def test_allocations_balance_nights_earlier_cities_first() -> None:
    assert allocations(4, 2)[0] == (2, 2)
    assert allocations(3, 2)[:2] == [(2, 1), (1, 2)]
    assert allocations(1, 2) == [(1, 0), (0, 1)]
    assert allocations(0, 1) == [(0,)]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"metadata": {"cities": ["火星"]}}, "metadata.cities"),
        ({"metadata": {"date": "好几天"}}, "metadata.date"),
        ({"time": "soon"}, "time"),
        ({"metadata": {"departure_city": "月球"}}, "metadata.departure_city"),
        ({"metadata": {"cities": []}}, "metadata.cities"),
    ],
)
def test_bad_task_is_a_structured_error(change: dict[str, Any], field: str) -> None:
    data = TASK_A.model_dump(mode="json")
    for key, value in change.items():
        data[key] = data[key] | value if isinstance(value, dict) else value
    with pytest.raises(GreedyError) as caught:
        greedy_plan(Task.model_validate(data), WORLD)
    assert caught.value.field == field


@settings(max_examples=40, deadline=None)
@given(
    cities=st.sampled_from([["海口市"], ["三亚市"], ["海口市", "三亚市"], ["三亚市", "海口市"]]),
    days=st.integers(min_value=2, max_value=5),
    day_of_month=st.integers(min_value=1, max_value=28),
    child=st.booleans(),
    must=st.lists(st.sampled_from([p.name for p in WORLD.places if p.kind == "attraction"]), max_size=3),
    eat=st.lists(st.sampled_from(["海南菜", "川菜", "海鲜", "椰子鸡"]), max_size=2),
)
def test_greedy_plans_are_strict_valid_across_fixture_tasks(
    *, cities: list[str], days: int, day_of_month: int, child: bool, must: list[str], eat: list[str]
) -> None:
    base = task(
        "gen",
        cities,
        DURATIONS[days],
        f"2025-09-{day_of_month:02d}",
        users=["User1", "User2"],
        children=("User3",) if child else (),
    )
    generated = with_prefs(base, prefs(**{name: city(must, [], ["公园"], eat) for name in cities}))
    plan = greedy_plan(generated, WORLD)
    assert strict_violations(generated, plan, WORLD) == []
