"""Check 6 (transfers between places) and check 8 (costs equal the world's prices)."""

from __future__ import annotations

import math

from tests.fixtures.strict_helpers import A1, A2, A3, drop, edited, found, put, run
from verifier.strict.costs import declarable_fen, lowest_cost_fen


def test_day_starts_at_the_hotel() -> None:
    plan = edited("plan_a", drop(f"{A3}[0]"), put(f"{A3}[0].start_time", "08:35"))
    assert found(plan) == [("strict.transfer_missing", 6, f"{A3}[0]")]
    assert run(plan)[0].ctx == {
        "from_place": "椰林度假酒店",
        "to_place": "南山文化旅游区",
        "users": ["User1", "User2"],
    }


def test_first_transfer_after_arrival_starts_at_the_hub() -> None:
    assert found(edited("plan_a", drop(f"{A2}[0]"))) == [("strict.transfer_missing", 6, f"{A2}[0]")]
    wrong_hub = edited(
        "plan_a",
        put(f"{A2}[0].from", "三亚凤凰国际机场"),
        put(f"{A2}[0].avg_cost", 31),
        put(f"{A2}[0].start_time", "10:35"),
    )
    assert found(wrong_hub) == [
        ("strict.transfer_origin_mismatch", 6, f"{A2}[0].from"),
        ("strict.hub_exit_early", 6, "$.days[1].city_segments[1]"),
    ]


def test_leg_departs_from_its_hub() -> None:
    plan = edited("plan_a", put(f"{A3}[4].to", "三亚站"), put(f"{A3}[4].avg_cost", 25))
    assert found(plan) == [("strict.transfer_missing", 6, "$.days[2].city_segments[1]")]
    assert run(plan)[0].ctx == {
        "from_place": "三亚站",
        "to_place": "三亚凤凰国际机场",
        "users": ["User1", "User2"],
    }


def test_transfer_mode_route_and_duration() -> None:
    plan = edited("plan_a", put(f"{A1}[2].transport_mode", "飞行"), put(f"{A1}[4].to", "老爸茶餐厅二店"))
    assert found(plan) == [
        ("strict.transfer_mode_unknown", 6, f"{A1}[2].transport_mode"),
        ("strict.transfer_unknown", 6, f"{A1}[4]"),
        ("strict.transfer_missing", 6, f"{A1}[5]"),
    ]
    short = edited("plan_a", put(f"{A1}[0].end_time", "14:15"))
    assert found(short) == [("strict.transfer_too_short", 6, f"{A1}[0]")]
    assert run(short)[0].ctx == {"minutes": 25, "required": 30}


def test_rest_elsewhere_needs_a_transfer() -> None:
    rest = {
        "type": "rest",
        "location": "骑楼老街",
        "start_time": "19:25",
        "end_time": "19:50",
        "participants": ["All"],
    }
    plan = edited(
        "plan_a", put(f"{A1}[6].end_time", "19:22"), {"op": "insert", "path": f"{A1}[7]", "value": rest}
    )
    assert found(plan) == [("strict.transfer_missing", 6, f"{A1}[7]")]


def test_costs_must_equal_world_prices() -> None:
    plan = edited(
        "plan_a",
        put(f"{A1}[1].avg_cost", 3),
        put(f"{A1}[2].avg_cost", 0),
        put(f"{A1}[5].avg_cost", -60),
        drop(f"{A1}[7].avg_cost"),
        put("$.days[0].city_segments[0].avg_cost", 1500.5),
    )
    assert found(plan) == [
        ("strict.cost_mismatch", 8, "$.days[0].city_segments[0].avg_cost"),
        ("strict.cost_mismatch", 8, f"{A1}[1].avg_cost"),
        ("strict.cost_mismatch", 8, f"{A1}[2].avg_cost"),
        ("strict.cost_negative", 8, f"{A1}[5].avg_cost"),
        ("strict.cost_missing", 8, f"{A1}[7].avg_cost"),
    ]
    assert run(plan)[0].ctx == {"declared_fen": 150050, "price_fen": 150000}
    assert run(plan)[2].ctx == {"declared_fen": 0, "price_fen": 2800}


def test_declared_costs_are_the_price_or_the_price_rounded_to_whole_yuan() -> None:
    assert declarable_fen(4550) == {4550, 4500, 4600}
    assert declarable_fen(150000) == {150000}
    assert declarable_fen(50) == {50, 100}
    assert declarable_fen(0) == {0}
    assert lowest_cost_fen(4550) == 4500
    assert lowest_cost_fen(50) == 50


def test_leg_fare_and_free_items() -> None:
    assert found(edited("plan_a", put("$.days[0].city_segments[0].avg_cost", 1300))) == [
        ("strict.cost_mismatch", 8, "$.days[0].city_segments[0].avg_cost"),
    ]
    free = edited("plan_a", drop(f"{A1}[1].avg_cost"), drop(f"{A1}[4].avg_cost"))
    assert found(free) == []


def test_non_finite_cost() -> None:
    plan = edited("plan_a", put(f"{A1}[5].avg_cost", math.inf))
    assert found(plan) == [("strict.cost_not_finite", 8, f"{A1}[5].avg_cost")]


def test_huge_cost_is_a_mismatch_not_a_crash() -> None:
    plan = edited("plan_a", put(f"{A1}[5].avg_cost", 1e307))
    assert found(plan) == [("strict.cost_mismatch", 8, f"{A1}[5].avg_cost")]
    assert run(plan)[0].ctx == {"declared_fen": None, "price_fen": 6000}
