"""The tasks of a run, read leniently: a malformed task is reported by field and left out, the
others run.

Beyond loading (`runner.solving.task_entries.read_task_entries`), a task must pass the official
runner's input checks (docs/runner.md#runs): a query, at least one user preference table and at least
one opening message. `task_index` is the task's position in the file, from 0, counting every
entry (malformed ones too), so indices do not shift when a bad line is fixed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from runner.loading.files import InputError
from runner.solving.task_entries import TaskEntry, TaskError, read_task_entries
from verifier.model.task import Task


@dataclass(frozen=True, slots=True)
class RunTask:
    """A task that can run, with its position in the file."""

    index: int
    task: Task


@dataclass(frozen=True, slots=True)
class RunTasks:
    """Every runnable task of the file (file order), the ids chosen to run (empty: all) and the
    chosen entries that cannot run, each with its error."""

    runnable: list[RunTask]
    selected: frozenset[str]
    problems: list[TaskEntry]


def input_problem(task: Task) -> TaskError | None:
    """The first official input check the task fails (docs/runner.md#runs), or None."""
    if not task.query.strip():
        return TaskError("query", "empty: the agent would have no request to plan for")
    if not task.user_preferences:
        return TaskError("user_preferences", "empty: the group has no traveller to simulate")
    if not task.initial_messages:
        return TaskError("initial_messages", "empty: the chat has no opening message")
    return None


def read_run_tasks(path: str | Path, task_ids: Sequence[str] = ()) -> RunTasks:
    """Every task of the file, the `task_ids` chosen (all when empty) and the problems of the
    chosen entries; InputError when the file is unusable or a chosen id is not in it. All runnable
    tasks are kept so that a resume checks every line of the output against its task."""
    entries = read_task_entries(path)
    known = {entry.task_id for entry in entries}
    for task_id in task_ids:
        if task_id not in known:
            raise InputError(path, f"unknown task id {task_id!r} ({len(entries)} tasks in the file)")
    runnable: list[RunTask] = []
    problems: list[TaskEntry] = []
    for index, entry in enumerate(entries):
        error = entry.error if entry.task is None else input_problem(entry.task)
        if entry.task is not None and error is None:
            runnable.append(RunTask(index, entry.task))
        elif not task_ids or entry.task_id in task_ids:
            problems.append(TaskEntry(entry.where, entry.task_id, error=error or TaskError("$", "no task")))
    return RunTasks(runnable, frozenset(task_ids), problems)
