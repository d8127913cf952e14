"""The tool-use penalty (after TravelBench's): schema errors among a trajectory's tool calls.

A tool call of a record's `conversation_history` is a *schema error* when its name is not one of
the official tools, its arguments are not a JSON object (the engine records unparsed text as
`{"raw_arguments": …}`, an unknown parameter), or they fail the tool's argument schema
(`sandbox.tools.validation.validate` without a world: unknown or missing parameters, types, enums,
ranges, date/time/coordinate formats). A city the world does not know, or a place it has no data
for, is not a schema error: the call was well formed. Per trial, the schema-error rate r = schema
errors / tool calls (0 without calls); the raw score s = GU / GU* (`gu_ratio`) of a strict-valid
plan, else 0; the penalised score = s × (1 − r). Ours: the formula is stated here, not copied.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sandbox.tools.schemas import SPECS
from sandbox.tools.validation import validate

DIGITS = 4


def schema_error(name: str, arguments: str) -> str | None:
    """Why the call `name(arguments)` breaks the tool's schema, or None when it is well formed."""
    spec = SPECS.get(name)
    if spec is None:
        return f"unknown tool {name!r}"
    try:
        parsed: object = json.loads(arguments)
    except (ValueError, RecursionError):
        return "arguments are not JSON"
    return validate(spec, parsed, None)


@dataclass(frozen=True)
class ToolUse:
    """One trajectory's tool calls and how many of them break their schema."""

    calls: int
    schema_errors: int

    @property
    def rate(self) -> float:
        return self.schema_errors / self.calls if self.calls else 0.0


def trajectory_tool_use(record: Mapping[str, Any]) -> ToolUse:
    """The tool calls of a record's `conversation_history` (none for a failed trial)."""
    history = record.get("conversation_history")
    entries = [e for e in history if isinstance(e, dict)] if isinstance(history, list) else []
    calls = [e for e in entries if e.get("type") == "tool_call"]
    errors = sum(1 for e in calls if schema_error(str(e.get("name")), str(e.get("arguments"))) is not None)
    return ToolUse(len(calls), errors)


def raw_score(line: Mapping[str, Any] | None) -> float | None:
    """GU / GU* of a strict-valid plan, 0 for no or another plan, None when GU* is unknown or 0 or
    the trial was not scored (`line` None)."""
    if line is None:
        return None
    if line.get("strict_valid") is not True:
        return 0.0
    ratio = line.get("gu_ratio")
    return float(ratio) if isinstance(ratio, int | float) else None


def penalised(score: float | None, use: ToolUse) -> float | None:
    """score × (1 − schema-error rate)."""
    return None if score is None else round(score * (1.0 - use.rate), DIGITS)


def tool_use_summary(
    pairs: Sequence[tuple[Mapping[str, Any], Mapping[str, Any] | None]],
) -> dict[str, Any]:
    """Over (run record, scored line or None) pairs of one group: `trials`, `tool_calls`, `schema_errors`,
    `mean_schema_error_rate` (over trials with calls; None without), and `scored` trials with a raw
    score and their mean `raw_score` and `penalised_score` (rounded 4; None without any)."""
    uses = [trajectory_tool_use(record) for record, _ in pairs]
    scored = [
        (score, penalised(score, use))
        for (_, line), use in zip(pairs, uses, strict=True)
        if (score := raw_score(line)) is not None
    ]
    with_calls = [use.rate for use in uses if use.calls]
    return {
        "trials": len(pairs),
        "tool_calls": sum(use.calls for use in uses),
        "schema_errors": sum(use.schema_errors for use in uses),
        "mean_schema_error_rate": _mean(with_calls),
        "scored": len(scored),
        "raw_score": _mean([s for s, _ in scored]),
        "penalised_score": _mean([p for _, p in scored if p is not None]),
    }


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), DIGITS) if values else None
