"""The tool-call cache: official `<tool>_cache.json` files, memoised misses, fallbacks.

Lookup order for a key: the official cache file (`key → raw result string`, read as is,
provenance `cache`), then this cache's memo file `<tool>_memo.json` (answers to earlier
misses with the provenance they had). A miss the caller cannot answer falls back to the LLM
simulator when one is configured (examples = nearest cached entries, provenance
`simulated`), else to the nearest cached entry's result (provenance `retrieved`). Memoised
answers are persisted atomically, so a rerun replays them byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from sandbox.cache.atomic import file_lock, write_atomic
from sandbox.cache.embed import Embedder, HashEmbedder
from sandbox.cache.keys import args_of_key, params_json
from sandbox.cache.neighbours import NeighbourIndex
from sandbox.cache.simulator import Simulator
from sandbox.cache.stats import Outcome, StatsRecorder
from verifier.errors import StructuredError

Provenance = Literal["cache", "world", "retrieved", "simulated", "error"]
MEMO_PROVENANCES: tuple[Provenance, ...] = ("retrieved", "simulated")
MAX_EXAMPLES = 8


class CacheFileError(StructuredError, ValueError):
    """A cache file exists but does not have the expected shape: `field` is the file."""


@dataclass(frozen=True)
class CachedAnswer:
    """A raw result string with where it came from (`source_key`: the retrieved entry)."""

    text: str
    provenance: Provenance
    source_key: str | None = None


def _read_object(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CacheFileError(str(path), f"cannot read cache file ({exc})") from exc
    if not isinstance(raw, dict):
        raise CacheFileError(str(path), "a cache file must hold one JSON object")
    return raw


class ToolCache:
    """Cache directory of one sandbox: official files, memo files, stats, neighbour indexes."""

    def __init__(
        self,
        directory: Path | str,
        *,
        embedder: Embedder | None = None,
        simulator: Simulator | None = None,
        persist_stats: bool = True,
        stats_flush_seconds: float = 1.0,
    ) -> None:
        self._directory = Path(directory)
        self._embedder = embedder if embedder is not None else HashEmbedder()
        self._simulator = simulator
        self._official: dict[str, dict[str, str]] = {}
        self._memo: dict[str, dict[str, Any]] = {}
        self._indexes: dict[str, NeighbourIndex] = {}
        self._stats = StatsRecorder(self._directory, persist=persist_stats, flush_seconds=stats_flush_seconds)

    @property
    def directory(self) -> Path:
        return self._directory

    def official(self, tool: str) -> dict[str, str]:
        """The official cache of `tool` (loaded on first access; empty when absent)."""
        if tool not in self._official:
            path = self._directory / f"{tool}_cache.json"
            raw = _read_object(path)
            for key, value in raw.items():
                if not isinstance(value, str):
                    raise CacheFileError(str(path), f"value of key {key!r} must be a string")
            self._official[tool] = raw
        return self._official[tool]

    def _memo_of(self, tool: str) -> dict[str, Any]:
        if tool not in self._memo:
            self._memo[tool] = _read_object(self._directory / f"{tool}_memo.json")
        return self._memo[tool]

    def lookup(self, tool: str, key: str) -> CachedAnswer | None:
        """The official entry for `key`, else the memoised answer, else None."""
        text = self.official(tool).get(key)
        if text is not None:
            return CachedAnswer(text, "cache")
        entry = self._memo_of(tool).get(key)
        if entry is None:
            return None
        if not (
            isinstance(entry, dict)
            and isinstance(entry.get("text"), str)
            and entry.get("provenance") in MEMO_PROVENANCES
        ):
            raise CacheFileError(
                str(self._directory / f"{tool}_memo.json"),
                f"entry {key!r} needs a string 'text' and a 'provenance' in {list(MEMO_PROVENANCES)}",
            )
        return CachedAnswer(entry["text"], entry["provenance"], entry.get("source_key"))

    def remember(self, tool: str, key: str, args: Mapping[str, Any], answer: CachedAnswer) -> None:
        """Persist the answer to a miss (merged with entries other processes wrote)."""
        path = self._directory / f"{tool}_memo.json"
        entry = {"params": params_json(args), "provenance": answer.provenance, "text": answer.text}
        if answer.source_key is not None:
            entry["source_key"] = answer.source_key
        with file_lock(self._directory / f".{tool}_memo.lock"):
            memo = _read_object(path)
            memo[key] = entry
            write_atomic(path, json.dumps(memo, ensure_ascii=False, sort_keys=True, indent=1).encode("utf-8"))
        self._memo[tool] = memo

    def corpus(self, tool: str) -> dict[str, dict[str, Any]]:
        """Official entries of `tool` whose key encodes an argument object (key → args)."""
        corpus: dict[str, dict[str, Any]] = {}
        for key in self.official(tool):
            args = args_of_key(key)
            if args is not None:
                corpus[key] = args
        return corpus

    def index(self, tool: str) -> NeighbourIndex:
        """The neighbour index of `tool` (loaded or built once per session)."""
        if tool not in self._indexes:
            self._indexes[tool] = NeighbourIndex.load_or_build(
                self._directory, tool, self._embedder, self.corpus(tool)
            )
        return self._indexes[tool]

    def fallback(
        self, tool: str, args: Mapping[str, Any], description: str, schema: Mapping[str, Any]
    ) -> CachedAnswer | None:
        """Answer a miss from the simulator (if configured) or the nearest cached entry."""
        official = self.official(tool)
        if self._simulator is not None:
            found = self.index(tool).search(args, MAX_EXAMPLES) if official else []
            examples = [(params_json(args_of_key(n.key) or {}), official[n.key]) for n in found]
            text = self._simulator.simulate(tool, description, schema, args, examples)
            return CachedAnswer(text, "simulated")
        if not official:
            return None
        nearest = self.index(tool).search(args, 1)
        if not nearest:
            return None
        return CachedAnswer(official[nearest[0].key], "retrieved", nearest[0].key)

    def record(self, tool: str, outcome: Outcome) -> None:
        """Count one call's outcome."""
        self._stats.record(tool, outcome)

    def flush(self) -> None:
        """Write pending statistics to `stats.json` now."""
        self._stats.flush()

    def stats(self) -> dict[str, object]:
        """Counters of this session's calls."""
        return self._stats.session()
