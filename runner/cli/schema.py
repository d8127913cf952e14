"""CLI command `schema`: the JSON Schema of the plan, task or verdict model."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import typer

from runner.cli.support import print_json


class SchemaName(StrEnum):
    plan = "plan"
    task = "task"
    verdict = "verdict"


def schema_command(
    name: Annotated[SchemaName, typer.Argument(help="Which model: plan, task or verdict.")],
) -> None:
    """Print the JSON Schema of the plan, task or verdict model."""
    from pydantic import BaseModel

    from verifier.model.plan import Plan
    from verifier.model.task import Task
    from verifier.model.verdict import Verdict

    schemas: dict[str, type[BaseModel]] = {"plan": Plan, "task": Task, "verdict": Verdict}
    schema: dict[str, Any] = schemas[name.value].model_json_schema()
    print_json(schema)
