"""CLI commands over oracle records: `oracle` (best plans and proven GU bounds for a task set,
appended to a resumable record file) and `certify` (each record's bound recomputed from its
multipliers)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from runner.cli.support import err, fail, user_errors

if TYPE_CHECKING:
    from rich.console import Console

    from runner.loading.files import JsonLine
    from runner.solving.batch import OracleJob, Tally
    from runner.solving.log import Appender
    from runner.solving.task_entries import TaskEntry
    from sandbox.world.world import World

ORIGINAL = "original"
"""`--table` value for each task's own preferences."""


class Objective(StrEnum):
    gu = "gu"
    maxmin = "maxmin"
    frontier = "frontier"
    ceiling = "ceiling"


class Backend(StrEnum):
    local = "local"
    ray = "ray"


def oracle_command(
    *,
    tasks: Annotated[Path, typer.Option(help="Tasks: one JSON object, a JSON array or JSONL.")],
    world: Annotated[Path, typer.Option(help="World directory (tripwright world build).")],
    task_id: Annotated[str | None, typer.Option("--task-id", help="Solve only this task.")] = None,
    time_limit: Annotated[float, typer.Option(help="Seconds of CP-SAT per task (> 0).")] = 60.0,
    workers: Annotated[int, typer.Option(help="CP-SAT workers per task (1: reproducible for a seed).")] = 1,
    seed: Annotated[int, typer.Option(help="CP-SAT random seed.")] = 0,
    splits: Annotated[bool, typer.Option(help="Allow subgroup splits.")] = True,
    objective: Annotated[Objective, typer.Option(help="What to maximise.")] = Objective.gu,
    table: Annotated[
        str, typer.Option(help="'original' (each task's preferences) or a JSON file of tables by task_id.")
    ] = ORIGINAL,
    out_file: Annotated[
        Path | None, typer.Option("--out", help="Append the JSONL here; re-running resumes.")
    ] = None,
    backend: Annotated[Backend, typer.Option(help="Run here or on a Ray cluster.")] = Backend.local,
) -> None:
    """Solve every task: one JSON line each (record or error). Exit 0 all solved, 1 some failed,
    2 none has a record or bad input."""
    from runner.loading.benchmark_data import load_sandbox_world
    from runner.solving.batch import Tally, make_job
    from runner.solving.log import Appender, Resume, resume
    from runner.solving.task_entries import read_tables, read_task_entries, select
    from solver.oracle.solve import OracleSettings

    if time_limit <= 0:
        fail(f"--time-limit: must be positive, not {time_limit:g}")
    if workers < 1:
        fail(f"--workers: must be at least 1, not {workers}")
    settings = OracleSettings(
        time_limit=time_limit, workers=workers, seed=seed, splits=splits, objective=objective.value
    )
    with user_errors():
        entries = select(read_task_entries(tasks), task_id, tasks)
        table_path = None if table == ORIGINAL else Path(table)
        tables = None if table_path is None else read_tables(table_path, entries)
        loaded = load_sandbox_world(world)
        job = make_job(settings, world, table_path, tables)
        done = Resume(frozenset(), 0) if out_file is None else resume(out_file, job.settings_hash)
        appender = None if out_file is None else Appender(out_file)
    if done.torn_bytes:
        err().print(f"note: {out_file}: cut off a torn last line ({done.torn_bytes} bytes)", soft_wrap=True)
    todo = [entry for entry in entries if entry.task_id not in done.finished]
    tally = Tally(skipped=len(entries) - len(todo))
    try:
        with user_errors():
            lines = _lines(todo, job, backend, loaded)
            _write_all(lines, len(todo), tally, appender)
    finally:
        if appender is not None:
            appender.close()
    err().print(tally.summary(), soft_wrap=True)
    raise typer.Exit(tally.exit_code())


def _lines(todo: list[TaskEntry], job: OracleJob, backend: Backend, world: World) -> Iterator[dict[str, Any]]:
    from runner.solving.batch import run_local

    if backend is Backend.ray and todo:
        from runner.solving.ray_backend import run_ray  # Ray is an optional dependency

        return run_ray(todo, job)
    return run_local(todo, job, world)


