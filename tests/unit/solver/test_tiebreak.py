"""Idle minutes and cost of a plan (the oracle's tie-breaks) on hand-written plans."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from solver.oracle.tiebreak import idle_minutes, plan_cost_fen

USERS = ("User1", "User2")


def _act(
    kind: str, start: str, end: str, who: list[str] | None = None, cost: float | None = None
) -> dict[str, Any]:
    item: dict[str, Any] = {"type": kind, "location": "x", "start_time": start, "end_time": end}
    if who is not None:
        item["participants"] = who
    if cost is not None:
        item["avg_cost"] = cost
    return item


def _leg(start: str, end: str, cost: float = 100) -> dict[str, Any]:
    return {"type": "intercity_transport", "start_time": start, "end_time": end, "avg_cost": cost}


def _plan(*days: list[dict[str, Any]]) -> dict[str, Any]:
    return {"days": [{"day": k + 1, "city_segments": segments} for k, segments in enumerate(days)]}


def test_gaps_and_rests_inside_the_day_are_idle_the_morning_and_night_are_not() -> None:
    block = {
        "city": "c",
        "activities": [
            _act("intracity_transport", "06:30", "06:45", ["All"]),
            _act("rest", "06:45", "09:53", ["All"]),
            _act("attraction", "09:53", "11:00", ["All"]),
            _act("food", "11:30", "12:00"),
            _act("hotel", "20:00", "08:00", ["All"], cost=300),
        ],
    }
    # per user: 06:45–09:53 (188) + 11:00–11:30 (30) + 12:00–20:00 (480); the hotel covers to 24:00
    assert idle_minutes(_plan([block]), USERS) == 2 * (188 + 30 + 480)


def test_a_split_counts_each_user_on_their_own_items() -> None:
    block = {
        "city": "c",
        "activities": [
            _act("attraction", "09:00", "10:00", ["User1"]),
            _act("attraction", "09:00", "09:30", ["User2"]),
            _act("rest", "09:30", "10:00", ["User2"]),
            _act("food", "10:00", "10:30", ["All"]),
        ],
    }
    assert idle_minutes(_plan([block]), USERS) == 30


def test_legs_are_busy_and_a_station_wait_is_idle() -> None:
    block = {"city": "c", "activities": [_act("intracity_transport", "17:00", "17:30", ["All"])]}
    assert idle_minutes(_plan([block, _leg("18:30", "20:00")]), USERS) == 2 * 60
    overnight = _plan([_leg("22:00", "06:00")], [_leg("07:00", "08:00")])
    assert idle_minutes(overnight, USERS) == 0


def test_cost_counts_each_item_once_per_participant_in_fen() -> None:
    block = {
        "city": "c",
        "activities": [
            _act("food", "12:00", "12:30", ["User1"], cost=45.5),
            _act("food", "12:00", "12:30", ["User2"], cost=30),
            _act("attraction", "13:00", "14:00", None, cost=20),
            _act("hotel", "20:00", "08:00", ["All"], cost=300),
        ],
    }
    assert plan_cost_fen(_plan([_leg("08:00", "09:00", 123.4), block]), USERS) == (
        2 * 12340 + 4550 + 3000 + 2 * 2000 + 2 * 30000
    )


@given(st.lists(st.tuples(st.integers(0, 1380), st.integers(1, 59)), min_size=1, max_size=8))
def test_idle_is_the_span_minus_the_covered_minutes(items: list[tuple[int, int]]) -> None:
    """One user: idle = (last end − first start) − |union of the items|."""
    acts = [
        _act("attraction", f"{s // 60:02d}:{s % 60:02d}", f"{(s + d) // 60:02d}:{(s + d) % 60:02d}")
        for s, d in items
    ]
    covered = {m for s, d in items for m in range(s, s + d)}
    span = max(s + d for s, d in items) - min(s for s, _ in items)
    assert idle_minutes(_plan([{"city": "c", "activities": acts}]), ("User1",)) == span - len(covered)
