"""The `tripwright` command line (typer). Thin: each command lives in a `commands_*` module.

Sub-apps (`app.add_typer`) hold command groups; `world`, `tools`, `cache` and `plan` groups are added
here beside the top-level commands.
"""

from __future__ import annotations

import typer

from runner import (
    commands_oracle,
    commands_plan,
    commands_rescore,
    commands_tools,
    commands_verify,
    commands_world,
)

app = typer.Typer(
    name="tripwright",
    help="Verify and score group-travel plans (GroupTravelBench): official and strict profiles.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

app.command("verify")(commands_verify.verify_command)
app.command("verify-batch")(commands_verify.verify_batch_command)
app.command("rescore")(commands_rescore.rescore_command)
app.command("sample")(commands_verify.sample_command)
app.command("schema")(commands_verify.schema_command)
app.command("oracle")(commands_oracle.oracle_command)
app.command("normalize")(commands_oracle.normalize_command)
app.add_typer(commands_world.app, name="world")
app.add_typer(commands_tools.app, name="tools")
app.add_typer(commands_tools.cache_app, name="cache")
app.add_typer(commands_plan.app, name="plan")
