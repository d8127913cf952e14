"""Finding the plan JSON the official way: during the chat (§1.2) and at evaluation time (§1.3).

Both end in the same structural gate (`is_valid_travel_plan`): an object whose `days` is a
non-empty list whose first element is an object with a non-empty `city_segments` list. Nothing
beyond the first day is inspected. Brace matching is plain depth counting (braces inside JSON
strings are not skipped), as in the official code.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FIRST_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
_JSON_FENCE = re.compile(r"```json\s*(\{.*?\})\s*```", re.DOTALL)
_DAYS_KEYS = ('"days"', "'days'")


def is_valid_travel_plan(plan: Any) -> bool:
    """The official structural gate (`_is_valid_travel_plan`)."""
    if not isinstance(plan, dict):
        return False
    days = plan.get("days")
    if not isinstance(days, list) or not days:
        return False
    first = days[0]
    if not isinstance(first, dict):
        return False
    segments = first.get("city_segments")
    return isinstance(segments, list) and bool(segments)


def first_json(text: str) -> Any | None:
    """The JSON value of a chat reply's first fenced block, else of its first brace-matched object.

    None when there is no candidate or it does not parse (no second attempt). The official code
    reads plans (§1.2) and the agent's preference table (§7.3) this way.
    """
    fence = _FIRST_FENCE.search(text)
    if fence is not None:
        candidate: str | None = fence.group(1).strip()
    else:
        start = text.find("{")
        candidate = _brace_match(text, start) if start != -1 else None
    return None if candidate is None else _loads(candidate)


def check_is_travel_plan(text: str) -> Any | None:
    """The plan in an Agent reply (first fenced block, else first brace-matched object), or None."""
    plan = first_json(text)
    return plan if is_valid_travel_plan(plan) else None


def extract_plan_from_conversation(history: list[Any]) -> Any | None:
    """The newest Agent message's plan (fenced ```json first, then the `days` fallback), or None."""
    for entry in reversed(history):
        if entry.get("role") != "Agent":
            continue
        content = entry.get("content", "")
        if "days" not in content or "city_segments" not in content:
            continue
        fence = _JSON_FENCE.search(content)
        if fence is not None:
            plan = _loads(fence.group(1))
            if is_valid_travel_plan(plan):
                return plan
        plan = _extract_json_with_days(content)
        if is_valid_travel_plan(plan):
            return plan
    return None


def _extract_json_with_days(content: str) -> Any | None:
    """The object around the first `"days"` (then `'days'`): nearest `{` before it, brace-matched."""
    for key in _DAYS_KEYS:
        at = content.find(key)
        if at == -1:
            continue
        start = content.rfind("{", 0, at)
        if start == -1:
            continue
        candidate = _brace_match(content, start)
        if candidate is None:
            continue
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    return None


def _brace_match(text: str, start: int) -> str | None:
    """The substring from `text[start] == "{"` to its depth-matched `}`, or None if unclosed."""
    depth = 0
    for pos in range(start, len(text)):
        char = text[pos]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return text[start : pos + 1]
    return None


def _loads(candidate: str) -> Any | None:
    try:
        return json.loads(candidate)
    except ValueError:
        return None
