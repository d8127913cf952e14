"""CLI command `report`: the markdown + HTML report of a runs file."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from runner.cli.support import EXIT_OK, err, fail, out, user_errors

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

    from runner.loading.benchmark_data import load_sandbox_world, load_tasks
    from runner.report.build import build_report, write_report
    from runner.report.inputs import load_inputs
    from runner.report.official import official_document
    from runner.report.trajectory import find_episode
    from runner.scoring.reliability import SuccessRule, SuccessRuleError

    try:
        rule = SuccessRule.parse(success)
    except SuccessRuleError as exc:
        fail(f"--success: {exc.problem}")
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
    from runner.loading.benchmark_data import load_poi_db
    from sandbox.world.official_io import export_poi_db
    from verifier.official.poi_db import PoiDb

    if path is not None:
        return load_poi_db(path)
    return None if world is None else PoiDb(export_poi_db(world))


def _print_skipped(inputs: Inputs) -> None:
    from rich.markup import escape

    for item in inputs.skipped:
        err().print(f"skipped {escape(item.path)} line {item.line}: {escape(item.problem)}")
