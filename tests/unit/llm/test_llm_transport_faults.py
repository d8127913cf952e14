"""Transport faults of a flaky endpoint: a body cut short and a completion without choices are
re-sent with the 5xx backoff and counted, alone and mixed with 5xx, 429 and timeouts; when the
re-sends run out the failure is `transient`; empty replies and client errors are not faults."""

from __future__ import annotations

import pytest

from runner.episode.conversation import ModelCallError
from runner.llm.client import ChatClient
from runner.llm.config import LLMConfig
from tests.fixtures.fake_openai import (
    Scripted,
    empty,
    fake_openai,
    no_choices,
    overflow,
    rate_limited,
    server_error,
    slow,
    text,
    truncated,
)

MESSAGES = [{"role": "user", "content": "User1: 去珠海"}]


def client_for(base_url: str, sleeps: list[float], **options: object) -> ChatClient:
    settings: dict[str, object] = {"timeout_s": 2.0, "retries": 2, "backoff_s": 0.5}
    settings.update(options)
    config = LLMConfig(base_url=base_url, model="fake-model", **settings)  # type: ignore[arg-type]
    return ChatClient(config, sleep=sleeps.append)


BAD_BODIES = [(truncated(), "undecodable_reply"), (no_choices(), "no_choices")]


@pytest.mark.parametrize(("fault", "kind"), BAD_BODIES)
def test_a_bad_body_is_re_sent_with_backoff_and_counted(fault: Scripted, kind: str) -> None:
    sleeps: list[float] = []
    with fake_openai([fault, fault, text("好了")]) as server:
        client = client_for(server.base_url, sleeps)
        reply = client.complete(MESSAGES)
    assert reply.content == "好了"
    assert sleeps == [0.5, 1.0]
    assert dict(client.faults) == {kind: 2}
    assert len(server.requests) == 3


@pytest.mark.parametrize(("fault", "kind"), BAD_BODIES)
def test_a_bad_body_that_persists_is_a_transient_runtime_error(fault: Scripted, kind: str) -> None:
    sleeps: list[float] = []
    with fake_openai([fault] * 3) as server, pytest.raises(ModelCallError) as failure:
        client = client_for(server.base_url, sleeps)
        client.complete(MESSAGES)
    assert (failure.value.reason, failure.value.transient) == ("runtime_error", True)
    assert dict(client.faults) == {kind: 3}
    assert sleeps == [0.5, 1.0]


def test_mixed_faults_each_cost_one_re_send() -> None:
    sleeps: list[float] = []
    script = [server_error(502), rate_limited(0), truncated(), no_choices(), slow(0.6), text("终于")]
    with fake_openai(script) as server:
        client = client_for(server.base_url, sleeps, retries=5, timeout_s=0.2)
        reply = client.complete(MESSAGES)
    assert reply.content == "终于"
    assert dict(client.faults) == {
        "server_error": 1,
        "rate_limit": 1,
        "undecodable_reply": 1,
        "no_choices": 1,
        "connection_error": 1,
    }
    assert sleeps == [0.5, 1.0, 2.0, 4.0, 8.0]


def test_persistent_5xx_is_transient_but_a_client_error_is_not() -> None:
    with fake_openai([server_error()] * 3) as server, pytest.raises(ModelCallError) as failure:
        client_for(server.base_url, []).complete(MESSAGES)
    assert (failure.value.reason, failure.value.transient) == ("runtime_error", True)
    with fake_openai([overflow()]) as server, pytest.raises(ModelCallError) as failure:
        client = client_for(server.base_url, [])
        client.complete(MESSAGES)
    assert (failure.value.reason, failure.value.transient) == ("context_overflow", False)
    assert dict(client.faults) == {}


def test_an_empty_reply_is_not_a_transport_fault() -> None:
    sleeps: list[float] = []
    with fake_openai([empty(), text("在")]) as server:
        client = client_for(server.base_url, sleeps)
        assert client.complete(MESSAGES).content == "在"
    assert (sleeps, dict(client.faults)) == ([], {})
