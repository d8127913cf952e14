"""Certificates of unmeetable wishes: the facts hold in the world, and strict-valid plans lose the wish."""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

import pytest

from runner.tasks.certificates import (
    FINDERS,
    budget_certificate,
    check_table,
    closed_certificate,
    closed_throughout,
    first_leg_modes,
    no_service_certificate,
    refusal_message,
    spend_lower_bound,
    trip_dates,
)
from runner.tasks.variants import unsolvable_variant
from sandbox.world.official_io import export_poi_db
from sandbox.world.world import World
from solver.greedy import greedy_plan
from tests.fixtures.sample_game import sample_raw, sample_task, sample_world
from verifier.model.task import Task
from verifier.official.plan_view import build_view
from verifier.official.poi_db import PoiDb
from verifier.official.utility import evaluate_group_utility
from verifier.referee import verify

DAY1, DAY2 = dt.date(2026, 1, 14), dt.date(2026, 1, 15)


def test_trip_dates_of_the_sample() -> None:
    assert trip_dates(sample_task()) == [DAY1, DAY2]
    raw = sample_raw()
    raw["metadata"]["date"] = "几天"
    assert trip_dates(Task.model_validate(raw)) is None


def test_budget_bound_is_the_cheapest_legs_and_nights_of_the_world() -> None:
    task, world = sample_task(), sample_world()
    bound = spend_lower_bound(task, world)
    assert bound is not None
    out = min(o.fare_fen for o in world.intercity_options("合肥市", "珠海市", DAY1))
    back = min(o.fare_fen for o in world.intercity_options("珠海市", "合肥市", DAY2))
    night = min(
        p
        for h in world.pois("珠海市", "hotel")
        if (p := world.price_fen_on("珠海市", h.name, DAY1)) is not None
    )
    assert bound[0] == 112_000 <= out + back + night
    certificate = budget_certificate(task, world)
    assert certificate is not None
    assert (certificate.user, certificate.field_path, certificate.value) == (
        "User2",
        "global_constraints.avg_budget",
        500,
    )
    assert certificate.facts[-1] == "每人至少花费 1120.00 元（不含城市间中转与餐饮），高于预算 500 元"


def test_a_strict_valid_plan_of_the_budget_variant_spends_more_than_its_budget() -> None:
    task, world = sample_task(), sample_world()
    certificate = budget_certificate(task, world)
    assert certificate is not None
    variant = Task.model_validate(unsolvable_variant(task, certificate))
    plan = greedy_plan(variant, world, effective=variant.preference_table())
    assert plan is not None
    poi_db = PoiDb(export_poi_db(world, ("合肥市", "珠海市")))
    assert verify(variant, plan, profile="strict", poi_db=poi_db, world=world).valid
    scores = evaluate_group_utility(build_view(plan, variant.user_names), variant.preference_table(), poi_db)
    details = scores["per_user"]["User2"]["details"]
    budget = [d for d in details if d.get("field") == "avg_budget"]
    assert len(budget) == 1 and budget[0]["score"] == -2


def test_no_service_names_a_mode_without_a_day_one_departure() -> None:
    task, world = sample_task(), sample_world()
    certificate = no_service_certificate(task, world)
    assert certificate is not None
    assert certificate.value == ["高铁"] and certificate.cues == ("高铁",)
    assert "高铁" not in first_leg_modes(task, world)
    assert all(o.mode != "高铁" for o in world.intercity_options("合肥市", "珠海市", DAY1))
    assert "飞机" in first_leg_modes(task, world)


def test_closed_needs_a_place_closed_every_day(monkeypatch: pytest.MonkeyPatch) -> None:
    task, world = sample_task(), sample_world()
    assert closed_certificate(task, world) is None  # nothing in 珠海 is closed on both days
    target = max(world.pois("珠海市", "attraction"), key=lambda p: p.rating).name
    original = World.opening_windows

    def closed(self: World, city: str, name: str, date: dt.date) -> Any:
        return () if name == target else original(self, city, name, date)

    monkeypatch.setattr(World, "opening_windows", closed)
    certificate = closed_certificate(task, world)
    assert certificate is not None and certificate.cues == (target,)
    assert certificate.value[-1] == target
    assert closed_throughout(world, "珠海市", target, [DAY1, DAY2])
    assert not closed_throughout(world, "珠海市", "不存在的地方", [DAY1])


def test_check_table_finds_the_wish_and_passes_the_real_table() -> None:
    task, world = sample_task(), sample_world()
    assert check_table(task, world, task.preference_table()) is None
    for kind, finder in FINDERS.items():
        certificate = finder(task, world)
        if certificate is None:
            continue
        table = Task.model_validate(unsolvable_variant(task, certificate)).preference_table()
        found = check_table(task, world, table)
        assert found is not None and found.kind == kind and found.user == certificate.user
        assert refusal_message(found).startswith("抱歉，这个行程无法实现，因为：")
        assert all(fact in refusal_message(found) for fact in found.facts)


def test_a_must_list_with_one_served_mode_is_no_certificate() -> None:
    task, world = sample_task(), sample_world()
    table = copy.deepcopy(task.preference_table())
    table["User2"]["preference"]["global_constraints"]["transport"]["must"] = ["高铁", "飞机"]
    table["User2"]["preference"]["global_constraints"]["avg_budget"] = 0
    assert check_table(task, world, table) is None
