"""Scoring trials against the (fake, then real) oracle: every figure, the cache, the summary."""

from __future__ import annotations

import copy
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from runner.sample.plans import Sample
from runner.scoring.elicitation import elicitation_counts, field_statuses
from runner.scoring.oracle_cache import OracleCache, world_hash
from runner.scoring.score import ScoreJob, presolve, score_records
from runner.scoring.trial import NO_EFFECTIVE
from solver.oracle.result import Status
from solver.oracle.solve import OracleSettings
from tests.unit.scoring.conftest import FakeOracle, compromised, failed, inferred, official_gu, record
from verifier.model.task import Task
from verifier.referee import verify


def lean(plan: dict[str, Any]) -> dict[str, Any]:
    """`plan` without its attractions (a weaker plan for the agent to have made)."""
    edited = copy.deepcopy(plan)
    for day in edited["days"]:
        for segment in day["city_segments"]:
            if "activities" in segment:
                segment["activities"] = [a for a in segment["activities"] if a["type"] != "attraction"]
    return edited


def _numbered(records: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    return list(enumerate(records, start=1))


def _tasks(sample: Sample) -> dict[str, Task]:
    return {sample.task.task_id: sample.task}


def _job(world_dir: Path, cache: Path, time_limit: float = 1.0) -> ScoreJob:
    oracle = OracleCache(cache, world_hash(world_dir), OracleSettings(time_limit=time_limit))
    return ScoreJob(world_dir, oracle)


def _tables(sample: Sample) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    original = sample.task.preference_table()
    return compromised(original), inferred(original), original


def _answer_all(sample: Sample, fake: FakeOracle, status: Status = Status.FEASIBLE) -> None:
    """③ → the quirk plan, ② → greedy, ① → broken; bounds 4 above the plan's GU₃."""
    effective, agent, original = _tables(sample)
    for table, name in ((effective, "quirk"), (agent, "greedy"), (original, "broken")):
        plan = sample.plans[name]
        gu = official_gu(sample, plan, table)
        fake.answer(table, plan, objective=gu, bound=int(gu) + 4, status=status)


def test_every_figure_of_a_trial(
    sample: Sample, world_dir: Path, fake_oracle: FakeOracle, tmp_path: Path
) -> None:
    _answer_all(sample, fake_oracle)
    effective, agent, original = _tables(sample)
    plans = sample.plans
    mine = lean(plans["greedy"])
    (line,) = score_records(
        _numbered([record(sample, 0, mine)]), _tasks(sample), _job(world_dir, tmp_path)
    ).lines
    gu = official_gu(sample, mine, effective)
    best = official_gu(sample, plans["quirk"], effective)
    by_agent_table = official_gu(sample, plans["greedy"], effective)
    strict = verify(sample.task, mine, profile="strict", poi_db=sample.poi_db, world=sample.world)
    official = verify(
        sample.task, mine, profile="official", poi_db=sample.poi_db, effective=effective, inferred=agent
    )
    assert (gu, best, by_agent_table) == (18.0, 31.0, 25.0)
    assert official.gf is not None and official.pc is not None
    assert (strict.valid, official.valid) == (True, True)
    measures = {key: line.pop(key) for key in ("elicitation", "tool_faults", "unsolvable", "intent_shift")}
    assert measures == {
        "elicitation": elicitation_counts(field_statuses(record(sample, 0, mine))),
        "tool_faults": None,
        "unsolvable": None,
        "intent_shift": None,
    }
    assert line == {
        "task_id": "task_004175",
        "trial": 0,
        "termination_reason": "plan_generated",
        "difficulty": "easy",
        "plan_generated": True,
        "strict_valid": True,
        "official_valid": True,
        "strict_failed_checks": [],
        "gu": 18.0,
        "gf": official.gf.fairness_score,
        "pc": official.pc.completeness_ratio,
        "oracle_status": "FEASIBLE",
        "gu_star": 35,
        "gu_best": 31.0,
        "gu_ratio": round(18 / 35, 4),
        "regret": 17.0,
        "optimal": False,
        "gu_inferred_plan": 25.0,
        "elicitation_loss": 6.0,
        "planning_loss": 7.0,
        "compromise_effect": official_gu(sample, plans["quirk"], original)
        - official_gu(sample, plans["broken"], original),
        "witness": "strict-best",
        "witness_profile": "strict",
        "problems": [],
    }
    assert line["compromise_effect"] == 6.0


def test_optimal_needs_a_strict_valid_plan_at_the_proven_optimum(
    sample: Sample, world_dir: Path, fake_oracle: FakeOracle, tmp_path: Path
) -> None:
    effective, agent, original = _tables(sample)
    greedy = sample.plans["greedy"]
    gu = official_gu(sample, greedy, effective)
    fake_oracle.answer(effective, greedy, objective=gu, bound=int(gu), status=Status.OPTIMAL)
    fake_oracle.answer(agent, greedy, objective=gu, bound=int(gu), status=Status.OPTIMAL)
    fake_oracle.answer(original, greedy, objective=gu, bound=int(gu), status=Status.OPTIMAL)
    records = [record(sample, 0, greedy), record(sample, 1, sample.plans["quirk"])]
    valid, exploit = score_records(_numbered(records), _tasks(sample), _job(world_dir, tmp_path)).lines
    assert (valid["strict_valid"], valid["optimal"], valid["gu_ratio"], valid["regret"]) == (
        True,
        True,
        1.0,
        0.0,
    )
    assert exploit["gu"] == 31.0 > gu  # above the bound only through official quirks
    assert (exploit["strict_valid"], exploit["optimal"]) == (False, False)
    assert exploit["strict_failed_checks"] == ["1", "2", "4", "8"]


def test_trial_without_plan_and_failed_trial(
    sample: Sample, world_dir: Path, fake_oracle: FakeOracle, tmp_path: Path
) -> None:
    _answer_all(sample, fake_oracle)
    no_plan, crashed = score_records(
        _numbered([failed(sample, 1), record(sample, 0, None)]), _tasks(sample), _job(world_dir, tmp_path)
    ).lines
    assert (no_plan["trial"], no_plan["plan_generated"], no_plan["strict_valid"], no_plan["gu"]) == (
        0,
        False,
        None,
        None,
    )
    assert (no_plan["gu_ratio"], no_plan["regret"], no_plan["planning_loss"], no_plan["optimal"]) == (
        None,
        None,
        None,
        False,
    )
    assert (no_plan["gu_star"], no_plan["elicitation_loss"], no_plan["compromise_effect"]) == (35, 6.0, 6.0)
    assert no_plan["pc"] is not None
    assert crashed["termination_reason"] == "runtime_error"
    assert {
        k: crashed[k] for k in ("gu_star", "gu_best", "elicitation_loss", "compromise_effect", "pc")
    } == dict.fromkeys(("gu_star", "gu_best", "elicitation_loss", "compromise_effect", "pc"))
    assert crashed["problems"] == [NO_EFFECTIVE]


def test_oracle_refusal_is_a_problem_not_a_crash(
    sample: Sample, world_dir: Path, fake_oracle: FakeOracle, tmp_path: Path
) -> None:
    effective, _, original = _tables(sample)
    greedy = sample.plans["greedy"]
    gu = official_gu(sample, greedy, effective)
    fake_oracle.answer(effective, greedy, objective=gu, bound=30, status=Status.FEASIBLE)
    fake_oracle.answer(original, greedy, objective=gu, bound=30, status=Status.FEASIBLE)
    (line,) = score_records(
        _numbered([record(sample, 0, greedy)]), _tasks(sample), _job(world_dir, tmp_path)
    ).lines
    assert line["problems"] == [
        "oracle on the inferred table: oracle refused the task: table: not a table this fake knows"
    ]
    assert (line["gu_star"], line["gu_inferred_plan"], line["elicitation_loss"], line["planning_loss"]) == (
        30,
        None,
        None,
        None,
    )


def test_the_cache_solves_each_table_once(
    sample: Sample, world_dir: Path, fake_oracle: FakeOracle, tmp_path: Path
) -> None:
    _answer_all(sample, fake_oracle)
    records = [record(sample, k, sample.plans["greedy"]) for k in range(3)]
    job = _job(world_dir, tmp_path / "cache")
    first = score_records(_numbered(records), _tasks(sample), job).lines
    assert len(fake_oracle.calls) == 3  # ③, ② and ① once for three trials
    again = score_records(_numbered(records), _tasks(sample), job).lines
    assert (len(fake_oracle.calls), again) == (3, first)
    other_settings = _job(world_dir, tmp_path / "cache", time_limit=2.0)
    score_records(_numbered(records[:1]), _tasks(sample), other_settings)
    assert len(fake_oracle.calls) == 6


def test_concurrent_callers_of_one_key_solve_once(
    sample: Sample, fake_oracle: FakeOracle, world_dir: Path, tmp_path: Path
) -> None:
    effective, _, _ = _tables(sample)
    fake_oracle.answer(effective, sample.plans["greedy"], objective=25, bound=30, status=Status.FEASIBLE)
    fake_oracle.delay_s = 0.2
    cache = OracleCache(tmp_path, world_hash(world_dir), OracleSettings(time_limit=1.0))
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: cache.solve(sample.task, sample.world, effective), range(4)))
    assert len(fake_oracle.calls) == 1
    assert sorted(answer.cached for answer in answers) == [False, True, True, True]
    assert {answer.record["bound"] for answer in answers if answer.record} == {30}


