"""Official checks 8 (avg_cost presence) and 9 (participants): exact issues and quirks."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fixtures.official_plans import USERS, act, block, day, leg, move, plan
from verifier.official.checks_fields import check_avg_cost, check_participants
from verifier.official.plan_view import build_view


def costs(raw: dict[str, Any]) -> list[dict[str, Any]]:
    return [found.issue for found in check_avg_cost(build_view(raw, USERS))]


def participants(raw: dict[str, Any]) -> list[dict[str, Any]]:
    return [found.issue for found in check_participants(build_view(raw, USERS))]


def test_missing_or_null_cost_on_legs_food_and_hotels() -> None:
    raw = plan(
        day(
            7,
            leg("万宁市", "长春市", avg_cost=None),
            block(
                "长春市",
                act("food", "F", "12:00", "13:00", avg_cost=None),
                act("attraction", "A", "13:00", "14:00"),
                {"type": "hotel", "location": "H", "start_time": "20:00", "end_time": "08:00"},
            ),
        )
    )
    found = check_avg_cost(build_view(raw, USERS))
    assert [f.issue for f in found] == [
        {
            "type": "missing_avg_cost",
            "day": 7,
            "activity_type": "intercity_transport",
            "location": "万宁市→长春市",
            "message": "Day 7: 城际交通 万宁市→长春市 缺少 avg_cost",
        },
        {
            "type": "missing_avg_cost",
            "day": 7,
            "activity_type": "food",
            "location": "F",
            "message": "Day 7: food 'F' 缺少 avg_cost",
        },
        {
            "type": "missing_avg_cost",
            "day": 7,
            "activity_type": "hotel",
            "location": "H",
            "message": "Day 7: hotel 'H' 缺少 avg_cost",
        },
    ]
    assert found[0].loc == "$.days[0].city_segments[0].avg_cost"


def test_cost_values_are_never_validated() -> None:
    raw = plan(
        day(
            1,
            leg("A市", "B市", avg_cost=-5),
            block(
                "B市",
                act("food", "F", "12:00", "13:00", avg_cost="80元"),
                act("hotel", "H", "20:00", "08:00", avg_cost=False),
            ),
        )
    )
    assert costs(raw) == []


def test_not_a_list_empty_and_unknown_names() -> None:
    raw = plan(
        day(
            1,
            block(
                "合肥市",
                act("attraction", "A", "09:00", "10:00", "User1,User2"),
                act("food", "F", "12:00", "13:00", []),
                move("F", "B", "13:00", "13:20", ["User1", "Child1", 1, "All"]),
            ),
        )
    )
    found = check_participants(build_view(raw, USERS))
    base = {"type": "invalid_participants", "day": 1, "city": "合肥市"}
    assert [f.issue for f in found] == [
        base
        | {
            "activity_type": "attraction",
            "location": "A",
            "message": "Day 1 (合肥市): attraction 'A' 的 participants 不是列表",
        },
        base
        | {
            "activity_type": "food",
            "location": "F",
            "message": "Day 1 (合肥市): food 'F' 的 participants 为空列表",
        },
        base
        | {
            "activity_type": "intracity_transport",
            "location": "B",
            "invalid_name": "Child1",
            "message": "Day 1 (合肥市): intracity_transport 'B' 的参与者 'Child1' 不在用户列表中",
        },
        base
        | {
            "activity_type": "intracity_transport",
            "location": "B",
            "invalid_name": 1,
            "message": "Day 1 (合肥市): intracity_transport 'B' 的参与者 '1' 不在用户列表中",
        },
    ]
    assert [f.loc for f in found][2:] == [
        "$.days[0].city_segments[0].activities[2].participants[1]",
        "$.days[0].city_segments[0].activities[2].participants[2]",
    ]


def test_hotels_null_and_missing_participants_skipped() -> None:
    raw = plan(
        day(
            1,
            leg("A市", "B市", participants=["Nobody"]),
            block(
                "B市",
                act("attraction", "A", "09:00", "10:00", None),
                {"type": "rest", "start_time": "10:00", "end_time": "11:00"},
                act("hotel", "H", "20:00", "08:00", participants="garbage"),
            ),
        )
    )
    assert participants(raw) == []


def test_unhashable_participant_raises_like_the_official_code() -> None:
    raw = plan(day(1, block("B市", act("rest", "R", "09:00", "10:00", [["User1"]]))))
    with pytest.raises(TypeError, match=r"^unhashable type: 'list'$"):
        check_participants(build_view(raw, USERS))
