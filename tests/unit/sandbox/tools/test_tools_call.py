"""`call_tool` end to end: provenance, memoisation, byte-stable reruns and statistics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sandbox.cache import ChatSimulator, ToolCache, key_of
from sandbox.tools import ToolAnswer, cache_stats, call_tool
from tests.fixtures.tools_fake_openai import fake_openai
from tests.fixtures.tools_world import tools_world

WORLD = tools_world()
REAL_POI = '{"status":"1","pois":[{"name":"西湖","id":"B023B09Y0O"}]}'


def _official(directory: Path, tool: str, entries: dict[str, str]) -> None:
    (directory / f"{tool}_cache.json").write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")


def test_official_cache_hit_wins_and_is_verbatim(tmp_path: Path) -> None:
    args = {"keywords": "西湖", "city": "杭州市"}
    _official(tmp_path, "search_poi", {key_of(args): REAL_POI})
    answer = call_tool("search_poi", json.dumps(args, ensure_ascii=False), WORLD, ToolCache(tmp_path))
    assert answer == ToolAnswer(REAL_POI, "cache", False)


def test_key_order_and_string_arguments_hit_the_same_entry(tmp_path: Path) -> None:
    _official(tmp_path, "search_poi", {'[["city","杭州市"],["keywords","西湖"]]': REAL_POI})
    cache = ToolCache(tmp_path)
    assert (
        call_tool("search_poi", '{"keywords": "西湖", "city": "杭州市"}', WORLD, cache).provenance == "cache"
    )
    assert call_tool("search_poi", {"city": "杭州市", "keywords": "西湖"}, WORLD, cache).provenance == "cache"
    assert (
        call_tool("search_poi", {"city": "杭州市", "keywords": "西湖", "page": 1}, WORLD, cache).provenance
        == "world"
    )


def test_world_answers_are_not_memoised(tmp_path: Path) -> None:
    cache = ToolCache(tmp_path)
    answer = call_tool("get_poi_detail", {"id": "330100A003"}, WORLD, cache)
    assert answer.provenance == "world" and not answer.error
    assert json.loads(answer.text)["name"] == "灵隐寺"
    assert not (tmp_path / "get_poi_detail_memo.json").exists()


def test_miss_outside_the_world_is_retrieved_and_memoised(tmp_path: Path) -> None:
    _official(
        tmp_path,
        "get_poi_detail",
        {key_of({"id": "B000A7BD6C"}): '{"name":"故宫"}', key_of({"id": "X1"}): "x"},
    )
    args = {"id": "B000A7BD6D"}
    first = call_tool("get_poi_detail", args, WORLD, ToolCache(tmp_path))
    assert first == ToolAnswer('{"name":"故宫"}', "retrieved", False, key_of({"id": "B000A7BD6C"}))
    memo = (tmp_path / "get_poi_detail_memo.json").read_bytes()
    again = call_tool("get_poi_detail", args, WORLD, ToolCache(tmp_path))
    assert again == first
    assert (tmp_path / "get_poi_detail_memo.json").read_bytes() == memo


def test_simulator_answers_misses_when_configured_and_is_memoised(tmp_path: Path) -> None:
    calls: list[Any] = []

    def reply(messages: list[dict[str, Any]]) -> str:
        calls.append(messages)
        return f"模拟第{len(calls)}次"

    with fake_openai(reply) as server:
        cache = ToolCache(tmp_path, simulator=ChatSimulator(server.base_url, "sim"))
        first = call_tool("web_search", {"query": "杭州有什么好玩的"}, WORLD, cache)
        second = call_tool("web_search", {"query": "杭州有什么好玩的"}, WORLD, ToolCache(tmp_path))
    assert first == ToolAnswer("模拟第1次", "simulated", False)
    assert second == first and len(calls) == 1
    assert "web_search" in calls[0][0]["content"]


def test_simulator_failure_is_an_error_and_not_memoised(tmp_path: Path) -> None:
    def broken(messages: list[dict[str, Any]]) -> str:
        raise RuntimeError("down")

    with fake_openai(broken) as server:
        cache = ToolCache(tmp_path, simulator=ChatSimulator(server.base_url, "sim"))
        answer = call_tool("web_search", {"query": "杭州有什么好玩的"}, WORLD, cache)
    assert answer.error and answer.provenance == "simulated"
    assert json.loads(answer.text)["error"].startswith("LLM simulation failed: InternalServerError")
    assert not (tmp_path / "web_search_memo.json").exists()


def test_nothing_to_answer_with(tmp_path: Path) -> None:
    answer = call_tool("web_search", {"query": "杭州有什么好玩的"}, WORLD, ToolCache(tmp_path))
    assert answer == ToolAnswer(
        "没有找到相关信息，请确认输入参数是否正确；如无误，可能当前暂无相关数据", "world", False
    )
    assert call_tool("maps_geo", {"address": "西湖风景区"}, None, None) == ToolAnswer(
        '{"error": "No cached data and no LLM simulator configured"}', "error", True
    )


def test_statistics_count_every_outcome(tmp_path: Path) -> None:
    _official(tmp_path, "maps_geo", {key_of({"address": "故宫"}): '{"geocodes":[]}'})
    cache = ToolCache(tmp_path)
    call_tool("maps_geo", {"address": "故宫"}, WORLD, cache)
    call_tool("maps_geo", {"address": "西湖风景区"}, WORLD, cache)
    call_tool("maps_geo", {"address": "长城"}, WORLD, cache)
    call_tool("maps_geo", {"address": "长城"}, WORLD, cache)
    call_tool("maps_geo", {"adress": "长城"}, WORLD, cache)
    call_tool("plan_route", {"origin": "西湖风景区", "destination": "外滩", "mode": "walking"}, WORLD, cache)
    call_tool("no_such_tool", {}, WORLD, cache)
    session = cache.stats()
    assert session["tools"] == {
        "(unknown tool)": {
            "calls": 1,
            "cache": 0,
            "memo": 0,
            "world": 0,
            "retrieved": 0,
            "simulated": 0,
            "error": 1,
        },
        "maps_geo": {
            "calls": 5,
            "cache": 1,
            "memo": 1,
            "world": 1,
            "retrieved": 1,
            "simulated": 0,
            "error": 1,
        },
        "plan_route": {
            "calls": 1,
            "cache": 0,
            "memo": 0,
            "world": 0,
            "retrieved": 0,
            "simulated": 0,
            "error": 1,
        },
    }
    cache.flush()
    persisted = cache_stats(tmp_path)
    assert persisted["tools"] == session["tools"]
    assert persisted["entries"] == {"maps_geo": {"cache": 1, "memo": 1}}
