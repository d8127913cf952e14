"""`run_episode` end to end: the record's keys, determinism, bad input, and a real episode on the
sample task whose plan the official re-scoring reads."""

from __future__ import annotations

import json
from typing import Any

import pytest

from runner.episode import (
    OFFICIAL_KEYS,
    EpisodeInputError,
    EpisodeSettings,
    run_episode,
    without_wall_clock,
)
from runner.episode.conversation import AGENT, ModelCallError, Purpose, UserRequest, is_outward
from runner.episode.record import EXTRA_KEYS
from runner.loading.benchmark_data import load_task, sample_path
from runner.saved.rescore import score_trial
from sandbox.tools import call_tool
from sandbox.world.build import build_world
from sandbox.world.official_io import export_poi_db
from sandbox.world.world import World
from solver.greedy import greedy_plan
from tests.fixtures.scripted_players import (
    ScriptedAgent,
    ScriptedUser,
    by_purpose,
    call,
    plan_text,
    scripted_users,
    tools,
)
from verifier.model.task import Task
from verifier.official.poi_db import PoiDb
from verifier.referee import verify

SAMPLE: dict[str, Any] = json.loads(sample_path("task.json").read_text(encoding="utf-8"))
TASK = load_task(sample_path("task.json"), None)
SEARCH = {"keywords": "海鲜火锅", "city": "珠海市"}


@pytest.fixture(scope="module")
def world() -> World:
    return build_world([SAMPLE], seed=1)


def _chatty_episode(trial: int = 0) -> tuple[dict[str, Any], ScriptedAgent, dict[str, ScriptedUser]]:
    agent = ScriptedAgent(
        by_purpose({Purpose.TURN: [tools(call("web_search", {"query": "珠海"})), "@User2 预算还能加吗？"]})
    )

    def give_in(request: UserRequest) -> str:
        return "好吧 [global_constraints.avg_budget : 3500]" if request.mentioned else "[pass]"

    users = scripted_users(TASK, {"User2": give_in, "User1": ["随意"]})
    record = run_episode(TASK, None, agent, users, trial=trial, settings=EpisodeSettings(seed=9, max_turn=3))
    return record, agent, users


def test_record_has_the_official_keys_in_order_then_the_extras() -> None:
    record, agent, users = _chatty_episode(trial=2)
    assert tuple(record) == OFFICIAL_KEYS + EXTRA_KEYS
    assert record["success"] is True and record["task_index"] is None
    assert (record["trial_id"], record["trial"], record["seed"]) == (2, 2, 9)
    assert record["termination_reason"] == record["completion_reason"] == "max_turn_reached"
    assert (record["max_turn"], record["convergence_interval"], record["user_names"]) == (
        3,
        3,
        ["User2", "User1"],
    )
    assert (record["query"], record["time"], record["context"]) == (TASK.query, TASK.time, TASK.context)
    assert record["original_preferences"] == SAMPLE["user_preferences"]
    assert record["effective_preferences"]["User2"]["preference"]["global_constraints"]["avg_budget"] == 3500
    assert record["agent"] == {"name": "scripted", "kind": "scripted"}
    assert record["users"] == {name: {"name": name, "kind": "scripted"} for name in ("User2", "User1")}
    assert set(record["timings"]) == {"total_s", "agent_s", "users_s", "tools_s"}
    assert record["duration"] == record["timings"]["total_s"]
    summaries = len(agent.turn_requests(Purpose.SUMMARY))
    steps = len(agent.requests) - summaries
    replies = sum(len(user.requests) for user in users.values())
    assert record["total_steps"] == len(agent.requests) + replies
    assert record["tokens"] == {
        "agent": {"prompt": 10 * steps + 3 * summaries, "completion": 5 * steps + 2 * summaries},
        "users": {"prompt": 7 * replies, "completion": 3 * replies},
    }
    assert record["agent_tool_stats"] == {
        "cache_hits": 0,
        "cache_misses": 1,
        "tool_errors": 1,
        "tool_calls_executed": 1,
    }
    json.dumps(record, ensure_ascii=False, allow_nan=False)


