"""CLI commands `report` (markdown + HTML report of a runs file) and `judge` (the optional LLM judge)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from runner.cli.support import EXIT_OK, err, fail, out, print_json, user_errors

if TYPE_CHECKING:
    from runner.report.inputs import Inputs
    from sandbox.world.world import World
    from verifier.official.poi_db import PoiDb


def report_command(
    *,
    runs: Annotated[
        Path, typer.Argument(help="Runs file (tripwright run output, or official inference JSONL).")
    ],
    out_dir: Annotated[Path, typer.Option("--out", help="Folder for report.md, report.html and plots/.")],
    scored: Annotated[
        Path | None, typer.Option(help="Output of tripwright score: figures against the oracle.")
    ] = None,
    oracle: Annotated[
        Path | None,
        typer.Option(help="Output of tripwright oracle (--objective frontier for the GU–GF frontier)."),
    ] = None,
    judged: Annotated[
        Path | None, typer.Option(help="Output of tripwright judge: adds the LLM judge.")
    ] = None,
    tasks: Annotated[Path | None, typer.Option(help="Tasks (JSON/JSONL): difficulty and names.")] = None,
    world: Annotated[Path | None, typer.Option(help="World directory: re-score both profiles.")] = None,
    poi_db: Annotated[
        Path | None, typer.Option("--poi-db", help="Official POI file: re-score officially.")
    ] = None,
    episode: Annotated[
        str | None, typer.Option(help="Trajectory to show, TASK_ID:TRIAL (default: the first record).")
    ] = None,
    success: Annotated[
        str,
        typer.Option(help="Success for pass^k: strict (a strict-valid plan) or ratio:T (also GU/GU* >= T)."),
    ] = "strict",
) -> None:
    """Write a run report: official scores, figures against the oracle, plots, tool use, a trajectory."""
    from rich.markup import escape

    from runner.loading import load_sandbox_world, load_tasks
    from runner.report.build import build_report, write_report
    from runner.report.inputs import load_inputs
    from runner.report.official import official_document
    from runner.report.trajectory import find_episode
    from runner.scoring.reliability import SuccessRule, SuccessRuleError

    try:
        rule = SuccessRule.parse(success)
    except SuccessRuleError as exc:
        fail(f"--success: {exc}")
    with user_errors():
        inputs = load_inputs(
            runs,
            scored=scored,
            oracle=oracle,
            judged=judged,
            tasks=None if tasks is None else load_tasks(tasks),
        )
        find_episode(inputs.runs, episode)
        sandbox = None if world is None else load_sandbox_world(world)
        db = _poi_db(poi_db, sandbox)
        document = None if db is None else official_document(inputs, db, sandbox)
        given = {"runs": runs, "scored": scored, "oracle": oracle, "judged": judged}
        given |= {"tasks": tasks, "world": world, "poi-db": poi_db}
        sources = {name: str(path) for name, path in given.items() if path is not None}
        report = build_report(inputs, sources=sources, official=document, episode=episode, success=rule)
        written = write_report(report, out_dir)
    _print_skipped(inputs)
    console = out()
    for path in written:
        console.print(f"wrote {escape(str(path))}")
    raise typer.Exit(EXIT_OK)


def _poi_db(path: Path | None, world: World | None) -> PoiDb | None:
    """The POI file given, else the world's POIs in the official format, else None."""
    from runner.loading import load_poi_db
    from sandbox.world.official_io import export_poi_db
    from verifier.official.poi_db import PoiDb

    if path is not None:
        return load_poi_db(path)
    return None if world is None else PoiDb(export_poi_db(world))


def _print_skipped(inputs: Inputs) -> None:
    from rich.markup import escape

    for item in inputs.skipped:
        err().print(f"skipped {escape(item.path)} line {item.line}: {escape(item.problem)}")


def judge_command(
    *,
    runs: Annotated[Path, typer.Argument(help="Runs file (one JSON line per trial).")],
    base_url: Annotated[str, typer.Option(help="OpenAI-compatible endpoint of the judge model.")],
    model: Annotated[str, typer.Option(help="Judge model name (also the meta-judge's).")],
    out_file: Annotated[Path, typer.Option("--out", help="Judged JSONL (appended; re-running resumes).")],
    api_key_env: Annotated[
        str, typer.Option(help="Environment variable holding the API key.")
    ] = "OPENAI_API_KEY",
    meta: Annotated[bool, typer.Option(help="Run the meta-judge and weight the scores by it.")] = True,
    max_tokens: Annotated[int | None, typer.Option(help="Completion token limit per call.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON.")] = False,
) -> None:
    """Judge every trial of a runs file with an LLM (five dimensions, meta-judge); never part of scoring."""
    from rich.markup import escape

    from runner.cli.tables import cli_table
    from runner.io import InputError
    from runner.judge.batch import judge_runs
    from runner.judge.client import ClientCompletion
    from runner.judge.judge import JudgeSettings
    from runner.judge.scores import statistics
    from runner.llm.config import LLMConfig, LLMConfigError
    from runner.report.inputs import Skipped, read_objects

    try:
        config = LLMConfig(base_url=base_url, model=model, api_key_env=api_key_env, max_tokens=max_tokens)
    except LLMConfigError as exc:
        fail(f"--{exc.field.replace('_', '-')}: {exc.problem}")
    skipped: list[Skipped] = []
    with user_errors():
        records = read_objects(runs, skipped)
        if not records:
            raise InputError(runs, "no run record in the file")
        settings = JudgeSettings(model=model, meta=meta)
        lines = judge_runs(records, out_file, ClientCompletion(config), settings, endpoint=base_url)
    for item in skipped:
        err().print(f"skipped {escape(item.path)} line {item.line}: {escape(item.problem)}")
    stats = statistics(lines)
    if json_out:
        print_json(stats)
        raise typer.Exit(EXIT_OK)
    table = cli_table("figure", "value", title=f"judge {model}")
    for label, value in (
        ("judged", stats["count"]),
        ("not judged", stats["failed"]),
        ("raw average (1–5)", stats["raw_average_1_5"]),
        ("final average (0–100)", stats["final_average_0_100"]),
        ("meta-judge mean (1–5)", stats["meta_judge"]["mean"]),
    ):
        table.add_row(label, "-" if value is None else str(value))
    out().print(table)
    raise typer.Exit(EXIT_OK)
