"""Check 5: real places of the right kind, opening windows, visit length, repeats and meals."""

from __future__ import annotations

from typing import Any

from tests.fixtures.strict_helpers import A1, A2, edited, found, insert, put, run

B2 = "$.days[1].city_segments[0].activities"
B2_SANYA = "$.days[1].city_segments[2].activities"


def test_weekly_closure() -> None:
    plan = edited("plan_a", put("$.days[0].date", "2025-09-01"))
    assert found(plan) == [
        ("strict.date_mismatch", 1, "$.days[0].date"),
        ("strict.closed_on_date", 5, f"{A1}[1]"),
    ]


def test_visit_across_a_lunch_break_is_outside() -> None:
    plan = edited("plan_b", put(f"{B2}[3].start_time", "09:30"), put(f"{B2}[3].end_time", "10:45"))
    assert found(plan, "plan_b") == [("strict.whereabouts_unknown", 9, f"{B2}[2]")]
    across = edited("plan_b", put(f"{B2}[3].end_time", "12:30"))
    assert ("strict.outside_opening_hours", 5, f"{B2}[3]") in found(across, "plan_b")
    violation = next(v for v in run(across, "plan_b") if v.code == "strict.outside_opening_hours")
    assert violation.ctx["windows"] == ["07:00-12:00", "14:00-19:00"]


def test_overnight_window_accepts_late_evening_and_rejects_before_opening() -> None:
    assert found(edited("plan_b"), "plan_b") == []
    plan = edited(
        "plan_b", put(f"{B2_SANYA}[5].start_time", "21:00"), put(f"{B2_SANYA}[5].end_time", "23:59")
    )
    assert found(plan, "plan_b") == [
        ("strict.double_booked", 4, f"{B2_SANYA}[6]"),
        ("strict.double_booked", 4, f"{B2_SANYA}[7]"),
    ]
    early = edited(
        "plan_b",
        put(f"{B2_SANYA}[4].start_time", "17:40"),
        put(f"{B2_SANYA}[4].end_time", "17:55"),
        put(f"{B2_SANYA}[5].start_time", "17:55"),
        put(f"{B2_SANYA}[3].end_time", "17:40"),
        put(f"{B2_SANYA}[2].end_time", "17:45"),
        put(f"{B2_SANYA}[3].start_time", "17:45"),
    )
    violations = [v for v in run(early, "plan_b") if v.check == 5]
    assert [(v.code, v.loc) for v in violations] == [("strict.outside_opening_hours", f"{B2_SANYA}[5]")]
    assert violations[0].ctx == {
        "date": "2025-09-06",
        "visit": "17:55-22:30",
        "windows": ["00:00-02:00", "18:00-02:00+1"],
    }


def test_unknown_place_and_wrong_kind() -> None:
    plan = edited(
        "plan_a", put(f"{A1}[1].location", "海南省博物馆骑楼老街"), put(f"{A1}[5].location", "骑楼老街")
    )
    assert [f for f in found(plan) if f[1] == 5] == [
        ("strict.poi_unknown", 5, f"{A1}[1].location"),
        ("strict.poi_wrong_kind", 5, f"{A1}[5].location"),
    ]


def test_minimum_visit_length() -> None:
    plan = edited("plan_a", put(f"{A1}[1].end_time", "15:50"))
    assert found(plan) == [("strict.visit_too_short", 5, f"{A1}[1]")]
    assert run(plan)[0].ctx == {"minutes": 85, "minimum": 90}


def test_attraction_visited_twice() -> None:
    plan = edited(
        "plan_a",
        put(f"{A2}[7].location", "椰梦长廊"),
        put(f"{A2}[6].to", "椰梦长廊"),
        put(f"{A2}[8].from", "椰梦长廊"),
        put(f"{A2}[6].start_time", "17:30"),
        put(f"{A2}[6].avg_cost", 40),
        put(f"{A2}[8].avg_cost", 13),
    )
    assert found(plan) == [("strict.attraction_repeated", 5, f"{A2}[7]")]


def test_attraction_visited_twice_under_two_names() -> None:
    plan = edited(
        "plan_a",
        put(f"{A2}[7].location", "三亚湾椰梦长廊"),
        put(f"{A2}[6].to", "三亚湾椰梦长廊"),
        put(f"{A2}[8].from", "三亚湾椰梦长廊"),
        put(f"{A2}[6].start_time", "17:30"),
        put(f"{A2}[6].avg_cost", 40),
        put(f"{A2}[8].avg_cost", 13),
    )
    assert found(plan) == [("strict.attraction_repeated", 5, f"{A2}[7]")]
    violation = run(plan)[0]
    assert violation.message == f"User1, User2 already visited 三亚湾椰梦长廊 as 椰梦长廊 ({A2}[1])"


def breakfast_day_two(*extra: dict[str, Any]) -> Any:
    """Plan A with a breakfast at 老爸茶餐厅 before the morning train."""
    walk = {
        "type": "intracity_transport",
        "transport_mode": "步行",
        "from": "观海舒适酒店",
        "to": "老爸茶餐厅",
        "start_time": "07:00",
        "end_time": "07:20",
        "participants": ["All"],
        "avg_cost": 0,
    }
    food = {
        "type": "food",
        "location": "老爸茶餐厅",
        "start_time": "07:20",
        "end_time": "08:05",
        "participants": ["All"],
        "avg_cost": 60,
    }
    taxi = {
        "type": "intracity_transport",
        "transport_mode": "打车",
        "from": "老爸茶餐厅",
        "to": "海口东站",
        "start_time": "08:05",
        "end_time": "08:30",
        "participants": ["All"],
        "avg_cost": 37,
    }
    blocks = "$.days[1].city_segments[0].activities"
    return edited("plan_a", put(f"{A1}[7].end_time", "07:00"), put(blocks, [walk, food, taxi]), *extra)


def test_breakfast_is_allowed_once() -> None:
    assert found(breakfast_day_two()) == []
    second = {
        "type": "food",
        "location": "老爸茶餐厅",
        "start_time": "07:20",
        "end_time": "08:05",
        "participants": ["User1"],
        "avg_cost": 60,
    }
    plan = breakfast_day_two(insert("$.days[1].city_segments[0].activities[2]", second))
    assert found(plan) == [
        ("strict.double_booked", 4, "$.days[1].city_segments[0].activities[2]"),
        ("strict.meal_repeated", 5, "$.days[1].city_segments[0].activities[2]"),
    ]


def test_meal_outside_windows_and_missing_lunch() -> None:
    plan = edited(
        "plan_a",
        put(f"{A2}[3].start_time", "15:00"),
        put(f"{A2}[3].end_time", "16:00"),
        put(f"{A2}[4].start_time", "16:00"),
        put(f"{A2}[4].end_time", "16:25"),
        put(f"{A2}[5].start_time", "16:25"),
        put(f"{A2}[5].end_time", "17:40"),
    )
    assert found(plan) == [
        ("strict.visit_too_short", 5, f"{A2}[5]"),
        ("strict.meal_outside_window", 5, f"{A2}[3]"),
        ("strict.meal_missing", 5, "$.days[1]"),
    ]
    missing = next(v for v in run(plan) if v.code == "strict.meal_missing")
    assert missing.ctx == {"meal": "lunch", "users": ["User1", "User2"]}


def test_no_meal_required_while_travelling() -> None:
    plan_b_day1_has_no_dinner = edited("plan_b")
    assert found(plan_b_day1_has_no_dinner, "plan_b") == []
