"""The lines of a runs file: the official §7.8 success and failure records plus our extras.

Every line carries `task_index`, `task_id`, `trial_id` (the trial number, from 0), the trial's
`seed`, `attempts` (1 + retries of retryable failures) and the run's `config_hash`. A success
line is the episode's record (official fields, then the engine's extras) with those keys set;
a failure line is the official failure shape (`success: false`, `error`, `completion_reason`,
`plan_generated: false`) plus `termination_reason` (= `completion_reason`), `trial` and the
keys above, and `transient: true` when only transport faults failed it (resume re-runs it); an
episode that refuses its inputs (`EpisodeInputError`) gets the official input-validation
failure, which has no completion reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from runner.episode.conversation import RETRYABLE, ModelCallError

HASH_KEY = "config_hash"

_BY_MESSAGE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("context_overflow", ("maximum context length", "context_length_exceeded")),
    ("connection_error", ("connection error", "timeout")),
    ("rate_limit", ("rate limit", "429")),
)


@dataclass(frozen=True, slots=True)
class TrialKey:
    """Which trial a line is: the task's position and id, the trial number, its seed and hash."""

    task_index: int
    task_id: str
    trial: int
    seed: int
    config_hash: str


def failure_reason(exc: BaseException) -> str:
    """The official `completion_reason` of a failed trial: a `ModelCallError` names it; any other
    exception is classified by its message as the official runner does (docs/runner.md#the-openai-agent,
    Failures)."""
    if isinstance(exc, ModelCallError):
        return exc.reason
    text = str(exc).lower()
    for reason, needles in _BY_MESSAGE:
        if any(needle in text for needle in needles):
            return reason
    return "runtime_error"


def is_retryable(reason: str) -> bool:
    return reason in RETRYABLE


def is_transient(exc: BaseException) -> bool:
    """A model call that failed on transport faults only (`ModelCallError.transient`)."""
    return isinstance(exc, ModelCallError) and exc.transient


def is_retryable_failure(exc: BaseException) -> bool:
    """Whether a trial that raised `exc` may pass on another attempt: a retryable official reason
    (rate_limit, connection_error) or a transient model-call failure (5xx, undecodable body, no
    choices — runtime_error by the official reading, but the endpoint's fault, not the agent's)."""
    return is_retryable(failure_reason(exc)) or is_transient(exc)


def success_record(record: dict[str, Any], key: TrialKey, attempts: int) -> dict[str, Any]:
    """The episode's record with the trial's identity, attempts and config hash set."""
    return record | {
        "task_index": key.task_index,
        "task_id": key.task_id,
        "trial_id": key.trial,
        "seed": key.seed,
        "attempts": attempts,
        HASH_KEY: key.config_hash,
    }


def failure_record(key: TrialKey, exc: BaseException, attempts: int) -> dict[str, Any]:
    """The official failure record of a trial that raised `exc`, with our extras."""
    reason = failure_reason(exc)
    transient = {"transient": True} if is_transient(exc) else {}
    return {
        "task_index": key.task_index,
        "task_id": key.task_id,
        "trial_id": key.trial,
        "success": False,
        "error": str(exc) or type(exc).__name__,
        "completion_reason": reason,
        "plan_generated": False,
        "termination_reason": reason,
        "trial": key.trial,
        "seed": key.seed,
        "attempts": attempts,
        HASH_KEY: key.config_hash,
    } | transient


def input_failure_record(key: TrialKey, exc: BaseException) -> dict[str, Any]:
    """The official input-validation failure (docs/runner.md#runs: no completion reason), with our extras."""
    return {
        "task_index": key.task_index,
        "task_id": key.task_id,
        "trial_id": key.trial,
        "success": False,
        "error": str(exc),
        "trial": key.trial,
        "seed": key.seed,
        "attempts": 1,
        HASH_KEY: key.config_hash,
    }


def is_purged(line: dict[str, Any]) -> bool:
    """A failed line the next resume re-runs: official rate_limit and connection_error, and ours
    marked `transient` (a model call that failed on transport faults only)."""
    return line.get("success") is False and (
        is_retryable(str(line.get("completion_reason"))) or line.get("transient") is True
    )
