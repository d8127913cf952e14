"""The `tripwright` command line (typer). Thin: each command group lives in a module of `runner.cli`.

Sub-apps (`app.add_typer`) hold command groups; `world`, `tools`, `cache` and `plan` groups are added
here beside the top-level commands.

Help is click's plain layout (`rich_markup_mode=None`): flags show no metavar, paragraphs are
re-wrapped to the terminal, and a group lists each command with the first sentence of its help,
whole and wrapped at spaces only (`SentenceGroup`; click would cut it at the column width, and
break `--at-event` at its hyphen).

Command modules import the engine (verifier, sandbox, solver, runs, report, rich tables) inside
their command functions: typer needs only the signatures, so `tripwright --help` and a single
`verify` start without the rest (tests/unit/cli/test_cli_startup.py keeps it so).
"""

from __future__ import annotations

import inspect
import textwrap
from typing import Any

import typer
from typer.core import TyperGroup

from runner.cli import (
    judge,
    normalize,
    oracle,
    plan,
    report,
    rescore,
    run,
    sample,
    schema,
    score,
    tasks,
    tools,
    verify,
    world,
)


def first_sentence(text: str) -> str:
    """The first sentence of a help text on one line: its first paragraph up to the first full stop
    followed by a space (the whole paragraph when there is none)."""
    paragraph = " ".join(inspect.cleandoc(text).split("\n\n")[0].split())
    end = paragraph.find(". ")
    return paragraph if end < 0 else paragraph[: end + 1]


class SentenceGroup(TyperGroup):
    """A command group whose listing shows each command's first sentence, whole."""

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """Write the Commands section (`ctx`, `formatter`: the click context and help formatter
        of whichever click typer runs on, vendored or not)."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.short_help or first_sentence(command.help or "")))
        if rows:
            with formatter.section("Commands"):
                write_rows(formatter, rows)


def write_rows(formatter: Any, rows: list[tuple[str, str]]) -> None:
    """Click's two-column layout, wrapped at spaces only: click's wrapper breaks words at their
    hyphens, which cut a flag such as `--at-event` in two."""
    first = min(max(len(name) for name, _ in rows), 30) + 2
    indent = " " * formatter.current_indent
    wrapper = textwrap.TextWrapper(
        width=max(formatter.width - first - formatter.current_indent, 20),
        break_on_hyphens=False,
        break_long_words=False,
    )
    for name, text in rows:
        lines = wrapper.wrap(text) or [""]
        if len(name) + 2 > first:
            formatter.write(f"{indent}{name}\n")
            formatter.write("".join(f"{indent}{'':<{first}}{line}\n" for line in lines))
            continue
        formatter.write(f"{indent}{name:<{first}}{lines[0]}\n")
        formatter.write("".join(f"{indent}{'':<{first}}{line}\n" for line in lines[1:]))


app = typer.Typer(
    name="tripwright",
    cls=SentenceGroup,
    help="Verify and score group-travel plans (GroupTravelBench): official and strict profiles.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

app.command("verify")(verify.verify_command)
app.command("verify-batch")(verify.verify_batch_command)
app.command("rescore")(rescore.rescore_command)
app.command("sample")(sample.sample_command)
app.command("schema")(schema.schema_command)
app.command("oracle")(oracle.oracle_command)
app.command("normalize")(normalize.normalize_command)
app.command("certify")(oracle.certify_command)
app.command("report")(report.report_command)
app.command("judge")(judge.judge_command)
app.command("run")(run.run_command)
app.command("score")(score.score_command)
app.add_typer(world.app, name="world", cls=SentenceGroup)
app.add_typer(tools.app, name="tools", cls=SentenceGroup)
app.add_typer(tools.cache_app, name="cache", cls=SentenceGroup)
app.add_typer(plan.app, name="plan", cls=SentenceGroup)
app.add_typer(tasks.app, name="tasks", cls=SentenceGroup)
