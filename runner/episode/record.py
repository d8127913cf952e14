"""The §7.8 success record of an episode: official keys in the official order, then our extras.

Official keys: conversation_history, agent_trace, agent_preference_table, effective_preferences,
compromise_log, agent_tool_stats, total_rounds, total_events, total_steps, duration,
completion_reason, plan_generated, query, time, context, user_names, max_turn,
convergence_interval, original_preferences, task_index, task_id, trial_id, success.
`task_index` is None here: the position of the task in its file is the runs layer's to fill in
(assigning the key keeps its place). No agent reasoning is ever stored.

Extras: termination_reason (= completion_reason), trial (= trial_id), tokens, timings, seed,
agent, users, text_tool_calls, and `tool_faults {spec, met, recovered}` when faults were injected
(`runner.episode.faults`), and `intent_shifts` when the task schedules one (`runner.episode.shifts`).
Wall-clock figures are only `duration` and `timings`; drop those
two keys and the record is byte-identical for the same inputs and seed.
"""

from __future__ import annotations

import copy
from typing import Any

from runner.episode.events import Episode

OFFICIAL_KEYS = (
    "conversation_history",
    "agent_trace",
    "agent_preference_table",
    "effective_preferences",
    "compromise_log",
    "agent_tool_stats",
    "total_rounds",
    "total_events",
    "total_steps",
    "duration",
    "completion_reason",
    "plan_generated",
    "query",
    "time",
    "context",
    "user_names",
    "max_turn",
    "convergence_interval",
    "original_preferences",
    "task_index",
    "task_id",
    "trial_id",
    "success",
)
EXTRA_KEYS = ("termination_reason", "trial", "tokens", "timings", "seed", "agent", "users", "text_tool_calls")
OPTIONAL_KEYS = ("tool_faults", "intent_shifts")
"""Extras present only when the episode used them."""
WALL_CLOCK_KEYS = ("duration", "timings")


def success_record(
    episode: Episode, reason: str, *, trial: int, seed: int, agent: dict[str, Any]
) -> dict[str, Any]:
    """The record of a finished episode (`agent` is the agent's description)."""
    task = episode.task
    timings = episode.ledger.timings()
    record: dict[str, Any] = {
        "conversation_history": episode.history,
        "agent_trace": episode.agent.trace,
        "agent_preference_table": episode.table,
        "effective_preferences": episode.tracker.effective,
        "compromise_log": episode.tracker.log,
        "agent_tool_stats": episode.stats.as_dict(),
        "total_rounds": episode.counters.rounds,
        "total_events": episode.counters.events,
        "total_steps": episode.ledger.steps,
        "duration": timings["total_s"],
        "completion_reason": reason,
        "plan_generated": episode.plan_generated,
        "query": task.query,
        "time": task.time,
        "context": task.context,
        "user_names": list(episode.names),
        "max_turn": episode.limits.max_turn,
        "convergence_interval": episode.limits.convergence_interval,
        "original_preferences": copy.deepcopy(task.preference_table()),
        "task_index": None,
        "task_id": task.task_id,
        "trial_id": trial,
        "success": True,
        "termination_reason": reason,
        "trial": trial,
        "tokens": episode.ledger.tokens(),
        "timings": timings,
        "seed": seed,
        "agent": agent,
        "users": {name: episode.users[name].describe() for name in episode.names},
        "text_tool_calls": episode.ledger.text_tool_calls,
    }
    if episode.faults is not None:
        record["tool_faults"] = episode.faults.as_dict()
    if episode.shift is not None:
        record["intent_shifts"] = episode.shift.as_record()
    return record


def without_wall_clock(record: dict[str, Any]) -> dict[str, Any]:
    """The record without its wall-clock keys: what must be identical across reruns."""
    return {key: value for key, value in record.items() if key not in WALL_CLOCK_KEYS}
