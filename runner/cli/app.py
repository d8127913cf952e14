"""The `tripwright` command line (typer). Thin: each command group lives in a module of `runner.cli`.

Sub-apps (`app.add_typer`) hold command groups; `world`, `tools`, `cache` and `plan` groups are added
here beside the top-level commands.

Command modules import the engine (verifier, sandbox, solver, runs, report, rich tables) inside
their command functions: typer needs only the signatures, so `tripwright --help` and a single
`verify` start without the rest (tests/unit/test_cli_startup.py keeps it so).
"""

from __future__ import annotations

import typer

from runner.cli import oracle, plan, report, rescore, run, tasks, tools, verify, world

app = typer.Typer(
    name="tripwright",
    help="Verify and score group-travel plans (GroupTravelBench): official and strict profiles.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

app.command("verify")(verify.verify_command)
app.command("verify-batch")(verify.verify_batch_command)
app.command("rescore")(rescore.rescore_command)
app.command("sample")(verify.sample_command)
app.command("schema")(verify.schema_command)
app.command("oracle")(oracle.oracle_command)
app.command("normalize")(oracle.normalize_command)
app.command("report")(report.report_command)
app.command("judge")(report.judge_command)
app.command("run")(run.run_command)
app.command("score")(run.score_command)
app.add_typer(world.app, name="world")
app.add_typer(tools.app, name="tools")
app.add_typer(tools.cache_app, name="cache")
app.add_typer(plan.app, name="plan")
app.add_typer(tasks.app, name="tasks")
