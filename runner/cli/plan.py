"""CLI `tripwright plan show`: render any plan JSON day by day for a traveller (`runner.report.plan_text`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from runner.cli.support import out, user_errors

app = typer.Typer(help="Read plans.", no_args_is_help=True)


@app.command("show")
def show_command(
    plan: Annotated[
        Path, typer.Argument(help="Plan JSON (GroupTravelBench shape; malformed parts are listed).")
    ],
    task: Annotated[
        Path | None,
        typer.Option("--task", help="Task (JSON, or JSONL with --task-id): names the travellers."),
    ] = None,
    task_id: Annotated[str | None, typer.Option("--task-id", help="Task to pick from a JSONL file.")] = None,
    width: Annotated[
        int | None,
        typer.Option(
            "--width", min=40, metavar="<int>", help="Columns (default: the terminal's; 80 when piped)."
        ),
    ] = None,
) -> None:
    """Show a plan day by day: times, places, who, cost per person, the night's hotel, totals."""
    from runner.loading.benchmark_data import load_task
    from runner.loading.files import read_json
    from runner.report.plan_text import render_plan

    with user_errors():
        raw = read_json(plan)
        loaded = None if task is None else load_task(task, task_id)
    out(width).print(render_plan(raw, loaded))
