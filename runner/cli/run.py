"""CLI command `run`: benchmark trials, resumable, scored at the end (`--score`, as `score` does)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from runner.cli.score import Cache, OracleLimit, Tasks, World, positive, report_tasks, show_scored
from runner.cli.support import EXIT_BAD_INPUT, EXIT_INVALID, EXIT_OK, err, fail, user_errors

if TYPE_CHECKING:
    from runner.runs.run import RunOutcome
    from runner.runs.tasks import RunTasks


class Users(StrEnum):
    llm = "llm"
    rules = "rules"


class Backend(StrEnum):
    local = "local"
    ray = "ray"


def run_command(
    *,
    tasks: Tasks,
    world: World,
    agent: Annotated[str, typer.Option(help="Agent name: oracle, scripted, silent, random, or openai.")],
    out_file: Annotated[Path, typer.Option("--out", help="Runs JSONL (appended; re-running resumes).")],
    users: Annotated[Users, typer.Option(help="Simulated users.")] = Users.rules,
    trials: Annotated[int, typer.Option(help="Trials per task (≥ 1).")] = 3,
    concurrency: Annotated[int, typer.Option(help="Trials played at once (≥ 1).")] = 1,
    backend: Annotated[Backend, typer.Option(help="Play here or on a Ray cluster.")] = Backend.local,
    seed: Annotated[int, typer.Option(help="Run seed; trial seeds derive from it.")] = 0,
    task_id: Annotated[
        list[str] | None, typer.Option("--task-id", metavar="<str>", help="Run only this task (repeatable).")
    ] = None,
    oracle_time_limit: OracleLimit = 60.0,
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible endpoint.")] = None,
    model: Annotated[str | None, typer.Option(help="Model name at the endpoint.")] = None,
    api_key_env: Annotated[str, typer.Option(help="Environment variable holding the API key.")] = (
        "OPENAI_API_KEY"
    ),
    temperature: Annotated[float | None, typer.Option(help="Sampling temperature.")] = None,
    restart: Annotated[bool, typer.Option(help="Discard the lines already in --out.")] = False,
    score: Annotated[bool, typer.Option(help="Score the run against the oracle at the end.")] = True,
    scored: Annotated[
        Path | None, typer.Option(help="Scored JSONL (default: --out with suffix .scored.jsonl).")
    ] = None,
    cache: Cache = None,
    tool_faults: Annotated[
        str | None, typer.Option(help="Inject tool faults: every:N (every N-th call) or rate:P (seeded).")
    ] = None,
) -> None:
    """Play every task × trial not yet in --out; one JSON line per trial as it completes. Exit 0
    all trials succeeded, 1 some failed or were lost, 2 bad input (the other tasks still run)."""
    from rich.markup import escape

    from runner.runs.config import ModelOptions, RunConfig
    from runner.runs.pool import WorkerLostError
    from runner.runs.run import Execution, run_trials
    from runner.runs.setup import check_setup, default_pool, make_job
    from runner.runs.tasks import read_run_tasks
    from runner.scoring.oracle_cache import default_cache_dir
    from runner.scoring.score import ScoreJob, score_file, write_scored

    positive("--trials", trials)
    positive("--concurrency", concurrency)
    positive("--oracle-time-limit", oracle_time_limit)
    _check_faults(tool_faults)
    options = ModelOptions(base_url, model, api_key_env, temperature)
    config = RunConfig(
        agent, users.value, seed, options, oracle_time_limit=oracle_time_limit, tool_faults=tool_faults
    )
    with user_errors():
        read = read_run_tasks(tasks, task_id or ())
        job = make_job(config, world, cache or default_cache_dir())
        check_setup(job, read.runnable)
    report_tasks(read)
    execution = Execution(concurrency, backend.value, default_pool(job.config))
    with user_errors(), _progress("run") as advance:
        try:
            outcome = run_trials(
                job,
                read.runnable,
                trials=trials,
                out=out_file,
                execution=execution,
                select=read.selected,
                restart=restart,
                on_record=lambda record, so_far: advance(str(record.get("task_id")), so_far.planned),
            )
        except WorkerLostError as exc:
            err().print(f"[red]error:[/] {escape(str(exc))}", soft_wrap=True)
            raise typer.Exit(EXIT_INVALID) from exc
    err().print(_run_summary(outcome), soft_wrap=True)
    if score:
        target = scored or out_file.with_name(out_file.stem + ".scored.jsonl")
        with user_errors():
            tasks_by_id = {entry.task.task_id: entry.task for entry in read.runnable}
            result = score_file(out_file, tasks_by_id, ScoreJob(world, job.oracle, concurrency))
            write_scored(result, target)
        show_scored(result, target, json_out=False)
    raise typer.Exit(_exit_code(read, outcome))


def _check_faults(text: str | None) -> None:
    """Refuse a malformed --tool-faults before any trial."""
    from runner.episode.faults import FaultSpec, FaultSpecError

    if text is not None:
        try:
            FaultSpec.parse(text)
        except FaultSpecError as exc:
            fail(f"--tool-faults: {text!r}: {exc.problem}")


@contextmanager
def _progress(label: str) -> Iterator[Callable[[str, int], None]]:
    """A progress bar on stderr when it is a terminal; yields `advance(description, total)`."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err(), disable=not sys.stderr.isatty(), transient=True) as bar:
        progress = bar.add_task(label, total=None)

        def advance(description: str, total: int) -> None:
            bar.update(progress, advance=1, total=total, description=f"{label} {description}")

        yield advance


def _run_summary(outcome: RunOutcome) -> str:
    found = outcome.resumed
    reasons = ", ".join(f"{count} {reason}" for reason, count in sorted(outcome.completion.items()))
    parts = [
        f"{outcome.written} of {outcome.planned} trials written ({reasons or 'none'})",
        f"{len(found.done)} already done",
    ]
    if found.purged:
        parts.append(f"{found.purged} retryable failures re-run")
    if found.torn_bytes:
        parts.append(f"a torn last line cut ({found.torn_bytes} bytes)")
    if outcome.lost:
        parts.append(f"{len(outcome.lost)} lost with their worker (run again to resume)")
    return "run: " + "; ".join(parts)


def _exit_code(read: RunTasks, outcome: RunOutcome) -> int:
    if read.problems:
        return EXIT_BAD_INPUT
    return EXIT_INVALID if outcome.failed or outcome.lost else EXIT_OK
