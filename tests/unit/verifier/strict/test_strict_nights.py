"""Checks 2, 3, 4 and 7: nights and hotels, forward times and the day window, overlaps, order."""

from __future__ import annotations

from typing import Any

from tests.fixtures.strict_helpers import A1, A3, drop, edited, found, insert, put, run
from tests.fixtures.strict_world import task

HOTEL1 = f"{A1}[7]"


def hotel(location: str, start: str, end: str, cost: float) -> dict[str, Any]:
    return {"type": "hotel", "location": location, "start_time": start, "end_time": end, "avg_cost": cost}


def act(kind: str, start: str, end: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "start_time": start, "end_time": end, "participants": ["All"], **fields}


def test_missing_hotel() -> None:
    assert found(edited("plan_a", drop(HOTEL1))) == [("strict.hotel_missing_night", 2, "$.days[0]")]


def test_second_hotel_same_night() -> None:
    plan = edited("plan_a", insert(f"{A1}[8]", hotel("观海舒适酒店", "20:00", "08:00", 250)))
    assert found(plan) == [
        ("strict.hotel_multiple", 2, f"{A1}[8]"),
        ("strict.hotel_not_last", 2, HOTEL1),
        ("strict.double_booked", 4, f"{A1}[8]"),
    ]


def test_hotel_must_be_a_hotel_last_and_not_on_final_day() -> None:
    plan = edited(
        "plan_a",
        put(f"{HOTEL1}.location", "老爸茶餐厅"),
        insert(f"{A3}[5]", hotel("椰林度假酒店", "14:40", "08:00", 480)),
    )
    assert found(plan) == [
        ("strict.hotel_not_a_hotel", 2, f"{HOTEL1}.location"),
        ("strict.hotel_extra_night", 2, f"{A3}[5]"),
        ("strict.hotel_not_last", 2, f"{A3}[5]"),
        ("strict.double_booked", 4, "$.days[2].city_segments[1]"),
        ("strict.transfer_missing", 6, HOTEL1),
        ("strict.transfer_origin_mismatch", 6, "$.days[1].city_segments[0].activities[0].from"),
        ("strict.transfer_missing", 6, f"{A3}[5]"),
        ("strict.transfer_missing", 6, "$.days[2].city_segments[1]"),
        ("strict.check_in_late", 6, "$.days[2].city_segments[1]"),
    ]


def test_unknown_hotel_and_hotel_in_wrong_city() -> None:
    assert found(edited("plan_a", put(f"{HOTEL1}.location", "幽灵酒店"))) == [
        ("strict.hotel_unknown", 2, f"{HOTEL1}.location"),
        ("strict.transfer_missing", 6, HOTEL1),
        ("strict.transfer_origin_mismatch", 6, "$.days[1].city_segments[0].activities[0].from"),
    ]
    moved = edited("plan_a", put("$.days[1].city_segments[0].city", "三亚市"))
    assert ("strict.hotel_wrong_city", 2, HOTEL1) in found(moved)


def test_rest_after_hotel_is_not_last() -> None:
    plan = edited("plan_a", insert(f"{A1}[8]", act("rest", "21:00", "22:00")))
    assert found(plan) == [("strict.hotel_not_last", 2, HOTEL1), ("strict.double_booked", 4, f"{A1}[8]")]


def test_overnight_train_covers_the_night() -> None:
    taxi = act("intracity_transport", "19:05", "19:35", transport_mode="打车", **{"from": "老爸茶餐厅"})
    taxi.update(to="海口东站", avg_cost=37)
    train = {
        "type": "intercity_transport",
        "from_city": "海口市",
        "to_city": "三亚市",
        "transport_mode": "火车",
        "start_time": "23:00",
        "end_time": "06:00",
        "avg_cost": 60,
    }
    plan = edited(
        "plan_a",
        put(f"{A1}[6]", taxi),
        drop(HOTEL1),
        insert("$.days[0].city_segments[2]", train),
        drop("$.days[1].city_segments[0]"),
        drop("$.days[1].city_segments[0]"),
    )
    assert found(plan) == []


