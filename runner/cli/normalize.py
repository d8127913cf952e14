"""CLI command `normalize`: scored plans against the oracle's proven bound (GU / GU*, regret and
their distributions); `render_normalize` draws its tables."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from runner.cli.support import out, print_json, user_errors


def normalize_command(
    *,
    verdicts: Annotated[
        Path, typer.Option(help="Output of verify-batch (JSONL) or a rescore --json document.")
    ],
    oracle: Annotated[Path, typer.Option(help="Output of tripwright oracle (JSONL).")],
    profile: Annotated[
        str | None, typer.Option(help="Profile of a rescore document (default: strict when scored).")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")] = False,
) -> None:
    """GU against the oracle's proven bound GU*: GU/GU*, regret and their distributions."""
    from runner.cli import render_normalize
    from runner.saved.normalize import normalize, read_oracle, read_scored

    with user_errors():
        document = normalize(read_scored(verdicts, profile), read_oracle(oracle))
    if json_out:
        print_json(document)
    else:
        render_normalize.normalized(out(), document)
