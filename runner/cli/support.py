"""Shared CLI plumbing: user errors → message + exit 2 (no traceback), consoles, JSON printing."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import orjson
import typer
from rich.console import Console
from rich.markup import escape

from runner.io import InputError
from sandbox.cache.store import CacheFileError
from sandbox.world.errors import WorldError
from verifier.verify import WorldRequiredError

EXIT_OK, EXIT_INVALID, EXIT_BAD_INPUT = 0, 1, 2
WORLD_HINT = (
    "the strict profile checks plans against a world: pass --world DIR "
    "(a tripwright world directory, see docs/cli.md); use --profile official to run without one"
)


PIPED_WIDTH = 80


def out(width: int | None = None) -> Console:
    """Console for results (stdout), `width` columns wide; by default the terminal's width, or
    when stdout is not a terminal `$COLUMNS` (else 80) so piped output is the same everywhere."""
    if width is None and not sys.stdout.isatty():
        columns = os.environ.get("COLUMNS", "")
        width = int(columns) if columns.isdigit() and int(columns) > 0 else PIPED_WIDTH
    return Console(highlight=False, soft_wrap=False, width=width)


def err() -> Console:
    """Console for problems (stderr)."""
    return Console(stderr=True, highlight=False)


def fail(message: str) -> NoReturn:
    """Print an input problem and exit 2."""
    err().print(f"[red]error:[/] {escape(message)}", markup=True, highlight=False)
    raise typer.Exit(EXIT_BAD_INPUT)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn input problems raised inside the block into `fail` (exit 2): runner input errors and
    the sandbox's structured errors (a bad world or official file, a corrupt cache file)."""
    try:
        yield
    except InputError as exc:
        fail(exc.render())
    except (WorldError, CacheFileError) as exc:
        fail(str(exc))
    except WorldRequiredError:
        fail(WORLD_HINT)


def print_json(value: Any) -> None:
    """Write one JSON document to stdout (UTF-8, non-ASCII kept, indented)."""
    sys.stdout.write(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode() + "\n")


def interactive() -> bool:
    """Whether both stdout and stderr are terminals (progress bars only then)."""
    return sys.stdout.isatty() and sys.stderr.isatty()
