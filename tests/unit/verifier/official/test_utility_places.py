"""Attraction (§3.3) and food (§3.4) components of official group utility: exact details."""

from __future__ import annotations

from typing import Any

from tests.fixtures.scoring_fixtures import act, block, city, day, plan, poi_db, profile, view
from verifier.official.score_index import build_score_index
from verifier.official.utility_places import score_attractions, score_food

SANYA = "三亚市"


def _attractions(raw_plan: dict[str, Any], pref: dict[str, Any], user: str = "User1") -> list[dict[str, Any]]:
    return score_attractions(pref, user, build_score_index(view(raw_plan), poi_db()))


def _food(raw_plan: dict[str, Any], pref: dict[str, Any], user: str = "User1") -> list[dict[str, Any]]:
    return score_food(pref, user, build_score_index(view(raw_plan), poi_db()))


def _visit(*locations: str) -> dict[str, Any]:
    hours = [("09:00", "10:00"), ("10:30", "11:30"), ("12:00", "13:00"), ("14:00", "15:00")]
    return plan(
        day(
            1,
            block(
                SANYA, *(act("attraction", loc, s, e) for loc, (s, e) in zip(locations, hours, strict=False))
            ),
        )
    )


def test_must_and_reject_visit_are_substring_hits_and_hide_the_location_from_categories() -> None:
    pref = profile(
        cities={
            SANYA: city(
                must_visit=["天涯"], reject_visit=["南山"], positive=["自然风光", "博物馆"], negative=["寺庙"]
            )
        }
    )
    assert _attractions(_visit("天涯海角", "三亚博物馆", "南山寺"), pref) == [
        {"field": "must_visit", "item": "天涯", "city": SANYA, "satisfied": True, "score": 2},
        {"field": "reject_visit", "item": "南山", "city": SANYA, "satisfied": False, "score": -2},
        {
            "field": "category_pref.positive",
            "item": "博物馆",
            "location": "三亚博物馆",
            "city": SANYA,
            "satisfied": True,
            "score": 1,
        },
    ]


def test_category_passes_run_positive_first_then_negative_and_repeats_count() -> None:
    pref = profile(cities={SANYA: city(positive=["公园"], negative=["公园"])})
    details = _attractions(_visit("椰梦长廊", "椰梦长廊"), pref)
    assert [(d["field"], d["item"], d["score"]) for d in details] == [
        ("category_pref.positive", "公园", 1),
        ("category_pref.positive", "公园", 1),
        ("category_pref.negative", "公园", -1),
        ("category_pref.negative", "公园", -1),
    ]


def test_must_visit_needs_no_database_but_categories_do() -> None:
    pref = profile(cities={SANYA: city(must_visit=["不存在"], positive=["不存在的景点", "公园"])})
    assert _attractions(_visit("不存在的景点"), pref) == [
        {"field": "must_visit", "item": "不存在", "city": SANYA, "satisfied": True, "score": 2}
    ]


def test_city_key_must_match_exactly() -> None:
    raw = plan(day(1, block("三亚", act("attraction", "天涯海角", "09:00", "10:00"))))
    pref = profile(cities={SANYA: city(must_visit=["天涯海角"], positive=["自然风光"])})
    assert _attractions(raw, pref) == []


def test_only_participants_are_scored() -> None:
    raw = plan(day(1, block(SANYA, act("attraction", "天涯海角", "09:00", "10:00", ["User2"]))))
    pref = profile(cities={SANYA: city(must_visit=["天涯海角"])})
    assert _attractions(raw, pref, "User1") == []
    assert _attractions(raw, pref, "User2") == [
        {"field": "must_visit", "item": "天涯海角", "city": SANYA, "satisfied": True, "score": 2}
    ]


def test_overlapping_activities_in_one_block_are_excluded_but_not_across_blocks() -> None:
    pref = profile(cities={SANYA: city(must_visit=["天涯海角", "南山寺"])})
    first = act("attraction", "天涯海角", "10:00", "12:00")
    second = act("attraction", "南山寺", "11:00", "13:00")
    assert _attractions(plan(day(1, block(SANYA, first, second))), pref) == []
    split_blocks = plan(day(1, block(SANYA, first), block(SANYA, second)))
    assert [d["item"] for d in _attractions(split_blocks, pref)] == ["天涯海角", "南山寺"]


def _meal(location: str, *more: str) -> dict[str, Any]:
    hours = [("12:00", "13:00"), ("18:00", "19:00")]
    meals = [
        act("food", loc, s, e, avg_cost=50) for loc, (s, e) in zip((location, *more), hours, strict=False)
    ]
    return plan(day(1, block(SANYA, *meals)))


def test_food_name_stage_must_beats_reject() -> None:
    pref = profile(cities={SANYA: city(must_eat=["海鲜"], reject_eat=["酒楼"])})
    assert _food(_meal("XX海鲜酒楼"), pref) == [
        {
            "field": "must_eat",
            "item": "海鲜",
            "location": "XX海鲜酒楼",
            "city": SANYA,
            "satisfied": True,
            "score": 2,
        }
    ]


def test_food_category_stage_must_and_reject_both_fire() -> None:
    pref = profile(cities={SANYA: city(must_eat=["东北菜"], reject_eat=["东北菜"], prefer_eat=["东北菜"])})
    assert [(d["field"], d["item"], d["score"]) for d in _food(_meal("东北饺子馆"), pref)] == [
        ("must_eat", "东北菜", 2),
        ("reject_eat", "东北菜", -2),
    ]


def test_food_name_stage_order_and_category_prefer() -> None:
    pref = profile(cities={SANYA: city(reject_eat=["火锅"], prefer_eat=["老王", "粤菜"])})
    assert [
        (d["field"], d["item"], d["location"], d["score"])
        for d in _food(_meal("老王火锅", "XX海鲜酒楼"), pref)
    ] == [
        ("reject_eat", "火锅", "老王火锅", -2),
        ("prefer_eat", "粤菜", "XX海鲜酒楼", 1),
    ]


def test_unresolvable_meals_are_skipped_even_with_a_name_hit() -> None:
    pref = profile(cities={SANYA: city(must_eat=["海鲜"])})
    assert _food(_meal("海鲜大排档"), pref) == []


def test_every_meal_counts_and_a_prefix_query_resolves() -> None:
    pref = profile(cities={SANYA: city(avoid_eat=["火锅"])})
    assert [(d["location"], d["score"]) for d in _food(_meal("老王", "老王"), pref)] == [
        ("老王", -1),
        ("老王", -1),
    ]
