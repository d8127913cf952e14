"""CLI command `rescore`: re-score saved GroupTravelBench runs with both profiles."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from runner.cli.support import EXIT_OK, JobsOpt, err, out, print_json, user_errors


def rescore_command(
    *,
    runs: Annotated[
        Path, typer.Argument(help="GroupTravelBench inference output (JSONL, one line per trial).")
    ],
    tasks: Annotated[Path, typer.Option(help="The test tasks (JSON/JSONL), for users and difficulty_type.")],
    poi_db: Annotated[Path, typer.Option("--poi-db", help="Official POI file.")],
    world: Annotated[Path | None, typer.Option(help="World directory; enables the strict profile.")] = None,
    jobs: JobsOpt = None,
    json_out: Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")] = False,
) -> None:
    """Per-task and per-difficulty scores as the official report gives them, official vs strict."""
    from rich.markup import escape

    from runner.cli import render
    from runner.loading.benchmark_data import load_poi_db, load_tasks, load_world
    from runner.loading.files import iter_jsonl
    from runner.saved.ordered_pool import default_jobs
    from runner.saved.rescore_report import rescore_lines

    with user_errors():
        document = rescore_lines(
            list(iter_jsonl(runs)),
            load_tasks(tasks),
            load_poi_db(poi_db),
            None if world is None else load_world(world),
            jobs=default_jobs() if jobs is None else jobs,
        )
    if json_out:
        print_json(document)
    else:
        render.rescore(out(), document)
        for item in document["skipped_lines"]:
            err().print(f"skipped line {item['line']}: {escape(item['error'])}")
    raise typer.Exit(EXIT_OK)
