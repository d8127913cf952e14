"""ChatClient against the fake server: replies, retries, backoff, failure reasons, the key."""

from __future__ import annotations

import json

import pytest

from runner.episode.conversation import ModelCallError, ToolCallRequest, Usage
from runner.llm.client import ChatClient, ChatReply, split_thinking
from runner.llm.config import LLMConfig, LLMConfigError
from sandbox.tools.registry import openai_tools
from tests.fixtures.fake_openai import (
    Scripted,
    calls,
    empty,
    fake_openai,
    overflow,
    rate_limited,
    server_error,
    slow,
    text,
)

KEY_ENV = "TRIPWRIGHT_TEST_LLM_KEY"
SECRET = "sk-test-0123456789-secret"
MESSAGES = [{"role": "system", "content": "你好"}, {"role": "user", "content": "User1: 去珠海"}]


def client_for(base_url: str, sleeps: list[float], **options: object) -> ChatClient:
    settings: dict[str, object] = {"timeout_s": 2.0, "retries": 2, "backoff_s": 0.5, "api_key_env": KEY_ENV}
    settings.update(options)
    config = LLMConfig(base_url=base_url, model="fake-model", **settings)  # type: ignore[arg-type]
    return ChatClient(config, sleep=sleeps.append)


def test_text_reply_with_usage_and_sampling_parameters() -> None:
    sleeps: list[float] = []
    with fake_openai([text("好的")]) as server:
        reply = client_for(server.base_url, sleeps, temperature=0.3, seed=7, max_tokens=64).complete(MESSAGES)
    assert reply == ChatReply("好的", (), Usage(11, 7), None, 0)
    body = server.requests[0]
    assert body == {
        "model": "fake-model",
        "messages": MESSAGES,
        "temperature": 0.3,
        "seed": 7,
        "max_tokens": 64,
    }
    assert sleeps == []


def test_tools_are_offered_only_when_given() -> None:
    with fake_openai([text("a"), text("b")]) as server:
        client = client_for(server.base_url, [])
        client.complete(MESSAGES, openai_tools())
        client.complete(MESSAGES)
    assert server.requests[0]["tools"] == openai_tools()
    assert server.requests[0]["tool_choice"] == "auto"
    assert "tools" not in server.requests[1] and "tool_choice" not in server.requests[1]


def test_function_calls_pass_through_raw_including_malformed_arguments_and_unknown_names() -> None:
    answer = calls(("search_poi", '{"keywords": "海洋馆", "city": "珠海市"}'), ("teleport", "{not json"))
    with fake_openai([answer]) as server:
        reply = client_for(server.base_url, []).complete(MESSAGES, openai_tools())
    assert reply.tool_calls == (
        ToolCallRequest("fake_call_1", "search_poi", '{"keywords": "海洋馆", "city": "珠海市"}'),
        ToolCallRequest("fake_call_2", "teleport", "{not json"),
    )
    assert reply.content == ""
    assert reply.text_tool_calls == 0


def test_reasoning_content_is_returned() -> None:
    with fake_openai([text("答案", reasoning="先想一想")]) as server:
        reply = client_for(server.base_url, []).complete(MESSAGES)
    assert (reply.content, reply.reasoning) == ("答案", "先想一想")


def test_think_tags_are_split_from_the_answer() -> None:
    assert split_thinking("<think>想</think>\n答") == ("答", "想")
    assert split_thinking("<think>只有想法</think>") == ("只有想法", None)
    assert split_thinking("  普通  ") == ("普通", None)


def test_text_tool_call_is_read_when_tools_were_offered() -> None:
    call = '{"name": "search_poi", "arguments": {"keywords": "海洋馆", "city": "珠海市"}}'
    written = f"我先查一下。\n```json\n{call}\n```"
    with fake_openai([text(written), text(written)]) as server:
        client = client_for(server.base_url, [])
        with_tools = client.complete(MESSAGES, openai_tools())
        without_tools = client.complete(MESSAGES)
    assert with_tools.tool_calls == (
        ToolCallRequest("text_call_1", "search_poi", '{"keywords": "海洋馆", "city": "珠海市"}'),
    )
    assert with_tools.content == "我先查一下。"
    assert with_tools.text_tool_calls == 1
    assert without_tools.tool_calls == () and without_tools.content == written


def test_empty_replies_are_asked_again_without_waiting_and_usage_adds_up() -> None:
    sleeps: list[float] = []
    with fake_openai([empty(), empty(), empty(), text("终于")]) as server:
        reply = client_for(server.base_url, sleeps).complete(MESSAGES)
    assert reply.content == "终于"
    assert reply.usage == Usage(44, 28)
    assert len(server.requests) == 4
    assert sleeps == []


def test_fifteen_empty_replies_give_up_and_return_the_empty_reply() -> None:
    with fake_openai([empty()] * 16) as server:
        reply = client_for(server.base_url, []).complete(MESSAGES)
    assert reply.empty
    assert len(server.requests) == 15
    assert reply.usage == Usage(15 * 11, 15 * 7)


def test_server_errors_are_retried_with_exponential_backoff() -> None:
    sleeps: list[float] = []
    with fake_openai([server_error(), server_error(503), text("好了")]) as server:
        reply = client_for(server.base_url, sleeps).complete(MESSAGES)
    assert reply.content == "好了"
    assert sleeps == [0.5, 1.0]


def test_server_errors_that_persist_end_as_runtime_error() -> None:
    sleeps: list[float] = []
    with fake_openai([server_error()] * 3) as server, pytest.raises(ModelCallError) as failure:
        client_for(server.base_url, sleeps).complete(MESSAGES)
    assert failure.value.reason == "runtime_error"
    assert len(server.requests) == 3
    assert sleeps == [0.5, 1.0]


