"""Resuming a runs file: what is done, what is re-run, and what must not be mixed.

Lines are appended with `runner.solving.log.Appender` (one `write` on `O_APPEND`, `fsync`), so a
killed run leaves at most a torn last line. Resuming (official semantics, docs/runner.md#runs): the key of
a line is (`task_id`, `trial_id`); failed lines whose `completion_reason` is `rate_limit` or
`connection_error` are purged and their trials run again; every other line is done. On top of
that every line must carry this run's `config_hash` for its task: a line made another way (or
for a task this run does not have) is an error naming the line, unless the run restarts
(`restart=True` empties the file first). When anything is dropped — a torn line, purged lines,
a repeated key — the kept lines are rewritten atomically, byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from runner.loading.files import InputError, atomic_write_bytes, read_bytes
from runner.runs.records import HASH_KEY, is_purged

RESTART_HINT = "use --restart to discard the file's lines, or another --out"


@dataclass(frozen=True, slots=True)
class Resume:
    """What an existing runs file holds for this run."""

    done: frozenset[tuple[str, int]]
    """(task_id, trial_id) of the finished trials."""
    torn_bytes: int = 0
    purged: int = 0
    duplicates: int = 0


def resume(path: Path, expected: Mapping[str, str], *, restart: bool = False) -> Resume:
    """Scan `path` (absent: nothing done) against `expected` (config hash by task id) and drop
    what is re-run (see the module docstring); InputError for a line of another run."""
    if restart and path.exists():
        atomic_write_bytes(path, b"")
    if not path.exists():
        return Resume(frozenset())
    data = read_bytes(path)
    whole = data.rfind(b"\n") + 1
    kept: list[bytes] = []
    done: set[tuple[str, int]] = set()
    purged = duplicates = 0
    for number, raw in enumerate(data[:whole].splitlines(keepends=True), start=1):
        if not raw.strip():
            continue
        line = _line(raw, path, number)
        key = (line["task_id"], line["trial_id"])
        _check_hash(line, expected, path, number)
        if is_purged(line):
            purged += 1
        elif key in done:
            duplicates += 1
        else:
            done.add(key)
            kept.append(raw)
    result = Resume(frozenset(done), len(data) - whole, purged, duplicates)
    if result.torn_bytes or purged or duplicates:
        atomic_write_bytes(path, b"".join(kept))
    return result


def _line(raw: bytes, path: Path, number: int) -> dict[str, Any]:
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        value = None
    if (
        not isinstance(value, dict)
        or not isinstance(value.get(HASH_KEY), str)
        or not isinstance(value.get("task_id"), str)
        or not isinstance(value.get("trial_id"), int)
    ):
        problem = f"not a tripwright run line (a JSON object with task_id, trial_id and {HASH_KEY})"
        raise InputError(path, f"{problem}; {RESTART_HINT}", f"line {number}")
    return value


def _check_hash(line: dict[str, Any], expected: Mapping[str, str], path: Path, number: int) -> None:
    task_id, found = line["task_id"], line[HASH_KEY]
    want = expected.get(task_id)
    if want is None:
        problem = f"a trial of task {task_id!r}, which is not a runnable task of --tasks; {RESTART_HINT}"
        raise InputError(path, problem, f"line {number}")
    if found != want:
        problem = (
            f"task {task_id!r} was run with another configuration (config_hash {found}, "
            f"this run {want}): agent, users, model, seed, settings, world or task differ; {RESTART_HINT}"
        )
        raise InputError(path, problem, f"line {number}")
