"""Executing the agent's tool calls and counting them the official way
(docs/runner.md#the-protocol-as-implemented, Tool counts).

A call whose arguments are not JSON is not executed: its entry records the arguments as
`{"raw_arguments": <text>}` and its result is a JSON error in Chinese quoting the first 500
characters, flagged `error: true`. Any other call goes to `sandbox.tools.call_tool` (which
answers bad arguments with its own errors). Counts: every call is `tool_calls_executed`; a call
answered from the official cache (provenance `cache`) is a hit, every other executed call a miss
(errors included); a call whose result is an error counts in `tool_errors` (an unparsed call
counts there only). With injected faults (`runner.episode.faults`) a parsed call may fail
instead of running: the official text of a tool exception, a miss and an error; its signature is
its own, so trying the call again is not a repetition.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from runner.episode.conversation import ToolCallEntry, ToolCallRequest, ToolResultEntry
from runner.episode.faults import FaultLog, fault_text
from runner.episode.guards import Signature, signature
from runner.episode.ledger import Ledger
from sandbox.cache.store import ToolCache
from sandbox.world.world import World

RAW_ARGUMENTS_SHOWN = 500


@dataclass
class ToolStats:
    """The record's `agent_tool_stats`."""

    cache_hits: int = 0
    cache_misses: int = 0
    tool_errors: int = 0
    tool_calls_executed: int = 0

    def as_dict(self) -> dict[str, int]:
        """The counters in the official key order."""
        return asdict(self)


@dataclass(frozen=True)
class CallOutcome:
    """A call's two history entries and its repetition signature."""

    call: ToolCallEntry
    result: ToolResultEntry
    signature: Signature


def unparsed_error(raw: str) -> str:
    """The result text of a call whose arguments are not JSON."""
    shown = raw[:RAW_ARGUMENTS_SHOWN]
    message = f"工具参数JSON解析失败，未执行该工具调用，请传入合法的 JSON 对象。原始参数: {shown}"
    return json.dumps({"error": message}, ensure_ascii=False)


def _parsed(raw: str) -> tuple[bool, Any]:
    try:
        return True, json.loads(raw)
    except (ValueError, RecursionError):
        return False, None


@dataclass
class ToolRunner:
    """Runs calls against a world and a cache, counting into `stats` and timing through `ledger`."""

    world: World | None
    cache: ToolCache | None
    ledger: Ledger
    stats: ToolStats
    faults: FaultLog | None = None

    def run(self, request: ToolCallRequest) -> CallOutcome:
        """Execute one call (or refuse unparsed arguments) and count it."""
        self.stats.tool_calls_executed += 1
        parsed, arguments = _parsed(request.arguments)
        if not parsed:
            arguments = {"raw_arguments": request.arguments}
            text, error = unparsed_error(request.arguments), True
        elif self.faults is not None and self.faults.next_fails(request.name):
            self.stats.cache_misses += 1
            self.stats.tool_errors += 1
            shown = json.dumps(arguments, ensure_ascii=False)
            return CallOutcome(
                {"type": "tool_call", "name": request.name, "arguments": shown},
                {
                    "type": "tool_result",
                    "name": request.name,
                    "result": fault_text(request.name),
                    "error": True,
                },
                self.faults.signature(),
            )
        else:
            answer = self.ledger.tool_call(request.name, request.arguments, self.world, self.cache)
            text, error = answer.text, answer.error
            if answer.provenance == "cache":
                self.stats.cache_hits += 1
            else:
                self.stats.cache_misses += 1
        if error:
            self.stats.tool_errors += 1
        if parsed and self.faults is not None:
            self.faults.answered(request.name, error=error)
        shown = json.dumps(arguments, ensure_ascii=False)
        return CallOutcome(
            {"type": "tool_call", "name": request.name, "arguments": shown},
            {"type": "tool_result", "name": request.name, "result": text, "error": error},
            signature(request.name, arguments),
        )
