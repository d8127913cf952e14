"""The trajectory viewer: one episode's chat, tool calls and final plan as report blocks.

Messages are shown in order by role (an Agent message that only called tools says so); each tool
call is folded together with its result (arguments and answer inside, errors marked); the plan
the official extraction finds in the conversation (docs/official.md#scoring, Extraction) is rendered day by
day with
`runner.report.plan_text.render_plan`, as text for Markdown and as tables for HTML (`plan_html`).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console

from runner.loading.files import InputError
from runner.report.document import Block, Chat, Fold, Heading, Para, Preformatted
from runner.report.inputs import Record, trial_key
from runner.report.plan_html import plan_html
from runner.report.plan_text import render_plan
from verifier.model.task import Task
from verifier.official.extraction import extract_plan_from_conversation

PLAN_WIDTH = 100
SUMMARY_CHARS = 80
LONG_MESSAGE = 600
"""Messages longer than this are shown cut, the whole text folded below them."""
TOOLS_ONLY = "(calls tools, below)"


def find_episode(runs: Sequence[Record], episode: str | None) -> Record:
    """The run record named `TASK_ID:TRIAL` (default: the first record); InputError otherwise."""
    if episode is None:
        return runs[0]
    task_id, sep, trial = episode.rpartition(":")
    if not sep or not task_id:
        raise InputError(None, f"expected TASK_ID:TRIAL, got {episode!r}", where="--episode")
    for record in runs:
        if trial_key(record) == (task_id, trial):
            return record
    known = ", ".join(":".join(trial_key(record)) for record in runs[:5])
    raise InputError(None, f"no run record {episode!r} (first records: {known})", where="--episode")


def trajectory(record: Record, task: Task | None) -> list[Block]:
    """The blocks of one episode: heading, outcome, chat with folded tool calls, the plan."""
    task_id, trial = trial_key(record)
    blocks: list[Block] = [Heading(f"Trajectory: {task_id} trial {trial}"), Para(_outcome(record))]
    if record.get("success") is False:
        blocks.append(Para(f"The trial failed: {record.get('error', 'no error given')}"))
    history = record.get("conversation_history")
    entries = [entry for entry in history if isinstance(entry, Mapping)] if isinstance(history, list) else []
    blocks.append(Heading("Conversation", 3))
    blocks.extend(chat_blocks(entries) or [Para("No conversation was recorded.")])
    blocks.append(Heading("Plan", 3))
    plan = extract_plan_from_conversation(entries)
    blocks.append(
        Para("No plan could be extracted from the conversation.") if plan is None else plan_block(plan, task)
    )
    return blocks


def _outcome(record: Record) -> str:
    agent = record.get("agent")
    name = agent.get("name") if isinstance(agent, dict) else None
    parts = [
        f"completion: {record.get('completion_reason', 'unknown')}",
        f"plan generated: {'yes' if record.get('plan_generated') else 'no'}",
        f"rounds: {record.get('total_rounds', '?')}",
        f"events: {record.get('total_events', '?')}",
    ]
    return " · ".join(parts + ([f"agent: {name}"] if name else []))


def chat_blocks(entries: Sequence[Mapping[str, Any]]) -> list[Block]:
    """Messages as `Chat`, each tool call folded with the result that follows it."""
    blocks: list[Block] = []
    pending: list[Mapping[str, Any]] = []
    for entry in entries:
        kind = entry.get("type", "message")
        if kind == "tool_call":
            pending.append(entry)
        elif kind == "tool_result":
            call = pending.pop(0) if pending else None
            blocks.append(_fold(call, entry))
        elif kind == "message":
            blocks.extend(_fold(call, None) for call in pending)
            pending.clear()
            blocks.extend(_message(entry))
    blocks.extend(_fold(call, None) for call in pending)
    return blocks


def _message(entry: Mapping[str, Any]) -> list[Block]:
    role = str(entry.get("role", ""))
    text = str(entry.get("content") or "")
    if not text:
        return [Chat(role, TOOLS_ONLY if entry.get("has_tool_calls") else "")]
    if len(text) <= LONG_MESSAGE:
        return [Chat(role, text)]
    return [Chat(role, text[:LONG_MESSAGE] + "…"), Fold(f"whole message ({len(text)} characters)", text)]


def _fold(call: Mapping[str, Any] | None, result: Mapping[str, Any] | None) -> Fold:
    name = str((call or result or {}).get("name", "?"))
    arguments = "" if call is None else str(call.get("arguments", ""))
    short = arguments if len(arguments) <= SUMMARY_CHARS else arguments[: SUMMARY_CHARS - 1] + "…"
    error = bool(result is not None and result.get("error"))
    answer = "(no result recorded)" if result is None else str(result.get("result", ""))
    summary = f"tool {name}({short})" + (" — error" if error else "")
    return Fold(summary, f"arguments: {arguments}\n\nresult:\n{answer}", error)


def plan_block(plan: Any, task: Task | None) -> Preformatted:
    """The plan day by day: rich's text rendering for Markdown, tables for HTML (`plan_html`)."""
    view = render_plan(plan, task)
    console = Console(file=io.StringIO(), record=True, width=PLAN_WIDTH, no_color=True, _environ={})
    console.print(view)
    text = "\n".join(line.rstrip() for line in console.export_text().splitlines())
    return Preformatted(text, plan_html(view))
