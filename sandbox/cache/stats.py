"""Hit/miss counters of the tool cache, per tool, kept in memory and persisted.

Outcomes: `cache` (official cache hit), `memo` (a memoised earlier miss), `world`,
`retrieved`, `simulated` (a miss answered that way) and `error` (invalid call or nothing
could answer). `stats.json` in the cache directory accumulates the counters of every
session: pending counts are merged into it under a file lock at most once per
`flush_seconds` (0 = after every call), on `flush()` and at interpreter exit.
"""

from __future__ import annotations

import atexit
import json
import sys
import time
from pathlib import Path
from typing import Literal

from sandbox.cache.atomic import file_lock, write_atomic

Outcome = Literal["cache", "memo", "world", "retrieved", "simulated", "error"]
OUTCOMES: tuple[Outcome, ...] = ("cache", "memo", "world", "retrieved", "simulated", "error")
STATS_FILE = "stats.json"

Counters = dict[str, dict[str, int]]


def empty_counters() -> dict[str, int]:
    """Zero counts for every outcome plus `calls`."""
    return {"calls": 0, **dict.fromkeys(OUTCOMES, 0)}


def summarise(per_tool: Counters) -> dict[str, object]:
    """Per-tool counters plus totals and the hit rate (cache + memo hits over calls)."""
    total = empty_counters()
    for counts in per_tool.values():
        for name in total:
            total[name] += counts.get(name, 0)
    hits = total["cache"] + total["memo"]
    rate = hits / total["calls"] if total["calls"] else 0.0
    return {"tools": {tool: per_tool[tool] for tool in sorted(per_tool)}, "total": total, "hit_rate": rate}


def read_counters(directory: Path) -> Counters:
    """The persisted counters of a cache directory (empty when there are none)."""
    path = directory / STATS_FILE
    if not path.exists():
        return {}
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ValueError(f"{path}: stats file is not valid JSON ({exc})") from exc
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: stats file must hold a JSON object")
    counters: Counters = {}
    for tool, counts in raw.items():
        merged = empty_counters()
        if not isinstance(counts, dict) or any(
            name not in merged or not isinstance(value, int) for name, value in counts.items()
        ):
            raise ValueError(f"{path}: counters of {tool!r} must map {sorted(merged)} to integers")
        merged.update(counts)
        counters[tool] = merged
    return counters


class StatsRecorder:
    """Counts outcomes for this session and merges them into `stats.json`."""

    def __init__(self, directory: Path, *, persist: bool = True, flush_seconds: float = 1.0) -> None:
        self._directory = directory
        self._persist = persist
        self._flush_seconds = flush_seconds
        self._session: Counters = {}
        self._pending: Counters = {}
        self._last_flush = time.monotonic()
        if persist:
            atexit.register(self._flush_at_exit)

    def record(self, tool: str, outcome: Outcome) -> None:
        """Count one call of `tool` answered with `outcome`."""
        _bump(self._session, tool, outcome)
        if not self._persist:
            return
        _bump(self._pending, tool, outcome)
        if time.monotonic() - self._last_flush >= self._flush_seconds:
            self.flush()

    def flush(self) -> None:
        """Merge the pending counts into `stats.json` (atomically, under a lock)."""
        self._last_flush = time.monotonic()
        if not self._pending:
            return
        with file_lock(self._directory / f".{STATS_FILE}.lock"):
            counters = read_counters(self._directory)
            for tool, counts in self._pending.items():
                merged = counters.setdefault(tool, empty_counters())
                for name, value in counts.items():
                    merged[name] += value
            data = json.dumps(counters, sort_keys=True, ensure_ascii=False, indent=1)
            write_atomic(self._directory / STATS_FILE, data.encode("utf-8"), durable=False)
        self._pending = {}

    def _flush_at_exit(self) -> None:
        if self._pending and self._directory.is_dir():
            try:
                self.flush()
            except (OSError, ValueError) as exc:
                print(f"tripwright: could not save cache stats in {self._directory}: {exc}", file=sys.stderr)

    def session(self) -> dict[str, object]:
        """Counters of the calls made through this recorder."""
        return summarise(self._session)


def _bump(counters: Counters, tool: str, outcome: Outcome) -> None:
    counts = counters.setdefault(tool, empty_counters())
    counts["calls"] += 1
    counts[outcome] += 1
