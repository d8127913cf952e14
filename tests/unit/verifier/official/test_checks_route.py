"""Official checks 1 (inter-city transport) and 6 (intracity continuity): exact issues and quirks."""

from __future__ import annotations

from typing import Any

from tests.fixtures.official_plans import USERS, act, block, day, leg, move, plan
from verifier.official.checks_route import check_intercity, check_intracity
from verifier.official.plan_view import build_view


def intercity(raw: dict[str, Any]) -> list[dict[str, Any]]:
    return [found.issue for found in check_intercity(build_view(raw, USERS))]


def intracity(raw: dict[str, Any], users: list[str] = USERS) -> list[dict[str, Any]]:
    return [found.issue for found in check_intracity(build_view(raw, users))]


def test_city_change_within_a_day_without_leg() -> None:
    raw = plan(day(3, block("南昌市", act("food", "A", "11:00", "12:00")), block("安顺市")))
    found = check_intercity(build_view(raw, USERS))
    assert [f.issue for f in found] == [
        {
            "type": "missing_intercity_transport",
            "day": 3,
            "segment_index": 1,
            "from_city": "南昌市",
            "to_city": "安顺市",
            "message": "Day 3: 从 南昌市 到 安顺市 缺少城间交通",
        }
    ]
    assert found[0].check == 1
    assert found[0].loc == "$.days[0].city_segments[1].city"


def test_one_suffix_stripped_and_diqu_shadowed_by_qu() -> None:
    """Appendix B vector 8: 合肥 = 合肥市, but 阿里地区 → 阿里地 ≠ 阿里."""
    assert intercity(plan(day(1, leg("北京市", "合肥"), block("合肥市")))) == []
    assert intercity(plan(day(1, leg("北京市", "阿里地区"), block("阿里")))) == [
        {
            "type": "missing_intercity_transport",
            "day": 1,
            "segment_index": 1,
            "from_city": "阿里地区",
            "to_city": "阿里",
            "message": "Day 1: 从 阿里地区 到 阿里 缺少城间交通",
        }
    ]


def test_empty_city_flagged_block_without_city_key_ignored() -> None:
    assert intercity(plan(day(1, leg("北京市", "南京市"), block("")))) == [
        {
            "type": "missing_intercity_transport",
            "day": 1,
            "segment_index": 1,
            "from_city": "南京市",
            "to_city": "",
            "message": "Day 1: 从 南京市 到  缺少城间交通",
        }
    ]
    assert intercity(plan(day(1, leg("北京市", "南京市"), {"activities": []}, block("南京市")))) == []


def test_same_city_and_adjacent_legs_not_checked() -> None:
    raw = plan(day(1, leg("上海市", "上海市"), leg("广州市", "南京市"), block("南京市")))
    assert intercity(raw) == []


def test_across_days_only_when_next_day_does_not_start_with_a_leg() -> None:
    jump = plan(day(2, block("三亚市")), day(3, block("海口市")))
    assert intercity(jump) == [
        {
            "type": "missing_intercity_transport",
            "day": 3,
            "from_city": "三亚市",
            "to_city": "海口市",
            "message": "Day 3: 跨天从 三亚市 到 海口市 缺少城间交通",
        }
    ]
    wrong_origin = plan(day(2, block("三亚市")), day(3, leg("北京市", "海口市"), block("海口市")))
    assert intercity(wrong_origin) == []


def test_across_days_uses_day_label_and_last_leg_destination() -> None:
    raw = plan(day(1, block("北京市"), leg("北京市", "沈阳市")), day(4.0, block("上饶市")))
    assert [issue["message"] for issue in intercity(raw)] == ["Day 4.0: 跨天从 沈阳市 到 上饶市 缺少城间交通"]


def test_from_hub_needs_a_transfer_once_per_user() -> None:
    raw = plan(day(1, leg("长春市", "海口市"), block("海口市", act("food", "和顺餐厅", "11:00", "12:00"))))
    found = check_intracity(build_view(raw, USERS[:2]))
    assert [f.issue for f in found] == [
        {
            "type": "missing_intracity_transport",
            "day": 1,
            "city": "海口市",
            "user": user,
            "from_location": "交通枢纽(到达点)",
            "to_location": "和顺餐厅",
            "message": f"Day 1 (海口市): {user} 到达新城市后 直接前往 '和顺餐厅'，"
            "缺少从交通枢纽出发的城内交通",
        }
        for user in ("User1", "User2")
    ]
    assert found[0].loc == "$.days[0].city_segments[1].activities[0]"


