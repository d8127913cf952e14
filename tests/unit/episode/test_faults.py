"""Injected tool faults: parsing, which calls fail, the official error shape, counts and recovery."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from runner.episode import EpisodeSettings, run_episode, without_wall_clock
from runner.episode.conversation import Purpose
from runner.episode.faults import FaultLog, FaultSpec, FaultSpecError
from runner.episode.record import EXTRA_KEYS, OFFICIAL_KEYS, OPTIONAL_KEYS
from runner.loading.benchmark_data import load_task, sample_path
from tests.fixtures.sample_game import sample_world
from tests.fixtures.scripted_players import AgentLine, ScriptedAgent, by_purpose, call, scripted_users, tools

TASK = load_task(sample_path("task.json"), None)
SEARCH = {"query": "珠海 景点"}
OTHER = {"query": "珠海 美食"}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("every", "expected every:N or rate:P"),
        ("often:3", "expected every:N or rate:P"),
        ("every:0", "N must be 1 or more"),
        ("every:2.5", "'2.5' is not a whole number"),
        ("rate:1.5", "P must be between 0 and 1"),
        ("rate:x", "'x' is not a number"),
        ("rate:nan", "P must be between 0 and 1"),
    ],
)
def test_bad_specs_name_the_problem(text: str, problem: str) -> None:
    with pytest.raises(FaultSpecError) as caught:
        FaultSpec.parse(text)
    assert caught.value.problem == problem
    assert caught.value.field == "tool_faults"


def test_every_n_fails_every_nth_call() -> None:
    spec = FaultSpec.parse("every:3")
    assert str(spec) == "every:3"
    assert [n for n in range(1, 10) if spec.fails(0, n)] == [3, 6, 9]


def test_rate_is_seeded_and_near_its_rate() -> None:
    spec = FaultSpec.parse("rate:0.25")
    assert str(spec) == "rate:0.25"
    draws = [spec.fails(7, n) for n in range(1, 2001)]
    assert draws == [spec.fails(7, n) for n in range(1, 2001)]
    assert draws != [spec.fails(8, n) for n in range(1, 2001)]
    assert 0.22 < sum(draws) / len(draws) < 0.28


@given(st.integers(0, 2**31), st.integers(1, 10_000))
def test_rate_bounds_never_and_always(seed: int, number: int) -> None:
    assert not FaultSpec.parse("rate:0").fails(seed, number)
    assert FaultSpec.parse("rate:1").fails(seed, number)


def test_log_recovers_a_tool_on_its_next_success_only() -> None:
    log = FaultLog(FaultSpec.parse("every:2"), seed=0)
    assert not log.next_fails("a")
    log.answered("a", error=False)
    assert log.next_fails("a")  # call 2 fails
    assert not log.next_fails("b")
    log.answered("b", error=False)  # another tool's success recovers nothing
    assert log.next_fails("a")  # call 4 fails
    assert not log.next_fails("a")
    log.answered("a", error=True)  # an error is no recovery
    assert (log.met, log.recovered) == (2, 0)
    assert log.next_fails("a")  # call 6 fails
    assert not log.next_fails("a")
    log.answered("a", error=False)
    assert log.as_dict() == {"spec": "every:2", "met": 3, "recovered": 3}


def _episode(spec: str | None, steps: list[AgentLine]) -> dict[str, Any]:
    agent = ScriptedAgent(by_purpose({Purpose.TURN: steps}))
    faults = None if spec is None else FaultSpec.parse(spec)
    settings = EpisodeSettings(seed=3, max_turn=1, tool_faults=faults)
    return run_episode(TASK, sample_world(), agent, scripted_users(TASK), trial=0, settings=settings)


def test_a_faulted_call_gets_the_official_exception_text_and_counts_as_error_and_miss() -> None:
    record = _episode("every:1", [tools(call("web_search", SEARCH)), "好的"])
    results = [e for e in record["conversation_history"] if e["type"] == "tool_result"]
    assert results == [
        {
            "type": "tool_result",
            "name": "web_search",
            "result": "Error executing tool: web_search 服务暂时不可用（503 Service Unavailable）"
            "，请稍后重试",
            "error": True,
        }
    ]
    assert record["agent_tool_stats"] == {
        "cache_hits": 0,
        "cache_misses": 1,
        "tool_errors": 1,
        "tool_calls_executed": 1,
    }
    assert record["tool_faults"] == {"spec": "every:1", "met": 1, "recovered": 0}
    assert tuple(record) == (*OFFICIAL_KEYS, *EXTRA_KEYS, OPTIONAL_KEYS[0])


def test_retrying_the_same_call_after_a_fault_is_no_repetition_and_recovers() -> None:
    # every:2 — the first call runs, the second fails; the agent retries it at once (call 3)
    steps: list[AgentLine] = [
        tools(call("web_search", OTHER)),
        tools(call("web_search", SEARCH)),
        tools(call("web_search", SEARCH)),
        "查到了",
    ]
    record = _episode("every:2", steps)
    trace = record["agent_trace"]
    assert not any(item["type"] == "repetitive_tool_calls_detected" for item in trace)
    assert record["tool_faults"] == {"spec": "every:2", "met": 1, "recovered": 1}
    errors = [json.dumps(e, ensure_ascii=False) for e in record["conversation_history"] if e.get("error")]
    assert len(errors) == 1


def test_without_faults_the_record_has_no_fault_key_and_is_unchanged() -> None:
    steps: list[AgentLine] = [tools(call("web_search", SEARCH)), "好的"]
    plain = _episode(None, steps)
    assert "tool_faults" not in plain
    assert tuple(plain) == OFFICIAL_KEYS + EXTRA_KEYS
    never = _episode("rate:0", steps)
    assert never.pop("tool_faults") == {"spec": "rate:0.0", "met": 0, "recovered": 0}
    assert without_wall_clock(never) == without_wall_clock(plain)
