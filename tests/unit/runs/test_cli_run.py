"""CLI `run` and `score` with the real engine, the scripted agent and rule users on the sample
task (oracle 1 s, one cache for the module): exit codes, structured bad input, resume, scoring."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from runner.cli.app import app
from tests.fixtures.fake_openai import MODEL, fake_openai, overflow
from tests.unit.runs.conftest import SAMPLE, read_lines, task, write_tasks

RUN = CliRunner()


def _run(*args: object) -> Result:
    result = RUN.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def _flat(text: str) -> str:
    return "".join(text.split())


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("oracle-cache")


def _tripwright_run(tasks: Path, world: Path, out: Path, cache: Path, *extra: object) -> Result:
    common = ("--agent", "scripted", "--out", out, "--oracle-time-limit", 1, "--cache", cache)
    return _run("run", "--tasks", tasks, "--world", world, *common, *extra)


@pytest.mark.parametrize(
    "case",
    [
        ("--trials", 0, "--trials: must be positive, not 0"),
        ("--concurrency", -1, "--concurrency: must be positive, not -1"),
        ("--oracle-time-limit", 0, "--oracle-time-limit: must be positive, not 0"),
    ],
)
def test_non_positive_numbers(
    world_dir: Path, cache: Path, tmp_path: Path, case: tuple[str, int, str]
) -> None:
    option, value, message = case
    tasks = write_tasks(tmp_path / "t.jsonl", SAMPLE)
    result = _tripwright_run(tasks, world_dir, tmp_path / "runs.jsonl", cache, option, value)
    assert result.exit_code == 2
    assert _flat(message) in _flat(result.stderr)
    assert not (tmp_path / "runs.jsonl").exists()


def test_unknown_agent_and_missing_world(world_dir: Path, cache: Path, tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "t.jsonl", SAMPLE)
    out = tmp_path / "runs.jsonl"
    result = _run(
        "run", "--tasks", tasks, "--world", world_dir, "--agent", "nope", "--out", out, "--cache", cache
    )
    assert result.exit_code == 2
    assert _flat("error: --agent: unknown agent 'nope'; known agents:") in _flat(result.stderr)
    missing = _tripwright_run(tasks, tmp_path / "nowhere", out, cache)
    assert missing.exit_code == 2
    assert _flat("nowhere: world directory not found") in _flat(missing.stderr)
    assert not out.exists()


def test_malformed_tasks_are_reported_and_the_others_run(
    world_dir: Path, cache: Path, tmp_path: Path
) -> None:
    no_query = {**task("no-query"), "query": ""}
    bad_prefs = {**task("bad-prefs"), "user_preferences": []}
    tasks = write_tasks(tmp_path / "t.jsonl", "{not json", no_query, SAMPLE, bad_prefs)
    out = tmp_path / "runs.jsonl"
    result = _tripwright_run(tasks, world_dir, out, cache, "--trials", 1, "--no-score")
    assert result.exit_code == 2
    stderr = _flat(result.stderr)
    assert _flat("error: line 1: $: not valid JSON") in stderr
    assert _flat("error: task no-query (line 2): query: empty") in stderr
    assert _flat("error: task bad-prefs (line 4): user_preferences:") in stderr
    assert [(x["task_index"], x["task_id"], x["success"]) for x in read_lines(out)] == [
        (2, "task_004175", True)
    ]


def test_run_scores_and_resumes(world_dir: Path, cache: Path, tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "t.jsonl", SAMPLE)
    out = tmp_path / "runs.jsonl"
    first = _tripwright_run(tasks, world_dir, out, cache, "--trials", 2)
    assert first.exit_code == 0, first.output
    assert _flat("run: 2 of 2 trials written (2 plan_generated); 0 already done") in _flat(first.stderr)
    lines = read_lines(out)
    assert [(x["trial_id"], x["agent"]["name"], x["attempts"]) for x in lines] == [
        (0, "scripted", 1),
        (1, "scripted", 1),
    ]
    scored = read_lines(tmp_path / "runs.scored.jsonl")
    assert [(x["trial"], x["plan_generated"], x["strict_valid"]) for x in scored] == [
        (0, True, True),
        (1, True, True),
    ]
    summary: dict[str, Any] = json.loads((tmp_path / "runs.scored.summary.json").read_text(encoding="utf-8"))
    assert (summary["overall"]["trials"], summary["overall"]["acceptable_rate"]) == (2, 1.0)
    assert "against the oracle" in first.stdout

    before = out.read_bytes()
    again = _tripwright_run(tasks, world_dir, out, cache, "--trials", 2)
    assert again.exit_code == 0
    assert _flat("run: 0 of 0 trials written (none); 2 already done") in _flat(again.stderr)
    assert out.read_bytes() == before

    other = _tripwright_run(tasks, world_dir, out, cache, "--trials", 2, "--seed", 5, "--no-score")
    assert other.exit_code == 2
    assert _flat("runs.jsonl: line 1: task 'task_004175' was run with another configuration") in _flat(
        other.stderr
    )
    assert out.read_bytes() == before


def test_score_command_writes_lines_and_summary(world_dir: Path, cache: Path, tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "t.jsonl", SAMPLE)
    out = tmp_path / "runs.jsonl"
    assert _tripwright_run(tasks, world_dir, out, cache, "--trials", 1, "--no-score").exit_code == 0
    with out.open("ab") as handle:
        handle.write(b'{"task_id": "task_0')
    scored = tmp_path / "scored.jsonl"
    args = ("score", out, "--tasks", tasks, "--world", world_dir, "--out", scored, "--oracle-time-limit", 1)
    result = _run(*args, "--cache", cache, "--json")
    assert result.exit_code == 0
    summary = json.loads(result.stdout)
    assert summary == json.loads((tmp_path / "scored.summary.json").read_text(encoding="utf-8"))
    assert (summary["overall"]["trials"], list(summary["by_difficulty"])) == (1, ["easy"])
    assert _flat("skipped line 2: not valid JSON") in _flat(result.stderr)
    assert [x["task_id"] for x in read_lines(scored)] == ["task_004175"]
    assert summary["witness"] == {"profile": "strict", "plan": "strict-best"}
    official = _run(*args, "--cache", cache, "--profile", "official")
    assert official.exit_code == 0
    assert _flat("oracle witness: the both-valid plan (profile official)") in _flat(official.stdout)
    (line,) = read_lines(scored)
    assert (line["witness_profile"], line["witness"]) == ("official", "both-valid")


def test_openai_agent_failure_is_a_record_and_missing_endpoint_is_bad_input(
    world_dir: Path, cache: Path, tmp_path: Path
) -> None:
    """The openai agent against the fake server: every call overflows the context, so the trial
    fails for good with the official reason; without --base-url the run does not start."""
    tasks = write_tasks(tmp_path / "t.jsonl", SAMPLE)
    out = tmp_path / "runs.jsonl"
    common = ("--tasks", tasks, "--world", world_dir, "--agent", "openai", "--out", out, "--cache", cache)
    missing = _run("run", *common, "--model", MODEL, "--no-score")
    assert missing.exit_code == 2
    assert _flat("error: --base-url: missing") in _flat(missing.stderr)
    with fake_openai(respond=lambda body: overflow()) as server:
        result = _run(
            "run", *common, "--base-url", server.base_url, "--model", MODEL, "--trials", 1, "--no-score"
        )
    assert result.exit_code == 1
    (line,) = read_lines(out)
    assert (line["success"], line["completion_reason"], line["plan_generated"], line["attempts"]) == (
        False,
        "context_overflow",
        False,
        1,
    )
