"""CLI command `judge`: the optional LLM judge over a runs file (never part of scoring)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from runner.cli.support import EXIT_OK, err, fail, out, print_json, user_errors


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
    from runner.judge.batch import judge_runs
    from runner.judge.client import ClientCompletion
    from runner.judge.judge import JudgeSettings
    from runner.judge.scores import statistics
    from runner.llm.config import LLMConfig, LLMConfigError
    from runner.loading.files import InputError
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
