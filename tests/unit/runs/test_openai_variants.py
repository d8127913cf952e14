"""The openai agent end to end through `tripwright run` against the fake server: injected tool
faults it recovers from, and certified-unsolvable variants it refuses (or plans anyway)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from runner.cli.app import app
from runner.loading.benchmark_data import load_sandbox_world
from runner.scoring.episode_measures import episode_measures
from runner.tasks.certificates import budget_certificate, no_service_certificate
from runner.tasks.variants import transition_variant, unsolvable_variant
from sandbox.world.official_io import export_poi_db
from solver.greedy import greedy_plan
from tests.fixtures.fake_openai import MODEL, Scripted, calls, fake_openai, text
from tests.unit.runs.conftest import SAMPLE, read_lines, write_tasks
from verifier.model.task import Task
from verifier.official.poi_db import PoiDb

RUN = CliRunner()
FIRST = '{"keywords": "长隆海洋王国", "city": "珠海市"}'
SECOND = '{"keywords": "海鲜", "city": "珠海市"}'
REFUSAL = "抱歉，这个行程无法实现：大家的预算太低，连往返机票和住宿都不够。"


def _run(*args: object) -> Result:
    result = RUN.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


def _plan_text(plan: dict[str, Any]) -> str:
    return "行程如下：\n```json\n" + json.dumps(plan, ensure_ascii=False) + "\n```"


def _is_summary(body: dict[str, Any]) -> bool:
    return "tools" not in body and str(body["messages"][-1]["content"]).startswith("[聊天记录开始]")


def _play(world_dir: Path, tmp_path: Path, tasks: Path, respond: Any, *extra: object) -> tuple[Result, Path]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    out = tmp_path / "runs.jsonl"
    with fake_openai(respond=respond) as server:
        result = _run(
            "run", "--tasks", tasks, "--world", world_dir, "--agent", "openai", "--out", out,
            "--base-url", server.base_url, "--model", MODEL, "--trials", 1, "--no-score", *extra,
        )  # fmt: skip
    return result, out


def test_faults_met_and_recovered_through_tripwright_run(world_dir: Path, tmp_path: Path) -> None:
    """every:2 fails the second call; the agent tries it again, then plans."""
    world = load_sandbox_world(world_dir)
    task = Task.model_validate(SAMPLE)
    plan = greedy_plan(task, world)

    def respond(body: dict[str, Any]) -> Scripted:
        if _is_summary(body):
            return text("{}")
        results = [m for m in body["messages"] if m["role"] == "tool"]
        if not results:
            return calls(("search_poi", FIRST))
        if len(results) == 1 or str(results[-1]["content"]).startswith("Error executing tool"):
            return calls(("search_poi", SECOND))
        return text(_plan_text(plan))

    tasks = write_tasks(tmp_path / "t.jsonl", SAMPLE)
    result, out = _play(world_dir, tmp_path, tasks, respond, "--tool-faults", "every:2")
    assert result.exit_code == 0, result.output
    (line,) = read_lines(out)
    assert line["tool_faults"] == {"spec": "every:2", "met": 1, "recovered": 1}
    assert line["plan_generated"] is True
    assert line["agent_tool_stats"]["tool_errors"] == 1
    assert line["agent_tool_stats"]["tool_calls_executed"] == 3
    faulted = [e for e in line["conversation_history"] if e["type"] == "tool_result" and e["error"]]
    assert [e["result"].startswith("Error executing tool: search_poi") for e in faulted] == [True]
    bad, _ = _play(world_dir, tmp_path / "bad", tasks, respond, "--tool-faults", "rate:2")
    assert bad.exit_code == 2 and "--tool-faults: 'rate:2': P must be between 0 and 1" in bad.stderr


def test_unsolvable_variants_refused_or_planned(world_dir: Path, tmp_path: Path) -> None:
    world = load_sandbox_world(world_dir)
    task = Task.model_validate(SAMPLE)
    budget = budget_certificate(task, world)
    service = no_service_certificate(task, world)
    assert budget is not None and service is not None
    variants = [unsolvable_variant(task, budget), transition_variant(task, service, 3)]
    tasks = write_tasks(tmp_path / "v.jsonl", *variants)
    poi_db = PoiDb(export_poi_db(world, ("合肥市", "珠海市")))
    plan = greedy_plan(task, world)

    def refuses(body: dict[str, Any]) -> Scripted:
        return text("{}") if _is_summary(body) else text(REFUSAL)

    def plans(body: dict[str, Any]) -> Scripted:
        return text("{}") if _is_summary(body) else text(_plan_text(plan))

    outcomes: dict[str, list[Any]] = {}
    for name, respond in (("refuses", refuses), ("plans", plans)):
        result, out = _play(world_dir, tmp_path / name, tasks, respond)
        assert result.exit_code == 0, result.output
        lines = {line["task_id"]: line for line in read_lines(out)}
        outcomes[name] = [
            episode_measures(lines[v["task_id"]], Task.model_validate(v), poi_db)["unsolvable"]
            for v in variants
        ]
    assert outcomes["refuses"][0] == {
        "kind": "budget",
        "when": "start",
        "reached": True,
        "planned": False,
        "refused": True,
        "reason_named": True,
        "correct": True,
    }
    # the refusal names the budget, not the missing 高铁 service: refused, reason not named
    assert outcomes["refuses"][1] == {
        "kind": "no_service",
        "when": "transition",
        "reached": True,
        "planned": False,
        "refused": True,
        "reason_named": False,
        "correct": False,
    }
    assert [o["planned"] for o in outcomes["plans"]] == [True, True]
    assert [o["correct"] for o in outcomes["plans"]] == [False, False]
    assert outcomes["plans"][1]["reached"] is False  # the plan came at the first turn, before the shift