def test_rate_limit_waits_the_retry_after_and_ends_as_rate_limit() -> None:
    sleeps: list[float] = []
    script = [rate_limited(4), rate_limited(0), rate_limited(0)]
    with fake_openai(script) as server, pytest.raises(ModelCallError) as failure:
        client_for(server.base_url, sleeps).complete(MESSAGES)
    assert failure.value.reason == "rate_limit"
    assert sleeps == [4.0, 1.0]
    assert len(server.requests) == 3


def test_retry_after_is_capped() -> None:
    sleeps: list[float] = []
    with fake_openai([rate_limited(600), text("ok")]) as server:
        client_for(server.base_url, sleeps, backoff_cap_s=3.0).complete(MESSAGES)
    assert sleeps == [3.0]


def test_timeout_is_a_connection_error_and_is_retried() -> None:
    sleeps: list[float] = []
    with fake_openai([slow(0.6), text("准时")]) as server:
        reply = client_for(server.base_url, sleeps, timeout_s=0.15, retries=1).complete(MESSAGES)
        assert reply.content == "准时"
        assert sleeps == [0.5]
        server.add(slow(0.6))
        with pytest.raises(ModelCallError) as failure:
            client_for(server.base_url, sleeps, timeout_s=0.15, retries=0).complete(MESSAGES)
    assert failure.value.reason == "connection_error"


def test_refused_connection_is_a_connection_error() -> None:
    with fake_openai() as server:
        url = server.base_url
    sleeps: list[float] = []
    with pytest.raises(ModelCallError) as failure:
        client_for(url, sleeps, retries=1).complete(MESSAGES)
    assert failure.value.reason == "connection_error"
    assert sleeps == [0.5]


def test_context_overflow_is_not_retried() -> None:
    sleeps: list[float] = []
    with fake_openai([overflow(), text("never")]) as server, pytest.raises(ModelCallError) as failure:
        client_for(server.base_url, sleeps).complete(MESSAGES)
    assert failure.value.reason == "context_overflow"
    assert len(server.requests) == 1
    assert sleeps == []


def test_other_client_errors_are_runtime_errors_without_retry() -> None:
    script = [Scripted(status=400, error="bad request: unknown field")]
    with fake_openai(script) as server, pytest.raises(ModelCallError) as failure:
        client_for(server.base_url, []).complete(MESSAGES)
    assert failure.value.reason == "runtime_error"
    assert len(server.requests) == 1


def test_key_comes_from_the_named_variable_and_never_leaks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    echo = Scripted(status=401, error=f"invalid key {SECRET}")
    with fake_openai([text("ok"), echo]) as server:
        client = client_for(server.base_url, [])
        client.complete(MESSAGES)
        with pytest.raises(ModelCallError) as failure:
            client.complete(MESSAGES)
    assert server.headers[0]["authorization"] == f"Bearer {SECRET}"
    assert all(SECRET not in json.dumps(body) for body in server.requests)
    assert SECRET not in str(failure.value) and "***" in failure.value.detail
    assert SECRET not in json.dumps(client.config.describe())
    assert SECRET not in repr(client.config)


def test_without_the_variable_a_placeholder_key_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    with fake_openai([text("ok")]) as server:
        client_for(server.base_url, []).complete(MESSAGES)
    assert server.headers[0]["authorization"] == "Bearer EMPTY"


@pytest.mark.parametrize(
    ("field", "options"),
    [
        ("model", {"model": " "}),
        ("base_url", {"base_url": ""}),
        ("timeout_s", {"timeout_s": 0}),
        ("retries", {"retries": -1}),
        ("empty_attempts", {"empty_attempts": 0}),
        ("max_tokens", {"max_tokens": 0}),
        ("api_key_env", {"api_key_env": ""}),
    ],
)
def test_bad_config_names_the_field(field: str, options: dict[str, object]) -> None:
    settings: dict[str, object] = {"base_url": "http://127.0.0.1:9/v1", "model": "m", **options}
    with pytest.raises(LLMConfigError) as failure:
        LLMConfig(**settings)  # type: ignore[arg-type]
    assert failure.value.field == field


def test_backoff_doubles_up_to_the_cap() -> None:
    config = LLMConfig(base_url="http://x/v1", model="m", backoff_s=1.0, backoff_cap_s=5.0)
    assert [config.backoff(n) for n in range(1, 6)] == [1.0, 2.0, 4.0, 5.0, 5.0]
    assert config.backoff(1, retry_after=3.0) == 3.0


def test_config_from_options_fills_the_seed_and_checks_names_and_types() -> None:
    config = LLMConfig.from_options({"base_url": "http://x/v1", "model": "m", "temperature": 1}, seed=4)
    assert (config.temperature, config.seed, config.timeout_s) == (1.0, 4, 120.0)
    assert LLMConfig.from_options({"base_url": "u", "model": "m", "seed": None}, seed=4).seed is None
    bad: list[tuple[dict[str, object], str]] = [
        ({"model": "m"}, "base_url"),
        ({"base_url": "u"}, "model"),
        ({"base_url": "u", "model": "m", "temp": 1}, "temp"),
        ({"base_url": "u", "model": "m", "retries": 1.5}, "retries"),
        ({"base_url": "u", "model": "m", "temperature": True}, "temperature"),
        ({"base_url": "u", "model": 3}, "model"),
    ]
    for options, field in bad:
        with pytest.raises(LLMConfigError) as failure:
            LLMConfig.from_options(options)
        assert failure.value.field == field
