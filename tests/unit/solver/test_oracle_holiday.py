"""The oracle prices hotel nights and tickets on their dates (holiday prices included).

On 国庆节 2025 (`tests/fixtures/holiday_world.py`) the CP-SAT plan's hotel night and theme-park
ticket must declare their holiday prices, or strict rejects the plan (`strict.cost_mismatch`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

import solver.oracle.solve as oracle_solve
from solver.oracle.catalog import CityCatalog, Place
from solver.oracle.solve import OracleSettings, solve_task
from tests.fixtures.holiday_world import HOLIDAY, holiday_world, raw_task
from verifier.model.task import Task
from verifier.official.poi_db import PoiDb
from verifier.strict.profile import strict_violations

NATIONAL_DAY, WEEK_BEFORE = dt.date(2025, 10, 1), dt.date(2025, 9, 24)
HOTEL = "上海崇明云朵·墅酒店"


def test_a_node_costs_its_price_of_the_date() -> None:
    world = holiday_world()
    city = CityCatalog(world, "上海市", "上海市", (), PoiDb({}))
    other = world.pois("上海市", "hotel")[0].name
    night = Place("hotel", (HOTEL,), 0, 17550, ())
    assert [city.price_on(night, day) for day in (NATIONAL_DAY, WEEK_BEFORE)] == [26500, 17550]
    cheaper = min(world.price_fen_on("上海市", name, NATIONAL_DAY) or 0 for name in (HOTEL, other))
    assert city.price_on(Place("hotel", (HOTEL, other), 0, 0, ()), NATIONAL_DAY) == cheaper


def test_the_cp_sat_plan_declares_holiday_prices(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = raw_task(HOLIDAY)
    for user in raw["user_preferences"].values():
        shanghai = user["preference"]["city_specific_preferences"]["上海市"]
        shanghai["attractions"]["category_pref"]["positive"] = ["主题公园", "博物馆"]
        shanghai["food"]["must_eat"] = ["本帮菜"]
    task = Task.model_validate(raw)
    sources: list[str] = []
    consider = oracle_solve._Search._consider

    def spy(search: Any, plan: dict[str, Any], objective: int | None, source: str) -> bool:
        sources.append(source)
        return consider(search, plan, objective, source)

    monkeypatch.setattr(oracle_solve._Search, "_consider", spy)
    record = solve_task(task, holiday_world(), OracleSettings(time_limit=2, splits=False)).to_json()
    assert "cp-sat" in sources
    assert [note for note in record["notes"] if "rejected by strict" in note] == []
    assert strict_violations(task, record["plan"], holiday_world()) == []
