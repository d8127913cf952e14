"""The oracle's output file: an append-only JSONL log that a killed run never corrupts.

Each line is written with one `write` on an `O_APPEND` descriptor and `fsync`ed before the
next task starts, so a kill leaves at most one torn last line (no trailing newline); resuming
trims it. Every line carries the run's `settings_hash`: a file holding lines of other settings
is refused rather than mixed, and a task whose record (a line with `status`) is in the file
with this hash is finished. Error lines do not finish a task: it is tried again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runner.loading.files import InputError, dumps_line, iter_jsonl_bytes, read_bytes

HASH_KEY = "settings_hash"


@dataclass(frozen=True, slots=True)
class Resume:
    """What an existing output file already holds for this run."""

    finished: frozenset[str]
    """Task ids with a record made with the same settings."""
    torn_bytes: int
    """Bytes of a torn last line that were cut off (0: none)."""


def resume(path: Path, settings_hash: str) -> Resume:
    """Scan an output file (absent: nothing done yet), trim a torn last line, check that every
    line was made with `settings_hash`; InputError for a foreign or other-settings file."""
    if not path.exists():
        return Resume(frozenset(), 0)
    data = read_bytes(path)
    keep = data.rfind(b"\n") + 1
    torn = len(data) - keep
    if torn:
        trim_torn(path, keep)
        data = data[:keep]
    finished: set[str] = set()
    for line in iter_jsonl_bytes(data):
        where = f"line {line.number}"
        if line.error is not None or not isinstance(line.value, dict) or HASH_KEY not in line.value:
            raise InputError(path, "not a tripwright oracle output line; choose another --out", where)
        found = line.value[HASH_KEY]
        if found != settings_hash:
            raise InputError(
                path,
                f"made with other settings (settings_hash {found}, this run {settings_hash}); "
                "use another --out, or the settings of that run",
                where,
            )
        task_id = line.value.get("task_id")
        if "status" in line.value and isinstance(task_id, str):
            finished.add(task_id)
    return Resume(frozenset(finished), torn)


def trim_torn(path: Path, size: int) -> None:
    """Cut an append-only log back to `size` bytes (its torn last line dropped), durably."""
    try:
        with path.open("r+b") as handle:
            handle.truncate(size)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        raise InputError(path, f"cannot trim the torn last line: {exc.strerror}") from exc


class Appender:
    """Appends one line per call, durably (single write, fsync)."""

    def __init__(self, path: Path) -> None:
        try:
            self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise InputError(path, f"cannot write: {exc.strerror}") from exc

    def append(self, record: dict[str, Any]) -> None:
        data = memoryview(dumps_line(record))
        while data:
            data = data[os.write(self._fd, data) :]
        os.fsync(self._fd)

    def close(self) -> None:
        os.close(self._fd)
