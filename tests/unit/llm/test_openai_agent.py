"""OpenAIAgent: the messages of each purpose, tools offered or not, its description."""

from __future__ import annotations

import json

import pytest

from runner.agents import openai_prompts
from runner.agents.openai_agent import OpenAIAgent, build_messages
from runner.episode.conversation import (
    AgentRequest,
    AgentStep,
    Entry,
    Purpose,
    ToolCallRequest,
    Usage,
    message,
)
from runner.llm.config import LLMConfig
from runner.loading.benchmark_data import load_task, sample_path
from sandbox.tools.registry import openai_tools
from tests.fixtures.fake_openai import calls, fake_openai, text
from verifier.model.task import Task

TABLE = {"User1": {"global_constraints": {"avg_budget": 3200}}}


@pytest.fixture(scope="module")
def task() -> Task:
    return load_task(sample_path("task.json"), None)


def history(task: Task) -> list[Entry]:
    opening: list[Entry] = [message(m.role, m.content) for m in task.initial_messages]
    return [*opening, message("Agent", "@User1 你的预算是多少？", has_tool_calls=False)]


TURN: list[Entry] = [
    message("Agent", "", has_tool_calls=True),
    {
        "type": "tool_call",
        "name": "maps_weather",
        "arguments": '{"location": "珠海市", "date": "2026-01-14"}',
    },
    {"type": "tool_result", "name": "maps_weather", "result": "晴 18℃", "error": False},
]


def users_turn(task: Task) -> dict[str, str]:
    lines = "\n".join(f"{m.role}: {m.content}" for m in task.initial_messages)
    return {"role": "user", "content": lines}


def test_system_prompt_carries_participants_query_context_time_and_table(task: Task) -> None:
    system = openai_prompts.system_prompt(task, TABLE)
    assert "【参与者】\n- User2\n- User1\n" in system
    assert f"【旅行需求】\n{task.query}\n" in system
    assert f"- 补充说明：{task.context}\n- 出发日期：2026-01-14\n" in system
    assert "【当前已收集的用户偏好表】\n" + json.dumps(TABLE, ensure_ascii=False, indent=2) in system
    assert "【当前已收集的用户偏好表】\n{}\n" in openai_prompts.system_prompt(task, {})


def test_turn_messages(task: Task) -> None:
    request = AgentRequest(Purpose.TURN, task, history(task), TURN, table=TABLE)
    assert build_messages(request) == [
        {"role": "system", "content": openai_prompts.system_prompt(task, TABLE)},
        users_turn(task),
        {"role": "assistant", "content": "@User1 你的预算是多少？"},
        {"role": "user", "content": "(其他参与者暂无发言)"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {
                        "name": "maps_weather",
                        "arguments": '{"location": "珠海市", "date": "2026-01-14"}',
                    },
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "晴 18℃"},
    ]


def test_mentioned_turn_appends_the_reminder(task: Task) -> None:
    request = AgentRequest(Purpose.TURN, task, history(task), mentioned=True)
    system = build_messages(request)[0]["content"]
    assert system == openai_prompts.system_prompt(task, {}) + "\n\n" + openai_prompts.MENTION_REMINDER


def test_convergence_appends_its_instruction(task: Task) -> None:
    request = AgentRequest(Purpose.CONVERGENCE, task, history(task))
    messages = build_messages(request)
    assert (
        messages[0]["content"] == openai_prompts.system_prompt(task, {}) + "\n\n" + openai_prompts.CONVERGENCE
    )
    assert messages[1:] == [users_turn(task), {"role": "assistant", "content": "@User1 你的预算是多少？"}]


def test_final_plan_instructs_in_system_and_as_last_user_line_before_the_turn(task: Task) -> None:
    request = AgentRequest(Purpose.FINAL_PLAN, task, history(task)[:2], TURN)
    messages = build_messages(request)
    assert (
        messages[0]["content"] == openai_prompts.system_prompt(task, {}) + "\n\n" + openai_prompts.FINAL_PLAN
    )
    assert messages[1] == {
        "role": "user",
        "content": users_turn(task)["content"] + "\n[系统指令] " + openai_prompts.FINAL_PLAN,
    }
    assert [m["role"] for m in messages[2:]] == ["assistant", "tool"]


