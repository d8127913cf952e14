"""CLI `tripwright tasks infeasible` and `tripwright tasks shifts`: task variants for the runner."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from runner.cli.support import EXIT_BAD_INPUT, EXIT_OK, fail, out, print_json, user_errors

app = typer.Typer(help="Derive task variants.", no_args_is_help=True)

Tasks = Annotated[Path, typer.Option(help="Tasks: one JSON object, a JSON array or JSONL.")]
World = Annotated[Path, typer.Option(help="World directory (tripwright world build).")]
Out = Annotated[Path, typer.Option("--out", help="Variants JSONL (written atomically).")]
AtEvent = Annotated[int, typer.Option(help="Event at which a scheduled change happens (≥ 0).")]
Json = Annotated[bool, typer.Option("--json", help="Print the counts as JSON.")]
KINDS = ("budget", "closed", "no_service")


@app.command("infeasible")
def infeasible_command(
    *,
    tasks: Tasks,
    world: World,
    out_file: Out,
    kind: Annotated[
        list[str] | None,
        typer.Option(
            "--kind",
            metavar="<str>",
            help="Kind of wish: budget, closed or no_service (repeatable; default: all).",
        ),
    ] = None,
    at_event: AtEvent = 3,
    json_out: Json = False,
) -> None:
    """Variants no strict-valid plan satisfies, each with its certificate (facts from the world):
    the wish from the start (<id>~<kind>) and adopted at --at-event (<id>~<kind>@<event>)."""
    chosen = kind or list(KINDS)
    unknown = [name for name in chosen if name not in KINDS]
    if unknown:
        fail(f"--kind: unknown {', '.join(unknown)}; known: {', '.join(KINDS)}")
    _derive(tasks, world, out_file, kinds=chosen, at_event=at_event, shifts=False, json_out=json_out)


@app.command("shifts")
def shifts_command(
    *, tasks: Tasks, world: World, out_file: Out, at_event: AtEvent = 3, json_out: Json = False
) -> None:
    """Variants whose first traveller changes a must-visit at --at-event (<id>~shift@<event>)."""
    _derive(tasks, world, out_file, kinds=[], at_event=at_event, shifts=True, json_out=json_out)


def _derive(
    tasks: Path, world: Path, out_file: Path, *, kinds: list[str], at_event: int, shifts: bool, json_out: bool
) -> None:
    from runner.loading.benchmark_data import load_sandbox_world
    from runner.loading.files import atomic_write_bytes, dumps_line
    from runner.runs.tasks import read_run_tasks
    from runner.tasks.variants import derive

    if at_event < 0:
        fail(f"--at-event: must be 0 or more, not {at_event}")
    with user_errors():
        read = read_run_tasks(tasks)
        loaded = load_sandbox_world(world)
        variants, counts = derive(
            [entry.task for entry in read.runnable], loaded, kinds=kinds, at_event=at_event, shifts=shifts
        )
        atomic_write_bytes(out_file, b"".join(dumps_line(variant) for variant in variants))
    for entry in read.problems:
        where = f"task {entry.task_id} ({entry.where})" if entry.task_id else entry.where
        problem = f"{entry.error.field}: {entry.error.problem}" if entry.error is not None else ""
        out().print(f"skipped {where}: {problem}", soft_wrap=True, markup=False)
    summary = {
        "variants": len(variants),
        "tasks": len(read.runnable),
        "by_kind": counts,
        "out": str(out_file),
    }
    if json_out:
        print_json(summary)
    else:
        kinds_text = ", ".join(f"{name} {count}" for name, count in counts.items())
        out().print(
            f"{len(variants)} variants of {len(read.runnable)} tasks → {out_file} ({kinds_text})",
            markup=False,
        )
    raise typer.Exit(EXIT_BAD_INPUT if read.problems else EXIT_OK)
