"""ToolCache: official files as they are, memoised misses, fallbacks, statistics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sandbox.cache import (
    CachedAnswer,
    CacheFileError,
    ChatSimulator,
    SimulatorError,
    ToolCache,
    cache_stats,
    key_of,
)
from sandbox.cache.simulator import EMPTY_REPLY
from tests.fixtures.tools_fake_openai import fake_openai

BEIJING = {"city": "北京市", "keywords": "火锅"}
SANYA = {"city": "三亚市", "keywords": "潜水"}


def _official(directory: Path, tool: str, entries: dict[str, str]) -> None:
    (directory / f"{tool}_cache.json").write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    _official(
        tmp_path,
        "search_poi",
        {key_of(BEIJING): '{"pois": ["北京火锅"]}', key_of(SANYA): '{"pois": ["三亚潜水"]}'},
    )
    return tmp_path


def test_official_entry_is_replayed_verbatim(cache_dir: Path) -> None:
    hit = ToolCache(cache_dir).lookup("search_poi", '[["city","北京市"],["keywords","火锅"]]')
    assert hit == CachedAnswer('{"pois": ["北京火锅"]}', "cache")


def test_missing_file_is_an_empty_cache(tmp_path: Path) -> None:
    assert ToolCache(tmp_path).lookup("maps_geo", key_of({"address": "x"})) is None


def test_malformed_files_are_named_errors(tmp_path: Path) -> None:
    (tmp_path / "maps_geo_cache.json").write_text("[1, 2]")
    with pytest.raises(CacheFileError, match=r"maps_geo_cache\.json: a cache file must hold one JSON object"):
        ToolCache(tmp_path).lookup("maps_geo", "k")
    (tmp_path / "web_search_cache.json").write_text('{"k": 3}')
    with pytest.raises(CacheFileError, match="value of key 'k' must be a string"):
        ToolCache(tmp_path).lookup("web_search", "k")
    (tmp_path / "plan_route_cache.json").write_text("{oops")
    with pytest.raises(CacheFileError, match="cannot read cache file"):
        ToolCache(tmp_path).lookup("plan_route", "k")


def test_malformed_memo_entry_is_a_named_error(tmp_path: Path) -> None:
    (tmp_path / "maps_geo_memo.json").write_text('{"k": {"text": "x", "provenance": "cache"}}')
    with pytest.raises(CacheFileError, match="entry 'k' needs a string 'text' and a 'provenance'"):
        ToolCache(tmp_path).lookup("maps_geo", "k")


def test_miss_without_simulator_retrieves_nearest_entry(cache_dir: Path) -> None:
    query = {"city": "北京市", "keywords": "火锅店"}
    found = ToolCache(cache_dir).fallback("search_poi", query, "d", {})
    assert found == CachedAnswer('{"pois": ["北京火锅"]}', "retrieved", key_of(BEIJING))


def test_miss_with_empty_corpus_and_no_simulator_has_no_answer(tmp_path: Path) -> None:
    assert ToolCache(tmp_path).fallback("maps_geo", {"address": "西湖"}, "d", {}) is None


def test_memoised_answer_survives_a_new_session_byte_for_byte(cache_dir: Path) -> None:
    args = {"city": "北京市", "keywords": "火锅店"}
    first = ToolCache(cache_dir)
    answer = first.fallback("search_poi", args, "d", {})
    assert answer is not None
    first.remember("search_poi", key_of(args), args, answer)
    memo_bytes = (cache_dir / "search_poi_memo.json").read_bytes()
    again = ToolCache(cache_dir).lookup("search_poi", key_of(args))
    assert again == answer
    stored = json.loads(memo_bytes)[key_of(args)]
    assert stored == {
        "params": '{"city": "北京市", "keywords": "火锅店"}',
        "provenance": "retrieved",
        "source_key": key_of(BEIJING),
        "text": '{"pois": ["北京火锅"]}',
    }
    assert not list(cache_dir.glob("*.tmp")) and not list(cache_dir.glob(".*.tmp"))


def test_official_files_are_never_written(cache_dir: Path) -> None:
    before = (cache_dir / "search_poi_cache.json").read_bytes()
    cache = ToolCache(cache_dir)
    args = {"city": "杭州市", "keywords": "西湖"}
    answer = cache.fallback("search_poi", args, "d", {})
    assert answer is not None
    cache.remember("search_poi", key_of(args), args, answer)
    assert (cache_dir / "search_poi_cache.json").read_bytes() == before


def test_simulator_gets_nearest_examples_and_schema(cache_dir: Path) -> None:
    def reply(messages: list[dict[str, Any]]) -> str:
        return "模拟结果"

    with fake_openai(reply) as server:
        cache = ToolCache(cache_dir, simulator=ChatSimulator(server.base_url, "sim"))
        answer = cache.fallback(
            "search_poi", {"city": "北京市", "keywords": "烤鸭"}, "搜索地点", {"type": "object"}
        )
    assert answer == CachedAnswer("模拟结果", "simulated")
    request = server.requests[0]
    system, user = request["messages"][0]["content"], request["messages"][1]["content"]
    assert request["temperature"] == 0.0 and request["model"] == "sim"
    assert "search_poi" in system and "搜索地点" in system and '{"type": "object"}' in system
    assert "以下是 2 个真实调用示例供参考" in system
    assert system.index("北京火锅") < system.index("三亚潜水")
    assert '"keywords": "烤鸭"' in user


def test_simulator_empty_reply_becomes_the_no_data_text(cache_dir: Path) -> None:
    with fake_openai(lambda messages: "  ") as server:
        cache = ToolCache(cache_dir, simulator=ChatSimulator(server.base_url, "sim"))
        answer = cache.fallback("maps_geo", {"address": "西湖"}, "d", {})
    assert answer == CachedAnswer(EMPTY_REPLY, "simulated")
    assert "没有可参考的真实调用示例" in server.requests[0]["messages"][0]["content"]


def test_simulator_server_failure_is_a_simulator_error(cache_dir: Path) -> None:
    def broken(messages: list[dict[str, Any]]) -> str:
        raise RuntimeError("model crashed")

    with fake_openai(broken) as server:
        cache = ToolCache(cache_dir, simulator=ChatSimulator(server.base_url, "sim"))
        with pytest.raises(SimulatorError, match="InternalServerError"):
            cache.fallback("maps_geo", {"address": "西湖"}, "d", {})


def test_stats_are_counted_per_session_and_persisted(cache_dir: Path) -> None:
    first = ToolCache(cache_dir)
    first.record("search_poi", "cache")
    first.record("search_poi", "retrieved")
    assert not (cache_dir / "stats.json").exists()
    first.flush()
    ToolCache(cache_dir, stats_flush_seconds=0).record("maps_geo", "error")
    assert first.stats()["total"] == {
        "calls": 2,
        "cache": 1,
        "memo": 0,
        "world": 0,
        "retrieved": 1,
        "simulated": 0,
        "error": 0,
    }
    report = cache_stats(cache_dir)
    assert report["total"] == {
        "calls": 3,
        "cache": 1,
        "memo": 0,
        "world": 0,
        "retrieved": 1,
        "simulated": 0,
        "error": 1,
    }
    assert report["hit_rate"] == pytest.approx(1 / 3)
    assert report["entries"] == {"search_poi": {"cache": 2, "memo": 0}}


def test_cache_stats_names_bad_directories_and_files(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        cache_stats(tmp_path / "nope")
    (tmp_path / "stats.json").write_text('{"maps_geo": {"calls": "x"}}')
    with pytest.raises(ValueError, match="counters of 'maps_geo' must map"):
        cache_stats(tmp_path)


def test_stats_can_stay_in_memory(tmp_path: Path) -> None:
    cache = ToolCache(tmp_path, persist_stats=False)
    cache.record("web_search", "world")
    assert not (tmp_path / "stats.json").exists()
    assert cache.stats()["tools"] == {
        "web_search": {
            "calls": 1,
            "cache": 0,
            "memo": 0,
            "world": 1,
            "retrieved": 0,
            "simulated": 0,
            "error": 0,
        }
    }
