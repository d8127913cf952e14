"""The ten travel tools served from a World through the official-style cache.

Entry points: `list_tools`, `tool_schema`, `openai_tools`, `call_tool`, `cache_stats`.
"""

from sandbox.cache.report import cache_stats
from sandbox.tools.call import ToolAnswer, call_tool
from sandbox.tools.registry import UnknownToolError, list_tools, openai_tools, tool_schema

__all__ = [
    "ToolAnswer",
    "UnknownToolError",
    "cache_stats",
    "call_tool",
    "list_tools",
    "openai_tools",
    "tool_schema",
]
