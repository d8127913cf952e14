"""Transport (§3.5), hotel (§3.6), intensity (§3.7) and budget (§3.8) components: exact details."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fixtures.scoring_fixtures import act, block, day, leg, plan, poi_db, profile, view
from verifier.official.score_index import ScoreIndex, build_score_index
from verifier.official.utility_trip import score_budget, score_hotel, score_intensity, score_transport

SANYA = "三亚市"


def _index(raw_plan: dict[str, Any]) -> ScoreIndex:
    return build_score_index(view(raw_plan), poi_db())


def test_transport_must_and_reject_both_fire_per_leg() -> None:
    raw = plan(day(1, leg(SANYA, "高铁")), day(3, leg("北京市", "高铁")))
    details = score_transport(profile(transport={"must": ["高铁"], "reject": ["高铁"]}), _index(raw))
    assert details == [
        {
            "field": "transport.must",
            "item": "高铁",
            "route": "->三亚市",
            "day": 1,
            "satisfied": True,
            "score": 2,
        },
        {
            "field": "transport.reject",
            "item": "高铁",
            "route": "->三亚市",
            "day": 1,
            "satisfied": False,
            "score": -2,
        },
        {
            "field": "transport.must",
            "item": "高铁",
            "route": "->北京市",
            "day": 3,
            "satisfied": True,
            "score": 2,
        },
        {
            "field": "transport.reject",
            "item": "高铁",
            "route": "->北京市",
            "day": 3,
            "satisfied": False,
            "score": -2,
        },
    ]


def test_transport_prefer_wins_over_avoid_and_empty_modes_are_skipped() -> None:
    with_keys = {**leg(SANYA, "飞机"), "from": "A", "to": "B"}
    raw = plan(day(1, with_keys, leg(SANYA, "")))
    details = score_transport(profile(transport={"prefer": ["飞机"], "avoid": ["飞机"]}), _index(raw))
    assert details == [
        {
            "field": "transport.prefer",
            "item": "飞机",
            "route": "A->B",
            "day": 1,
            "satisfied": True,
            "score": 1,
        }
    ]


def _hotel_plan() -> dict[str, Any]:
    return plan(
        day(
            1,
            block(
                SANYA,
                act("hotel", "海景度假酒店", "20:00", "08:00"),
                act("hotel", "如家快捷", "20:00", "08:00"),
                act("hotel", "无名旅社", "20:00", "08:00"),
            ),
        )
    )


def test_hotel_scores_every_hotel_activity_that_resolves() -> None:
    pref = profile(hotel={"prefer": ["度假酒店"], "avoid": ["快捷酒店"]})
    assert score_hotel(pref, _index(_hotel_plan())) == [
        {
            "field": "hotel_preference.prefer",
            "item": "度假酒店",
            "location": "海景度假酒店",
            "day": 1,
            "satisfied": True,
            "score": 1,
        },
        {
            "field": "hotel_preference.avoid",
            "item": "快捷酒店",
            "location": "如家快捷",
            "day": 1,
            "satisfied": False,
            "score": -1,
        },
    ]
    assert score_hotel(profile(), _index(_hotel_plan())) == []


def _busy_day() -> dict[str, Any]:
    return plan(
        day(
            2,
            block(
                SANYA,
                act("attraction", "天涯海角", "09:00", "10:00"),
                act("attraction", "南山寺", "10:30", "11:30"),
                {
                    "type": "intracity_transport",
                    "from": "南山寺",
                    "to": "三亚博物馆",
                    "start_time": "11:30",
                    "end_time": "12:00",
                },
                act("attraction", "三亚博物馆", "12:00", "13:00"),
                act("attraction", "椰梦长廊", "13:00", "14:00", ["User2"]),
                act("food", "老王火锅", "14:00", "20:00", avg_cost=80),
            ),
        )
    )


def test_intensity_counts_the_users_attractions_and_active_hours() -> None:
    pref = profile(intensity={"max_poi_per_day": 2, "max_active_hours": 3})
    assert score_intensity(pref, "User1", _index(_busy_day())) == [
        {
            "field": "intensity.max_poi_per_day",
            "day": 2,
            "actual": 3,
            "limit": 2,
            "satisfied": False,
            "score": -2,
        },
        {
            "field": "intensity.max_active_hours",
            "day": 2,
            "actual_hours": 3.5,
            "limit": 3,
            "satisfied": False,
            "score": -2,
        },
    ]
    assert [d["field"] for d in score_intensity(pref, "User2", _index(_busy_day()))] == [
        "intensity.max_poi_per_day",
        "intensity.max_active_hours",
    ]
    assert score_intensity(profile(intensity={"max_poi_per_day": 3}), "User1", _index(_busy_day())) == []


def _costly_trip(hotel_cost: Any) -> dict[str, Any]:
    return plan(
        day(
            1,
            leg(SANYA, "飞机", 500),
            block(
                SANYA,
                act("food", "老王火锅", "12:00", "13:00", ["User1"], avg_cost=50),
                act("food", "XX海鲜酒楼", "18:00", "19:00", avg_cost=0),
                act("attraction", "天涯海角", "14:00", "15:00", avg_cost=999),
                act("hotel", "海景度假酒店", "20:00", "08:00", avg_cost=hotel_cost),
            ),
        )
    )


def test_budget_sums_legs_hotels_and_own_meals_strictly_over() -> None:
    index = _index(_costly_trip("300.5"))
    assert score_budget(profile(budget=850), "User1", index) == [
        {"field": "avg_budget", "actual_cost": 850.5, "budget_limit": 850, "satisfied": False, "score": -2}
    ]
    assert score_budget(profile(budget=850), "User2", index) == []
    assert score_budget(profile(budget=850.5), "User1", index) == []
    assert score_budget(profile(budget=0), "User1", index) == []


def test_budget_raises_like_float_on_text_costs() -> None:
    with pytest.raises(ValueError, match="could not convert string to float: '300元'"):
        score_budget(profile(budget=850), "User1", _index(_costly_trip("300元")))
