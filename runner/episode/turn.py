"""One Agent turn with tools, and the Agent's preference summaries
(docs/runner.md#the-protocol-as-implemented, Agent turn and Table ②).

A turn asks the agent for up to 20 steps. A step without tool calls ends the turn: its text is
the turn's outward message. A step with tool calls adds an intermediate message
(`has_tool_calls: true`) and, per call in order, a `tool_call` and a `tool_result` entry; then
the repetition guards look at the step's calls. When a guard fires, or after 20 tool steps, one
more step is asked without tools (`Purpose.FORCE_FINISH`) and its text ends the turn (tool
calls it returns anyway are ignored). Every step leaves `agent_trace` items (docs/runner.md#the-record).

A summary asks one step without tools (`Purpose.SUMMARY`) over the outward messages; its text
goes to the trace and may replace the table ②, never to the history.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from runner.episode.calls import ToolRunner
from runner.episode.conversation import (
    AGENT,
    Agent,
    AgentRequest,
    AgentStep,
    Entry,
    MessageEntry,
    Purpose,
    message,
    outward,
)
from runner.episode.guards import Repetition, RepetitionGuard, Signature
from runner.episode.ledger import Ledger
from runner.episode.settings import AGENT_TOOL_ITERATIONS
from runner.episode.table import updated_table


@dataclass(frozen=True)
class TurnResult:
    """A finished turn: intermediate entries, the outward text, the guard that fired, if any."""

    entries: list[Entry]
    content: str
    flag: Repetition | None
    forced: bool

    def final(self) -> MessageEntry:
        """The turn's outward message entry."""
        return message(AGENT, self.content, has_tool_calls=False)


@dataclass
class AgentTurns:
    """The agent side of an episode: its turns, summaries, trace and repetition guard B."""

    task: Any
    agent: Agent
    tools: ToolRunner
    ledger: Ledger
    guard: RepetitionGuard = field(default_factory=RepetitionGuard)
    trace: list[dict[str, Any]] = field(default_factory=list)

    def turn(
        self, purpose: Purpose, history: list[Entry], table: dict[str, Any], *, mentioned: bool = False
    ) -> TurnResult:
        """Run one turn over the committed `history` with the current table ②."""
        self.trace.append({"type": "new_turn", "history_length": len(history)})
        base = AgentRequest(
            purpose=purpose,
            task=self.task,
            history=history,
            table=table,
            mentioned=mentioned,
            turn_purpose=purpose,
        )
        entries: list[Entry] = []
        previous: set[Signature] = set()
        flag: Repetition | None = None
        iteration = 0
        while iteration < AGENT_TOOL_ITERATIONS:
            iteration += 1
            step = self.ledger.agent_step(self.agent, replace(base, turn=list(entries), iteration=iteration))
            if not step.tool_calls:
                self._respond(step.content, iteration, forced=False)
                return TurnResult(entries, step.content, None, False)
            signatures = self._tool_step(step, iteration, entries)
            flag = self.guard.check(signatures, previous)
            if flag is not None:
                self.trace.append(
                    {"type": "repetitive_tool_calls_detected", "reason": flag, "iteration": iteration}
                )
                break
            previous = set(signatures)
        else:
            self.trace.append({"type": "max_iterations_reached", "iteration": iteration})
        finish = replace(
            base, purpose=Purpose.FORCE_FINISH, tools=False, turn=list(entries), iteration=iteration + 1
        )
        content = self.ledger.agent_step(self.agent, finish).content
        self._respond(content, iteration + 1, forced=True)
        return TurnResult(entries, content, flag, True)

    def _tool_step(self, step: AgentStep, iteration: int, entries: list[Entry]) -> list[Signature]:
        """Record a tool-calling step, run its calls in order; the calls' signatures."""
        if step.content:
            self.trace.append(
                {"type": "intermediate_reasoning", "content": step.content, "iteration": iteration}
            )
        calls = [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in step.tool_calls]
        self.trace.append({"type": "tool_calls", "calls": calls, "iteration": iteration})
        entries.append(message(AGENT, step.content, has_tool_calls=True))
        signatures: list[Signature] = []
        for call in step.tool_calls:
            outcome = self.tools.run(call)
            entries.extend((outcome.call, outcome.result))
            signatures.append(outcome.signature)
            self.trace.append(
                {
                    "type": "tool_result",
                    "tool_call_id": call.id,
                    "name": call.name,
                    "result": outcome.result["result"],
                    "error": outcome.result["error"],
                    "iteration": iteration,
                }
            )
        return signatures

    def _respond(self, content: str, iteration: int, *, forced: bool) -> None:
        item: dict[str, Any] = {"type": "assistant_response", "content": content, "iteration": iteration}
        if forced:
            item["forced_finish"] = True
        self.trace.append(item)

    def summary(self, history: list[Entry], table: dict[str, Any]) -> dict[str, Any]:
        """Ask for a preference summary of `history`'s outward messages; the table ② it leaves."""
        request = AgentRequest(
            purpose=Purpose.SUMMARY, task=self.task, history=list(outward(history)), table=table, tools=False
        )
        content = self.ledger.agent_step(self.agent, request).content
        self.trace.append({"type": "preference_summary", "content": content})
        return updated_table(table, content)
