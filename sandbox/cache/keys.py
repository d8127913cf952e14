"""Cache keys exactly as the official sandbox builds them (docs/tools.md#cache).

A tool call's arguments become a *params JSON* (sorted keys, non-ASCII kept, default
separators); the *cache key* parses that JSON back and, for an object, serialises its
(key, value) pairs sorted by key as a compact list of 2-element arrays with nested object
keys sorted; anything that is not an object keys as the string itself. Normalisation is
purely syntactic: `10` and `10.0` differ, explicit nulls and defaults differ from omission.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def params_json(args: Mapping[str, Any]) -> str:
    """The params JSON of a call: sorted keys, non-ASCII kept, default separators."""
    return json.dumps(dict(args), sort_keys=True, ensure_ascii=False)


def cache_key(params: str) -> str:
    """The official cache key of a params JSON string."""
    try:
        parsed = json.loads(params)
    except ValueError:
        return params
    if not isinstance(parsed, dict):
        return params
    pairs = [[key, parsed[key]] for key in sorted(parsed)]
    return json.dumps(pairs, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def key_of(args: Mapping[str, Any]) -> str:
    """The cache key of a call given as an argument mapping."""
    return cache_key(params_json(args))


def args_of_key(key: str) -> dict[str, Any] | None:
    """The argument object a pair-list key encodes, or None when the key is not one."""
    try:
        parsed = json.loads(key)
    except ValueError:
        return None
    if not isinstance(parsed, list):
        return None
    args: dict[str, Any] = {}
    for pair in parsed:
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
            return None
        args[pair[0]] = pair[1]
    return args


def query_text(args: Mapping[str, Any]) -> str:
    """The text embedded for retrieval: "key: value | key: value" in sorted-key order,
    values rendered with Python `str()` (as the official similarity retrieval does)."""
    return " | ".join(f"{key}: {args[key]}" for key in sorted(args))
