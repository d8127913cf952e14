"""Check 8 on a public holiday: a hotel night and a theme-park ticket are priced on their dates.

The plans are the greedy planner's for one trip from 杭州 to 上海 on 国庆节 2025 and a week
earlier (`tests/fixtures/holiday_world.py`): the night of 10-01 costs 265 CNY per person instead
of 175.5, the 上海迪士尼度假区 ticket 700 CNY instead of 399.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from solver.greedy import greedy_plan
from tests.fixtures.holiday_world import DISNEY, HOLIDAY, ORDINARY, holiday_task, holiday_world
from verifier.strict.profile import strict_violations

HOTEL_AT = "$.days[0].city_segments[1].activities[11]"
DISNEY_AT = "$.days[0].city_segments[1].activities[1]"


@pytest.fixture(scope="module")
def plans() -> dict[str, dict[str, Any]]:
    return {date: greedy_plan(holiday_task(date), holiday_world()) for date in (HOLIDAY, ORDINARY)}


def _item(plan: dict[str, Any], where: str) -> dict[str, Any]:
    day, segment, activity = (int(part.split("]")[0]) for part in where.split("[")[1:])
    item: dict[str, Any] = plan["days"][day]["city_segments"][segment]["activities"][activity]
    return item


def _declaring(plan: dict[str, Any], where: str, cost: float) -> dict[str, Any]:
    changed = copy.deepcopy(plan)
    _item(changed, where)["avg_cost"] = cost
    return changed


def _costs(date: str, plan: dict[str, Any]) -> list[tuple[str, str, int | None]]:
    found = strict_violations(holiday_task(date), plan, holiday_world())
    return [(v.code, v.loc, v.ctx.get("price_fen")) for v in found]


def test_the_greedy_plans_declare_the_prices_of_their_dates(plans: dict[str, dict[str, Any]]) -> None:
    for date, (night, ticket) in ((HOLIDAY, (265, 700)), (ORDINARY, (175.5, 399))):
        assert _costs(date, plans[date]) == []
        assert _item(plans[date], HOTEL_AT)["type"] == "hotel"
        assert _item(plans[date], HOTEL_AT)["avg_cost"] == night
        assert (_item(plans[date], DISNEY_AT)["location"], _item(plans[date], DISNEY_AT)["avg_cost"]) == (
            DISNEY,
            ticket,
        )


def test_a_holiday_night_at_the_ordinary_price_is_a_mismatch(plans: dict[str, dict[str, Any]]) -> None:
    plan = _declaring(plans[HOLIDAY], HOTEL_AT, 175.5)
    assert _costs(HOLIDAY, plan) == [("strict.cost_mismatch", f"{HOTEL_AT}.avg_cost", 26500)]
    assert _costs(HOLIDAY, _declaring(plans[HOLIDAY], HOTEL_AT, 265.0)) == []


def test_a_holiday_ticket_at_the_ordinary_price_is_a_mismatch(plans: dict[str, dict[str, Any]]) -> None:
    plan = _declaring(plans[HOLIDAY], DISNEY_AT, 399)
    assert _costs(HOLIDAY, plan) == [("strict.cost_mismatch", f"{DISNEY_AT}.avg_cost", 70000)]


def test_an_ordinary_night_at_the_holiday_price_is_a_mismatch(plans: dict[str, dict[str, Any]]) -> None:
    plan = _declaring(plans[ORDINARY], HOTEL_AT, 265)
    assert _costs(ORDINARY, plan) == [("strict.cost_mismatch", f"{HOTEL_AT}.avg_cost", 17550)]
    rounded = [_costs(ORDINARY, _declaring(plans[ORDINARY], HOTEL_AT, cost)) for cost in (175, 176)]
    assert rounded == [[], []], "rounding to whole yuan is unchanged"
