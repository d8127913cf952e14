"""The main job (`tripwright sample`) with the oracle: its table, its plan's verdicts, `--out` and
`--json`. `solve_task` is replaced by a fake returning fixed records (the greedy plan as the
oracle's); one slower test runs the real oracle with a 2 s limit."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from runner import sample_oracle
from runner.cli.app import app
from runner.sample import build_sample
from runner.sample_oracle import run_oracle
from solver.greedy import greedy_plan
from solver.oracle.result import OracleResult, Status
from solver.oracle.solve import OracleSettings
from verifier.model.task import Task
from verifier.world import WorldFacts

RUN = CliRunner()
TABLE = """\
                  oracle (20 s a run, 1 worker, seed 0)
                                                         splits  value of
task         splits  GU*  bound  gap    status    time   used    splitting
───────────────────────────────────────────────────────────────────────────
task_004175  on      27   31     12.9%  FEASIBLE  1.5 s  1       +2
task_004175  off     25   25     0.0%   OPTIMAL   1.3 s  0
GU* is the best plan's GU total; bound: no strict-valid plan scores more.
note: fake oracle
"""
JUDGED = (
    "oracle plan (splits on, from cp-sat): official accepts it; strict accepts it;\n"
    "official GU 27 = objective 27\n"
)


def _fake(task: Task, world: WorldFacts, settings: OracleSettings) -> OracleResult:
    """Fixed records: with splits GU 27 (bound 31, one split block), without 25 (optimal)."""
    on = settings.splits
    return OracleResult(
        task_id=task.task_id,
        status=Status.FEASIBLE if on else Status.OPTIMAL,
        objective=27 if on else 25,
        bound=31 if on else 25,
        per_user={"User2": 14, "User1": 13} if on else {"User2": 13, "User1": 12},
        plan=greedy_plan(task, world),
        seconds=1.5 if on else 1.3,
        seed=settings.seed,
        workers=settings.workers,
        time_limit=settings.time_limit,
        gap_limit=0.0,
        splits=on,
        splits_used=1 if on else 0,
        source="cp-sat",
        notes=("fake oracle",),
    )


def _run(*args: object) -> tuple[int, str]:
    result = RUN.invoke(app, ["sample", *(str(a) for a in args)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, "\n".join(line.rstrip() for line in result.output.split("\n"))


@pytest.fixture
def fake_oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sample_oracle, "solve_task", _fake)
    monkeypatch.delenv("COLUMNS", raising=False)


@pytest.mark.usefixtures("fake_oracle")
def test_sample_prints_the_oracle_table_and_its_plan(tmp_path: Path) -> None:
    code, output = _run("--out", tmp_path)
    assert code == 0
    assert TABLE + "\n" + JUDGED in output
    assert "task_004175 · 珠海市，两天一夜，3人的旅行计划\ntravellers: User2, User1; child User3\n" in output
    assert "Day 1 · Wed 2026-01-14 · 合肥市 → 珠海市\n" in output and "Trip total per person: " in output
    ascii_lines = [line for line in output.splitlines() if line.isascii() and not line.startswith("wrote")]
    assert max(len(line) for line in ascii_lines) <= 80
    assert "…" not in output
    records = [json.loads(line) for line in (tmp_path / "oracle.jsonl").read_text().splitlines()]
    assert [(r["splits"], r["objective"], r["bound"]) for r in records] == [(True, 27, 31), (False, 25, 25)]
    assert json.loads((tmp_path / "plan_oracle.json").read_text()) == records[0]["plan"]
    assert f"wrote {tmp_path / 'plan_oracle.json'}" in output


@pytest.mark.usefixtures("fake_oracle")
def test_sample_json_has_plans_and_oracle() -> None:
    code, output = _run("--json", "--time-limit", "3")
    document = json.loads(output)
    oracle = document["oracle"]
    assert code == 0 and len(document["plans"]) == 6
    assert [r["time_limit"] for r in oracle["results"]] == [3.0, 3.0]
    assert oracle["value_of_splitting"] == 2
    assert {p: v["valid"] for p, v in oracle["verdicts"].items()} == {"official": True, "strict": True}
    assert oracle["verdicts"]["official"]["gu"]["total_score"] == 27
    code, output = _run("--json", "--no-oracle")
    assert code == 0 and json.loads(output)["oracle"] is None


def test_real_oracle_plan_is_strict_valid_and_scores_its_objective() -> None:
    """The real oracle, 2 s a run: strict accepts its plan, official GU = objective ≤ bound."""
    run = run_oracle(build_sample(), 2.0)
    best = run.best
    assert best.plan is not None and best.objective is not None and best.bound is not None
    assert run.verdicts["strict"].valid is True
    gu: Any = run.verdicts["official"].gu
    assert gu.total_score == best.objective <= best.bound
    assert run.value_of_splitting == run.with_splits.objective - run.without_splits.objective  # type: ignore[operator]


def test_a_split_run_below_the_no_split_run_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    def weaker_split_run(task: Task, world: WorldFacts, settings: OracleSettings) -> OracleResult:
        result = _fake(task, world, settings)
        return replace(result, objective=23) if settings.splits else result

    monkeypatch.setattr(sample_oracle, "solve_task", weaker_split_run)
    monkeypatch.delenv("COLUMNS", raising=False)
    code, output = _run()
    assert code == 0
    assert "task_004175  on      23   31     25.8%  FEASIBLE  1.5 s  1       -2\n" in output
    assert (
        "the split run scored below the run without splits, whose plan it also allows:\n"
        "its search was cut short by the time limit (try a larger --time-limit)\n"
    ) in output
    assert "oracle plan (splits off, from cp-sat)" in output
