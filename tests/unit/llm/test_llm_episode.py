"""Whole episodes with the openai agent and LLM users against the fake server.

The sample task's world is built with `build_world`; the agent calls a real tool on it, then
writes the greedy planner's plan; the users are LLM users served by the same fake server. Other
episodes end in each fault the client classifies.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from runner.agents.openai_agent import OpenAIAgent
from runner.episode.conversation import ModelCallError
from runner.episode.engine import run_episode
from runner.episode.settings import EpisodeSettings
from runner.llm.config import LLMConfig
from runner.loading.benchmark_data import load_task, sample_path
from runner.loading.files import read_json
from runner.users.llm import LLMUser
from sandbox.world.build import build_world
from sandbox.world.official_io import export_poi_db
from sandbox.world.world import World
from solver.greedy import greedy_plan
from tests.fixtures.fake_openai import (
    Scripted,
    calls,
    fake_openai,
    overflow,
    rate_limited,
    server_error,
    slow,
    text,
)
from verifier.model.task import Task
from verifier.official.poi_db import PoiDb
from verifier.referee import verify

KEY_ENV = "TRIPWRIGHT_EPISODE_TEST_KEY"
SECRET = "sk-episode-secret-42"
SEARCH = '{"keywords": "长隆海洋王国", "city": "珠海市"}'
TABLE = {"User2": {"global_constraints": {"avg_budget": 3200}}, "User1": {"global_constraints": {}}}


@pytest.fixture(scope="module")
def task() -> Task:
    return load_task(sample_path("task.json"), None)


@pytest.fixture(scope="module")
def world() -> World:
    return build_world([read_json(sample_path("task.json"))], seed=1)


def is_user_call(body: dict[str, Any]) -> bool:
    return str(body["messages"][0]["content"]).startswith("你要扮演旅行参与者")


def is_summary(body: dict[str, Any]) -> bool:
    return "tools" not in body and str(body["messages"][-1]["content"]).startswith("[聊天记录开始]")


def planner(plan: dict[str, Any], agent_answer: Scripted | None = None) -> Any:
    """The fake model: users pass, summaries give a table, the agent searches then plans."""

    def respond(body: dict[str, Any]) -> Scripted:
        if is_user_call(body):
            return text("[pass]")
        if is_summary(body):
            return text(json.dumps(TABLE, ensure_ascii=False))
        if body["messages"][-1]["role"] == "tool":
            return text("方案如下：\n```json\n" + json.dumps(plan, ensure_ascii=False) + "\n```")
        return agent_answer if agent_answer is not None else calls(("search_poi", SEARCH))

    return respond


def players(task: Task, base_url: str, **options: Any) -> tuple[OpenAIAgent, dict[str, LLMUser]]:
    settings: dict[str, Any] = {"base_url": base_url, "model": "fake-model", "api_key_env": KEY_ENV}
    settings.update(options)
    config = LLMConfig(**settings)
    return OpenAIAgent(config), {name: LLMUser(name, config) for name in task.user_names}


def test_agent_uses_a_real_tool_then_emits_a_strict_valid_plan(
    task: Task, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    plan = greedy_plan(task, world)
    with fake_openai(respond=planner(plan)) as server:
        agent, users = players(task, server.base_url, seed=3)
        record = run_episode(task, world, agent, users, trial=0, settings=EpisodeSettings(seed=3))
    assert record["completion_reason"] == "plan_generated"
    assert record["plan_generated"] is True
    history = record["conversation_history"]
    assert [entry["type"] for entry in history[2:5]] == ["message", "tool_call", "tool_result"]
    assert history[3] == {"type": "tool_call", "name": "search_poi", "arguments": SEARCH}
    result = history[4]
    assert result["error"] is False and "长隆海洋王国" in result["result"]
    assert record["agent_tool_stats"]["tool_calls_executed"] == 1
    assert record["agent"] == agent.describe()
    agent_requests = [body for body in server.requests if "tools" in body]
    assert len(agent_requests) == 2
    first, second = agent_requests
    opening = "\n".join(f"{m.role}: {m.content}" for m in task.initial_messages)
    assert first["messages"][1] == {"role": "user", "content": opening}
    assert second["messages"][-1]["role"] == "tool" and second["messages"][-1]["content"] == result["result"]
    verdict = verify(task, plan, profile="strict", poi_db=PoiDb(export_poi_db(world)), world=world)
    assert verdict.valid
    everything = json.dumps([server.requests, record], ensure_ascii=False, default=str)
    assert SECRET not in everything


def test_users_speak_through_the_same_server_and_see_their_seat(task: Task, world: World) -> None:
    plan = greedy_plan(task, world)
    asked = calls(("search_poi", SEARCH), content="")
    script: dict[str, int] = {"agent": 0}

    def respond(body: dict[str, Any]) -> Scripted:
        if is_user_call(body):
            return text("好的，收到。")
        if is_summary(body):
            return text("{}")
        script["agent"] += 1
        if script["agent"] == 1:
            return text("@User1 你自己最多花多少钱？")
        return planner(plan, asked)(body)

    with fake_openai(respond=respond) as server:
        agent, users = players(task, server.base_url)
        record = run_episode(task, world, agent, users, trial=1, settings=EpisodeSettings())
    assert record["completion_reason"] == "plan_generated"
    user_requests = [body for body in server.requests if is_user_call(body)]
    first = user_requests[0]
    assert "【提醒】你刚被 @ 了" in first["messages"][0]["content"]
    assert "扮演旅行参与者“User1”" in first["messages"][0]["content"]
    own, other = task.initial_messages
    assert (own.role, other.role) == ("User1", "User2")
    assert first["messages"][1:] == [
        {"role": "user", "content": "(对话开始)"},
        {"role": "assistant", "content": own.content},
        {"role": "user", "content": f"User2: {other.content}\nAgent: @User1 你自己最多花多少钱？"},
    ]
    spoken = [e for e in record["conversation_history"] if e.get("content") == "好的，收到。"]
    assert spoken and spoken[0]["role"] == "User1"


def test_text_written_tool_call_is_executed_and_counted(task: Task, world: World) -> None:
    plan = greedy_plan(task, world)
    written = text('我先查一下：\n```json\n{"name": "search_poi", "arguments": ' + SEARCH + "}\n```")
    with fake_openai(respond=planner(plan, written)) as server:
        agent, users = players(task, server.base_url)
        record = run_episode(task, world, agent, users, trial=0, settings=EpisodeSettings())
    assert record["plan_generated"] is True
    assert record["text_tool_calls"] == 1
    assert record["conversation_history"][2] == {
        "type": "message",
        "role": "Agent",
        "content": "我先查一下：",
        "has_tool_calls": True,
    }
    assert record["conversation_history"][3]["name"] == "search_poi"


def test_malformed_arguments_and_unknown_tools_get_error_results_and_the_episode_goes_on(
    task: Task, world: World
) -> None:
    plan = greedy_plan(task, world)
    bad = calls(("search_poi", "{city: 珠海"), ("teleport", "{}"))
    with fake_openai(respond=planner(plan, bad)) as server:
        agent, users = players(task, server.base_url)
        record = run_episode(task, world, agent, users, trial=0, settings=EpisodeSettings())
    assert record["plan_generated"] is True
    history = record["conversation_history"]
    assert [(e["type"], e["name"]) for e in history[3:7]] == [
        ("tool_call", "search_poi"),
        ("tool_result", "search_poi"),
        ("tool_call", "teleport"),
        ("tool_result", "teleport"),
    ]
    assert history[4]["error"] is True and history[6]["error"] is True
    assert record["agent_tool_stats"]["tool_errors"] == 2
    replayed = [body for body in server.requests if "tools" in body][1]["messages"]
    call = next(m for m in replayed if m.get("tool_calls"))["tool_calls"][0]
    assert call["function"]["arguments"] == '{"raw_arguments": "{city: 珠海"}'


@pytest.mark.parametrize(
    ("fault", "reason"),
    [
        (overflow(), "context_overflow"),
        (rate_limited(0), "rate_limit"),
        (server_error(502), "runtime_error"),
        (slow(0.5), "connection_error"),
    ],
)
def test_an_episode_ends_in_each_fault(task: Task, world: World, fault: Scripted, reason: str) -> None:
    with fake_openai([fault, fault]) as server:
        agent, users = players(task, server.base_url, retries=1, backoff_s=0.0, timeout_s=0.15)
        with pytest.raises(ModelCallError) as failure:
            run_episode(task, world, agent, users, trial=0, settings=EpisodeSettings())
    assert failure.value.reason == reason
    assert len(server.requests) == (1 if reason == "context_overflow" else 2)
