"""Invariants of the engine under random scripted behaviour (hypothesis).

Whatever the agent and users do — talk, @-mention anyone, pass, call tools (repeatedly or with
broken arguments), send tables or plans, give ground with valid, misplaced or malformed markers —
the episode ends with a documented reason, every event either committed a message, was a
user's pass or an intercepted Agent message, and nobody compromises more than twice.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from runner.episode import COMPLETION_REASONS, EpisodeSettings, run_episode
from runner.episode.conversation import AGENT, AgentRequest, AgentStep, Purpose, outward
from runner.episode.passes import is_pass, strip_passes
from runner.episode.settings import MAX_COMPROMISES_PER_USER
from runner.loading.benchmark_data import load_task, sample_path
from tests.fixtures.scripted_players import (
    TINY_PLAN,
    ScriptedAgent,
    ScriptedUser,
    call,
    plan_text,
    scripted_users,
    table_text,
    tools,
)
from verifier.official.extraction import check_is_travel_plan

TASK = load_task(sample_path("task.json"), None)
TABLES = [
    {name: {"global_constraints": {"avg_budget": budget}}} for name in TASK.user_names for budget in (1, 2)
]

AGENT_MOVES = st.sampled_from(
    ["talk", "@User1", "@User2", "@Agent", "tool", "tool-again", "broken-tool", "table", "plan"]
)
USER_REPLIES = st.sampled_from(
    [
        "[pass]",
        "好的",
        "我同意 [pass]",
        "[PASS]",
        "@Agent 你怎么看",
        "行 [global_constraints.avg_budget : 2500]",
        "行 [transport.must : 高铁]",
        "行 [hotel.prefer : 经济型]",
        '行 [global_constraints.avg_budget : "25]',
        "行 [avg_budget_cny : 1000元]",
    ]
)


class RandomAgent:
    """Plays the drawn moves in a cycle; every text is unique so commits can be traced."""

    def __init__(self, moves: list[str]) -> None:
        self.moves = moves
        self.count = 0

    def __call__(self, request: AgentRequest) -> AgentStep | str:
        self.count += 1
        move = self.moves[self.count % len(self.moves)]
        tag = f"#{self.count}"
        if not request.tools or move == "talk":
            return f"说{tag}"
        if move.startswith("@"):
            return f"{move} 说{tag}"
        if move == "tool":
            return tools(call("web_search", {"query": tag}))
        if move == "tool-again":
            return tools(call("web_search", {"query": "同一个"}))
        if move == "broken-tool":
            return tools(call("web_search", '{"query": '))
        if move == "table":
            return f"{table_text(TABLES[self.count % len(TABLES)])}\n{tag}"
        return f"{plan_text(TINY_PLAN)}\n{tag}"


def _user_events(user: ScriptedUser) -> list[str]:
    """The last reply of each event (an event starts at attempt 1)."""
    finals: list[str] = []
    for request, reply in zip(user.requests, user.replies, strict=True):
        if request.attempt == 1:
            finals.append(reply)
        else:
            finals[-1] = reply
    return finals


def _intercepted(record: dict[str, Any], agent: ScriptedAgent) -> int:
    """TURN turns whose outward text never reached the history."""
    starts = [r.purpose for r in agent.requests if r.iteration == 1 and r.purpose is not Purpose.SUMMARY]
    finals = [item["content"] for item in record["agent_trace"] if item["type"] == "assistant_response"]
    committed = {entry["content"] for entry in outward(record["conversation_history"])}
    return sum(
        1
        for purpose, text in zip(starts, finals, strict=True)
        if purpose is Purpose.TURN and text not in committed
    )


@settings(max_examples=60, deadline=None)
@given(
    moves=st.lists(AGENT_MOVES, min_size=1, max_size=8),
    replies=st.dictionaries(st.sampled_from(TASK.user_names), st.lists(USER_REPLIES, max_size=12)),
    max_turn=st.integers(0, 4),
    interval=st.integers(1, 3),
)
def test_episodes_end_well_and_account_for_every_event(
    moves: list[str], replies: dict[str, list[str]], max_turn: int, interval: int
) -> None:
    agent = ScriptedAgent(RandomAgent(moves))
    users = scripted_users(TASK, dict(replies))
    limits = EpisodeSettings(max_turn=max_turn, convergence_interval=interval)
    record = run_episode(TASK, None, agent, users, trial=0, settings=limits)

    assert record["completion_reason"] in COMPLETION_REASONS[:-1]
    assert record["total_rounds"] <= max_turn
    committed = len(outward(record["conversation_history"])) - len(TASK.initial_messages)
    passes = sum(1 for user in users.values() for reply in _user_events(user) if is_pass(strip_passes(reply)))
    assert record["total_events"] == committed + passes + _intercepted(record, agent)
    applied: dict[str, int] = {}
    for entry in record["compromise_log"]:
        applied[entry["user"]] = applied.get(entry["user"], 0) + entry["applied"]
    assert all(count <= MAX_COMPROMISES_PER_USER for count in applied.values())
    last = [m for m in outward(record["conversation_history"]) if m["role"] == AGENT][-1]
    has_plan = check_is_travel_plan(last["content"]) is not None
    assert record["plan_generated"] == (has_plan and record["completion_reason"] in COMPLETION_REASONS[:2])