def _write_all(lines: Iterable[dict[str, Any]], total: int, tally: Tally, appender: Appender | None) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from runner.loading.files import dumps_line

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err(), disable=not sys.stderr.isatty(), transient=True) as bar:
        progress = bar.add_task("oracle", total=total)
        for line in lines:
            if appender is None:
                sys.stdout.write(dumps_line(line).decode())
                sys.stdout.flush()
            else:
                appender.append(line)
            tally.add(line)
            if "error" in line:
                _report(bar.console, line)
            bar.update(progress, advance=1, description=f"oracle {line.get('task_id') or ''}")


def _report(console: Console, line: dict[str, Any]) -> None:
    """One stderr line naming the task and the field (through the progress bar's console)."""
    from rich.markup import escape

    task = f"task {line['task_id']} ({line['where']})" if line["task_id"] else line["where"]
    error = line["error"]
    console.print(
        f"[red]error:[/] {escape(task)}: {escape(error['field'])}: {escape(error['problem'])}", soft_wrap=True
    )


def certify_command(
    *,
    oracle_file: Annotated[
        Path, typer.Option("--oracle", help="Oracle records (JSONL of tripwright oracle).")
    ],
    tasks: Annotated[Path, typer.Option(help="The tasks the records were solved for.")],
    world: Annotated[Path, typer.Option(help="The world they were solved in.")],
    seconds: Annotated[
        float, typer.Option(help="Deterministic seconds CP-SAT may spend on one block and team (> 0).")
    ] = 10.0,
) -> None:
    """Recompute every record's bound from its multipliers with an independent block solver:
    one JSON line per record (certified, the stored and recomputed bounds, the problem). Exit 0
    all certified, 1 some not, 2 bad input."""
    from runner.loading.benchmark_data import load_sandbox_world
    from runner.loading.files import dumps_line, iter_jsonl_bytes, read_bytes
    from runner.solving.task_entries import read_task_entries

    if seconds <= 0:
        fail(f"--seconds: must be positive, not {seconds:g}")
    with user_errors():
        entries = {entry.task_id: entry for entry in read_task_entries(tasks) if entry.task_id is not None}
        loaded = load_sandbox_world(world)
        lines = list(iter_jsonl_bytes(read_bytes(oracle_file)))
    if not lines:
        fail(f"--oracle: {oracle_file}: no record in the file")
    certified = 0
    for line in lines:
        result = _certify_line(line, entries, loaded, seconds)
        certified += bool(result["certified"])
        sys.stdout.write(dumps_line(result).decode())
    err().print(f"certified {certified} of {len(lines)} records", soft_wrap=True)
    raise typer.Exit(0 if certified == len(lines) else 1)


def _certify_line(
    line: JsonLine, entries: dict[str, TaskEntry], world: World, seconds: float
) -> dict[str, Any]:
    """One record's certificate, or why it cannot be checked (a problem, never a crash)."""
    from solver.oracle.certify import certify_record

    number, value, error = line.number, line.value, line.error
    task_id = value.get("task_id") if isinstance(value, dict) else None
    problem = None
    if error is not None:
        problem = f"line {number} is not JSON ({error})"
    elif isinstance(value, dict) and "error" in value:
        problem = f"line {number} is an error line, not a record"
    elif not isinstance(value, dict) or not isinstance(task_id, str):
        problem = f"line {number} is not an oracle record (no task_id)"
    elif task_id not in entries or entries[task_id].task is None:
        problem = f"no usable task {task_id!r} in --tasks"
    if problem is not None:
        return {"task_id": task_id, "certified": False, "bound": None, "recomputed": None, "problem": problem}
    assert isinstance(task_id, str) and isinstance(value, dict)
    task = entries[task_id].task
    assert task is not None
    return certify_record(task, world, value, seconds=seconds).to_json()
