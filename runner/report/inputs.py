"""The report's inputs, read with structured errors: runs, scored trials, oracle, judge, tasks.

Run and scored lines that are not JSON objects are skipped and listed (a torn last line of an
interrupted run is the usual case); a scored, oracle or judged file that is not of its kind is
an `InputError`. Trials are named by (task id, trial) where the trial is the record's `trial`,
else its `trial_id`, as text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.judge.batch import read_judged
from runner.loading.files import InputError, iter_jsonl
from verifier.model.task import Task

Record = dict[str, Any]
Key = tuple[str, str]


def trial_key(record: Mapping[str, Any]) -> Key:
    """(task id, trial) of a run, scored or judged line."""
    trial = record.get("trial", record.get("trial_id"))
    return str(record.get("task_id", "")), str(trial)


@dataclass(frozen=True)
class Skipped:
    """A line left out: which file, which line, why."""

    path: str
    line: int
    problem: str


@dataclass(frozen=True)
class Inputs:
    """Everything the report reads; optional parts are None when not given."""

    runs: list[Record]
    scored: list[Record] | None = None
    oracle: dict[str, Record] | None = None
    judged: list[Record] | None = None
    tasks: Mapping[str, Task] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)

    def difficulty(self, task_id: str, row: Mapping[str, Any] | None = None) -> str:
        """A task's difficulty: the scored row's, else the task file's, else "unknown"."""
        found = None if row is None else row.get("difficulty")
        task = self.tasks.get(task_id)
        return str(found or (task.difficulty_type if task is not None else None) or "unknown")


def read_objects(path: Path, skipped: list[Skipped]) -> list[Record]:
    """The JSON-object lines of a JSONL file; other lines are added to `skipped`."""
    records: list[Record] = []
    for line in iter_jsonl(path):
        if line.error is None and isinstance(line.value, dict):
            records.append(line.value)
        else:
            skipped.append(Skipped(str(path), line.number, line.error or "not a JSON object"))
    return records


def read_runs(path: Path, skipped: list[Skipped]) -> list[Record]:
    """Run records (each must name its `task_id`); an empty file is an error."""
    runs = read_objects(path, skipped)
    for number, record in enumerate(runs, start=1):
        if not isinstance(record.get("task_id"), str):
            raise InputError(path, "a run record must have a text task_id", where=f"record {number}")
    if not runs:
        raise InputError(path, "no run record in the file")
    return runs


def read_scored(path: Path, skipped: list[Skipped]) -> list[Record]:
    """`tripwright score` lines (each must carry `task_id` and `gu`)."""
    rows = read_objects(path, skipped)
    for number, row in enumerate(rows, start=1):
        if "task_id" not in row or "gu" not in row:
            raise InputError(path, "not a scored line (needs task_id and gu)", where=f"record {number}")
    return rows


def read_oracle(path: Path, skipped: list[Skipped]) -> dict[str, Record]:
    """`tripwright oracle` records by task (the last record of a task wins; error lines are skipped)."""
    records: dict[str, Record] = {}
    for number, line in enumerate(read_objects(path, skipped), start=1):
        if not isinstance(line.get("task_id"), str):
            raise InputError(path, "not a tripwright oracle line (no task_id)", where=f"record {number}")
        if "status" in line:
            records[line["task_id"]] = line
    return records


def read_judged_lines(path: Path) -> list[Record]:
    """`tripwright judge` lines, the last line of a trial winning."""
    return list(read_judged(path).values())


def load_inputs(
    runs: Path,
    *,
    scored: Path | None = None,
    oracle: Path | None = None,
    judged: Path | None = None,
    tasks: Mapping[str, Task] | None = None,
) -> Inputs:
    """Read every given file (InputError for a file that cannot be used)."""
    skipped: list[Skipped] = []
    return Inputs(
        runs=read_runs(runs, skipped),
        scored=None if scored is None else read_scored(scored, skipped),
        oracle=None if oracle is None else read_oracle(oracle, skipped),
        judged=None if judged is None else read_judged_lines(judged),
        tasks=tasks or {},
        skipped=skipped,
    )
