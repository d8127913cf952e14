"""CLI command `score`: a runs file scored under both profiles and against the oracle (GU/GU*,
regret, losses). Its options and summary view are shared with `run --score`."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from runner.cli.support import EXIT_BAD_INPUT, EXIT_OK, err, fail, out, print_json, user_errors

if TYPE_CHECKING:
    from rich.console import Console

    from runner.runs.tasks import RunTasks
    from runner.scoring.score import ScoredRun
    from runner.solving.task_entries import TaskEntry


class WitnessProfile(StrEnum):
    """The profile `score` compares with the oracle under (which oracle plan it uses)."""

    strict = "strict"
    official = "official"


Tasks = Annotated[Path, typer.Option(help="Tasks: one JSON object, a JSON array or JSONL.")]
World = Annotated[Path, typer.Option(help="World directory (tripwright world build).")]
OracleLimit = Annotated[float, typer.Option(help="Seconds of CP-SAT per oracle solve (> 0).")]
Cache = Annotated[
    Path | None, typer.Option(help="Oracle cache directory (default ~/.cache/tripwright/oracle).")
]


def score_command(
    *,
    runs: Annotated[Path, typer.Argument(help="Runs JSONL (tripwright run output, or official inference).")],
    tasks: Tasks,
    world: World,
    out_file: Annotated[Path, typer.Option("--out", help="Scored JSONL (the summary goes beside it).")],
    oracle_time_limit: OracleLimit = 60.0,
    cache: Cache = None,
    concurrency: Annotated[int, typer.Option(help="Oracle solves at once (processes, ≥ 1).")] = 1,
    profile: Annotated[
        WitnessProfile,
        typer.Option(help="Oracle witness: strict-best plan (strict) or the both-valid plan (official)."),
    ] = WitnessProfile.strict,
    json_out: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Score every trial under both profiles and against the oracle (GU/GU*, regret, losses).
    Exit 0 done, 2 bad input (tasks that do not load are reported; the others are scored)."""
    from runner.runs.tasks import read_run_tasks
    from runner.scoring.oracle_cache import OracleCache, default_cache_dir, world_hash
    from runner.scoring.score import ScoreJob, score_file, write_scored
    from solver.oracle.solve import OracleSettings

    positive("--oracle-time-limit", oracle_time_limit)
    positive("--concurrency", concurrency)
    with user_errors():
        read = read_run_tasks(tasks)
        settings = OracleSettings(time_limit=oracle_time_limit)
        oracle = OracleCache(cache or default_cache_dir(), world_hash(world), settings)
        tasks_by_id = {entry.task.task_id: entry.task for entry in read.runnable}
        result = score_file(runs, tasks_by_id, ScoreJob(world, oracle, concurrency, profile.value))
        write_scored(result, out_file)
    report_tasks(read)
    show_scored(result, out_file, json_out=json_out)
    raise typer.Exit(EXIT_BAD_INPUT if read.problems else EXIT_OK)


def positive(option: str, value: float) -> None:
    """Refuse a non-positive number for `option`."""
    if value <= 0:
        fail(f"{option}: must be positive, not {value:g}")


def report_tasks(read: RunTasks) -> None:
    """Print on stderr each task that did not load."""
    from rich.markup import escape

    for entry in read.problems:
        err().print(f"[red]error:[/] {escape(_task_error(entry))}", soft_wrap=True)


def _task_error(entry: TaskEntry) -> str:
    place = f"task {entry.task_id} ({entry.where})" if entry.task_id else entry.where
    error = entry.error
    return f"{place}: {error.field}: {error.problem}" if error is not None else place


def show_scored(result: ScoredRun, target: Path, *, json_out: bool) -> None:
    """The scored run: skipped lines on stderr, then the summary (JSON or a table)."""
    from rich.markup import escape

    from runner.scoring.score import summary_path

    for item in result.skipped:
        err().print(f"skipped line {item['line']}: {escape(item['error'])}", soft_wrap=True)
    if json_out:
        print_json(result.summary)
        return
    console = out()
    console.print(
        f"scored {len(result.lines)} trials → {escape(str(target))} (summary: {summary_path(target).name})"
    )
    witness = result.summary["witness"]
    console.print(f"oracle witness: the {witness['plan']} plan (profile {witness['profile']})")
    _summary_table(console, result.summary)


SUMMARY_COLUMNS = ("trials", "plans", "strict ok", "optimal", "GU/GU*", "median", "regret")


def _summary_table(console: Console, summary: dict[str, Any]) -> None:
    from rich.markup import escape
    from rich.table import Table

    table = Table("group", *SUMMARY_COLUMNS, title="against the oracle (shares of trials; GU/GU*: mean)")
    rows = [("overall", summary["overall"]), *summary["by_difficulty"].items()]
    for name, group in rows:
        table.add_row(
            escape(name),
            str(group["trials"]),
            str(group["plans"]),
            _percent(group["acceptable_rate"]),
            _percent(group["optimality_rate"]),
            _number(group["gu_ratio"]["mean"]),
            _number(group["gu_ratio"]["median"]),
            _number(group["regret"]["mean"]),
        )
    console.print(table)


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.1f}%"


def _number(value: float | None) -> str:
    return "—" if value is None else f"{value:g}"
