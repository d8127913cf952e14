"""The group chat as chat-completion messages, from the agent's or one user's seat
(docs/runner.md#the-protocol-as-implemented).

Agent seat: the agent's own messages are assistant turns, with their tool calls rebuilt (ids
`call_1`, `call_2`, … in order) and answered by tool turns; all other messages between two agent
turns are merged into one user turn of "Role: content" lines. User seat: the user's own messages
are assistant turns and everything else it sees (outward messages only) is merged the same way.
Placeholder user turns keep the alternation: "(对话开始)" before an opening assistant turn,
"(其他参与者暂无发言)" between two assistant turns with nothing in between.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

from runner.episode.conversation import AGENT, Entry, MessageEntry, is_outward

OPENING = "(对话开始)"
NOBODY_SPOKE = "(其他参与者暂无发言)"

Message = dict[str, Any]


def agent_messages(
    history: Sequence[Entry], turn: Sequence[Entry] = (), note: str | None = None
) -> list[Message]:
    """The agent's view of `history` then `turn`; `note` is a last user line between the two."""
    builder = _AgentView()
    builder.feed(history)
    if note is not None:
        builder.lines.append(note)
    builder.feed(turn)
    return with_alternation(builder.finish())


def user_messages(history: Iterable[Entry], user: str) -> list[Message]:
    """`user`'s view of the outward messages in `history` (other entries are skipped)."""
    messages: list[Message] = []
    lines: list[str] = []
    for entry in history:
        if entry["type"] != "message" or not is_outward(entry):
            continue
        if entry["role"] == user:
            _flush(messages, lines)
            messages.append({"role": "assistant", "content": entry["content"]})
        else:
            lines.append(line(entry))
    _flush(messages, lines)
    return with_alternation(messages)


def transcript(history: Iterable[Entry]) -> str:
    """The outward messages as "Role: content" lines."""
    return "\n".join(line(entry) for entry in history if is_outward(entry) and entry["type"] == "message")


def line(entry: MessageEntry) -> str:
    """One message as a chat line."""
    return f"{entry['role']}: {entry['content']}"


def with_alternation(messages: list[Message]) -> list[Message]:
    """`messages` with placeholder user turns where two assistant turns would touch."""
    result: list[Message] = []
    for message in messages:
        if message["role"] == "assistant":
            if not result:
                result.append({"role": "user", "content": OPENING})
            elif result[-1]["role"] == "assistant":
                result.append({"role": "user", "content": NOBODY_SPOKE})
        result.append(message)
    return result


def arguments_for_api(arguments: str) -> str:
    """Tool-call arguments as replayed to a server: a JSON object; other text wrapped.

    Malformed arguments go back as `{"raw_arguments": <text>}`, as the official client does, so
    strict servers accept the history.
    """
    try:
        value = json.loads(arguments)
    except ValueError:
        value = None
    if isinstance(value, dict):
        return arguments
    return json.dumps({"raw_arguments": arguments}, ensure_ascii=False)


class _AgentView:
    """Accumulates the agent's messages; tool results answer the oldest unanswered call."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.lines: list[str] = []
        self.calls = 0
        self.open_call: Message | None = None
        self.pending: deque[str] = deque()

    def feed(self, entries: Iterable[Entry]) -> None:
        for entry in entries:
            if entry["type"] == "message":
                self._message(entry)
            elif entry["type"] == "tool_call" and self.open_call is not None:
                self.calls += 1
                call_id = f"call_{self.calls}"
                self.pending.append(call_id)
                function = {"name": entry["name"], "arguments": arguments_for_api(entry["arguments"])}
                self.open_call.setdefault("tool_calls", []).append(
                    {"id": call_id, "type": "function", "function": function}
                )
            elif entry["type"] == "tool_result" and self.pending:
                self.messages.append(
                    {"role": "tool", "tool_call_id": self.pending.popleft(), "content": entry["result"]}
                )

    def _message(self, entry: MessageEntry) -> None:
        if entry["role"] != AGENT:
            self.open_call = None
            self.pending.clear()
            self.lines.append(line(entry))
            return
        _flush(self.messages, self.lines)
        self.pending.clear()
        if entry.get("has_tool_calls", False):
            self.open_call = {"role": "assistant", "content": entry["content"] or None}
            self.messages.append(self.open_call)
        else:
            self.open_call = None
            self.messages.append({"role": "assistant", "content": entry["content"]})

    def finish(self) -> list[Message]:
        _flush(self.messages, self.lines)
        return self.messages


def _flush(messages: list[Message], lines: list[str]) -> None:
    """Close the pending user lines into one user turn."""
    if lines:
        messages.append({"role": "user", "content": "\n".join(lines)})
        lines.clear()
