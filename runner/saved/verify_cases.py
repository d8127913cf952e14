"""`verify-batch`: verify every case of a JSONL file, one output line per input line, in order.

An input line is `{id, plan, task | task_id, effective?, inferred?}` (the golden `cases.jsonl`
shape; other keys are ignored). A line that cannot be verified (not JSON, no plan, unknown
task, a task that does not load) yields `{id, line, error}` and the batch goes on.

`verify_batch` works in chunks of lines, each parsed, verified and written to JSONL bytes in
one go, on forked worker processes when asked for more than one job (`runner.saved.ordered_pool`):
the output is the same bytes whatever the number of jobs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

from runner.loading.benchmark_data import parse_task
from runner.loading.files import InputError, JsonLine, dumps_line, parse_line
from runner.saved.ordered_pool import chunk_results
from verifier.model.task import Task
from verifier.model.verdict import Profile
from verifier.official.poi_db import PoiDb
from verifier.referee import verdict_to_batch_line, verify
from verifier.world_facts import WorldFacts


@dataclass(frozen=True, slots=True)
class BatchSettings:
    """What every line of a batch shares."""

    profile: Profile
    poi_db: PoiDb
    tasks: Mapping[str, Task] | None = None
    world: WorldFacts | None = None


@dataclass(frozen=True, slots=True)
class BatchChunk:
    """The output of consecutive input lines: their JSONL bytes, how many, whether all were valid."""

    data: bytes
    lines: int
    all_valid: bool


CHUNK_LINES = 64
"""Lines a worker verifies per round trip: about 50 ms of work, so the traffic stays negligible."""


class LineError(Exception):
    """A problem with one batch line (reported in its output line)."""


@contextmanager
def verify_batch(
    lines: Sequence[tuple[int, bytes]], settings: BatchSettings, *, jobs: int = 1
) -> Iterator[Iterator[BatchChunk]]:
    """The output of numbered JSONL lines (`runner.loading.files.numbered_lines`) as chunks in input order,
    verified on `jobs` processes.

    Enter it before starting a progress bar: the workers are forked on entry.
    """
    work = partial(verify_chunk, settings=settings)
    with chunk_results(work, lines, jobs=jobs, chunk_size=CHUNK_LINES) as chunks:
        yield chunks


def verify_chunk(lines: Sequence[tuple[int, bytes]], settings: BatchSettings) -> BatchChunk:
    """Parse, verify and write consecutive numbered lines (each parsed once)."""
    written: list[bytes] = []
    all_valid = True
    for number, raw in lines:
        result = batch_line(parse_line(number, raw), settings)
        all_valid = all_valid and result.get("valid") is True
        written.append(dumps_line(result))
    return BatchChunk(b"".join(written), len(written), all_valid)


def batch_line(line: JsonLine, settings: BatchSettings) -> dict[str, Any]:
    """The output line of one input line; a line that cannot be verified gives `{id, line, error}`."""
    try:
        return verify_case(line, settings)
    except LineError as exc:
        case_id = line.value.get("id") if isinstance(line.value, dict) else None
        return {"id": case_id, "line": line.number, "error": str(exc)}


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
