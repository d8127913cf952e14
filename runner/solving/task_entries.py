"""The oracle's inputs, read leniently: every task of a file as an entry that either holds a
Task or says which field is wrong, so one malformed task never stops a batch.

A task file is one JSON object, a JSON array of tasks, or JSON Lines. An entry's `where` is
`line N` (JSONL) or `task N` (array / object). Preference tables (`--table FILE`) are read
here too: a JSON object keyed by task_id whose values are tables keyed by user; when a single
task is solved, the table itself (keyed by user) is accepted as well.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from pydantic import ValidationError

from runner.loading.files import InputError, iter_jsonl_bytes, read_bytes, read_json
from verifier.errors import StructuredError
from verifier.model.task import Task

WHOLE = "$"
"""The field named when a task as a whole is unusable (not JSON, not an object)."""


@dataclass(frozen=True, slots=True)
class TaskError:
    """What is wrong with one task: the field (dotted path, `$` for the whole task) and why."""

    field: str
    problem: str


@dataclass(frozen=True, slots=True)
class TaskEntry:
    """One task of the file: its place, its id when it has one, and the Task or its error."""

    where: str
    task_id: str | None
    task: Task | None = None
    error: TaskError | None = None


def read_task_entries(path: str | Path) -> list[TaskEntry]:
    """Every task of the file in order; InputError only when the file itself is unusable."""
    data = read_bytes(path)
    try:
        whole = orjson.loads(data)
    except orjson.JSONDecodeError:
        values = [(f"line {line.number}", line.value, line.error) for line in iter_jsonl_bytes(data)]
    else:
        items = whole if isinstance(whole, list) else [whole]
        values = [(f"task {k}", value, None) for k, value in enumerate(items, start=1)]
    if not values:
        raise InputError(path, "no task in the file")
    entries: list[TaskEntry] = []
    first_seen: dict[str, str] = {}
    for where, value, error in values:
        entry = _entry(where, value, error)
        task_id = entry.task_id
        if task_id is not None and entry.error is None:
            if task_id in first_seen:
                problem = f"duplicate task_id {task_id!r} (first at {first_seen[task_id]})"
                entry = TaskEntry(where, task_id, error=TaskError("task_id", problem))
            else:
                first_seen[task_id] = where
        entries.append(entry)
    return entries


def _entry(where: str, value: Any, error: str | None) -> TaskEntry:
    if error is not None:
        return TaskEntry(where, None, error=TaskError(WHOLE, f"not valid JSON ({error})"))
    if not isinstance(value, dict):
        problem = f"a task must be a JSON object, got {type(value).__name__}"
        return TaskEntry(where, None, error=TaskError(WHOLE, problem))
    raw_id = value.get("task_id")
    task_id = raw_id if isinstance(raw_id, str) else None
    try:
        task = Task.model_validate(value)
    except ValidationError as exc:
        return TaskEntry(where, task_id, error=_validation_error(exc))
    return TaskEntry(where, task.task_id, task=task)


def _validation_error(exc: ValidationError) -> TaskError:
    """The first problem's field; the others follow in the problem text as `field: problem`."""
    errors = exc.errors()
    fields = [".".join(str(part) for part in error["loc"]) or WHOLE for error in errors]
    others = [f"{field}: {error['msg']}" for field, error in zip(fields[1:], errors[1:], strict=True)]
    return TaskError(fields[0], "; ".join([errors[0]["msg"], *others]))


def select(entries: list[TaskEntry], task_id: str | None, path: str | Path) -> list[TaskEntry]:
    """All entries, or those with `task_id` (InputError when there is none)."""
    if task_id is None:
        return entries
    chosen = [entry for entry in entries if entry.task_id == task_id]
    if not chosen:
        raise InputError(path, f"unknown task id {task_id!r} ({len(entries)} tasks in the file)")
    return chosen


def read_tables(path: str | Path, entries: list[TaskEntry]) -> dict[str, Any]:
    """Preference tables by task_id from a `--table FILE` (see the module docstring)."""
    value = read_json(path)
    if not isinstance(value, dict):
        raise InputError(path, "a table file must be a JSON object keyed by task_id (or by user)")
    ids = [entry.task_id for entry in entries if entry.task_id is not None]
    if any(task_id in value for task_id in ids):
        return value
    if len(entries) == 1 and ids:
        return {ids[0]: value}
    raise InputError(path, "no key is a task_id of the batch (a table keyed by user needs --task-id)")


def table_for(tables: Mapping[str, Any] | None, entry: TaskEntry, label: str) -> dict[str, Any] | None:
    """The task's table from `tables` (None: the task's own); TaskError when it lacks one."""
    if tables is None or entry.task_id is None:
        return None
    table = tables.get(entry.task_id)
    if not isinstance(table, dict):
        problem = f"{label} has no table (a JSON object keyed by user) for this task"
        raise TableError(TaskError("table", problem))
    return table


class TableError(StructuredError):
    """A task the `--table` file has no usable table for."""

    def __init__(self, error: TaskError) -> None:
        super().__init__(error.field, error.problem)
        self.error = error
