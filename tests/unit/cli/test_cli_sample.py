"""The main job (`tripwright sample`) with the oracle and the closing benchmark: its tables, its
plan's verdicts, the reports, `--out`, `--no-bench` and `--json`. Both `solve_task`s (the sample's
and the benchmark's, through the oracle cache) are replaced by fakes answering at once (the greedy
plan as the oracle's); two slower tests run the real oracle with short limits."""

from __future__ import annotations

import json
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from runner.cli.app import app
from runner.sample import bench as sample_bench
from runner.sample import oracle_splits as sample_oracle
from runner.sample.bench import BenchSettings, run_bench
from runner.sample.oracle_splits import run_oracle
from runner.sample.plans import Sample, build_sample
from runner.scoring import oracle_cache
from solver.greedy import greedy_plan
from solver.oracle.result import OracleResult, Status
from solver.oracle.solve import OracleSettings
from verifier.model.task import Task
from verifier.world_facts import WorldFacts

RUN = CliRunner()
TABLE = """\
                  oracle (20 s a run, 1 worker, seed 0)
                                                         splits  value of
task         splits  GU*  bound  gap    status    time   used    splitting
───────────────────────────────────────────────────────────────────────────
task_004175  on      27   31     12.9%  FEASIBLE  1.5 s  1       +2 to +6
task_004175  off     25   25     0.0%   OPTIMAL   1.3 s  0
GU* is the best plan's GU total; bound: no strict-valid plan scores more.
value of splitting: best GU with splits - best without (proven range).
note: fake oracle
"""
JUDGED = (
    "oracle plan (splits on, from cp-sat): official accepts it; strict accepts it;\n"
    "official GU 27 = objective 27\n"
)


def _fake(task: Task, world: WorldFacts, settings: OracleSettings, *, official: Any = None) -> OracleResult:
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


BENCH_BOUND = 40
BENCH = """\
 baselines on task_004175 against the oracle (rule users, 5 s a solve)
                 strict                                 termination
agent     plan?  valid   GU  GU*  GU/GU*  regret  PC    reason
───────────────────────────────────────────────────────────────────────
scripted  yes    yes     27  40   0.675   13      1.00  plan_generated
silent    yes    yes     19  40   0.475   21      0.27  plan_generated
random    yes    yes     21  40   0.525   19      0.37  plan_generated
Trial 0 of 3. GU: the agent's plan's GU total on the effective table ③; GU*: the
oracle's proven bound there (no strict-valid plan scores more; the oracle's own
plan scores 27); regret = GU* − GU; PC: share of the preferences the agent
collected.
           reliability over 3 trials
agent     pass^1  pass^2  pass^3  pass@3  avg
───────────────────────────────────────────────
scripted  1.00    1.00    1.00    1.00    1.00
silent    1.00    1.00    1.00    1.00    1.00
random    1.00    1.00    1.00    1.00    1.00
Success: a strict-valid plan. pass^k: k trials drawn from the agent's trials all
succeed; pass@k: at least one does; avg: share of trials that succeed.
  elicitation: how the preference fields surfaced
                                   of which
agent     fields  active  passive  opening   never
───────────────────────────────────────────────────
scripted  14      50%     50%      43%       0%
silent    14      0%      43%      43%       57%
random    14      7%      43%      43%       50%
active: first stated in answer to the Agent's question about it; passive:
volunteered or in the opening messages; never: not stated (shares of the
fields).
"""
REPORT_FILES = ("runs.jsonl", "scored.jsonl", "scored.summary.json", "report.md", "report.html")


def _fake_bench(
    task: Task,
    world: WorldFacts,
    settings: OracleSettings,
    *,
    table: dict[str, Any] | None = None,
    official: Any = None,
) -> OracleResult:
    """The greedy plan for `table` with a fixed bound (the benchmark's oracle, through the cache)."""
    return OracleResult(
        task_id=task.task_id,
        status=Status.FEASIBLE,
        objective=None,
        bound=BENCH_BOUND,
        per_user={},
        plan=greedy_plan(task, world, effective=table),
        seconds=0.1,
        seed=settings.seed,
        workers=settings.workers,
        time_limit=settings.time_limit,
        gap_limit=0.0,
        splits=True,
        splits_used=0,
        source="cp-sat",
    )


