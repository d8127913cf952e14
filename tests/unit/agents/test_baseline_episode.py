"""End to end with the episode engine: baselines against rule users on the sample task."""

from __future__ import annotations

from typing import Any

from runner.agents.baselines import GreedyPlanner
from runner.agents.registry import make_agent
from runner.episode import EpisodeSettings, run_episode, without_wall_clock
from runner.users.registry import make_users
from tests.fixtures.sample_game import sample_raw, sample_task, sample_world

TRUTH = {user: slot["preference"] for user, slot in sample_raw()["user_preferences"].items()}


def _play(agent: str, settings: EpisodeSettings) -> dict[str, Any]:
    task, world = sample_task(), sample_world()
    player = make_agent(agent, task=task, world=world, planner=GreedyPlanner(world), seed=settings.seed)
    users = make_users("rules", task, seed=settings.seed)
    return run_episode(task, world, player, users, trial=0, settings=settings)


def _speakers(record: dict[str, Any]) -> list[str]:
    return [entry["role"] for entry in record["conversation_history"]]


def test_scripted_interviews_then_plans_with_the_full_table() -> None:
    record = _play("scripted", EpisodeSettings(seed=0))
    assert record["completion_reason"] == "plan_generated"
    assert record["plan_generated"] is True
    assert _speakers(record) == ["User1", "User2", "Agent", "User2", "User1", "Agent", "User1", "Agent"]
    assert record["agent_preference_table"] == TRUTH
    assert record["compromise_log"] == []
    assert without_wall_clock(record) == without_wall_clock(_play("scripted", EpisodeSettings(seed=0)))


def test_scripted_meets_the_final_plan_deadline() -> None:
    record = _play("scripted", EpisodeSettings(seed=0, max_turn=0))
    assert record["completion_reason"] == "max_turn_reached"
    assert record["plan_generated"] is True
    assert _speakers(record) == ["User1", "User2", "Agent", "Agent"]


def test_oracle_and_silent_plan_at_the_opening() -> None:
    for agent in ("oracle", "silent"):
        record = _play(agent, EpisodeSettings(seed=0))
        assert (record["completion_reason"], record["total_events"]) == ("plan_generated", 1)
        assert _speakers(record) == ["User1", "User2", "Agent"]
    assert _play("oracle", EpisodeSettings(seed=0))["agent_preference_table"] == TRUTH