def late_arrival_plan() -> dict[str, Any]:
    """Two days in 海口市: a flight landing 02:30, check-in 03:30, then a day out and home."""
    taxi = {"transport_mode": "打车", "avg_cost": 55, "from": "海口美兰国际机场", "to": "海口经济酒店"}
    return {
        "days": [
            {
                "day": 1,
                "date": "2025-09-02",
                "city_segments": [
                    {
                        "type": "intercity_transport",
                        "from_city": "长春市",
                        "to_city": "海口市",
                        "transport_mode": "飞机",
                        "start_time": "21:00",
                        "end_time": "02:30",
                        "avg_cost": 900,
                    },
                    {
                        "city": "海口市",
                        "activities": [
                            act("intracity_transport", "02:50", "03:30", **taxi),
                            hotel("海口经济酒店", "03:40", "09:00", 150),
                        ],
                    },
                ],
            },
            {
                "day": 2,
                "date": "2025-09-03",
                "city_segments": [
                    {
                        "city": "海口市",
                        "activities": [
                            act(
                                "intracity_transport",
                                "10:00",
                                "10:30",
                                transport_mode="打车",
                                avg_cost=19,
                                **{"from": "海口经济酒店", "to": "椰海川菜馆"},
                            ),
                            act("food", "11:00", "12:00", location="椰海川菜馆", avg_cost=80),
                            act(
                                "intracity_transport",
                                "12:00",
                                "13:00",
                                transport_mode="打车",
                                avg_cost=52,
                                **{"from": "椰海川菜馆", "to": "海口美兰国际机场"},
                            ),
                        ],
                    },
                    {
                        "type": "intercity_transport",
                        "from_city": "海口市",
                        "to_city": "长春市",
                        "transport_mode": "飞机",
                        "start_time": "15:00",
                        "end_time": "20:30",
                        "avg_cost": 1500,
                    },
                ],
            },
        ]
    }


LATE = task("late", ["海口市"], "两天一夜", "2025-09-02", users=["User1"])


def test_late_arrival_small_hours_check_in_is_valid() -> None:
    assert found(late_arrival_plan(), LATE) == []


def test_check_in_during_the_taxi_is_double_booked() -> None:
    plan = late_arrival_plan()
    plan["days"][0]["city_segments"][1]["activities"][1]["start_time"] = "02:50"
    assert found(plan, LATE) == [("strict.double_booked", 4, "$.days[0].city_segments[1].activities[1]")]


def test_activity_may_not_cross_midnight() -> None:
    assert found(edited("plan_a", put(f"{A1}[5].end_time", "00:30"))) == [
        ("strict.time_not_forward", 3, f"{A1}[5]"),
        ("strict.meal_missing", 5, "$.days[0]"),
    ]


def test_zero_length_leg_and_backwards_hotel() -> None:
    plan = late_arrival_plan()
    plan["days"][0]["city_segments"][1]["activities"][1]["end_time"] = "03:00"
    assert found(plan, LATE) == [
        ("strict.hotel_missing_night", 2, "$.days[0]"),
        ("strict.time_not_forward", 3, "$.days[0].city_segments[1].activities[1]"),
    ]


def test_day_window() -> None:
    plan = edited("plan_a", put(f"{A3}[1].start_time", "05:50"), put(f"{A3}[0].start_time", "04:40"))
    hotel2 = "$.days[1].city_segments[2].activities[11]"
    assert found(plan) == [
        ("strict.outside_day_window", 3, f"{A3}[1]"),
        ("strict.double_booked", 4, f"{A3}[0]"),
        ("strict.double_booked", 4, f"{A3}[1]"),
        ("strict.double_booked", 4, f"{A3}[1]"),
        ("strict.outside_opening_hours", 5, f"{A3}[1]"),
    ]
    assert [v.ctx["other"] for v in run(plan) if v.code == "strict.double_booked"] == [
        hotel2,
        hotel2,
        f"{A3}[0]",
    ]
    transfers_may_run_early = edited("plan_a", put(f"{A3}[0].start_time", "05:00"))
    assert found(transfers_may_run_early) == [("strict.double_booked", 4, f"{A3}[0]")]


def test_overlap_across_blocks_and_with_legs() -> None:
    plan = edited("plan_a", put("$.days[1].city_segments[0].activities[0].end_time", "09:10"))
    assert found(plan) == [
        ("strict.double_booked", 4, "$.days[1].city_segments[1]"),
        ("strict.check_in_late", 6, "$.days[1].city_segments[1]"),
    ]


def test_listed_out_of_chronological_order() -> None:
    plan = edited("plan_a", put(f"{A1}[3].start_time", "14:21"), put(f"{A1}[3].end_time", "14:23"))
    assert found(plan) == [
        ("strict.visit_too_short", 5, f"{A1}[3]"),
        ("strict.out_of_order", 7, f"{A1}[3]"),
    ]
