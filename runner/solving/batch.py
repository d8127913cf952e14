"""`tripwright oracle`: one output line per task — the oracle's record, or a structured error.

A record is `OracleResult.to_json()` plus `settings_hash`; an error line is `{task_id, where,
error: {field, problem}, settings_hash}`. The hash covers everything that changes a record:
the `OracleSettings`, the preference table source (`original` or the table file's bytes) and
the world (its `manifest.json`, which holds every city file's sha256). Backends: `run_local`
here, `runner.solving.ray_backend.run_ray` on a Ray cluster; both yield lines in task order.
"""

from __future__ import annotations

import dataclasses
import hashlib
import statistics
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from runner.loading.benchmark_data import task_poi_db
from runner.loading.files import read_bytes
from runner.solving.log import HASH_KEY
from runner.solving.task_entries import TableError, TaskEntry, TaskError, table_for
from sandbox.world.errors import WorldError
from sandbox.world.world import World
from solver.oracle.solve import OracleInputError, OracleSettings, solve_task

HASH_VERSION = 2
"""2: records of version 2 (the both-valid plan); a file of version-1 records is another run."""
ORIGINAL = "original"


@dataclass(frozen=True)
class OracleJob:
    """What every task of a batch shares (picklable: the Ray backend ships it to workers)."""

    settings: OracleSettings
    world_dir: str
    table_label: str = ORIGINAL
    """`original` (each task's own preferences) or the `--table` file as given."""
    tables: Mapping[str, Any] | None = None
    settings_hash: str = ""


def make_job(
    settings: OracleSettings, world_dir: Path, table: Path | None, tables: Mapping[str, Any] | None
) -> OracleJob:
    """The job with its settings hash (reads the world manifest and the table file's bytes)."""
    table_source = ORIGINAL if table is None else hashlib.sha256(read_bytes(table)).hexdigest()
    identity = {
        "version": HASH_VERSION,
        "settings": dataclasses.asdict(settings),
        "table": table_source,
        "world": hashlib.sha256(read_bytes(world_dir / "manifest.json")).hexdigest(),
    }
    digest = hashlib.sha256(orjson.dumps(identity, option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]
    label = ORIGINAL if table is None else str(table)
    return OracleJob(settings, str(world_dir), label, tables, digest)


def error_line(entry: TaskEntry, error: TaskError, job: OracleJob) -> dict[str, Any]:
    return {
        "task_id": entry.task_id,
        "where": entry.where,
        "error": {"field": error.field, "problem": error.problem},
        HASH_KEY: job.settings_hash,
    }


def solve_entry(entry: TaskEntry, job: OracleJob, world: World) -> dict[str, Any]:
    """The output line of one task. User problems (the task, its table, its places in the
    world) and oracle failures become error lines; nothing raises."""
    if entry.error is not None or entry.task is None:
        return error_line(entry, entry.error or TaskError("$", "no task"), job)
    try:
        table = table_for(job.tables, entry, job.table_label)
        official = task_poi_db(world, entry.task)
        result = solve_task(entry.task, world, job.settings, table=table, official=official)
    except TableError as exc:
        return error_line(entry, exc.error, job)
    except OracleInputError as exc:
        return error_line(entry, TaskError(exc.field, exc.problem), job)
    except WorldError as exc:
        return error_line(entry, TaskError("world", str(exc)), job)
    except Exception as exc:  # an oracle bug must not end a long batch; the line says what broke
        return error_line(entry, TaskError("oracle", f"internal error {type(exc).__name__}: {exc}"), job)
    record = dataclasses.replace(result, table=job.table_label).to_json()
    return {**record, HASH_KEY: job.settings_hash}


def run_local(entries: Iterable[TaskEntry], job: OracleJob, world: World) -> Iterator[dict[str, Any]]:
    """Solve the entries one after another in this process, in order."""
    for entry in entries:
        yield solve_entry(entry, job, world)


@dataclass
class Tally:
    """Counts of one run: records by status, errors, tasks already done, records with a plan
    valid under both profiles; solve times."""

    skipped: int = 0
    failed: int = 0
    both_valid: int = 0
    statuses: dict[str, int] = dataclasses.field(default_factory=dict)
    seconds: list[float] = dataclasses.field(default_factory=list)

    def add(self, line: Mapping[str, Any]) -> None:
        if "error" in line:
            self.failed += 1
            return
        status = str(line["status"])
        self.statuses[status] = self.statuses.get(status, 0) + 1
        self.seconds.append(float(line["seconds"]))
        self.both_valid += line.get("both_valid") is not None

    def exit_code(self) -> int:
        """0: no task failed; 1: some failed, some have a record; 2: no task has a record."""
        if not self.failed:
            return 0
        return 1 if self.skipped or self.statuses else 2

    def summary(self) -> str:
        solved = sum(self.statuses.values())
        parts = [f"{count} {status}" for status, count in sorted(self.statuses.items())]
        parts.append(f"{self.failed} failed")
        parts.append(f"{self.skipped} already done")
        median = f"; median time {statistics.median(self.seconds):.2f} s" if self.seconds else ""
        both = f"; plan valid under both profiles: {self.both_valid} of {solved}" if solved else ""
        total = solved + self.failed + self.skipped
        return f"oracle: {total} task{'s' * (total != 1)}: {', '.join(parts)}{median}{both}"
