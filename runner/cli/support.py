"""Shared CLI plumbing: user errors → message + exit 2 (no traceback), consoles, JSON printing.

Light on purpose: every command module imports it, so it imports neither the engine nor rich at
module level (`tripwright --help` and `tripwright verify` start without them).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import orjson
import typer

from verifier.errors import StructuredError

if TYPE_CHECKING:
    from rich.console import Console

EXIT_OK, EXIT_INVALID, EXIT_BAD_INPUT = 0, 1, 2
WORLD_HINT = (
    "the strict profile checks plans against a world: pass --world DIR "
    "(a tripwright world directory, see docs/cli.md); use --profile official to run without one"
)
WORKER_DIED = "a worker process died (killed, or out of memory): run again, or with --jobs 1"
CLI_MESSAGES: tuple[tuple[str, str, str], ...] = (
    ("verifier.referee", "WorldRequiredError", WORLD_HINT),
    ("concurrent.futures.process", "BrokenProcessPool", WORKER_DIED),
)
"""(module, exception class, message) of errors the CLI words itself: the command-line fix of a
strict run without a world, and a dead worker process (not a `StructuredError`, but the user's to
retry)."""

JobsOpt = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        min=1,
        metavar="<int>",
        help="Worker processes (default: the cores this process may run on; 1: none).",
    ),
]
"""`--jobs N` of the commands that score many lines (`verify-batch`, `rescore`)."""

PIPED_WIDTH = 80


def out(width: int | None = None) -> Console:
    """Console for results (stdout), `width` columns wide; by default the terminal's width, or
    when stdout is not a terminal `$COLUMNS` (else 80) so piped output is the same everywhere."""
    if width is None and not sys.stdout.isatty():
        columns = os.environ.get("COLUMNS", "")
        width = int(columns) if columns.isdigit() and int(columns) > 0 else PIPED_WIDTH
    from rich.console import Console  # rich: only when something is printed (also below)

    return Console(highlight=False, soft_wrap=False, width=width)


def err() -> Console:
    """Console for problems (stderr)."""
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def fail(message: str) -> NoReturn:
    """Print an input problem and exit 2."""
    from rich.markup import escape

    err().print(f"[red]error:[/] {escape(message)}", markup=True, highlight=False)
    raise typer.Exit(EXIT_BAD_INPUT)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn input problems raised inside the block into `fail` (exit 2): every `StructuredError`
    (a bad input file, world, official file, cache file, task, setting) and `CLI_MESSAGES`."""
    try:
        yield
    except Exception as exc:
        message = structured_message(exc)
        if message is None:
            raise
        fail(message)


def structured_message(exc: Exception) -> str | None:
    """What the CLI prints for a user's error: the `CLI_MESSAGES` wording, else a
    `StructuredError`'s `render()`; None for any other exception (a bug: its traceback shows).

    The `CLI_MESSAGES` classes are looked up in `sys.modules`, never imported: an exception whose
    module was never loaded cannot have been raised, and importing the verifier here would load
    it for every command.
    """
    for module_name, class_name, message in CLI_MESSAGES:
        module = sys.modules.get(module_name)
        if module is not None and isinstance(exc, getattr(module, class_name)):
            return message
    return exc.render() if isinstance(exc, StructuredError) else None


def print_json(value: Any) -> None:
    """Write one JSON document to stdout (UTF-8, non-ASCII kept, indented)."""
    sys.stdout.write(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode() + "\n")


def interactive() -> bool:
    """Whether both stdout and stderr are terminals (progress bars only then)."""
    return sys.stdout.isatty() and sys.stderr.isatty()
