"""Helpers for the strict tests: run the profile on fixture plans and mutate plans by JSON path."""

from __future__ import annotations

import copy
import re
from typing import Any

from tests.fixtures.strict_world import TASKS, WORLD, load_plan
from verifier.model.task import Task
from verifier.model.verdict import Violation
from verifier.strict.profile import strict_violations

_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def steps(path: str) -> list[str | int]:
    """`$.days[0].city_segments[1]` → ["days", 0, "city_segments", 1]."""
    assert path.startswith("$")
    found = [key if key else int(index) for key, index in _STEP.findall(path[1:])]
    assert "".join(f".{s}" if isinstance(s, str) else f"[{s}]" for s in found) == path[1:], path
    return found


def apply(plan: Any, op: dict[str, Any]) -> Any:
    """Apply one edit in place: {"op": "set" | "delete" | "insert", "path": ..., "value": ...}."""
    *parents, last = steps(op["path"])
    target = plan
    for step in parents:
        target = target[step]
    if op["op"] == "set":
        target[last] = copy.deepcopy(op["value"])
    elif op["op"] == "delete":
        del target[last]
    elif op["op"] == "insert":
        assert isinstance(last, int)
        target.insert(last, copy.deepcopy(op["value"]))
    else:
        raise ValueError(op["op"])
    return plan


def edited(name: str, *ops: dict[str, Any]) -> Any:
    """A fixture plan with edits applied."""
    plan = load_plan(name)
    for op in ops:
        apply(plan, op)
    return plan


def put(path: str, value: Any) -> dict[str, Any]:
    return {"op": "set", "path": path, "value": value}


def drop(path: str) -> dict[str, Any]:
    return {"op": "delete", "path": path}


def insert(path: str, value: Any) -> dict[str, Any]:
    return {"op": "insert", "path": path, "value": value}


def run(plan: Any, task: Task | str = "plan_a") -> list[Violation]:
    """Strict violations of a plan for a fixture task (by plan name) in the fixture world."""
    return strict_violations(TASKS[task] if isinstance(task, str) else task, plan, WORLD)


def found(plan: Any, task: Task | str = "plan_a") -> list[tuple[str, int | str, str]]:
    """(code, check, loc) of every violation, in report order."""
    return [(v.code, v.check, v.loc) for v in run(plan, task)]


A1 = "$.days[0].city_segments[1].activities"
A2 = "$.days[1].city_segments[2].activities"
A3 = "$.days[2].city_segments[0].activities"
