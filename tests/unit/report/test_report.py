"""`tripwright report` end to end on the fixture files: sections, self-contained HTML, determinism,
the trajectory viewer, bad input; `tripwright judge` input errors."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from runner.cli.app import app
from tests.fixtures.report_fixtures import write_all
from tests.fixtures.zhuhai import POI_PATH

RUNNER = CliRunner()


def squash(text: str) -> str:
    """Output without white space: rich wraps long messages anywhere."""
    return "".join(text.split())


FILES = (
    "report.md",
    "report.html",
    *(f"plots/{n}.png" for n in ("agent_vs_oracle", "regret", "frontier", "failed_checks")),
)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_all(tmp_path_factory.mktemp("inputs"))


def report_args(files: dict[str, Path], out: Path, *extra: str) -> list[str]:
    return [
        "report", str(files["runs"]), "--out", str(out), "--scored", str(files["scored"]),
        "--oracle", str(files["oracle"]), "--judged", str(files["judged"]), "--tasks", str(files["tasks"]),
        "--poi-db", str(POI_PATH), *extra,
    ]  # fmt: skip


@pytest.fixture(scope="module")
def report(inputs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report")
    result = RUNNER.invoke(app, report_args(inputs, out))
    assert result.exit_code == 0, result.output
    return out


def test_every_file_is_written(report: Path) -> None:
    for name in FILES:
        assert (report / name).stat().st_size > 0


def test_markdown_sections_and_figures(report: Path) -> None:
    text = (report / "report.md").read_text(encoding="utf-8")
    headings = re.findall(r"^#+ .*$", text, flags=re.MULTILINE)
    assert headings == [
        "# tripwright run report",
        "## Scores (official aggregation)",
        "### Profile official",
        "## Against the oracle",
        "## Plots",
        "### Failed strict checks",
        "## Runs: tool use and completion",
        "### Completion reasons",
        "## Elicitation: active vs passive (UserBench)",
        "### By field kind",
        "### By user",
        "## Reliability over trials (pass^k, pass@k, avg^k)",
        "### Overall (2 task(s))",
        "### Easy (1 task(s))",
        "### Medium (1 task(s))",
        "## Strict and loose validity",
        "## Tool-use penalty",
        "## LLM judge",
        "## Trajectory: task_004175 trial 0",
        "### Conversation",
        "### Plan",
    ]
    assert "| Plan Validity (%) | 25.00 | 50.00 | 0.00 |" in text
    assert "| LLM-Judge Average | 25.00 | 50.00 | 0.00 |" in text
    assert "| acceptable rate (strict-valid plan) | 25.0% | 50.0% | 0.0% |" in text
    assert (
        "| elicitation loss: mean / median (n) | 3.6667 / 4.0000 (3) | 4.0000 / 4.0000 (2) "
        "| 3.0000 / 3.0000 (1) |" in text
    )
    assert (
        "Oracle witness (the plan gu best and the losses compare with): the strict-best plan "
        "(profile strict): 3 trial(s); not named (scored before the oracle kept two plans: "
        "the strict-best): 1 trial(s)."
    ) in text
    assert "| cache hit rate | 43.0% |" in text
    assert "| rate_limit | 1 | 25.0% |" in text
    assert "| Average | 25.00 | 50.00 | 0.00 |" in text
    assert "| 5 营业时间 | 1 |" in text
    assert "![Positions on the GU–GF frontier](plots/frontier.png)" in text


def test_reliability_strictness_and_tool_use_sections(report: Path) -> None:
    """Task easy: trials strict-valid / not; task medium: neither (one failed), so overall
    pass^1 = (1/2 + 0) / 2, pass^2 = 0, pass@2 = (1 + 0) / 2. The easy task's first trial makes
    two calls to tools that do not exist (a schema-error rate of 1): raw score 1.0, penalised 0."""
    text = (report / "report.md").read_text(encoding="utf-8")
    overall = text.split("### Overall (2 task(s))")[1].split("###")[0]
    assert "| 1 | 2 | 0.2500 | 0.2500 | 0.2500 |" in overall
    assert "| 2 | 2 | 0.0000 | 0.5000 | 0.2500 |" in overall
    easy = text.split("### Easy (1 task(s))")[1].split("###")[0]
    assert "| 2 | 1 | 0.0000 | 1.0000 | 0.5000 |" in easy
    assert "Success: a strict-valid plan." in text
    assert "| loose rate (official-valid) | 25.0% | 50.0% | 0.0% |" in text
    assert "| strict rate (strict-valid) | 25.0% | 50.0% | 0.0% |" in text
    assert "| schema errors | 2 | 2 | 0 |" in text
    assert "| mean schema-error rate (trials with calls) | 100.0% | 100.0% | - |" in text
    assert "| raw score: mean GU/GU* (strict-valid, else 0) | 0.2500 | 0.5000 | 0.0000 |" in text
    assert "| penalised score: mean raw × (1 − rate) | 0.0000 | 0.0000 | 0.0000 |" in text


def test_success_threshold_option(inputs: dict[str, Path], tmp_path: Path) -> None:
    result = RUNNER.invoke(app, report_args(inputs, tmp_path / "r", "--success", "ratio:1.0"))
    assert result.exit_code == 0, result.output
    text = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert "Success: a strict-valid plan with GU / GU* >= 1." in text
    bad = RUNNER.invoke(app, report_args(inputs, tmp_path / "s", "--success", "ratio:2"))
    assert bad.exit_code == 2
    assert "Traceback" not in bad.output
    assert squash("--success: must be 'strict' or ratio:T") in squash(bad.output)


def test_html_is_self_contained(report: Path) -> None:
    page = (report / "report.html").read_text(encoding="utf-8")
    assert page.count('src="data:image/png;base64,') == 4
    assert not re.search(r"(?:src|href)=\"(?!data:)", page)
    assert "http" not in page
    assert "<script" not in page


def test_html_trajectory_shows_chat_tool_calls_and_plan(report: Path) -> None:
    page = (report / "report.html").read_text(encoding="utf-8")
    assert '<div class="msg agent"><div class="role">Agent</div><div class="text">@User1 海鲜火锅' in page
    assert (
        '<details class="error"><summary>tool search_hotels({&quot;city&quot;: &quot;珠海&quot;}) — error'
        in page
    )
    assert "<details><summary>tool search_flights(" in page
    assert '<div class="plan">' in page
    assert "Day 2 · Thu 2026-01-15" in page


def test_same_inputs_give_byte_identical_files(inputs: dict[str, Path], report: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    assert RUNNER.invoke(app, report_args(inputs, again)).exit_code == 0
    for name in FILES:
        assert (again / name).read_bytes() == (report / name).read_bytes(), name


def test_episode_option_and_minimal_inputs(inputs: dict[str, Path], tmp_path: Path) -> None:
    result = RUNNER.invoke(
        app, ["report", str(inputs["runs"]), "--out", str(tmp_path), "--episode", "task_900001:1"]
    )
    assert result.exit_code == 0, result.output
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "## Trajectory: task_900001 trial 1" in text
    assert "Not computed: pass --poi-db FILE" in text
    assert "Not computed: pass --scored FILE" in text
    assert "LLM judge" not in text
    assert not (tmp_path / "plots" / "regret.png").exists()


def test_skipped_lines_are_listed(inputs: dict[str, Path], tmp_path: Path) -> None:
    runs = tmp_path / "runs.jsonl"
    shutil.copy(inputs["runs"], runs)
    with runs.open("a", encoding="utf-8") as handle:
        handle.write('{"task_id": "torn')
    result = RUNNER.invoke(app, ["report", str(runs), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0
    assert "line 5" in result.output
    text = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "1 line(s) skipped:" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--episode", "nope"], "--episode: expected TASK_ID:TRIAL"),
        (["--scored", "RUNS"], "not a scored line (needs task_id and gu)"),
        (["--judged", "RUNS"], "not a tripwright judge output line"),
        (["--tasks", "MISSING"], "file not found"),
    ],
)
def test_bad_input_exits_2_without_traceback(
    inputs: dict[str, Path], tmp_path: Path, args: list[str], message: str
) -> None:
    swap = {"RUNS": str(inputs["runs"]), "MISSING": str(tmp_path / "missing.jsonl")}
    extra = [swap.get(arg, arg) for arg in args]
    result = RUNNER.invoke(app, ["report", str(inputs["runs"]), "--out", str(tmp_path / "o"), *extra])
    assert result.exit_code == 2
    assert squash(message) in squash(result.output)
    assert "Traceback" not in result.output


def test_empty_runs_file_is_bad_input(tmp_path: Path) -> None:
    runs = tmp_path / "runs.jsonl"
    runs.write_text("\n", encoding="utf-8")
    result = RUNNER.invoke(app, ["report", str(runs), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert squash("no run record in the file") in squash(result.output)


def test_judge_command_rejects_bad_input(inputs: dict[str, Path], tmp_path: Path) -> None:
    base = ["judge", str(inputs["runs"]), "--out", str(tmp_path / "j.jsonl")]
    result = RUNNER.invoke(app, [*base, "--base-url", " ", "--model", "m"])
    assert result.exit_code == 2
    assert squash("--base-url: must not be empty") in squash(result.output)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    result = RUNNER.invoke(
        app, ["judge", str(empty), "--out", str(tmp_path / "j.jsonl"), "--base-url", "u", "--model", "m"]
    )
    assert result.exit_code == 2
    assert squash("no run record in the file") in squash(result.output)


def test_a_world_rescores_both_profiles(inputs: dict[str, Path], tmp_path: Path) -> None:
    world = tmp_path / "world"
    built = RUNNER.invoke(app, ["world", "build", "--tasks", str(inputs["tasks"]), "--out", str(world)])
    assert built.exit_code == 0, built.output
    args = ["report", str(inputs["runs"]), "--out", str(tmp_path / "o"), "--world", str(world)]
    result = RUNNER.invoke(app, [*args, "--tasks", str(inputs["tasks"])])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "o" / "report.md").read_text(encoding="utf-8")
    assert "### Profile official" in text
    assert "### Profile strict" in text
    assert "strict profile not scored" not in text
