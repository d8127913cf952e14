"""Deterministic trial seeds: the same (run seed, task id, trial) gives the same seed on every machine."""

from __future__ import annotations

import hashlib

import orjson

SEED_BITS = 31
"""Seeds stay below 2³¹ so that every consumer (CP-SAT, OpenAI's `seed`, numpy) accepts them."""


def trial_seed(seed: int, task_id: str, trial: int) -> int:
    """The first 31 bits of sha256 over the JSON array `[seed, task_id, trial]`."""
    digest = hashlib.sha256(orjson.dumps([seed, task_id, trial])).digest()
    return int.from_bytes(digest[:4], "big") >> (32 - SEED_BITS)