def test_same_inputs_give_byte_identical_records_without_wall_clock() -> None:
    first, second = (
        json.dumps(without_wall_clock(_chatty_episode()[0]), ensure_ascii=False) for _ in range(2)
    )
    assert first == second
    assert "timings" not in first and '"duration"' not in first


def test_users_see_outward_messages_only() -> None:
    seen: list[UserRequest] = []

    def listen(request: UserRequest) -> str:
        seen.append(request)
        return "[pass]"

    agent = ScriptedAgent(
        by_purpose(
            {Purpose.CONVERGENCE: [tools(call("web_search", {"query": "珠海"}), content="查一下"), "查好了"]}
        )
    )
    users = scripted_users(TASK, {"User2": listen, "User1": listen})
    run_episode(TASK, None, agent, users, trial=0, settings=EpisodeSettings(max_turn=1))
    history = seen[0].history
    assert all(is_outward(entry) for entry in history)
    assert [entry["role"] for entry in history] == ["User1", "User2", AGENT]
    assert history[-1]["content"] == "查好了"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"query": ""}, "query"),
        ({"user_preferences": {}}, "user_preferences"),
        ({"initial_messages": []}, "initial_messages"),
    ],
)
def test_tasks_the_official_driver_refuses(change: dict[str, Any], field: str) -> None:
    task = Task.model_validate({**SAMPLE, **change})
    with pytest.raises(EpisodeInputError) as error:
        run_episode(task, None, ScriptedAgent(), scripted_users(task), trial=0, settings=EpisodeSettings())
    assert error.value.field == field


def test_user_mapping_must_match_the_task() -> None:
    users = scripted_users(TASK)
    with pytest.raises(EpisodeInputError, match="users: no simulator for User1"):
        run_episode(
            TASK, None, ScriptedAgent(), {"User2": users["User2"]}, trial=0, settings=EpisodeSettings()
        )
    with pytest.raises(EpisodeInputError, match="users: not users of task task_004175: User3"):
        extra = {**users, "User3": users["User1"]}
        run_episode(TASK, None, ScriptedAgent(), extra, trial=0, settings=EpisodeSettings())


def test_model_call_errors_pass_through() -> None:
    def fail(_: Any) -> str:
        raise ModelCallError("rate_limit", "429")

    with pytest.raises(ModelCallError) as error:
        run_episode(
            TASK, None, ScriptedAgent(fail), scripted_users(TASK), trial=0, settings=EpisodeSettings()
        )
    assert error.value.reason == "rate_limit"


def test_sample_episode_with_a_real_tool_and_the_greedy_plan_scores_officially(world: World) -> None:
    plan = greedy_plan(TASK, world)
    agent = ScriptedAgent([tools(call("search_poi", SEARCH, "c1")), plan_text(plan)])
    record = run_episode(TASK, world, agent, scripted_users(TASK), trial=0, settings=EpisodeSettings())
    assert (record["completion_reason"], record["plan_generated"], record["total_events"]) == (
        "plan_generated",
        True,
        1,
    )
    answer = call_tool("search_poi", SEARCH, world, None)
    assert not answer.error
    results = [entry for entry in record["conversation_history"] if entry["type"] == "tool_result"]
    assert results == [{"type": "tool_result", "name": "search_poi", "result": answer.text, "error": False}]
    assert record["agent_tool_stats"] == {
        "cache_hits": 0,
        "cache_misses": 1,
        "tool_errors": 0,
        "tool_calls_executed": 1,
    }
    poi_db = PoiDb(export_poi_db(world))
    scores = score_trial(json.loads(json.dumps(record, ensure_ascii=False)), TASK, poi_db, world)
    expected = verify(TASK, plan, profile="official", poi_db=poi_db)
    assert expected.gu is not None
    assert scores.official["group_utility"] == expected.gu.model_dump(mode="json")
    assert scores.official["plan_validity"]["valid"] is True
    assert scores.strict is not None and scores.strict["plan_validity"]["valid"] is True
    assert scores.official["preference_completeness"]["completeness_ratio"] == 0.0
