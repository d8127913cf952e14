"""Review findings in the CLI: a JSON array of tasks loads; rescore reports skipped lines on
stderr; `tools call --args` parses integers as Python's json (as official cache keys do)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from runner.cli.app import app
from runner.loading.benchmark_data import load_tasks, sample_path
from sandbox.cache.keys import key_of
from tests.fixtures.zhuhai import POI_PATH, plan_path

TASK = json.loads(sample_path("task.json").read_text())


def test_load_tasks_accepts_a_json_array(tmp_path: Path) -> None:
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps([TASK], ensure_ascii=False))
    assert list(load_tasks(path)) == ["task_004175"]


def test_verify_takes_a_task_from_a_json_array(tmp_path: Path) -> None:
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps([TASK], ensure_ascii=False))
    plan = plan_path("good")
    result = CliRunner().invoke(
        app, ["verify", "--task", str(path), "--plan", str(plan), "--poi-db", str(POI_PATH), "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["valid"] is True


def test_rescore_reports_skipped_lines_on_stderr(tmp_path: Path) -> None:
    runs = tmp_path / "runs.jsonl"
    runs.write_text('[]\n{"a":\n')
    args = ["rescore", str(runs), "--tasks", str(sample_path("task.json")), "--poi-db", str(POI_PATH)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        "skipped line 1: not a JSON object",
        "skipped line 2: unexpected end of data: line 1 column 6 (char 5)",
    ]
    assert "skipped line" not in result.stdout


def test_tools_call_keeps_big_integers_exact(tmp_path: Path) -> None:
    args = {"keywords": "火锅", "city": "北京市", "page": 18446744073709551616}
    (tmp_path / "search_poi_cache.json").write_text(json.dumps({key_of(args): "hit"}))
    result = CliRunner().invoke(
        app, ["tools", "call", "search_poi", "--args", json.dumps(args), "--cache", str(tmp_path), "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["text"] == "hit"


def test_tools_call_too_deeply_nested_args_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["tools", "call", "maps_geo", "--args", "[" * 100_000, "--cache", str(tmp_path)]
    )
    assert result.exit_code == 2
    assert "--args: not valid JSON (maximum recursion depth exceeded" in " ".join(result.stderr.split())
