"""CLI: exit codes 0/1/2, JSON output, and no tracebacks on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from runner.cli.app import app
from runner.loading.benchmark_data import sample_path
from tests.fixtures.zhuhai import POI_PATH, plan_path

RUN = CliRunner()
TASK = sample_path("task.json")
POI = POI_PATH


def _run(*args: str) -> tuple[int, str]:
    result = RUN.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


def _plan(name: str) -> Path:
    return plan_path(name)


def test_verify_valid_invalid_and_json() -> None:
    code, output = _run("verify", "--task", TASK, "--plan", _plan("good"), "--poi-db", POI)
    assert code == 0 and "VALID" in output and "User1: 11" in output
    code, output = _run("verify", "--task", TASK, "--plan", _plan("broken"), "--poi-db", POI, "--json")
    assert code == 1
    verdict = json.loads(output)
    assert verdict["valid"] is False and verdict["gu"]["per_user_average_score"] == 6.0


def test_verify_needs_poi_db_for_other_tasks(tmp_path: Path) -> None:
    task = json.loads(TASK.read_text())
    task["task_id"] = "other"
    (tmp_path / "t.json").write_text(json.dumps(task))
    code, output = _run("verify", "--task", tmp_path / "t.json", "--plan", _plan("good"))
    assert code == 2 and "--poi-db" in output
    code, _ = _run("verify", "--task", tmp_path / "t.json", "--plan", _plan("good"), "--poi-db", POI)
    assert code == 0


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "not valid JSON"),
        ('{"task_id": 5}', "task_id: Input should be a valid string"),
        ('{"task_id": "t", "user_preferences": []}', "user_preferences: Input should be a valid dictionary"),
        ("[1, 2]", "a task must be a JSON object"),
    ],
)
def test_bad_task_file_exits_2_naming_the_problem(tmp_path: Path, content: str, expected: str) -> None:
    bad = tmp_path / "task.json"
    bad.write_text(content)
    code, output = _run("verify", "--task", bad, "--plan", _plan("good"), "--poi-db", POI)
    assert code == 2
    assert str(bad) in output.replace("\n", "") and expected in output.replace("\n", "")


def test_missing_files_and_unknown_task_id(tmp_path: Path) -> None:
    code, output = _run("verify", "--task", tmp_path / "nope.json", "--plan", _plan("good"))
    assert code == 2 and "file not found" in output
    code, output = _run("verify", "--task", TASK, "--plan", tmp_path / "nope.json")
    assert code == 2 and "file not found" in output
    code, output = _run("verify", "--task", TASK, "--task-id", "task_999", "--plan", _plan("good"))
    assert code == 2 and "unknown task id 'task_999'" in output
    code, output = _run("verify", "--task", TASK, "--plan", _plan("good"), "--poi-db", tmp_path / "x.json")
    assert code == 2 and "cannot read POI file" in output


def test_task_jsonl_picks_by_id(tmp_path: Path) -> None:
    line = json.dumps(json.loads(TASK.read_text()), ensure_ascii=False)
    other = line.replace("task_004175", "task_other")
    (tmp_path / "tasks.jsonl").write_text(line + "\n" + other + "\n")
    code, output = _run(
        "verify", "--task", tmp_path / "tasks.jsonl", "--plan", _plan("good"), "--poi-db", POI
    )
    assert code == 2 and "--task-id" in output
    args = (
        "--task",
        tmp_path / "tasks.jsonl",
        "--task-id",
        "task_other",
        "--plan",
        _plan("good"),
        "--poi-db",
        POI,
    )
    code, _ = _run("verify", *args)
    assert code == 0


def test_strict_without_world_explains_how_to_get_one() -> None:
    code, output = _run("verify", "--task", TASK, "--plan", _plan("good"), "--profile", "strict")
    assert code == 2 and "--world" in output
    code, output = _run("verify-batch", TASK, "--poi-db", POI, "--profile", "strict")
    assert code == 2 and "--world" in output


def test_verify_batch_keeps_order_and_survives_bad_lines(tmp_path: Path) -> None:
    task = json.loads(TASK.read_text())
    good = json.loads(_plan("good").read_text())
    lines = [
        json.dumps({"id": "a", "task": task, "plan": good}),
        "{broken",
        json.dumps({"id": "c", "task_id": "task_004175", "plan": good}),
        json.dumps({"id": "d", "task": task}),
        json.dumps({"id": "e", "task": {"task_id": 1}, "plan": good}),
        json.dumps({"id": "f", "task": task, "plan": {"days": [{"city_segments": [[]]}]}}),
    ]
    cases = tmp_path / "cases.jsonl"
    cases.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    code, _ = _run("verify-batch", cases, "--poi-db", POI, "--profile", "official", "--out", out)
    assert code == 1
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["a", None, "c", "d", "e", "f"]
    assert rows[0]["valid"] is True and rows[0]["gu"]["per_user"] == {"User2": 10, "User1": 11}
    assert rows[1]["line"] == 2 and "not valid JSON" in rows[1]["error"]
    assert "no --tasks file" in rows[2]["error"]
    assert rows[3]["error"] == "missing field 'plan'"
    assert "task_id: Input should be a valid string" in rows[4]["error"]
    assert rows[5]["valid"] is None and rows[5]["input_errors"][0]["loc"] == "$.days[0].city_segments[0]"


def test_verify_batch_to_stdout_all_valid_exits_0(tmp_path: Path) -> None:
    task = json.loads(TASK.read_text())
    good = json.loads(_plan("good").read_text())
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({"id": "a", "task": task, "plan": good}) + "\n")
    code, output = _run("verify-batch", cases, "--poi-db", POI, "--profile", "official")
    assert code == 0 and json.loads(output.splitlines()[0])["gf"]["fairness_score"] == 90.91


def test_sample_and_schema() -> None:
    code, output = _run("sample", "--json", "--no-oracle", "--no-bench")
    assert code == 0
    rows = json.loads(output)["plans"]
    assert [(r["plan"], r["verdict"]["profile"], r["verdict"]["valid"]) for r in rows] == [
        ("greedy", "official", True),
        ("greedy", "strict", True),
        ("quirk", "official", True),
        ("quirk", "strict", False),
        ("broken", "official", False),
        ("broken", "strict", False),
    ]
    quirk = {r["verdict"]["profile"]: r["verdict"] for r in rows if r["plan"] == "quirk"}
    greedy = next(r["verdict"] for r in rows if r["plan"] == "greedy")
    assert quirk["official"]["gu"]["total_score"] > greedy["gu"]["total_score"]
    assert {v["code"] for v in quirk["strict"]["violations"]} >= {
        "strict.leg_same_city",
        "strict.hotel_multiple",
        "strict.cost_mismatch",
    }
    for name, key in (("plan", "days"), ("task", "task_id"), ("verdict", "violations")):
        code, output = _run("schema", name)
        assert code == 0 and key in json.loads(output)["properties"]
    code, _ = _run("schema", "nothing")
    assert code == 2
