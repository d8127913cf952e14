"""Tool calls written as JSON in the message text, for models that do not fill `tool_calls`.

Small local models (the Qwen2.5 GGUFs of the ecosystem notes) answer a tool request with text
such as ```` ```json {"name": "search_poi", "arguments": {...}} ``` ```` instead of a function
call. `read_text_calls` finds such objects — in fenced blocks or bare in the text — and accepts
one as a call when its name is a tool that was offered. Accepted shapes: `{"name", "arguments"}`,
`{"tool", "parameters"}`, `{"tool_name", "args"}`, `{"function": {"name", "arguments"}}`, a list
of these, and `arguments` given as a JSON string. A text that contains `city_segments` is
a plan draft and is never read as calls.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import Any

from runner.episode.conversation import ToolCallRequest

_FENCE = re.compile(r"```[A-Za-z]*[ \t]*\n?(.*?)```", re.DOTALL)
_NAME_KEYS = ("name", "tool", "tool_name", "function")
_ARGUMENT_KEYS = ("arguments", "parameters", "args", "params", "input")
PLAN_MARK = "city_segments"


@dataclass(frozen=True)
class TextCalls:
    """The calls read from a text and the text left once their JSON is removed."""

    calls: tuple[ToolCallRequest, ...]
    remainder: str


def read_text_calls(text: str, tools: Collection[str]) -> TextCalls:
    """The tool calls written in `text` whose names are among `tools`."""
    if PLAN_MARK in text:
        return TextCalls((), text)
    calls: list[ToolCallRequest] = []
    spans: list[tuple[int, int]] = []
    for start, end, value in _json_values(text):
        found = [call for call in _calls_in(value) if call[0] in tools]
        if not found:
            continue
        spans.append((start, end))
        for name, arguments in found:
            calls.append(ToolCallRequest(id=f"text_call_{len(calls) + 1}", name=name, arguments=arguments))
    return TextCalls(tuple(calls), _remove(text, spans).strip())


def _json_values(text: str) -> Iterator[tuple[int, int, Any]]:
    """(start, end, value) of each JSON value: fenced blocks first, then bare objects/arrays."""
    taken: list[tuple[int, int]] = []
    for match in _FENCE.finditer(text):
        value = _loads(match.group(1))
        if value is not None:
            taken.append((match.start(), match.end()))
            yield match.start(), match.end(), value
    position = 0
    while position < len(text):
        if text[position] not in "{[" or any(start <= position < end for start, end in taken):
            position += 1
            continue
        end = _matching_close(text, position)
        value = _loads(text[position:end]) if end else None
        if value is None or end is None:
            position += 1
            continue
        yield position, end, value
        position = end


def _matching_close(text: str, start: int) -> int | None:
    """End (exclusive) of the bracketed JSON starting at `start`, skipping strings."""
    depth = 0
    in_string = False
    escaped = False
    for index in range(start, len(text)):
        char = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return index + 1
    return None


def _loads(text: str) -> Any:
    """The JSON value of `text`, or None when it is not a JSON object or array."""
    try:
        value = json.loads(text.strip())
    except ValueError:
        return None
    return value if isinstance(value, dict | list) else None


def _calls_in(value: Any) -> list[tuple[str, str]]:
    """(name, arguments JSON) of each call-shaped object in a JSON value."""
    if isinstance(value, list):
        return [call for item in value for call in _calls_in(item)]
    if not isinstance(value, dict):
        return []
    if isinstance(value.get("function"), dict):
        return _calls_in(value["function"])
    if isinstance(value.get("tool_calls"), list):
        return _calls_in(value["tool_calls"])
    name = next((value[key] for key in _NAME_KEYS if isinstance(value.get(key), str)), None)
    if name is None:
        return []
    arguments: Any = next((value[key] for key in _ARGUMENT_KEYS if key in value), {})
    if isinstance(arguments, str):
        return [(name, arguments)]
    return [(name, json.dumps(arguments, ensure_ascii=False))]


def _remove(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` without the given spans."""
    kept: list[str] = []
    position = 0
    for start, end in sorted(spans):
        kept.append(text[position:start])
        position = end
    kept.append(text[position:])
    return "".join(kept)
