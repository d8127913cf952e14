"""verify(): official verdicts on the embedded sample, crash handling, and batch lines."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from runner.sample.plans import sample_task
from tests.fixtures.zhuhai import zhuhai_plan, zhuhai_poi_db
from verifier.model.task import Task
from verifier.official.poi_db import PoiDb
from verifier.referee import OFFICIAL_CRASH, WorldRequiredError, verdict_to_batch_line, verify

TASK = sample_task()
POI = zhuhai_poi_db()


def _plan(name: str) -> dict[str, Any]:
    plan = zhuhai_plan(name)
    assert isinstance(plan, dict)
    return copy.deepcopy(plan)


def _verify(plan: object, **kwargs: Any) -> Any:
    return verify(TASK, plan, profile="official", poi_db=POI, **kwargs)


def test_good_plan_is_valid_and_scored_by_hand() -> None:
    verdict = _verify(_plan("good"))
    assert verdict.valid and verdict.violations == [] and verdict.plan_extractable
    assert all(verdict.checks.values())
    assert verdict.gu is not None and verdict.gf is not None
    # User1: must_visit 普陀寺 +2, 海洋馆 +1, two must flights +4, 商务酒店 +1, 粤式茶点 +1, 烧烤 +2 = 11
    # User2: must_visit 长隆 +2, two flights +4, 商务酒店 +1, 海鲜火锅 +2, 粤式茶点 +1 = 10
    assert {u: x.total_score for u, x in verdict.gu.per_user.items()} == {"User2": 10, "User1": 11}
    assert verdict.gu.per_user_average_score == 10.5
    assert verdict.gf.fairness_score == 90.91
    assert verdict.pc is None


def test_quirk_plan_is_official_valid_and_scores_higher() -> None:
    verdict = _verify(_plan("quirk"))
    assert verdict.valid
    assert verdict.gu is not None
    # two free repeat meals (+2 each for User2's must_eat) and two extra hotel entries (+1 each per user)
    assert {u: x.total_score for u, x in verdict.gu.per_user.items()} == {"User2": 16, "User1": 13}


def test_broken_plan_counts_and_locations() -> None:
    verdict = _verify(_plan("broken"))
    assert not verdict.valid
    assert verdict.issue_counts == {
        "invalid_time_format": 1,
        "time_overlap": 2,
        "outside_opening_hours": 1,
        "timeline_order_violation": 2,
        "missing_avg_cost": 1,
        "invalid_participants": 1,
    }
    participants = next(v for v in verdict.violations if v.code == "invalid_participants")
    assert participants.check == 9
    assert participants.loc == "$.days[0].city_segments[1].activities[3].participants[1]"
    assert participants.ctx["invalid_name"] == "User3"
    assert "type" not in participants.ctx and "message" not in participants.ctx
    assert verdict.checks["9"] is False and verdict.checks["1"] is True


def test_location_list_crashes_every_plan_function_once_each() -> None:
    plan = _plan("good")
    plan["days"][0]["city_segments"][1]["activities"][1]["location"] = ["长隆海洋王国"]
    verdict = _verify(plan)
    crashes = [v for v in verdict.violations if v.code == OFFICIAL_CRASH]
    assert [v.ctx["function"] for v in crashes] == ["plan_validity", "group_utility", "group_fairness"]
    assert verdict.violations == crashes
    assert {v.loc for v in crashes} == {"$.days[0].city_segments[1].activities[1].location"}
    assert crashes[0].ctx["error_type"] == "TypeError"
    assert crashes[0].ctx["error_message"] == "unhashable type: 'list'"
    assert "plan_validity" in crashes[0].message and crashes[0].check == "input"
    assert verdict.gu is None and verdict.gf is None and not verdict.valid
    line = verdict_to_batch_line("x", verdict)
    assert line["valid"] is None and line["total_issues"] is None and line["issue_counts"] is None
    assert len(line["input_errors"]) == 3


def test_effective_table_crash_points_at_the_field() -> None:
    effective = copy.deepcopy(TASK.preference_table())
    effective["User1"]["preference"]["global_constraints"]["avg_budget"] = "3200元"
    verdict = _verify(_plan("good"), effective=effective)
    crashes = [v for v in verdict.violations if v.code == OFFICIAL_CRASH]
    assert [v.ctx["function"] for v in crashes] == ["group_utility", "group_fairness"]
    assert crashes[0].loc == "$effective.User1.preference.global_constraints.avg_budget"
    line = verdict_to_batch_line("x", verdict)
    assert line["valid"] is True and line["total_issues"] == 0 and line["issue_counts"] == {}
    assert not verdict.valid


def test_inferred_table_enables_pc_and_its_crash_is_reported() -> None:
    inferred = {"User1": {"global_constraints": {"avg_budget": 3200}}}
    verdict = _verify(_plan("good"), inferred=inferred)
    assert verdict.pc is not None and verdict.pc.total_possible > 0
    broken = {"User1": {"global_constraints": "cheap"}}
    crashed = _verify(_plan("good"), inferred=broken)
    assert crashed.pc is None and crashed.gu is not None
    assert [(v.code, v.loc, v.ctx["function"]) for v in crashed.violations] == [
        (OFFICIAL_CRASH, "$inferred", "preference_completeness")
    ]


@pytest.mark.parametrize("plan", [None, "plan", 3, [], {"days": "x"}, {"days": [1]}, {}])
def test_any_json_value_gives_a_verdict(plan: object) -> None:
    verdict = _verify(plan)
    assert verdict.profile == "official"
    for violation in verdict.violations:
        assert violation.code == OFFICIAL_CRASH or violation.check != "input"


def test_structural_crash_uses_the_walk_location() -> None:
    verdict = _verify({"days": [{"day": 1, "city_segments": []}, "day two"]})
    crash = verdict.violations[0]
    assert crash.code == OFFICIAL_CRASH and crash.loc == "$.days[1]"
    assert crash.ctx["error_type"] == "AttributeError"


def test_strict_without_world_is_refused() -> None:
    with pytest.raises(WorldRequiredError):
        verify(TASK, _plan("good"), profile="strict", poi_db=POI)


def test_child_is_not_a_user() -> None:
    assert TASK.user_names == ["User2", "User1"]
    assert TASK.child_names == ["User3"]


def test_empty_poi_db_still_scores() -> None:
    verdict = verify(Task(task_id="t"), _plan("good"), profile="official", poi_db=PoiDb({}))
    assert verdict.gu is not None and verdict.gu.per_user == {} and verdict.gu.num_users == 1
