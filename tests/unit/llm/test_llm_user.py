"""LLMUser: the simulator prompt, the user's seat in the chat, the call and its description."""

from __future__ import annotations

import json

import pytest

from runner.episode.conversation import MessageEntry, Usage, UserReply, UserRequest, message
from runner.llm.config import LLMConfig
from runner.loading.benchmark_data import load_task, sample_path
from runner.users import llm_prompts
from runner.users.llm import LLMUser, build_messages
from tests.fixtures.fake_openai import fake_openai, text
from verifier.model.task import Task


@pytest.fixture(scope="module")
def task() -> Task:
    return load_task(sample_path("task.json"), None)


def chat(task: Task) -> list[MessageEntry]:
    opening = [message(m.role, m.content) for m in task.initial_messages]
    return [*opening, message("Agent", "@User2 长隆海洋王国放到第二天可以吗？", has_tool_calls=False)]


def request(task: Task, **options: object) -> UserRequest:
    settings: dict[str, object] = {
        "user": "User2",
        "task": task,
        "history": chat(task),
        "preference": task.preference_table()["User2"],
        "compromisable": True,
        "compromises_left": 2,
    }
    settings.update(options)
    return UserRequest(**settings)  # type: ignore[arg-type]


def test_system_prompt_embeds_preference_role_trip_and_attitude(task: Task) -> None:
    slot = task.preference_table()["User2"]
    system = llm_prompts.system_prompt(task, "User2", slot, compromisable=True, left=2)
    assert "扮演旅行参与者“User2”" in system
    assert "【参与者】\n- User2\n- User1\n以及旅行规划助手：Agent" in system
    assert f"【旅行需求】\n{task.query}\n" in system
    assert "【出发日期】\n2026-01-14\n" in system
    assert "【你的身份】\n母亲\n" in system
    assert json.dumps(slot["preference"], ensure_ascii=False, indent=2) in system
    assert "你可以让步（本次旅行你最多还能让步 2 次）" in system
    assert "[global_constraints.avg_budget : 2000]" in system


@pytest.mark.parametrize(("compromisable", "left"), [(False, 2), (True, 0), (False, 0)])
def test_attitude_is_firm_when_not_compromisable_or_out_of_quota(compromisable: bool, left: int) -> None:
    assert llm_prompts.attitude(compromisable, left).startswith("你不愿意让步。")


def test_messages_from_the_users_seat(task: Task) -> None:
    messages = build_messages(request(task))
    slot = task.preference_table()["User2"]
    assert messages == [
        {
            "role": "system",
            "content": llm_prompts.system_prompt(task, "User2", slot, compromisable=True, left=2),
        },
        {"role": "user", "content": f"User1: {task.initial_messages[0].content}"},
        {"role": "assistant", "content": task.initial_messages[1].content},
        {"role": "user", "content": "Agent: @User2 长隆海洋王国放到第二天可以吗？"},
    ]


def test_mentioned_user_gets_the_reminder(task: Task) -> None:
    system = build_messages(request(task, mentioned=True, compromisable=False))[0]["content"]
    slot = task.preference_table()["User2"]
    expected = llm_prompts.system_prompt(task, "User2", slot, compromisable=False, left=2)
    assert system == f"{expected}\n\n{llm_prompts.MENTION_REMINDER}"


def test_reply_calls_the_model_without_tools(task: Task) -> None:
    with fake_openai(
        [text("行吧，那就第二天去。\n[city_specific_preferences.珠海市.food.must_eat : []]")]
    ) as server:
        user = LLMUser("User2", LLMConfig(base_url=server.base_url, model="fake-model", seed=5))
        reply = user.reply(request(task))
    assert reply == UserReply(
        "行吧，那就第二天去。\n[city_specific_preferences.珠海市.food.must_eat : []]", Usage(11, 7)
    )
    body = server.requests[0]
    assert "tools" not in body
    assert (body["temperature"], body["seed"]) == (0.0, 5)


def test_describe_records_model_and_sampling() -> None:
    user = LLMUser("User1", LLMConfig(base_url="http://127.0.0.1:1/v1", model="m", temperature=0.0, seed=9))
    assert user.name == "User1"
    assert user.describe() == {
        "kind": "llm",
        "model": "m",
        "base_url": "http://127.0.0.1:1/v1",
        "temperature": 0.0,
        "seed": 9,
    }
