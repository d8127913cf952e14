"""CLI commands `verify` (one plan) and `verify-batch` (a JSONL file of cases), thin wrappers
over the library."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from runner.cli.support import (
    EXIT_INVALID,
    EXIT_OK,
    WORLD_HINT,
    JobsOpt,
    fail,
    interactive,
    out,
    print_json,
    user_errors,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from verifier.official.poi_db import PoiDb
    from verifier.world_facts import WorldFacts

PROGRESS_MIN_LINES = 200


class ProfileName(StrEnum):
    official = "official"
    strict = "strict"


WorldOpt = Annotated[
    Path | None, typer.Option("--world", help="World directory (needed by --profile strict).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]


def verify_command(
    *,
    task: Annotated[Path, typer.Option("--task", help="Task JSON object, or JSONL of tasks.")],
    plan: Annotated[Path, typer.Option("--plan", help="Plan JSON (top-level `days`).")],
    task_id: Annotated[str | None, typer.Option("--task-id", help="Task to pick from a JSONL file.")] = None,
    effective: Annotated[Path | None, typer.Option(help="Effective preference table ③ (JSON).")] = None,
    inferred: Annotated[
        Path | None, typer.Option(help="Agent preference table ② (JSON); enables PC.")
    ] = None,
    profile: Annotated[ProfileName, typer.Option(help="Validity rules to apply.")] = ProfileName.official,
    poi_db: Annotated[Path | None, typer.Option("--poi-db", help="Official POI file.")] = None,
    world: WorldOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Verify one plan: exit 0 valid, 1 invalid, 2 bad input."""
    from runner.loading.benchmark_data import load_table, load_task
    from runner.loading.files import read_json
    from verifier.referee import verify

    with user_errors():
        loaded = load_task(task, task_id)
        _need_world(profile, world)
        verdict = verify(
            loaded,
            read_json(plan),
            profile=profile.value,
            poi_db=_poi_db_for(poi_db),
            world=_world(world),
            effective=None if effective is None else load_table(effective, "effective"),
            inferred=None if inferred is None else load_table(inferred, "inferred"),
        )
    if json_out:
        print_json(verdict.model_dump(mode="json"))
    else:
        from runner.cli import render  # rich tables: only for the human view

        render.verdict(out(), verdict, f"{loaded.task_id} / {plan.name}")
    raise typer.Exit(EXIT_OK if verdict.valid else EXIT_INVALID)


def _poi_db_for(path: Path | None) -> PoiDb:
    """The official POI file (scoring reads its categories in both profiles)."""
    from runner.loading.benchmark_data import load_poi_db

    if path is None:
        fail("--poi-db FILE is required (the official POI file, all_poi_by_city.json format)")
    return load_poi_db(path)


def _need_world(profile: ProfileName, world: Path | None) -> None:
    if profile is ProfileName.strict and world is None:
        fail(WORLD_HINT)


def _world(path: Path | None) -> WorldFacts | None:
    from runner.loading.benchmark_data import load_world

    return None if path is None else load_world(path)


def verify_batch_command(
    *,
    cases: Annotated[Path, typer.Argument(help="JSONL: {id, plan, task | task_id, effective?, inferred?}.")],
    poi_db: Annotated[Path, typer.Option("--poi-db", help="Official POI file.")],
    profile: Annotated[ProfileName, typer.Option(help="Validity rules to apply.")],
    tasks: Annotated[
        Path | None, typer.Option(help="Tasks (JSON/JSONL) for lines that give task_id.")
    ] = None,
    world: WorldOpt = None,
    out_file: Annotated[Path | None, typer.Option("--out", help="Write the JSONL here (atomic).")] = None,
    jobs: JobsOpt = None,
) -> None:
    """Verify every line of a JSONL file; one JSON line out per line in, in input order (the same
    bytes for any --jobs). Exit 1 if any is invalid."""
    from runner.loading.benchmark_data import load_poi_db, load_tasks
    from runner.loading.files import numbered_lines, read_bytes
    from runner.saved.ordered_pool import default_jobs
    from runner.saved.verify_cases import BatchSettings, verify_batch

    with user_errors():
        _need_world(profile, world)
        settings = BatchSettings(
            profile=profile.value,
            poi_db=load_poi_db(poi_db),
            tasks=None if tasks is None else load_tasks(tasks),
            world=_world(world),
        )
        lines = numbered_lines(read_bytes(cases))
    all_valid = True
    written: list[bytes] = []
    with (
        user_errors(),
        verify_batch(lines, settings, jobs=default_jobs() if jobs is None else jobs) as chunks,
        _progress(len(lines)) as advance,
    ):
        for chunk in chunks:
            all_valid = all_valid and chunk.all_valid
            if out_file is None:
                sys.stdout.write(chunk.data.decode())
            else:
                written.append(chunk.data)
            advance(chunk.lines)
    if out_file is not None:
        with user_errors():
            _write(out_file, b"".join(written))
    raise typer.Exit(EXIT_OK if all_valid else EXIT_INVALID)


@contextmanager
def _progress(total: int) -> Iterator[Callable[[int], None]]:
    """A transient progress bar for long batches on a terminal; yields `advance(lines)`."""
    from rich.progress import Progress

    with Progress(disable=not interactive() or total < PROGRESS_MIN_LINES, transient=True) as bar:
        job = bar.add_task("verifying", total=total)
        yield lambda lines: bar.advance(job, lines)


def _write(path: Path, data: bytes) -> None:
    from runner.loading.files import InputError, atomic_write_bytes

    try:
        atomic_write_bytes(path, data)
    except OSError as exc:
        raise InputError(path, f"cannot write: {exc.strerror}") from exc
