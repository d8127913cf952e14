"""A sandbox World satisfies the verifier's `WorldFacts` protocol by shape (static and runtime)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from sandbox.world import World
from sandbox.world.build import build_world
from verifier.world_facts import IntercityOption, PoiFact, TimeWindow, Transfer, WorldFacts


def _task() -> dict[str, Any]:
    prefs = {
        "global_constraints": {
            "avg_budget": 3000,
            "hotel_preference": {"prefer": ["民宿"], "avoid": ["豪华型"]},
        },
        "city_specific_preferences": {
            "海口市": {
                "attractions": {
                    "must_visit": ["海南省博物馆"],
                    "reject_visit": [],
                    "category_pref": {"positive": ["公园"], "negative": []},
                },
                "food": {"must_eat": ["海南菜"], "prefer_eat": [], "avoid_eat": [], "reject_eat": []},
            }
        },
    }
    return {
        "task_id": "t1",
        "time": "2025-09-02",
        "metadata": {"departure_city": "长春市", "cities": ["海口市"], "date": "两天一夜"},
        "user_preferences": {"User1": {"role": "r", "preference": prefs, "compromisable": False}},
    }


@pytest.fixture(scope="module")
def world() -> World:
    return build_world([_task()], seed=3)


def _members(proto: type) -> list[str]:
    return sorted(n for n, v in vars(proto).items() if isinstance(v, property))


def _has_all(obj: object, proto: type) -> None:
    missing = [m for m in _members(proto) if not hasattr(obj, m)]
    assert not missing, f"{type(obj).__name__} lacks {missing} of {proto.__name__}"


def test_static_and_runtime_protocol(world: World) -> None:
    facts: WorldFacts = world  # mypy checks the shape here
    assert isinstance(facts, WorldFacts)


def test_protocol_members_are_known() -> None:
    assert _members(PoiFact) == [
        "aliases",
        "category",
        "city",
        "kind",
        "lat",
        "lon",
        "min_visit_minutes",
        "name",
        "price_fen",
    ]
    assert _members(TimeWindow) == ["close", "open"]
    assert _members(Transfer) == ["cost_fen", "minutes"]
    assert len(_members(IntercityOption)) == 11


def test_return_values_have_the_protocol_attributes(world: World) -> None:
    assert world.city("海口") == "海口市"
    assert world.city("海口市") == "海口市"
    assert world.city("不存在") is None
    poi = world.poi("海口市", "海南省博物馆")
    assert poi is not None
    _has_all(poi, PoiFact)
    assert poi.kind in ("attraction", "restaurant", "hotel")
    assert world.poi("海口市", "海南省博物") is None
    day = dt.date(2025, 9, 3)
    windows = world.opening_windows("海口市", "海南省博物馆", day)
    assert windows is None or all(w.close > w.open for w in windows)
    for w in windows or ():
        _has_all(w, TimeWindow)
    options = world.intercity_options("长春市", "海口市", dt.date(2025, 9, 2))
    assert options
    for o in options:
        _has_all(o, IntercityOption)
        assert o.date == dt.date(2025, 9, 2)
    station = next(h.name for h in world.hubs("海口市") if h.kind == "station")
    t = world.transfer("海口市", station, "海南省博物馆", "打车")
    assert t is not None
    _has_all(t, Transfer)
    assert world.transfer("海口市", station, "没有这个地方", "打车") is None
