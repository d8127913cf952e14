"""`verify-batch`: verify every case of a JSONL file, one output line per input line, in order.

An input line is `{id, plan, task | task_id, effective?, inferred?}` (the golden `cases.jsonl`
shape; other keys are ignored). A line that cannot be verified (not JSON, no plan, unknown
task, a task that does not load) yields `{id, line, error}` and the batch goes on.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from runner.io import InputError, JsonLine
from runner.loading import parse_task
from verifier.model.task import Task
from verifier.model.verdict import Profile
from verifier.official.poi_db import PoiDb
from verifier.verify import verdict_to_batch_line, verify
from verifier.world import WorldFacts


@dataclass(frozen=True, slots=True)
class BatchSettings:
    """What every line of a batch shares."""

    profile: Profile
    poi_db: PoiDb
    tasks: Mapping[str, Task] | None = None
    world: WorldFacts | None = None


class LineError(Exception):
    """A problem with one batch line (reported in its output line)."""


def run_batch(lines: Iterable[JsonLine], settings: BatchSettings) -> Iterator[dict[str, Any]]:
    """One output line per input line, same order; bad lines give `{id, line, error}`."""
    for line in lines:
        case_id = line.value.get("id") if isinstance(line.value, dict) else None
        try:
            yield verify_case(line, settings)
        except LineError as exc:
            yield {"id": case_id, "line": line.number, "error": str(exc)}


def verify_case(line: JsonLine, settings: BatchSettings) -> dict[str, Any]:
    """Verify one batch line; LineError names the field and the problem."""
    if line.error is not None:
        raise LineError(f"not valid JSON ({line.error})")
    case = line.value
    if not isinstance(case, dict):
        raise LineError(f"a case must be a JSON object, got {type(case).__name__}")
    if "plan" not in case:
        raise LineError("missing field 'plan'")
    effective = case.get("effective")
    if effective is not None and not isinstance(effective, dict):
        raise LineError(f"field 'effective' must be an object keyed by user, got {type(effective).__name__}")
    verdict = verify(
        case_task(case, settings.tasks),
        case["plan"],
        profile=settings.profile,
        poi_db=settings.poi_db,
        world=settings.world,
        effective=effective,
        inferred=case.get("inferred"),
    )
    return verdict_to_batch_line(case.get("id"), verdict)


def case_task(case: dict[str, Any], tasks: Mapping[str, Task] | None) -> Task:
    """The case's task: inline under `task`, else `task_id` looked up in the tasks file."""
    if "task" in case:
        try:
            return parse_task(case["task"], None, where="field 'task'")
        except InputError as exc:
            raise LineError(exc.render()) from exc
    task_id = case.get("task_id")
    if task_id is None:
        raise LineError("needs a 'task' object or a 'task_id'")
    if tasks is None:
        raise LineError(f"task_id {task_id!r} given but no --tasks file")
    if not isinstance(task_id, str) or task_id not in tasks:
        raise LineError(f"unknown task_id {task_id!r} (not in the --tasks file)")
    return tasks[task_id]
