"""Every GroupTravelBench task of ../shared has a strict-valid greedy plan in the seed-1 world
(docs/solver.md#greedy-constructive-plan)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sandbox.world import World
from sandbox.world.build import build_world
from solver.greedy import greedy_plan
from verifier.model.task import Task
from verifier.strict.profile import strict_violations

pytestmark = pytest.mark.shared


@pytest.fixture(scope="module")
def raw_tasks(shared_dir: Path) -> list[dict[str, Any]]:
    lines = (shared_dir / "gtb" / "tasks.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def world(raw_tasks: list[dict[str, Any]]) -> World:
    return build_world(raw_tasks, 1)


def test_every_gtb_task_gets_a_strict_valid_greedy_plan(
    raw_tasks: list[dict[str, Any]], world: World
) -> None:
    failures: dict[str, list[str]] = {}
    for raw in raw_tasks:
        task = Task.model_validate(raw)
        plan = greedy_plan(task, world)
        codes = [f"{v.code} at {v.loc}" for v in strict_violations(task, plan, world)]
        if codes:
            failures[task.task_id] = codes
    valid = len(raw_tasks) - len(failures)
    assert not failures, (
        f"{valid}/{len(raw_tasks)} strict-valid; first failures: {list(failures.items())[:5]}"
    )
