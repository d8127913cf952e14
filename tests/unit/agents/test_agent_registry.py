"""make_agent: the baselines by name, structured errors for unknown names and missing inputs."""

from __future__ import annotations

import pytest

from runner.agents.baselines import GreedyPlanner, OracleAgent, ScriptedAgent, SilentAgent
from runner.agents.registry import AGENT_FACTORIES, AgentSetupError, make_agent
from tests.fixtures.sample_game import sample_task, sample_world


@pytest.mark.parametrize(
    ("name", "kind"), [("oracle", OracleAgent), ("scripted", ScriptedAgent), ("silent", SilentAgent)]
)
def test_baselines_by_name(name: str, kind: type) -> None:
    agent = make_agent(
        name, task=sample_task(), world=sample_world(), planner=GreedyPlanner(sample_world()), seed=3
    )
    assert isinstance(agent, kind)
    assert agent.describe() == {"name": name, "seed": 3, "tools": False, "planner": {"name": "greedy"}}


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(AgentSetupError) as caught:
        make_agent("genius", task=sample_task(), world=None, planner=None, seed=0)
    assert caught.value.field == "agent"
    assert (
        caught.value.problem == f"unknown agent 'genius'; known agents: {', '.join(sorted(AGENT_FACTORIES))}"
    )
    assert {"oracle", "scripted", "silent"} <= set(AGENT_FACTORIES)


@pytest.mark.parametrize(
    ("name", "world", "planner", "field"),
    [
        ("oracle", True, False, "planner"),
        ("scripted", False, True, "world"),
        ("silent", True, False, "planner"),
    ],
)
def test_missing_inputs_are_named(name: str, world: bool, planner: bool, field: str) -> None:
    with pytest.raises(AgentSetupError) as caught:
        make_agent(
            name,
            task=sample_task(),
            world=sample_world() if world else None,
            planner=GreedyPlanner(sample_world()) if planner else None,
            seed=0,
        )
    assert caught.value.field == field
    assert name in caught.value.problem
