"""What a world answerer returns: a JSON payload, a refusal, or nothing (not the world's to answer)."""

from __future__ import annotations

from typing import Any

Payload = dict[str, Any]


def refuse(message: str) -> Payload:
    """An error answer the agent can act on (the call was valid but cannot be served as asked)."""
    return {"error": message}


def is_refusal(payload: Payload) -> bool:
    """Whether a payload is an error answer."""
    return set(payload) == {"error"}
