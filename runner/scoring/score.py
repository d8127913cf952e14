"""`tripwright score`: every trial of a runs file against the oracle, and the run's summary.

The oracle is solved first, once per distinct (task, table) the trials need, `concurrency` at a
time in worker processes forked from a fork server that imported this module (all through the
disk cache, so a re-run solves nothing); then every trial is scored in this process from the
cache. Scored lines are in task-file order, then by
trial, so the output does not depend on the order the trials were run in. Lines of the runs
file that are not records (a torn last line of a run still going on) and records whose task is
not in the tasks file (the oracle needs the whole task) are skipped and reported.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.loading.benchmark_data import load_sandbox_world, task_poi_db
from runner.loading.files import JsonLine, atomic_write_bytes, dumps_line, iter_jsonl
from runner.scoring.oracle_cache import OracleCache
from runner.scoring.summary import summarize
from runner.scoring.trial import TaskContext, score_record, trial_tables
from sandbox.world.world import World
from solver.oracle.result import BOTH_VALID, STRICT_BEST
from verifier.model.task import Task
from verifier.official.poi_db import PoiDb


@dataclass(frozen=True)
class ScoreJob:
    """Where the world is, the cached oracle, and how many oracle solves run at once."""

    world_dir: Path
    oracle: OracleCache
    concurrency: int = 1
    profile: str = "strict"
    """Whose oracle witness the figures use: the strict-best plan (`strict`) or the best plan
    valid under both profiles (`official`)."""


@dataclass
class ScoredRun:
    """The scored lines, the summary and the runs-file lines that could not be read."""

    lines: list[dict[str, Any]]
    summary: dict[str, Any]
    skipped: list[dict[str, Any]] = field(default_factory=list)


Numbered = tuple[int, dict[str, Any]]
"""A record and its line number in the runs file."""


def read_records(lines: Iterable[JsonLine]) -> tuple[list[Numbered], list[dict[str, Any]]]:
    """(numbered records, skipped `{line, error}`) of a runs file's lines."""
    records: list[Numbered] = []
    skipped: list[dict[str, Any]] = []
    for line in lines:
        if line.error is not None:
            skipped.append({"line": line.number, "error": f"not valid JSON ({line.error})"})
        elif not isinstance(line.value, dict) or not isinstance(line.value.get("task_id"), str):
            skipped.append({"line": line.number, "error": "not a run record (a JSON object with task_id)"})
        else:
            records.append((line.number, line.value))
    return records, skipped


def score_records(records: list[Numbered], tasks: Mapping[str, Task], job: ScoreJob) -> ScoredRun:
    """Score every record whose task is in `tasks` (the others are skipped: the oracle needs the
    whole task), in task-file order, then by trial."""
    world = load_sandbox_world(job.world_dir)
    order = {task_id: k for k, task_id in enumerate(tasks)}
    skipped = [
        {"line": number, "error": f"task {record['task_id']!r} is not in --tasks"}
        for number, record in records
        if record["task_id"] not in tasks
    ]
    known = sorted((r for _, r in records if r["task_id"] in tasks), key=lambda r: _position(r, order))
    presolve([(tasks[r["task_id"]], table) for r in known for table in _tables(r, tasks[r["task_id"]])], job)
    databases: dict[tuple[str, ...], PoiDb] = {}
    lines = []
    for record in known:
        task = tasks[record["task_id"]]
        context = TaskContext(task, world, _poi_db(world, task, databases), job.oracle, job.profile)
        lines.append(score_record(record, context))
    witness = {"profile": job.profile, "plan": BOTH_VALID if job.profile == "official" else STRICT_BEST}
    return ScoredRun(lines, summarize(lines) | {"witness": witness}, skipped)


def presolve(requests: list[tuple[Task, dict[str, Any]]], job: ScoreJob) -> None:
    """Solve every distinct (task, table) not cached yet, `job.concurrency` processes at once."""
    todo: dict[str, tuple[Task, dict[str, Any]]] = {}
    for task, table in requests:
        if job.oracle.lookup(task.task_id, table) is None:
            todo.setdefault(job.oracle.key(task.task_id, table), (task, table))
    if job.concurrency <= 1 or len(todo) <= 1:
        return  # scoring solves them in turn through the cache
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    with ProcessPoolExecutor(min(job.concurrency, len(todo)), mp_context=context) as pool:
        futures = [pool.submit(_solve_in_worker, job, task, table) for task, table in todo.values()]
        for future in futures:
            future.result()


_WORLDS: dict[Path, World] = {}


def _solve_in_worker(job: ScoreJob, task: Task, table: dict[str, Any]) -> None:
    if job.world_dir not in _WORLDS:
        _WORLDS[job.world_dir] = load_sandbox_world(job.world_dir)
    job.oracle.solve(task, _WORLDS[job.world_dir], table)


def _tables(record: dict[str, Any], task: Task) -> list[dict[str, Any]]:
    tables = trial_tables(record, task)
    return [] if tables is None else list(tables.values())


def _position(record: dict[str, Any], order: Mapping[str, int]) -> tuple[int, int]:
    trial = record.get("trial", record.get("trial_id"))
    return order[record["task_id"]], trial if isinstance(trial, int) else -1


def _poi_db(world: World, task: Task, databases: dict[tuple[str, ...], PoiDb]) -> PoiDb:
    """The official POI file of the task's cities (departure city included), built once per city set."""
    cities = (task.metadata.departure_city, *task.metadata.cities)
    if cities not in databases:
        databases[cities] = task_poi_db(world, task)
    return databases[cities]


def summary_path(out: Path) -> Path:
    """Where the summary of `--out FILE` goes: `FILE` with the suffix `.summary.json`."""
    return out.with_name(out.stem + ".summary.json")


def write_scored(run: ScoredRun, out: Path) -> None:
    """The scored lines to `out` and the summary beside it, each written atomically."""
    atomic_write_bytes(out, b"".join(dumps_line(line) for line in run.lines))
    atomic_write_bytes(summary_path(out), dumps_line(run.summary))


def score_file(path: Path, tasks: Mapping[str, Task], job: ScoreJob) -> ScoredRun:
    """Read a runs file and score its records; unreadable lines are listed in `skipped`."""
    records, unreadable = read_records(iter_jsonl(path))
    run = score_records(records, tasks, job)
    run.skipped = sorted([*unreadable, *run.skipped], key=lambda item: int(item["line"]))
    return run
