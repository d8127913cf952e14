"""Nearest cached arguments of a tool: a FAISS `IndexFlatIP` over L2-normalised embeddings.

The corpus is a tool's cached entries whose key encodes an argument object; each is embedded
as `query_text(args)`. The index is persisted next to the cache (`<tool>_index.faiss` and
`<tool>_index.json`) together with the embedder id, the dimension and a digest of the keys,
and rebuilt when any of them differs.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sandbox.cache.atomic import write_atomic
from sandbox.cache.embed import Embedder, Vectors
from sandbox.cache.keys import query_text

INDEX_FORMAT = 1

SCORE_DIGITS = 5  # scores are rounded so float noise cannot reorder ties; ties go by key


@dataclass(frozen=True)
class Neighbour:
    """A cached key and its cosine similarity to the query."""

    key: str
    score: float


@functools.cache
def _faiss() -> Any:
    """FAISS, imported on first use: only a cache miss needs it, and it adds ~50 ms to start-up."""
    import faiss

    return faiss


def corpus_digest(keys: Sequence[str]) -> str:
    """A digest identifying an (ordered) list of keys."""
    digest = hashlib.blake2b(digest_size=16)
    for key in keys:
        digest.update(key.encode("utf-8"))
        digest.update(b"\x00")
    return digest.hexdigest()


def _normalised(vectors: Vectors) -> Vectors:
    out = np.ascontiguousarray(vectors, dtype=np.float32)
    _faiss().normalize_L2(out)
    return out


class NeighbourIndex:
    """Cosine nearest neighbours among a fixed, sorted list of cached keys."""

    def __init__(self, embedder: Embedder, keys: list[str], index: Any) -> None:
        self._embedder = embedder
        self._keys = keys
        self._index = index

    @property
    def keys(self) -> list[str]:
        return list(self._keys)

    @classmethod
    def build(cls, embedder: Embedder, entries: Mapping[str, Mapping[str, Any]]) -> NeighbourIndex:
        """Index `entries` (key → argument object), keys in sorted order."""
        keys = sorted(entries)
        index = _faiss().IndexFlatIP(embedder.dim)
        if keys:
            index.add(_normalised(embedder.embed([query_text(entries[key]) for key in keys])))
        return cls(embedder, keys, index)

    @classmethod
    def load_or_build(
        cls, directory: Path, tool: str, embedder: Embedder, entries: Mapping[str, Mapping[str, Any]]
    ) -> NeighbourIndex:
        """The persisted index of `tool` if it matches embedder and corpus, else a fresh one (saved)."""
        keys = sorted(entries)
        meta = {
            "format": INDEX_FORMAT,
            "embedder_id": embedder.embedder_id,
            "dim": embedder.dim,
            "digest": corpus_digest(keys),
            "count": len(keys),
        }
        meta_path, index_path = directory / f"{tool}_index.json", directory / f"{tool}_index.faiss"
        loaded = cls._load(meta_path, index_path, meta, embedder, keys)
        if loaded is not None:
            return loaded
        built = cls.build(embedder, entries)
        cls._save(built._index, index_path)
        write_atomic(meta_path, json.dumps(meta, ensure_ascii=False, sort_keys=True).encode("utf-8"))
        return built

    @classmethod
    def _load(
        cls, meta_path: Path, index_path: Path, meta: dict[str, Any], embedder: Embedder, keys: list[str]
    ) -> NeighbourIndex | None:
        try:
            stored = json.loads(meta_path.read_text(encoding="utf-8"))
            if stored != meta:
                return None
            index = _faiss().read_index(str(index_path))
        except (OSError, ValueError, RuntimeError):
            return None
        if index.ntotal != len(keys) or index.d != embedder.dim:
            return None
        return cls(embedder, keys, index)

    @staticmethod
    def _save(index: Any, path: Path) -> None:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        os.close(fd)
        try:
            _faiss().write_index(index, tmp)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)

    def search(self, args: Mapping[str, Any], k: int) -> list[Neighbour]:
        """The `k` nearest keys to an argument object, most similar first; ties broken by key.

        One query runs on one thread: OpenMP start-up costs more than it saves here.
        """
        if not self._keys or k <= 0:
            return []
        query = _normalised(self._embedder.embed([query_text(args)]))
        threads = _faiss().omp_get_max_threads()
        _faiss().omp_set_num_threads(1)
        try:
            scores, rows = self._index.search(query, min(k, len(self._keys)))
        finally:
            _faiss().omp_set_num_threads(threads)
        found = [
            Neighbour(self._keys[int(row)], round(float(score), SCORE_DIGITS))
            for score, row in zip(scores[0], rows[0], strict=True)
            if row >= 0
        ]
        return sorted(found, key=lambda item: (-item.score, item.key))
