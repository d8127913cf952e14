"""Official check 5 (attraction opening hours): exact issues and quirks (Appendix B vector 7)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fixtures.official_plans import USERS, act, block, day, plan
from verifier.official.checks_hours import check_opening_hours
from verifier.official.plan_view import build_view
from verifier.official.poi_db import PoiDb


def poi(name: str, *rules: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "poi_type": "attractions",
        "custom_category": "公园",
        "opening_hours": {"always_open": False, "rules": list(rules)},
    }


def rule(opens: str, closes: str | None, weekdays: list[int] | None = None) -> dict[str, Any]:
    window = {"open": opens} if closes is None else {"open": opens, "close": closes}
    found: dict[str, Any] = {"date_range": None, "time_windows": [window]}
    if weekdays is not None:
        found["weekdays"] = weekdays
    return found


DB = PoiDb(
    {
        "北京市": [
            poi("周末乐园", rule("09:00", "17:00", [1, 2, 3, 4, 5]), rule("10:00", "18:00", [6, 7])),
            poi("夜市公园", rule("18:00", "02:00")),
            poi(
                "午休馆",
                {"time_windows": [{"open": "09:00", "close": "12:00"}, {"open": "14:00", "close": "17:00"}]},
            ),
            poi("坏窗口", rule("09:00", None)),
            {"name": "全天", "poi_type": "attractions", "opening_hours": {"always_open": True, "rules": []}},
        ]
    }
)


def hours(
    *activities: dict[str, Any], date: Any = "2025-09-06", city: str = "北京市"
) -> list[dict[str, Any]]:
    raw = plan(day(1, block(city, *activities), date=date))
    return [found.issue for found in check_opening_hours(build_view(raw, USERS), DB)]


def test_weekday_rule_first_closes_the_weekend() -> None:
    assert hours(act("attraction", "周末乐园", "10:00", "12:00")) == [
        {
            "type": "outside_opening_hours",
            "day": 1,
            "date": "2025-09-06",
            "location": "周末乐园",
            "city": "北京市",
            "activity_time": "10:00-12:00",
            "opening_hours": "当天不开放",
            "message": "Day 1 (2025-09-06): '周末乐园' 当天不开放",
        }
    ]
    assert hours(act("attraction", "周末乐园", "10:00", "12:00"), date="2025-09-08") == []


def test_overnight_window_is_always_outside() -> None:
    assert hours(act("attraction", "夜市公园", "19:00", "20:00")) == [
        {
            "type": "outside_opening_hours",
            "day": 1,
            "date": "2025-09-06",
            "location": "夜市公园",
            "city": "北京市",
            "activity_time": "19:00-20:00",
            "opening_hours": "18:00-02:00",
            "message": "Day 1 (2025-09-06): '夜市公园' 的活动时间 19:00-20:00 不在开放时间 18:00-02:00 内",
        }
    ]


def test_raw_string_comparison_and_lunch_break() -> None:
    assert [i["activity_time"] for i in hours(act("attraction", "午休馆", "09:00", "9:45"))] == ["09:00-9:45"]
    assert [i["opening_hours"] for i in hours(act("attraction", "午休馆", "11:00", "15:00"))] == [
        "09:00-12:00, 14:00-17:00"
    ]
    assert hours(act("attraction", "午休馆", "14:00", "17:00")) == []


def test_skips_food_unknown_city_unknown_poi_always_open_and_no_date() -> None:
    assert hours(act("food", "夜市公园", "19:00", "20:00")) == []
    assert hours(act("attraction", "夜市公园", "19:00", "20:00"), city="北京") == []
    assert hours(act("attraction", "不存在的地方", "19:00", "20:00")) == []
    assert hours(act("attraction", "全天", "03:00", "04:00")) == []
    assert hours(act("attraction", "夜市公园", "19:00", "20:00"), date="") == []
    assert hours(act("attraction", "夜市公园", "19:00", "20:00"), date="6 Sep") == []
    assert hours(act("attraction", "夜市公园", "", "20:00")) == []


def test_crashes_where_the_official_code_crashes() -> None:
    with pytest.raises(TypeError, match=r"^'>=' not supported between instances of 'int' and 'str'$"):
        hours(act("attraction", "午休馆", 900, "10:00"))
    with pytest.raises(KeyError, match=r"^'close'$"):
        hours(act("attraction", "坏窗口", "10:00", "11:00"))
    with pytest.raises(TypeError, match=r"^unhashable type: 'list'$"):
        hours(act("attraction", ["午休馆"], "10:00", "11:00"))
