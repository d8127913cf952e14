"""Official check 2 (a hotel every night): exact issues and quirks."""

from __future__ import annotations

from typing import Any

from tests.fixtures.official_plans import USERS, act, block, day, leg, plan
from verifier.official.checks_hotel import check_hotel
from verifier.official.plan_view import build_view

NIGHT = act("hotel", "H", "20:00", "08:00")
LUNCH = act("food", "F", "12:00", "13:00")


def hotel(raw: dict[str, Any]) -> list[dict[str, Any]]:
    return [found.issue for found in check_hotel(build_view(raw, USERS))]


def test_single_day_plans_are_never_checked() -> None:
    assert hotel(plan(day(1, block("A市", LUNCH)))) == []


def test_last_list_element_never_checked_and_trailing_leg_fine() -> None:
    raw = plan(
        day(1, block("A市", LUNCH, NIGHT), leg("A市", "B市", "21:00", "23:00")), day(2, block("B市", LUNCH))
    )
    assert hotel(raw) == []


def test_the_three_missing_hotel_messages() -> None:
    raw = plan(
        day(1, leg("A市", "B市")),
        day(2, block("B市", LUNCH), block("B市")),
        day(3, block("B市", LUNCH)),
        day(4),
    )
    found = check_hotel(build_view(raw, USERS))
    assert [f.issue for f in found] == [
        {"type": "missing_hotel", "day": 1, "message": "Day 1: 未安排住宿（无 city_block）"},
        {"type": "missing_hotel", "day": 2, "message": "Day 2: 未安排住宿（最后一个 city_block 无活动）"},
        {"type": "missing_hotel", "day": 3, "message": "Day 3: 未安排住宿"},
    ]
    assert [f.loc for f in found] == [
        "$.days[0]",
        "$.days[1].city_segments[1]",
        "$.days[2].city_segments[0].activities[0]",
    ]


def test_hotel_earlier_in_the_day_is_not_last() -> None:
    raw = plan(day(1, block("A市", NIGHT), block("A市", LUNCH)), day(2, block("A市", LUNCH)))
    assert hotel(raw) == [
        {
            "type": "hotel_not_last_activity",
            "day": 1,
            "message": "Day 1: hotel 未安排在当天最后一个 city_block 的最后一个活动位置",
        }
    ]


def test_two_hotels_fine_and_day_label_kept_raw() -> None:
    assert hotel(plan(day(1, block("A市", NIGHT, NIGHT)), day(2))) == []
    assert hotel(plan(day(5.0, block("A市", LUNCH)), day(6))) == [
        {"type": "missing_hotel", "day": 5.0, "message": "Day 5.0: 未安排住宿"}
    ]
