"""One Agent turn: tool loop, history entries, trace items, tool stats, forced finish, summaries."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from runner.episode.calls import ToolRunner, ToolStats, unparsed_error
from runner.episode.conversation import AgentRequest, AgentStep, Purpose, message
from runner.episode.ledger import Ledger
from runner.episode.turn import AgentTurns
from sandbox.cache import ToolCache, key_of
from sandbox.tools import call_tool
from sandbox.world.world import World
from tests.fixtures.scripted_players import ScriptedAgent, call, tools
from tests.fixtures.tools_world import tools_world

WORLD = tools_world()
HISTORY = [
    message("User1", "去杭州"),
    message("Agent", "查一下", has_tool_calls=True),
    message("User2", "好"),
]
DETAIL = {"id": "330100A003"}


def _turns(agent: ScriptedAgent, world: World | None = None, cache: ToolCache | None = None) -> AgentTurns:
    ledger = Ledger()
    return AgentTurns("task", agent, ToolRunner(world, cache, ledger, ToolStats()), ledger)


def test_tool_step_then_answer() -> None:
    agent = ScriptedAgent([tools(call("get_poi_detail", DETAIL, "c1"), content="我查查"), "灵隐寺值得去"])
    turns = _turns(agent, WORLD)
    result = turns.turn(Purpose.TURN, HISTORY, {"t": 1}, mentioned=True)
    answer = call_tool("get_poi_detail", DETAIL, WORLD, None).text
    shown = json.dumps(DETAIL)
    assert result.entries == [
        message("Agent", "我查查", has_tool_calls=True),
        {"type": "tool_call", "name": "get_poi_detail", "arguments": shown},
        {"type": "tool_result", "name": "get_poi_detail", "result": answer, "error": False},
    ]
    assert (result.content, result.flag, result.forced) == ("灵隐寺值得去", None, False)
    assert result.final() == message("Agent", "灵隐寺值得去", has_tool_calls=False)
    assert turns.trace == [
        {"type": "new_turn", "history_length": 3},
        {"type": "intermediate_reasoning", "content": "我查查", "iteration": 1},
        {
            "type": "tool_calls",
            "calls": [{"id": "c1", "name": "get_poi_detail", "arguments": shown}],
            "iteration": 1,
        },
        {
            "type": "tool_result",
            "tool_call_id": "c1",
            "name": "get_poi_detail",
            "result": answer,
            "error": False,
            "iteration": 1,
        },
        {"type": "assistant_response", "content": "灵隐寺值得去", "iteration": 2},
    ]
    first, second = agent.requests
    assert (first.turn, first.iteration, first.mentioned, first.tools, first.table) == (
        [],
        1,
        True,
        True,
        {"t": 1},
    )
    assert second.turn == result.entries and second.iteration == 2
    assert turns.tools.stats == ToolStats(cache_hits=0, cache_misses=1, tool_errors=0, tool_calls_executed=1)


def test_unparsed_arguments_are_not_executed() -> None:
    raw = '{"id": "330100A003"'
    turns = _turns(ScriptedAgent([tools(call("get_poi_detail", raw)), "好"]), WORLD)
    result = turns.turn(Purpose.TURN, [], {})
    assert result.entries[1:] == [
        {"type": "tool_call", "name": "get_poi_detail", "arguments": json.dumps({"raw_arguments": raw})},
        {"type": "tool_result", "name": "get_poi_detail", "result": unparsed_error(raw), "error": True},
    ]
    assert json.loads(unparsed_error("x" * 600))["error"].endswith("原始参数: " + "x" * 500)
    assert turns.tools.stats == ToolStats(cache_hits=0, cache_misses=0, tool_errors=1, tool_calls_executed=1)


def test_tool_stats_count_hits_misses_and_errors(tmp_path: Path) -> None:
    args = {"keywords": "西湖", "city": "杭州市"}
    (tmp_path / "search_poi_cache.json").write_text(json.dumps({key_of(args): "{}"}), encoding="utf-8")
    cache = ToolCache(tmp_path, persist_stats=False)
    step = tools(
        call("search_poi", args, "a"),
        call("get_poi_detail", DETAIL, "b"),
        call("search_poi", {"keywords": "西湖"}, "c"),
        call("no_such_tool", {}, "d"),
    )
    turns = _turns(ScriptedAgent([step, "好"]), WORLD, cache)
    result = turns.turn(Purpose.TURN, [], {})
    assert [entry["error"] for entry in result.entries if entry["type"] == "tool_result"] == [
        False,
        False,
        True,
        True,
    ]
    assert turns.tools.stats.as_dict() == {
        "cache_hits": 1,
        "cache_misses": 3,
        "tool_errors": 2,
        "tool_calls_executed": 4,
    }


def _distinct_calls(request: AgentRequest) -> AgentStep:
    if not request.tools:
        return AgentStep("不查了，直接说结论", (call("web_search", {"query": "x"}),))
    return tools(call("web_search", {"query": f"第{request.iteration}次"}), text_tool_calls=1)


def test_twenty_tool_steps_then_a_forced_finish_without_tools() -> None:
    agent = ScriptedAgent(_distinct_calls)
    turns = _turns(agent)
    result = turns.turn(Purpose.FINAL_PLAN, [], {})
    assert (result.content, result.flag, result.forced) == ("不查了，直接说结论", None, True)
    assert len(agent.requests) == 21 and len(result.entries) == 60
    forced = agent.requests[-1]
    assert (forced.purpose, forced.turn_purpose, forced.tools, forced.iteration) == (
        Purpose.FORCE_FINISH,
        Purpose.FINAL_PLAN,
        False,
        21,
    )
    assert turns.trace[-2:] == [
        {"type": "max_iterations_reached", "iteration": 20},
        {
            "type": "assistant_response",
            "content": "不查了，直接说结论",
            "iteration": 21,
            "forced_finish": True,
        },
    ]
    assert turns.tools.stats.tool_calls_executed == 20
    assert turns.ledger.text_tool_calls == 20 and turns.ledger.steps == 21


@pytest.mark.parametrize(
    ("steps", "flag", "iteration"),
    [
        (
            [tools(call("web_search", {"query": "a"})), tools(call("web_search", {"query": "a"}))],
            "consecutive",
            2,
        ),
        (
            [
                tools(call("web_search", {"query": "a"}), call("web_search", {"query": "a"})),
                tools(call("web_search", {"query": "b"}), call("web_search", {"query": "a"})),
            ],
            "consecutive",
            2,
        ),
    ],
)
def test_guard_a_ends_the_turn_with_a_forced_finish(
    steps: list[AgentStep], flag: str, iteration: int
) -> None:
    turns = _turns(ScriptedAgent([*steps, "总结"]))
    result = turns.turn(Purpose.TURN, [], {})
    assert (result.content, result.flag, result.forced) == ("总结", flag, True)
    assert {"type": "repetitive_tool_calls_detected", "reason": flag, "iteration": iteration} in turns.trace
    assert turns.trace[-1] == {
        "type": "assistant_response",
        "content": "总结",
        "iteration": iteration + 1,
        "forced_finish": True,
    }


def test_guard_b_counts_over_turns() -> None:
    query = tools(call("web_search", {"query": "a"}))
    turns = _turns(ScriptedAgent([query, "一", query, "二", query, "收尾"]))
    assert turns.turn(Purpose.TURN, [], {}).flag is None
    assert turns.turn(Purpose.CONVERGENCE, [], {}).flag is None
    third = turns.turn(Purpose.TURN, [], {})
    assert (third.content, third.flag) == ("收尾", "multiple")
    assert dict(turns.guard.counts) == {("web_search", '{"query": "a"}'): 3}


def test_summary_reads_outward_messages_and_may_replace_the_table() -> None:
    table: dict[str, Any] = {"User1": {"global_constraints": {"avg_budget": 1}}}
    text = f"```json\n{json.dumps(table)}\n```"
    agent = ScriptedAgent(summary=text)
    turns = _turns(agent)
    assert turns.summary(HISTORY, {}) == table
    request = agent.requests[0]
    assert (request.purpose, request.tools, request.history) == (
        Purpose.SUMMARY,
        False,
        [HISTORY[0], HISTORY[2]],
    )
    assert turns.trace == [{"type": "preference_summary", "content": text}]
    assert _turns(ScriptedAgent(summary="没有表")).summary(HISTORY, table) == table
