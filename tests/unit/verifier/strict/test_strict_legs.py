"""Check 1: calendar, leg chain, timetable matching, known cities, coverage, one block per stay."""

from __future__ import annotations

import datetime as dt

from tests.fixtures.strict_helpers import drop, edited, found, insert, put, run
from tests.fixtures.strict_world import Option, task
from verifier.strict.timetable import matches_itself

LEG0 = "$.days[0].city_segments[0]"


def leg(origin: str, destination: str, mode: str, times: tuple[str, str], cost: float) -> dict[str, object]:
    return {
        "type": "intercity_transport",
        "from_city": origin,
        "to_city": destination,
        "transport_mode": mode,
        "start_time": times[0],
        "end_time": times[1],
        "avg_cost": cost,
    }


def test_missing_return_leg() -> None:
    assert found(edited("plan_a", drop("$.days[2].city_segments[1]"))) == [
        ("strict.leg_missing", 1, "$.days[2].city_segments"),
    ]


def test_missing_outbound_leg() -> None:
    plan = edited("plan_a", drop(LEG0))
    assert found(plan)[0] == ("strict.leg_missing", 1, "$.days[0].city_segments[0]")
    assert run(plan)[0].ctx == {"from_city": "长春市", "to_city": "海口市"}


def test_leg_from_where_the_group_is_not() -> None:
    assert found(edited("plan_a", put(f"{LEG0}.from_city", "三亚市"))) == [
        ("strict.leg_origin_mismatch", 1, f"{LEG0}.from_city"),
        ("strict.leg_not_in_timetable", 1, f"{LEG0}.transport_mode"),
    ]


def test_same_city_leg_and_adjacent_legs() -> None:
    bogus = leg("海口市", "海口市", "高铁", ("08:35", "08:45"), 0)
    assert found(edited("plan_a", insert("$.days[1].city_segments[1]", bogus))) == [
        ("strict.leg_same_city", 1, "$.days[1].city_segments[1]"),
        ("strict.leg_adjacent", 1, "$.days[1].city_segments[2]"),
    ]


def test_leg_mode_and_times_must_match_timetable() -> None:
    assert found(edited("plan_a", put(f"{LEG0}.transport_mode", "航班"))) == [
        ("strict.leg_not_in_timetable", 1, f"{LEG0}.transport_mode"),
    ]
    violations = run(edited("plan_a", put(f"{LEG0}.start_time", "08:06")))
    assert [(v.code, v.loc) for v in violations] == [("strict.leg_time_mismatch", LEG0)]
    assert violations[0].ctx["departures"] == [
        "CZ6701 08:00-13:30",
        "HU7702 14:00-19:30",
        "HU7705 21:00-02:30+1",
    ]


def test_leg_times_within_tolerance_match() -> None:
    plan = edited("plan_a", put(f"{LEG0}.start_time", "08:05"), put(f"{LEG0}.end_time", "13:25"))
    assert found(plan) == []


def test_self_drive_duration_must_match_driving_time() -> None:
    path = "$.days[1].city_segments[1]"
    assert found(edited("plan_b", put(f"{path}.end_time", "15:00")), "plan_b")[0] == (
        "strict.leg_time_mismatch",
        1,
        path,
    )


def test_unknown_and_foreign_cities() -> None:
    assert found(edited("plan_a", put("$.days[0].city_segments[1].city", "海口"))) == []
    violations = found(edited("plan_a", put("$.days[2].city_segments[1].to_city", "火星")))
    assert violations[0] == ("strict.unknown_city", 1, "$.days[2].city_segments[1].to_city")
    assert violations[1] == ("strict.leg_missing", 1, "$.days[2].city_segments")


def test_block_in_a_city_outside_the_task() -> None:
    other = task("t", ["海口市"], "三天两夜", "2025-09-02", users=["User1", "User2"])
    assert found(edited("plan_a"), other) == [
        ("strict.city_not_in_task", 1, "$.days[1].city_segments[1].to_city"),
        ("strict.city_not_in_task", 1, "$.days[1].city_segments[2].city"),
        ("strict.city_not_in_task", 1, "$.days[2].city_segments[0].city"),
    ]


def test_city_not_visited() -> None:
    more = task("t", ["海口市", "三亚市", "长春市"], "三天两夜", "2025-09-02", users=["User1", "User2"])
    assert found(edited("plan_a"), more) == [("strict.city_not_visited", 1, "$.days")]


def test_calendar() -> None:
    plan = edited("plan_a", put("$.days[1].date", "2025-09-05"), put("$.days[2].day", 7))
    assert found(plan) == [
        ("strict.date_mismatch", 1, "$.days[1].date"),
        ("strict.day_number", 1, "$.days[2].day"),
        ("strict.out_of_order", 7, "$.days[2].city_segments[0].activities[0]"),
    ]
    longer = task("t", ["海口市", "三亚市"], "四天三夜", "2025-09-02", users=["User1", "User2"])
    assert found(edited("plan_a"), longer) == [("strict.day_count", 1, "$.days")]


def test_empty_day() -> None:
    assert found(edited("plan_a", put("$.days[2].city_segments", [])))[:2] == [
        ("strict.day_empty", 1, "$.days[2].city_segments"),
        ("strict.leg_missing", 1, "$.days[2].city_segments"),
    ]


def test_block_split_without_leg() -> None:
    rest = {"type": "rest", "start_time": "21:30", "end_time": "21:40", "participants": ["All"]}
    block = {"city": "三亚市", "activities": [rest]}
    assert found(edited("plan_a", insert("$.days[1].city_segments[3]", block))) == [
        ("strict.block_split", 1, "$.days[1].city_segments[3]"),
        ("strict.hotel_not_last", 2, "$.days[1].city_segments[2].activities[11]"),
        ("strict.double_booked", 4, "$.days[1].city_segments[3].activities[0]"),
    ]


def test_only_the_first_of_codeshares_matches_itself() -> None:
    """Two 飞机 departures at 08:00–13:30 (the second 100 CNY cheaper) and one at 14:00: a leg
    at the shared times is matched to the first, so the second never matches itself; a leg 3
    minutes off the third still matches the third."""
    day = dt.date(2025, 9, 2)

    def flight(depart: int, arrive: int, fare: int, code: str) -> Option:
        return Option(
            "飞机",
            "长春市",
            "海口市",
            day,
            depart,
            arrive,
            fare,
            code,
            "长春龙嘉国际机场",
            "海口美兰国际机场",
            False,
        )

    first, twin, later = (
        flight(480, 810, 150000, "CZ6701"),
        flight(480, 810, 140000, "MU1234"),
        flight(840, 1170, 130000, "HU7702"),
    )
    options = (first, twin, later)
    assert matches_itself(options, first, 480, 810)
    assert not matches_itself(options, twin, 480, 810)
    assert matches_itself(options, later, 843, 1170)
