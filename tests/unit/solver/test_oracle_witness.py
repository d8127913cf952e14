"""The oracle's two witnesses on the sample task: the strict-best plan and the best plan both
profiles accept, each re-verified, with the validity, idle minutes and cost the record gives."""

from __future__ import annotations

import functools
from typing import Any

from runner.loading.benchmark_data import task_poi_db
from sandbox.world.official_io import export_poi_db
from solver.oracle.result import BOTH_VALID, STRICT_BEST, witness_for
from solver.oracle.solve import OFFICIAL_SOURCE, OracleSettings, solve_task
from solver.oracle.tiebreak import idle_minutes, plan_cost_fen
from tests.fixtures.sample_game import sample_task, sample_world
from verifier.official.plan_view import build_view
from verifier.official.poi_db import PoiDb
from verifier.official.validity import plan_validity_issues
from verifier.referee import verify

SETTINGS = OracleSettings(time_limit=2, splits=True)


@functools.cache
def _record() -> dict[str, Any]:
    task, world = sample_task(), sample_world()
    return solve_task(task, world, SETTINGS, official=task_poi_db(world, task)).to_json()


def _issues(plan: dict[str, Any]) -> list[str]:
    task, world = sample_task(), sample_world()
    view = build_view(plan, task.user_names)
    return sorted(
        {str(issue.issue["type"]) for issue in plan_validity_issues(view, task_poi_db(world, task))}
    )


def test_both_witnesses_verify_as_the_record_says() -> None:
    record = _record()
    task, world = sample_task(), sample_world()
    assert record["version"] == 2
    plan, both = record["plan"], record["both_valid"]
    assert record["official_issues"] == _issues(plan)
    assert record["valid_under"] == (["strict", "official"] if not _issues(plan) else ["strict"])
    assert (record["idle_minutes"], record["cost_fen"]) == (
        idle_minutes(plan, task.user_names),
        plan_cost_fen(plan, task.user_names),
    )
    assert both is not None and record["both_valid_missing"] is None
    assert both["valid_under"] == ["strict", "official"] and both["official_issues"] == []
    assert _issues(both["plan"]) == []
    db = task_poi_db(world, task)
    verdict = verify(task, both["plan"], profile="strict", poi_db=db, world=world)
    assert verdict.valid and verdict.gu is not None and verdict.gu.total_score == both["gu"]
    assert both["objective"] <= record["objective"]
    assert (both["idle_minutes"], both["cost_fen"]) == (
        idle_minutes(both["plan"], task.user_names),
        plan_cost_fen(both["plan"], task.user_names),
    )


def test_the_witness_fits_the_profile() -> None:
    record = _record()
    strict, official = witness_for(record, "strict"), witness_for(record, "official")
    assert (strict.name, strict.objective, strict.plan) == (STRICT_BEST, record["objective"], record["plan"])
    assert (official.name, official.plan) == (BOTH_VALID, record["both_valid"]["plan"])
    assert official.objective == record["both_valid"]["objective"]


def test_without_the_official_poi_file_the_record_says_validity_is_unknown() -> None:
    record = solve_task(sample_task(), sample_world(), OracleSettings(time_limit=1, splits=False)).to_json()
    assert record["both_valid"] is None and record["valid_under"] == ["strict"]
    assert record["both_valid_missing"] == "official validity not checked: no official POI file given"
    choice = witness_for(record, "official")
    assert (choice.name, choice.objective, choice.note) == (None, None, record["both_valid_missing"])


def test_where_official_rejects_every_attraction_the_both_valid_plan_visits_none() -> None:
    """An official POI file whose attractions all open overnight (10:00–01:00, which the
    official string comparison never accepts): the strict-best plan fails the official hours
    check, and the both-valid plan is the solution written without attractions."""
    task, world = sample_task(), sample_world()
    overnight = {
        "always_open": False,
        "rules": [
            {
                "date_range": None,
                "weekdays": [1, 2, 3, 4, 5, 6, 7],
                "time_windows": [{"open": "10:00", "close": "01:00"}],
            }
        ],
    }
    db = export_poi_db(world, (task.metadata.departure_city, *task.metadata.cities))
    for places in db.values():
        for place in places:
            if place["poi_type"] == "attractions":
                place["opening_hours"] = overnight
    record = solve_task(task, world, OracleSettings(time_limit=1, splits=False), official=PoiDb(db)).to_json()
    assert record["official_issues"] == ["outside_opening_hours"] and record["valid_under"] == ["strict"]
    both = record["both_valid"]
    assert both["source"] == OFFICIAL_SOURCE and both["valid_under"] == ["strict", "official"]
    kinds = {
        act["type"]
        for day in both["plan"]["days"]
        for segment in day["city_segments"]
        for act in segment.get("activities", [])
    }
    assert "attraction" not in kinds and "food" in kinds
    assert both["objective"] < record["objective"]
    assert verify(task, both["plan"], profile="strict", poi_db=PoiDb(db), world=world).valid
    assert verify(task, both["plan"], profile="official", poi_db=PoiDb(db)).valid
