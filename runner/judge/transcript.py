"""A run record as the judge reads it: the conversation as text, the reference preferences.

Formatting follows docs/runner.md#llm-judge (Transcript): every entry gives one block followed by a blank line
— a message as `[Role]: text` (an Agent message that only called tools reads `(调用工具，见下方)`), a tool
call as `  [工具调用] name` and `  参数: arguments`, a result as `  [工具返回] name:` and the
result on the next line, or `  [工具返回-错误] name: result`; results longer than 2000
characters are cut and marked.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

RESULT_LIMIT = 2000
TRUNCATED = "\n  ... (结果已截断)"
TOOLS_ONLY = "(调用工具，见下方)"
NO_PREFERENCES = "（无参考偏好数据）"


def format_conversation(history: list[Any]) -> str:
    """The conversation history as the judge's transcript (entries that are not objects are skipped)."""
    blocks = [_entry(entry) for entry in history if isinstance(entry, Mapping)]
    return "".join(f"{block}\n\n" for block in blocks if block is not None)


def _entry(entry: Mapping[str, Any]) -> str | None:
    kind = entry.get("type", "message")
    name = str(entry.get("name", ""))
    if kind == "tool_call":
        return f"  [工具调用] {name}\n  参数: {_text(entry.get('arguments'))}"
    if kind == "tool_result":
        result = _truncate(_text(entry.get("result")))
        if entry.get("error"):
            return f"  [工具返回-错误] {name}: {result}"
        return f"  [工具返回] {name}:\n  {result}"
    if kind != "message":
        return None
    content = _text(entry.get("content"))
    if not content.strip() and entry.get("has_tool_calls"):
        content = TOOLS_ONLY
    return f"[{entry.get('role', '')}]: {content}"


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _truncate(result: str) -> str:
    return result if len(result) <= RESULT_LIMIT else result[:RESULT_LIMIT] + TRUNCATED


def format_preferences(preferences: Any) -> str:
    """The original preference table ① as indented JSON, or the placeholder when there is none."""
    if not preferences:
        return NO_PREFERENCES
    return json.dumps(preferences, ensure_ascii=False, indent=2)