def test_lines_follow_the_task_file_then_trials(
    sample: Sample, world_dir: Path, fake_oracle: FakeOracle, tmp_path: Path
) -> None:
    _answer_all(sample, fake_oracle)
    greedy = sample.plans["greedy"]
    records = [record(sample, 2, greedy), record(sample, 0, greedy), record(sample, 1, None)]
    run = score_records(_numbered(records), _tasks(sample), _job(world_dir, tmp_path))
    assert [line["trial"] for line in run.lines] == [0, 1, 2]
    overall = run.summary["overall"]
    assert (overall["trials"], overall["plans"], overall["acceptable_rate"], overall["optimality_rate"]) == (
        3,
        2,
        0.6667,
        0.0,
    )
    assert list(run.summary["by_difficulty"]) == ["easy"]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_real_oracle_on_the_sample(sample: Sample, world_dir: Path, tmp_path: Path) -> None:
    """One real solve per table (1 s each): the figures hang together as documented."""
    original = sample.task.preference_table()
    greedy = sample.plans["greedy"]
    rec = record(sample, 0, greedy) | {"effective_preferences": original, "agent_preference_table": {}}
    job = _job(world_dir, tmp_path)
    (line,) = score_records(_numbered([rec]), _tasks(sample), job).lines
    best = job.oracle.lookup(sample.task.task_id, original)
    assert best is not None and best.record is not None
    assert (line["gu_star"], line["gu_best"]) == (best.record["bound"], float(best.record["objective"]))
    assert line["gu"] == official_gu(sample, greedy, original) == 27.0
    assert line["gu_ratio"] == round(1 - (line["gu_star"] - 27.0) / abs(line["gu_star"]), 4)
    assert line["regret"] == line["gu_star"] - 27.0 >= 0
    assert line["compromise_effect"] == 0.0  # ③ = ①: the same solve
    assert line["elicitation_loss"] == line["gu_best"] - line["gu_inferred_plan"]
    assert line["problems"] == []


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_presolve_in_processes_fills_the_cache(sample: Sample, world_dir: Path, tmp_path: Path) -> None:
    """`concurrency` 2: the trial's two distinct tables (③ = ①, and ② = {}) are solved by worker
    processes; scoring then solves nothing more."""
    job = ScoreJob(world_dir, _job(world_dir, tmp_path).oracle, concurrency=2)
    original = sample.task.preference_table()
    rec = record(sample, 0, sample.plans["greedy"]) | {
        "effective_preferences": original,
        "agent_preference_table": {},
    }
    presolve([(sample.task, table) for table in (original, {}, original)], job)
    found = [job.oracle.lookup(sample.task.task_id, table) for table in (original, {})]
    assert [answer is not None and answer.cached for answer in found] == [True, True]
    (line,) = score_records(_numbered([rec]), _tasks(sample), job).lines
    assert (line["problems"], line["gu"], line["compromise_effect"]) == ([], 27.0, 0.0)


