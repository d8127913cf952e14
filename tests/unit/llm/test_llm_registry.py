"""The `openai` agent and `llm` users in the registries, built from option mappings."""

from __future__ import annotations

import pytest

from runner.agents.openai_agent import OpenAIAgent
from runner.agents.registry import AgentSetupError, make_agent
from runner.loading.benchmark_data import load_task, sample_path
from runner.users.llm import LLMUser
from runner.users.registry import UserSetupError, make_users

OPTIONS = {"base_url": "http://127.0.0.1:9/v1", "model": "qwen", "temperature": 0.7}


def test_make_agent_openai_takes_the_episode_seed_unless_given() -> None:
    task = load_task(sample_path("task.json"), None)
    agent = make_agent("openai", task=task, world=None, planner=None, seed=5, openai_options=OPTIONS)
    assert isinstance(agent, OpenAIAgent)
    assert agent.describe() == {
        "name": "openai",
        "model": "qwen",
        "base_url": "http://127.0.0.1:9/v1",
        "temperature": 0.7,
        "seed": 5,
    }
    seeded = make_agent(
        "openai", task=task, world=None, planner=None, seed=5, openai_options={**OPTIONS, "seed": 11}
    )
    assert seeded.describe()["seed"] == 11


def test_make_agent_openai_names_the_bad_option() -> None:
    task = load_task(sample_path("task.json"), None)
    with pytest.raises(AgentSetupError) as failure:
        make_agent("openai", task=task, world=None, planner=None, seed=0, openai_options={"model": "m"})
    assert failure.value.field == "openai_options.base_url"


def test_make_users_llm_makes_one_llm_user_per_task_user() -> None:
    task = load_task(sample_path("task.json"), None)
    users = make_users("llm", task, seed=2, llm_options=OPTIONS)
    assert list(users) == ["User2", "User1"]
    assert all(isinstance(user, LLMUser) and user.name == name for name, user in users.items())
    assert users["User1"].describe() == {
        "kind": "llm",
        "model": "qwen",
        "base_url": "http://127.0.0.1:9/v1",
        "temperature": 0.7,
        "seed": 2,
    }
    with pytest.raises(UserSetupError) as failure:
        make_users("llm", task, seed=2, llm_options={**OPTIONS, "top_p": 0.9})
    assert failure.value.field == "llm_options.top_p"