def test_force_finish_keeps_the_turn_and_its_purpose(task: Task) -> None:
    closing_plan = AgentRequest(
        Purpose.FORCE_FINISH,
        task,
        history(task)[:2],
        TURN,
        tools=False,
        mentioned=True,
        turn_purpose=Purpose.FINAL_PLAN,
    )
    messages = build_messages(closing_plan)
    assert messages[0]["content"] == "\n\n".join(
        [
            openai_prompts.system_prompt(task, {}),
            openai_prompts.MENTION_REMINDER,
            openai_prompts.FINAL_PLAN,
            openai_prompts.FORCE_FINISH,
        ]
    )
    assert messages[1]["content"].endswith("[系统指令] " + openai_prompts.FINAL_PLAN)
    closing_turn = AgentRequest(Purpose.FORCE_FINISH, task, history(task), TURN, tools=False)
    plain = build_messages(closing_turn)
    assert (
        plain[0]["content"] == openai_prompts.system_prompt(task, {}) + "\n\n" + openai_prompts.FORCE_FINISH
    )
    assert plain[1:] == build_messages(AgentRequest(Purpose.TURN, task, history(task), TURN))[1:]


def test_summary_is_one_user_message_with_the_outward_chat(task: Task) -> None:
    chat = [*history(task), *TURN, message("User1", "我自己最多 3200 元", has_tool_calls=False)]
    request = AgentRequest(Purpose.SUMMARY, task, chat, table=TABLE, tools=False)
    lines = "\n".join(f"{m.role}: {m.content}" for m in task.initial_messages)
    assert build_messages(request) == [
        {"role": "system", "content": openai_prompts.system_prompt(task, TABLE)},
        {
            "role": "user",
            "content": f"[聊天记录开始]\n{lines}\nAgent: @User1 你的预算是多少？\nUser1: 我自己最多 3200 元\n"
            f"[聊天记录结束]\n\n{openai_prompts.SUMMARY}",
        },
    ]


@pytest.mark.parametrize(
    ("purpose", "allowed", "offered"),
    [
        (Purpose.TURN, True, True),
        (Purpose.TURN, False, False),
        (Purpose.CONVERGENCE, True, True),
        (Purpose.FINAL_PLAN, True, True),
        (Purpose.FORCE_FINISH, True, False),
        (Purpose.SUMMARY, True, False),
    ],
)
def test_tools_are_offered_only_when_allowed(
    task: Task, purpose: Purpose, allowed: bool, offered: bool
) -> None:
    with fake_openai([text("好的")]) as server:
        agent = OpenAIAgent(LLMConfig(base_url=server.base_url, model="fake-model"))
        agent.step(AgentRequest(purpose, task, history(task), tools=allowed))
    assert ("tools" in server.requests[0]) is offered
    if offered:
        assert server.requests[0]["tools"] == openai_tools()


def test_step_returns_calls_usage_and_text_call_count(task: Task) -> None:
    written = '{"name": "search_poi", "arguments": {"keywords": "海洋馆", "city": "珠海市"}}'
    with fake_openai([calls(("maps_geo", '{"address": "珠海"}')), text(written)]) as server:
        agent = OpenAIAgent(LLMConfig(base_url=server.base_url, model="fake-model"))
        native = agent.step(AgentRequest(Purpose.TURN, task, history(task)))
        written_step = agent.step(AgentRequest(Purpose.TURN, task, history(task)))
    assert native == AgentStep(
        "", (ToolCallRequest("fake_call_1", "maps_geo", '{"address": "珠海"}'),), Usage(11, 7)
    )
    assert written_step == AgentStep(
        "",
        (ToolCallRequest("text_call_1", "search_poi", '{"keywords": "海洋馆", "city": "珠海市"}'),),
        Usage(11, 7),
        text_tool_calls=1,
    )


def test_describe_names_model_endpoint_and_sampling() -> None:
    config = LLMConfig(base_url="http://127.0.0.1:1/v1", model="qwen", temperature=0.7, seed=3)
    assert OpenAIAgent(config).describe() == {
        "name": "openai",
        "model": "qwen",
        "base_url": "http://127.0.0.1:1/v1",
        "temperature": 0.7,
        "seed": 3,
    }
