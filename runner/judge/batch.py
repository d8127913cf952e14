"""`tripwright judge` over a runs file: one judged line per trial, appended durably, resumable.

Lines go to an append-only JSONL file (one write and fsync per line, as the oracle's log), each
carrying `judge_hash`, a digest of everything that changes a judgement (model, endpoint, meta on
or off, attempts, temperatures, prompt version). Re-running with the same settings skips the
trials already judged (the torn last line of a killed run is trimmed); a trial whose judgement
failed is tried again and its new line supersedes the old one. A file of other settings is
refused rather than mixed.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import orjson

from runner.judge.judge import Complete, JudgeSettings, judge_record
from runner.judge.prompts import PROMPT_VERSION
from runner.loading.files import InputError, iter_jsonl_bytes, read_bytes
from runner.solving.log import Appender, trim_torn

HASH_KEY = "judge_hash"
Key = tuple[str, str]


def judge_hash(settings: JudgeSettings, endpoint: str) -> str:
    """The digest naming a judge run's settings (16 hex digits)."""
    identity = {"prompt_version": PROMPT_VERSION, "endpoint": endpoint, **dataclasses.asdict(settings)}
    return hashlib.sha256(orjson.dumps(identity, option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]


def line_key(line: Mapping[str, Any]) -> Key:
    """A trial's identity: task id and trial id, as text."""
    return str(line.get("task_id")), str(line.get("trial_id"))


def read_judged(path: str | Path) -> dict[Key, dict[str, Any]]:
    """The judged lines of a file by trial, the last line of a trial winning (a torn last line,
    from a killed run, is ignored); InputError for any other line that is not a judged line."""
    data = read_bytes(path)
    complete_part = data[: data.rfind(b"\n") + 1] if not data.endswith(b"\n") else data
    lines: dict[Key, dict[str, Any]] = {}
    for line in iter_jsonl_bytes(complete_part):
        value = line.value
        if line.error is not None or not isinstance(value, dict) or "judged" not in value:
            raise InputError(path, "not a tripwright judge output line", where=f"line {line.number}")
        lines[line_key(value)] = value
    return lines


def judge_runs(
    records: Iterable[Mapping[str, Any]],
    out: Path,
    complete: Complete,
    settings: JudgeSettings,
    *,
    endpoint: str,
    on_line: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Judge every record not yet judged in `out` (same settings), appending its line; returns
    the file's lines by trial after the run, in first-seen order."""
    digest = judge_hash(settings, endpoint)
    done = _resume(out, digest)
    appender = Appender(out)
    try:
        for record in records:
            key = line_key(record)
            if key in done and done[key]["judged"]:
                continue
            line = judge_record(record, complete, settings) | {HASH_KEY: digest}
            appender.append(line)
            done[key] = line
            if on_line is not None:
                on_line(line)
    finally:
        appender.close()
    return list(done.values())


def _resume(out: Path, digest: str) -> dict[Key, dict[str, Any]]:
    if not out.exists():
        return {}
    data = read_bytes(out)
    keep = data.rfind(b"\n") + 1
    if keep < len(data):
        trim_torn(out, keep)
    lines = read_judged(out)
    for line in lines.values():
        if line.get(HASH_KEY) != digest:
            raise InputError(
                out,
                f"made with other judge settings ({HASH_KEY} {line.get(HASH_KEY)}, this run {digest}); "
                "use another --out, or the settings of that run",
            )
    return lines
