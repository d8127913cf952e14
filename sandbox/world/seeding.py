"""Seeded randomness that never depends on Python's `hash()` or on call order."""

from __future__ import annotations

import hashlib
import random


def derive(seed: int, *parts: object) -> int:
    """A 64-bit integer determined by the seed and the parts (their `str`)."""
    text = "\x1f".join([str(seed), *(str(p) for p in parts)])
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def rng(seed: int, *parts: object) -> random.Random:
    """An independent `random.Random` for one purpose (e.g. a city, a route and a date)."""
    return random.Random(derive(seed, *parts))
