"""File input/output for the runner: JSON and JSONL reading with precise errors, atomic writes.

Every read failure is an `InputError` naming the file, the place (line or field) and the
problem in plain words; the CLI prints it and exits 2, never with a traceback. Writes go to a
temporary file in the same directory and are moved into place with `os.replace`.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from verifier.errors import StructuredError

if TYPE_CHECKING:
    from pydantic import ValidationError


class InputError(StructuredError):
    """A user-facing input problem: which file, where in it, what is wrong; its `field` is
    `file: where` with the empty parts left out."""

    def __init__(self, path: str | Path | None, problem: str, where: str = "") -> None:
        self.path = None if path is None else str(path)
        self.where = where
        super().__init__(": ".join(part for part in (self.path, where) if part), problem)


@dataclass(frozen=True, slots=True)
class JsonLine:
    """One line of a JSONL file: its 1-based number and either a value or the parse error."""

    number: int
    value: Any = None
    error: str | None = None


def read_bytes(path: str | Path) -> bytes:
    """The file's bytes, or an InputError saying why it cannot be read."""
    try:
        return Path(path).read_bytes()
    except FileNotFoundError as exc:
        raise InputError(path, "file not found") from exc
    except IsADirectoryError as exc:
        raise InputError(path, "is a directory, expected a file") from exc
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror}") from exc


def read_json(path: str | Path) -> Any:
    """Parse a whole file as one JSON value."""
    try:
        return orjson.loads(read_bytes(path))
    except orjson.JSONDecodeError as exc:
        raise InputError(path, f"not valid JSON ({exc})") from exc


def read_json_or_jsonl(path: str | Path) -> list[Any]:
    """A file holding one JSON value, or JSON Lines (one value per non-blank line)."""
    data = read_bytes(path)
    try:
        return [orjson.loads(data)]
    except orjson.JSONDecodeError:
        pass
    values = []
    for line in iter_jsonl_bytes(data):
        if line.error is not None:
            raise InputError(path, f"not valid JSON ({line.error})", where=f"line {line.number}")
        values.append(line.value)
    return values


def iter_jsonl(path: str | Path) -> Iterator[JsonLine]:
    """Lines of a JSONL file; blank lines are skipped, a bad line carries its error."""
    yield from iter_jsonl_bytes(read_bytes(path))


def iter_jsonl_bytes(data: bytes) -> Iterator[JsonLine]:
    """`iter_jsonl` over bytes already read."""
    for number, raw in numbered_lines(data):
        yield parse_line(number, raw)


def numbered_lines(data: bytes) -> list[tuple[int, bytes]]:
    """The non-blank lines of JSONL bytes with their 1-based numbers, not yet parsed (so a batch
    can hand them to worker processes, which parse each line once)."""
    return [(number, raw) for number, raw in enumerate(data.splitlines(), start=1) if raw.strip()]


def parse_line(number: int, raw: bytes) -> JsonLine:
    """One JSONL line parsed: its value, or the parse error."""
    try:
        return JsonLine(number=number, value=orjson.loads(raw))
    except orjson.JSONDecodeError as exc:
        return JsonLine(number=number, error=str(exc))


def validation_problems(exc: ValidationError) -> str:
    """A pydantic error as `loc: msg` items, one per problem, joined by `; `."""
    items = []
    for error in exc.errors():
        loc = ".".join(str(part) for part in error["loc"]) or "(top level)"
        items.append(f"{loc}: {error['msg']}")
    return "; ".join(items)


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write a file atomically: temp file in the same directory, then os.replace."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def dumps_line(value: Any) -> bytes:
    """One JSONL line (UTF-8, no escaping of non-ASCII, key order kept, trailing newline)."""
    return orjson.dumps(value) + b"\n"
