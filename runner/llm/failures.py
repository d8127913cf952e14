"""Failure classification: which official failure reason (docs/runner.md#the-openai-agent, Failures) an API
error is.

The official runner reads the error text: "maximum context length" / "context_length_exceeded"
→ context_overflow; "Connection error" / "timeout" → connection_error; "rate limit" / "429" →
rate_limit; anything else → runtime_error, checked in that order. We read the text the same way
and also the exception type, so the client's timeouts ("Request timed out.") count as connection
errors. Whether to re-send is a separate question (`is_transient`): 5xx answers are worth a
retry although they end as runtime_error.

A *transport fault* is a failed attempt worth re-sending (`fault_kind`): a connection error or
timeout, a 429, a 5xx, and — beyond the API's own errors — a 200 whose body does not decode as
JSON (`undecodable_reply`, a body cut short) or holds no choice (`no_choices`). The last two are
read as the official runner would read them (runtime_error) but, like every transport fault that
outlasts the client's re-sends, mark the failure `transient`, which the runs layer retries.
"""

from __future__ import annotations

import openai

from runner.episode.conversation import FailureReason


def classify(error: BaseException) -> FailureReason:
    """The official failure reason of an error raised by an API call."""
    text = str(error)
    body = getattr(error, "body", None)
    if body is not None:
        text = f"{text} {body}"
    lowered = text.lower()
    if "maximum context length" in lowered or "context_length_exceeded" in lowered:
        return "context_overflow"
    if isinstance(error, openai.APIConnectionError) or "connection error" in lowered or "timeout" in lowered:
        return "connection_error"
    if status_of(error) == 429 or "rate limit" in lowered or "429" in text:
        return "rate_limit"
    return "runtime_error"


FAULT_KINDS: tuple[str, ...] = (
    "connection_error",
    "rate_limit",
    "server_error",
    "undecodable_reply",
    "no_choices",
)


def fault_kind(error: BaseException) -> str | None:
    """The transport fault an API error is (one of `FAULT_KINDS`), None when re-sending cannot help."""
    if not is_transient(error):
        return None
    reason = classify(error)
    return reason if reason in {"connection_error", "rate_limit"} else "server_error"


def status_of(error: BaseException) -> int | None:
    """The HTTP status of an API error, if it has one."""
    return error.status_code if isinstance(error, openai.APIStatusError) else None


def is_transient(error: BaseException) -> bool:
    """Whether sending the same request again may succeed: connection, 429, 5xx."""
    if classify(error) in {"connection_error", "rate_limit"}:
        return True
    status = status_of(error)
    return status is not None and status >= 500


def retry_after(error: BaseException) -> float | None:
    """The server's Retry-After in seconds, when it sent a numeric one."""
    if not isinstance(error, openai.APIStatusError):
        return None
    value = error.response.headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
