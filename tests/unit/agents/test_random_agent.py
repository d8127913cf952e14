"""The random baseline: seeded, valid tool calls, a greedy plan from what it heard, never a repeat."""

from __future__ import annotations

from typing import Any

import pytest

from runner.agents.random_agent import RandomAgent
from runner.agents.registry import make_agent
from runner.episode import EpisodeSettings, run_episode, without_wall_clock
from runner.episode.conversation import AgentRequest, Purpose
from runner.users.registry import make_users
from tests.fixtures.sample_game import opening, sample_task, sample_world


def _play(seed: int, **settings: Any) -> dict[str, Any]:
    task, world = sample_task(), sample_world()
    agent = make_agent("random", task=task, world=world, planner=None, seed=seed)
    users = make_users("rules", task, seed=seed)
    return run_episode(task, world, agent, users, trial=0, settings=EpisodeSettings(seed=seed, **settings))


@pytest.mark.parametrize("seed", range(6))
def test_random_is_seeded_calls_tools_validly_and_ends_with_a_plan(seed: int) -> None:
    record = _play(seed)
    assert without_wall_clock(record) == without_wall_clock(_play(seed))
    assert record["plan_generated"] is True
    stats = record["agent_tool_stats"]
    assert stats["tool_errors"] == 0
    calls = [(e["name"], e["arguments"]) for e in record["conversation_history"] if e["type"] == "tool_call"]
    assert len(calls) == len(set(calls)) == stats["tool_calls_executed"]
    assert record["agent"] == {"name": "random", "seed": seed, "tools": True, "planner": {"name": "greedy"}}


def test_seeds_differ_and_some_make_tool_calls() -> None:
    executed = [_play(seed)["agent_tool_stats"]["tool_calls_executed"] for seed in range(6)]
    assert len(set(executed)) > 1 and max(executed) > 0


def test_the_final_plan_request_always_gets_a_plan() -> None:
    task, world = sample_task(), sample_world()
    agent = RandomAgent(task, world, seed=0)
    for length in range(8):
        history = opening() * (length + 1)
        request = AgentRequest(Purpose.FINAL_PLAN, task, history, tools=False)
        assert agent.step(request).content.startswith("这是为大家排好的行程")


def test_a_summary_is_the_table_it_heard() -> None:
    task, world = sample_task(), sample_world()
    step = RandomAgent(task, world, seed=0).step(AgentRequest(Purpose.SUMMARY, task, opening(), tools=False))
    assert step.content.startswith("```json") and not step.tool_calls
