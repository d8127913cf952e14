"""Check 6 (connections): check-in before a departure and getting out after an arrival."""

from __future__ import annotations

from tests.fixtures.strict_helpers import A1, A3, edited, found, insert, put, run
from verifier.strict.connections import CHECK_IN_MINUTES, EXIT_MINUTES, connection_minutes

FLIGHT_HOME = "$.days[2].city_segments[1]"


def test_connection_minutes_by_mode() -> None:
    assert connection_minutes("飞机") == (60, 20)
    assert connection_minutes("高铁") == (20, 10)
    assert connection_minutes("火车") == (20, 10)
    assert connection_minutes("自驾") == (0, 0)
    assert connection_minutes("飞行") == (0, 0)
    assert set(CHECK_IN_MINUTES) == set(EXIT_MINUTES) == {"飞机", "高铁", "火车", "自驾"}


def test_reaching_the_airport_at_departure_time_is_late() -> None:
    plan = edited("plan_a", put(f"{A3}[4].start_time", "14:35"), put(f"{A3}[4].end_time", "15:00"))
    assert found(plan) == [("strict.check_in_late", 6, FLIGHT_HOME)]
    assert run(plan)[0].ctx == {
        "hub": "三亚凤凰国际机场",
        "required": 60,
        "reached": "15:00",
        "users": ["User1", "User2"],
    }


def test_check_in_exactly_on_the_margin_is_valid() -> None:
    plan = edited("plan_a", put(f"{A3}[4].start_time", "13:35"), put(f"{A3}[4].end_time", "14:00"))
    assert found(plan) == []
    late = edited("plan_a", put(f"{A3}[4].start_time", "13:36"), put(f"{A3}[4].end_time", "14:01"))
    assert found(late) == [("strict.check_in_late", 6, FLIGHT_HOME)]


def test_leaving_the_arrival_hub_too_soon() -> None:
    plan = edited("plan_a", put(f"{A1}[0].start_time", "13:49"))
    assert found(plan) == [("strict.hub_exit_early", 6, "$.days[0].city_segments[0]")]
    assert run(plan)[0].ctx == {
        "hub": "海口美兰国际机场",
        "required": 20,
        "left": "13:49",
        "users": ["User1", "User2"],
    }


def test_waiting_at_the_hub_is_not_getting_there() -> None:
    wait = {
        "type": "rest",
        "location": "三亚凤凰国际机场",
        "start_time": "14:00",
        "end_time": "14:55",
        "participants": ["All"],
        "avg_cost": 0,
    }
    assert found(edited("plan_a", insert(f"{A3}[5]", wait))) == []
