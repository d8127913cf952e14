"""Where a model lives and how it is sampled; the API key is read from the environment only.

The key is never a field: `LLMConfig` holds the *name* of the environment variable, so a config
can be printed, hashed and written into records without leaking it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from verifier.errors import StructuredError

DEFAULT_KEY_ENV = "OPENAI_API_KEY"
NO_KEY = "EMPTY"


class LLMConfigError(StructuredError, ValueError):
    """A config field with a bad value: names the field and the problem."""


@dataclass(frozen=True)
class LLMConfig:
    """An OpenAI-compatible endpoint and the sampling settings of every call made to it.

    `retries` bounds the re-sends after a transient failure (connection, timeout, 429, 5xx),
    waiting `backoff_s × 2^(n-1)` seconds (at most `backoff_cap_s`, or the server's Retry-After
    when larger); `empty_attempts` bounds the tries while the model answers with neither text
    nor tool calls (docs/runner.md#the-openai-agent: 15).
    """

    base_url: str
    model: str
    api_key_env: str = DEFAULT_KEY_ENV
    temperature: float = 0.0
    seed: int | None = None
    max_tokens: int | None = None
    timeout_s: float = 120.0
    retries: int = 5
    backoff_s: float = 1.0
    backoff_cap_s: float = 30.0
    empty_attempts: int = 15

    def __post_init__(self) -> None:
        if not self.base_url.strip():
            raise LLMConfigError("base_url", "must not be empty")
        if not self.model.strip():
            raise LLMConfigError("model", "must not be empty")
        if not self.api_key_env.strip():
            raise LLMConfigError("api_key_env", "must name an environment variable")
        if self.timeout_s <= 0:
            raise LLMConfigError("timeout_s", f"must be positive, got {self.timeout_s}")
        if self.retries < 0:
            raise LLMConfigError("retries", f"must be 0 or more, got {self.retries}")
        if self.backoff_s < 0 or self.backoff_cap_s < 0:
            raise LLMConfigError("backoff_s", "backoff times must be 0 or more")
        if self.empty_attempts < 1:
            raise LLMConfigError("empty_attempts", f"must be at least 1, got {self.empty_attempts}")
        if self.max_tokens is not None and self.max_tokens < 1:
            raise LLMConfigError("max_tokens", f"must be at least 1, got {self.max_tokens}")

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None, *, seed: int | None = None) -> LLMConfig:
        """A config from option names and values (CLI or run config); `seed` fills an unset seed.

        Unknown names, values of the wrong type and missing `base_url` / `model` raise
        `LLMConfigError` naming the option.
        """
        given = dict(options or {})
        types = {item.name: item.type for item in fields(cls)}
        for name, value in given.items():
            if name not in types:
                raise LLMConfigError(name, f"unknown option; known options: {', '.join(types)}")
            _check_type(name, value, str(types[name]))
            if str(types[name]) == "float":
                given[name] = float(value)
        for name in ("base_url", "model"):
            if name not in given:
                raise LLMConfigError(name, "missing; an OpenAI-compatible endpoint needs it")
        given.setdefault("seed", seed)
        return cls(**given)

    def api_key(self) -> str:
        """The key from `api_key_env`, or a placeholder for servers that need none."""
        return os.environ.get(self.api_key_env) or NO_KEY

    def describe(self) -> dict[str, Any]:
        """What a record says about the endpoint: model, URL, sampling (never the key)."""
        return {
            "model": self.model,
            "base_url": self.base_url,
            "temperature": self.temperature,
            "seed": self.seed,
        }

    def backoff(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait before re-send number `attempt` (1-based)."""
        delay = min(self.backoff_cap_s, self.backoff_s * 2.0 ** (attempt - 1))
        if retry_after is not None:
            delay = max(delay, min(retry_after, self.backoff_cap_s))
        return delay


def _check_type(name: str, value: Any, declared: str) -> None:
    """Raise `LLMConfigError` unless `value` fits the field's declared type."""
    if value is None and "None" in declared:
        return
    if declared.startswith("str"):
        ok = isinstance(value, str)
    elif declared.startswith("int"):
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok:
        raise LLMConfigError(name, f"expected {declared}, got {type(value).__name__} {value!r}")
