"""`cache_stats`: what a cache directory holds and how it has been used."""

from __future__ import annotations

import json
from pathlib import Path

from sandbox.cache.stats import read_counters, summarise


def _count_entries(path: Path) -> int:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: cannot read cache file ({exc})") from exc
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: a cache file must hold one JSON object")
    return len(raw)


def cache_stats(directory: Path | str) -> dict[str, object]:
    """Persisted hit/miss counters plus entry counts of every cache and memo file."""
    root = Path(directory)
    if not root.is_dir():
        raise ValueError(f"{root}: cache directory does not exist")
    entries: dict[str, dict[str, int]] = {}
    for suffix, label in (("_cache.json", "cache"), ("_memo.json", "memo")):
        for path in sorted(root.glob(f"*{suffix}")):
            tool = path.name[: -len(suffix)]
            entries.setdefault(tool, {"cache": 0, "memo": 0})[label] = _count_entries(path)
    report = summarise(read_counters(root))
    report["entries"] = {tool: entries[tool] for tool in sorted(entries)}
    return report