def test_the_official_profile_uses_the_both_valid_witness(
    sample: Sample, world_dir: Path, fake_oracle: FakeOracle, tmp_path: Path
) -> None:
    """③'s strict-best is the quirk plan, its both-valid plan the greedy one; ② has a both-valid
    plan (lean greedy), ① none: its figures are null and the line says why."""
    effective, agent, original = _tables(sample)
    plans = sample.plans
    greedy, thin = plans["greedy"], lean(plans["greedy"])
    gu = {name: official_gu(sample, plan, effective) for name, plan in (("greedy", greedy), ("thin", thin))}
    fake_oracle.answer(
        effective, plans["quirk"], objective=31, bound=35, status=Status.FEASIBLE, both=(greedy, 25)
    )
    fake_oracle.answer(agent, greedy, objective=25, bound=30, status=Status.FEASIBLE, both=(thin, 18))
    fake_oracle.answer(original, plans["broken"], objective=0, bound=40, status=Status.FEASIBLE)
    job = _job(world_dir, tmp_path)
    job = ScoreJob(job.world_dir, job.oracle, profile="official")
    run = score_records(_numbered([record(sample, 0, thin)]), _tasks(sample), job)
    (line,) = run.lines
    assert gu == {"greedy": 25.0, "thin": 18.0}
    assert (line["gu"], line["gu_star"], line["gu_best"], line["gu_inferred_plan"]) == (18.0, 35, 25.0, 18.0)
    assert (line["elicitation_loss"], line["planning_loss"], line["compromise_effect"]) == (7.0, 0.0, None)
    assert (line["witness"], line["witness_profile"]) == ("both-valid", "official")
    assert line["problems"] == ["oracle on the original table: no plan found that both profiles accept"]
    assert run.summary["witness"] == {"profile": "official", "plan": "both-valid"}