def test_first_transfer_origin_free_and_unknown_start_after_hub() -> None:
    ok = plan(
        day(
            1,
            leg("A市", "B市"),
            block("B市", move("任意站", "X", "11:00", "11:30"), act("attraction", "X", "11:30", "13:00")),
        )
    )
    assert intracity(ok) == []
    unknown = plan(day(1, leg("A市", "B市"), block("B市", act("shopping", "X", "11:00", "12:00", ["User1"]))))
    assert intracity(unknown) == [
        {
            "type": "missing_intracity_transport",
            "day": 1,
            "city": "B市",
            "user": "User1",
            "from_location": "交通枢纽(到达点)",
            "to_location": "(unknown)",
            "message": "Day 1 (B市): User1 到达新城市后 直接前往 '?'，缺少从交通枢纽出发的城内交通",
        }
    ]


def test_missing_transfer_and_origin_mismatch() -> None:
    raw = plan(
        day(
            2,
            block(
                "婺源县",
                act("attraction", "篁岭", "09:00", "11:00"),
                act("attraction", "古村", "11:00", "12:00"),
                move("别处", "饭店", "12:00", "12:20"),
            ),
        )
    )
    found = check_intracity(build_view(raw, ["User1"]))
    assert [f.issue for f in found] == [
        {
            "type": "missing_intracity_transport",
            "day": 2,
            "city": "婺源县",
            "user": "User1",
            "from_location": "篁岭",
            "to_location": "古村",
            "message": "Day 2 (婺源县): User1 从 '篁岭' 到 '古村' 缺少城内交通",
        },
        {
            "type": "intracity_transport_origin_mismatch",
            "day": 2,
            "city": "婺源县",
            "user": "User1",
            "expected_from": "古村",
            "actual_from": "别处",
            "message": "Day 2 (婺源县): User1 的城内交通 起点为 '别处'，但用户当前 位于 '古村'",
        },
    ]
    assert found[1].loc == "$.days[0].city_segments[0].activities[2].from"


def test_rest_and_unknown_types_do_not_move_and_days_reset() -> None:
    raw = plan(
        day(
            1,
            block(
                "A市",
                act("attraction", "X", "09:00", "10:00"),
                act("rest", "Y", "10:00", "11:00"),
                act("photo_stop", "Z", "11:00", "11:10"),
                act("food", "X", "11:10", "12:00"),
                move("X", "H", "19:40", "20:00"),
                act("hotel", "H", "20:00", "08:00"),
            ),
        ),
        day(2, block("A市", act("attraction", "Q", "09:00", "10:00"))),
    )
    assert intracity(raw) == []


def test_hotel_with_empty_location_is_flagged_but_does_not_move() -> None:
    raw = plan(
        day(
            1,
            block(
                "A市",
                act("food", "X", "18:00", "19:00"),
                act("hotel", "", "20:00", "08:00"),
                act("attraction", "X", "21:00", "22:00"),
            ),
        )
    )
    assert intracity(raw, ["User1"]) == [
        {
            "type": "missing_intracity_transport",
            "day": 1,
            "city": "A市",
            "user": "User1",
            "from_location": "X",
            "to_location": "",
            "message": "Day 1 (A市): User1 从 'X' 到 '' 缺少城内交通",
        }
    ]


def test_split_group_only_the_absent_users_are_flagged() -> None:
    raw = plan(
        day(
            1,
            block(
                "A市",
                act("attraction", "X", "09:00", "10:00"),
                act("attraction", "Y", "10:00", "11:00", ["User1"]),
                act("food", "X", "11:00", "12:00"),
                act("attraction", "Z", "12:00", "13:00"),
            ),
        )
    )
    issues = intracity(raw)
    assert [(i["user"], i["from_location"], i["to_location"]) for i in issues] == [
        ("User1", "X", "Y"),
        ("User1", "Y", "X"),
        ("User1", "X", "Z"),
        ("User2", "X", "Z"),
        ("User3", "X", "Z"),
    ]


def test_string_participants_are_iterated_per_character() -> None:
    raw = plan(
        day(
            1,
            block(
                "A市",
                act("attraction", "X", "09:00", "10:00", "ab"),
                act("attraction", "Y", "10:00", "11:00", "ab"),
            ),
        )
    )
    assert [i["user"] for i in intracity(raw, ["User1"])] == ["a", "b"]


def test_non_user_participants_are_sent_to_the_hub_too() -> None:
    raw = plan(
        day(
            1,
            block("A市", act("attraction", "X", "09:00", "10:00", ["Child1"])),
            leg("A市", "B市", "11:00", "12:00"),
            block("B市", act("attraction", "Y", "13:00", "14:00", ["Child1"])),
        )
    )
    assert [(i["user"], i["from_location"]) for i in intracity(raw, ["User1"])] == [
        ("Child1", "交通枢纽(到达点)")
    ]