@pytest.fixture
def fake_oracle(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Fake oracles, a fresh oracle cache and fresh benchmark folders under `tmp_path`."""
    monkeypatch.setattr(sample_oracle, "solve_task", _fake)
    monkeypatch.setattr(oracle_cache, "solve_task", _fake_bench)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.delenv("COLUMNS", raising=False)


@pytest.mark.usefixtures("fake_oracle")
def test_sample_prints_the_oracle_table_and_its_plan(tmp_path: Path) -> None:
    code, output = _run("--out", tmp_path)
    assert code == 0
    assert TABLE + "\n" + JUDGED in output
    assert "task_004175 · 珠海市，两天一夜，3人的旅行计划\ntravellers: User2, User1; child User3\n" in output
    assert "Day 1 · Wed 2026-01-14 · 合肥市 → 珠海市\n" in output and "Trip total per person: " in output
    paths = [line for line in output.splitlines() if line.startswith("wrote") or " report: " in line]
    ascii_lines = [line for line in output.splitlines() if line.isascii() and line not in paths]
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
    assert oracle["value_of_splitting"] == {"low": 2, "high": 6, "exact": False}
    assert {p: v["valid"] for p, v in oracle["verdicts"].items()} == {"official": True, "strict": True}
    assert oracle["verdicts"]["official"]["gu"]["total_score"] == 27
    code, output = _run("--json", "--no-oracle", "--no-bench")
    assert code == 0 and json.loads(output)["oracle"] is None


def test_real_oracle_plan_is_strict_valid_and_scores_its_objective() -> None:
    """The real oracle, 2 s a run: strict accepts its plan, official GU = objective ≤ bound."""
    run = run_oracle(build_sample(), 2.0)
    best = run.best
    assert best.plan is not None and best.objective is not None and best.bound is not None
    assert run.verdicts["strict"].valid is True
    gu: Any = run.verdicts["official"].gu
    assert gu.total_score == best.objective <= best.bound
    on, off, value = run.with_splits, run.without_splits, run.value_of_splitting
    assert on.objective is not None and off.objective is not None and value is not None
    assert value.low <= max(on.objective - off.objective, 0) and on.objective - off.objective <= value.high
    assert value.high == on.bound - off.objective  # type: ignore[operator]


def test_a_split_run_below_the_no_split_run_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    def weaker_split_run(
        task: Task, world: WorldFacts, settings: OracleSettings, *, official: Any = None
    ) -> OracleResult:
        result = _fake(task, world, settings)
        return replace(result, objective=23) if settings.splits else result

    monkeypatch.setattr(sample_oracle, "solve_task", weaker_split_run)
    monkeypatch.delenv("COLUMNS", raising=False)
    code, output = _run("--no-bench")
    assert code == 0
    assert "task_004175  on      23   31     25.8%  FEASIBLE  1.5 s  1       +0 to +6\n" in output
    assert (
        "the split run scored below the run without splits, whose plan it also allows:\n"
        "its search was cut short by the time limit (try a larger --time-limit)\n"
    ) in output
    assert "oracle plan (splits off, from cp-sat)" in output


@pytest.mark.usefixtures("fake_oracle")
def test_the_bench_closes_the_main_job_with_its_table_and_reports(tmp_path: Path) -> None:
    code, output = _run("--out", tmp_path / "out")
    bench = tmp_path / "out" / "bench"
    assert code == 0
    assert output.endswith(
        BENCH
        + f"scripted report: {bench / 'scripted' / 'report.html'} (and report.md)\n"
        + f"silent report: {bench / 'silent' / 'report.html'} (and report.md)\n"
        + f"random report: {bench / 'random' / 'report.html'} (and report.md)\n"
    )
    assert output.index("wrote ") < output.index(" baselines on ")
    for agent in ("scripted", "silent", "random"):
        assert all((bench / agent / name).is_file() for name in REPORT_FILES)
        runs = [json.loads(line) for line in (bench / agent / "runs.jsonl").read_text().splitlines()]
        assert sorted((r["task_id"], r["trial"], r["agent"]["name"]) for r in runs) == [
            ("task_004175", trial, agent) for trial in range(3)
        ]
    assert "| runs | runs.jsonl |" in (bench / "silent" / "report.md").read_text()
    assert (tmp_path / "out" / "world" / "manifest.json").is_file()


@pytest.mark.usefixtures("fake_oracle")
def test_the_bench_without_out_writes_into_a_fresh_folder_it_names(tmp_path: Path) -> None:
    code, output = _run("--no-oracle")
    fresh = [path for path in tmp_path.iterdir() if path.name.startswith("tripwright-sample-")]
    assert code == 0 and len(fresh) == 1
    assert f"scripted report: {fresh[0] / 'bench' / 'scripted' / 'report.html'} (and report.md)" in output
    assert (fresh[0] / "bench" / "scripted" / "report.html").is_file()


@pytest.mark.usefixtures("fake_oracle")
def test_no_bench_skips_it(tmp_path: Path) -> None:
    code, output = _run("--no-oracle", "--no-bench", "--out", tmp_path / "out")
    assert code == 0 and "baselines" not in output and "report:" not in output
    assert not (tmp_path / "out" / "bench").exists()
    assert not any(path.name.startswith("tripwright-sample-") for path in tmp_path.iterdir())


@pytest.mark.usefixtures("fake_oracle")
def test_sample_json_has_the_bench(tmp_path: Path) -> None:
    code, output = _run("--json", "--no-oracle", "--bench-time-limit", "2", "--out", tmp_path)
    bench = json.loads(output)["bench"]
    assert code == 0
    keys = ("directory", "task_id", "users", "seed", "trials", "oracle_time_limit")
    assert {key: bench[key] for key in keys} == {
        "directory": str(tmp_path),
        "task_id": "task_004175",
        "users": "rules",
        "seed": 0,
        "trials": 3,
        "oracle_time_limit": 2.0,
    }
    assert bench["rows"][0]["reliability"] == [
        {"k": k, "tasks": 1, "pass_hat_k": 1.0, "pass_at_k": 1.0, "avg_k": 1.0} for k in (1, 2, 3)
    ]
    figures = ("plan_generated", "strict_valid", "gu", "gu_star", "gu_ratio", "regret", "pc")
    rows = [
        (row["agent"], *(row[key] for key in figures), row["termination_reason"]) for row in bench["rows"]
    ]
    assert rows == [
        ("scripted", True, True, 27.0, 40, 0.675, 13.0, 1.0, "plan_generated"),
        ("silent", True, True, 19.0, 40, 0.475, 21.0, 4 / 15, "plan_generated"),
        ("random", True, True, 21.0, 40, 0.525, 19.0, 11 / 30, "plan_generated"),
    ]
    assert [row["report"] for row in bench["rows"]] == [
        str(tmp_path / "bench" / agent / "report.html") for agent in ("scripted", "silent", "random")
    ]
    assert [(row["gu_best"], row["elicitation_loss"], row["planning_loss"]) for row in bench["rows"]] == [
        (27.0, 0.0, 0.0),
        (27.0, 8.0, 0.0),
        (27.0, 6.0, 0.0),
    ]


@pytest.mark.usefixtures("fake_oracle")
@pytest.mark.filterwarnings("ignore:No artists with labels")  # the report's plots of a run without plans
def test_a_failed_bench_trial_is_shown_and_exits_1(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """An oracle cache that cannot be written: each agent's planner fails, so does its trial (the
    random agent plans without the oracle, so it is left out here)."""
    monkeypatch.setattr(sample_bench, "AGENTS", ("scripted", "silent"))
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    code, output = _run("--no-oracle", "--out", tmp_path / "out")
    assert code == 1
    assert "scripted  no     -       -   -    -       -       -   runtime_error\n" in output
    assert "(no strict-valid plan scores more); regret" in output
    assert f"scripted: the trial failed: [Errno 20] Not a directory: '{blocker}/tripwright/oracle/" in output
    lines = (tmp_path / "out" / "bench" / "silent" / "runs.jsonl").read_text().splitlines()
    runs = [json.loads(line) for line in lines]
    assert [(r["success"], r["completion_reason"]) for r in runs] == [(False, "runtime_error")] * 3
    assert "silent    0.00    0.00    0.00    0.00    0.00\n" in output


@pytest.mark.usefixtures("fake_oracle")
def test_a_bench_folder_that_cannot_be_made_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setattr(tempfile, "tempdir", str(blocker))
    monkeypatch.setenv("COLUMNS", "300")  # the message on one line
    code, output = _run("--no-oracle", "--json")
    assert code == 2
    assert (
        output.startswith(f"error: {blocker}/tripwright-sample-")
        and "cannot write: Not a directory" in output
    )


def test_a_bench_time_limit_must_be_positive() -> None:
    code, output = _run("--bench-time-limit", "0")
    assert code == 2 and "--bench-time-limit" in output


@pytest.fixture(scope="module")
def sample() -> Sample:
    return build_sample()


def test_real_bench_plans_valid_and_bounded(sample: Sample, tmp_path: Path) -> None:
    """The real oracle, 1 s a solve: both agents plan strict-valid plans at the first chance; scripted
    collects every preference; GU ≤ GU* and the figures agree with each other."""
    bench = run_bench(sample, tmp_path, BenchSettings(1.0, tmp_path / "cache"))
    lines = [row.scored for row in bench.rows]
    assert [
        (row.agent, line["plan_generated"], line["strict_valid"], line["termination_reason"])
        for row, line in zip(bench.rows, lines, strict=True)
    ] == [
        ("scripted", True, True, "plan_generated"),
        ("silent", True, True, "plan_generated"),
        ("random", True, True, "plan_generated"),
    ]
    assert [line["pc"] for line in lines] == [1.0, 4 / 15, 11 / 30]
    for line in lines:
        assert line["gu"] <= line["gu_best"] <= line["gu_star"]
        assert line["regret"] == line["gu_star"] - line["gu"] and line["problems"] == []
    # ① = ③, scripted's ②, silent's, and random's two (its seeded trials hear two tables)
    assert len(list((tmp_path / "cache").rglob("*.json"))) == 5
