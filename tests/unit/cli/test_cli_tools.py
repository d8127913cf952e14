"""CLI `tripwright tools …` and `tripwright cache stats`: output equals the library's answers,
exit 1 for an error answer, exit 2 for bad input (named, no traceback), stats count the calls."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from runner.cli.app import app
from runner.loading.benchmark_data import sample_path
from sandbox.tools import call_tool, list_tools, openai_tools, tool_schema
from sandbox.world import World
from sandbox.world.build import build_world

RUN = CliRunner()
SEARCH = {"keywords": "海洋馆", "city": "珠海"}
GEO_KEY = '[["address","珠海渔女"]]'
GEO_TEXT = '{"geocodes": [{"location": "113.59,22.27"}]}'


def _run(*args: object) -> tuple[int, str]:
    result = RUN.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


def _json(*args: object, code: int = 0) -> Any:
    result = RUN.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return json.loads(result.stdout)


def _has(output: str, expected: str) -> bool:
    """Whether `expected` is in the output, ignoring whitespace (rich wraps long lines)."""
    return "".join(expected.split()) in "".join(output.split())


@pytest.fixture(scope="module")
def world_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tools") / "world"
    build_world([json.loads(sample_path("task.json").read_text())], seed=2).save(root)
    return root


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    root = tmp_path / "cache"
    root.mkdir()
    (root / "maps_geo_cache.json").write_text(json.dumps({GEO_KEY: GEO_TEXT}, ensure_ascii=False))
    return root


def test_list_names_and_descriptions() -> None:
    listed = _json("tools", "list", "--json")
    assert [row["name"] for row in listed] == list(list_tools())
    assert listed[0]["description"] == tool_schema("maps_geo")["function"]["description"]
    code, output = _run("tools", "list")
    assert code == 0 and all(name in output for name in list_tools())


def test_schema_one_all_and_openai() -> None:
    assert _json("tools", "schema", "search_poi") == tool_schema("search_poi")["function"]["parameters"]
    assert _json("tools", "schema", "search_poi", "--openai") == tool_schema("search_poi")
    assert _json("tools", "schema", "--openai") == openai_tools()
    every = _json("tools", "schema")
    assert list(every) == list(list_tools()) and every["maps_geo"]["required"] == ["address"]


def test_call_answers_from_the_world(world_dir: Path) -> None:
    expected = call_tool("search_poi", SEARCH, World.load(world_dir), None)
    args = json.dumps(SEARCH, ensure_ascii=False)
    answer = _json("tools", "call", "search_poi", "--args", args, "--world", world_dir, "--json")
    assert answer == {"provenance": "world", "error": False, "source_key": None, "text": expected.text}
    assert json.loads(expected.text)["count"] >= 4
    result = RUN.invoke(app, ["tools", "call", "search_poi", "--args", args, "--world", str(world_dir)])
    assert result.exit_code == 0 and result.stdout == expected.text + "\n"
    assert result.stderr == "provenance: world\n"


def test_error_answer_exits_1(world_dir: Path) -> None:
    args = json.dumps({"keywords": "海洋馆", "city": "火星"}, ensure_ascii=False)
    answer = _json("tools", "call", "search_poi", "--args", args, "--world", world_dir, "--json", code=1)
    assert answer["provenance"] == "error" and answer["error"] is True
    assert json.loads(answer["text"])["error"].startswith("参数 'city' 不是已知城市：'火星'")
    answer = _json(
        "tools",
        "call",
        "maps_weather",
        "--args",
        '{"location": "珠海"}',
        "--world",
        world_dir,
        "--json",
        code=1,
    )
    assert json.loads(answer["text"]) == {"error": "缺少必填参数: 'date'"}


def test_cache_hit_retrieval_memo_and_stats(world_dir: Path, cache_dir: Path) -> None:
    hit = _json(
        "tools",
        "call",
        "maps_geo",
        "--args",
        '{"address": "珠海渔女"}',
        "--cache",
        cache_dir,
        "--world",
        world_dir,
        "--json",
    )
    assert hit == {"provenance": "cache", "error": False, "source_key": None, "text": GEO_TEXT}
    miss = '{"address": "珠海大剧院"}'
    first = _json("tools", "call", "maps_geo", "--args", miss, "--cache", cache_dir, "--json")
    assert first == {"provenance": "retrieved", "error": False, "source_key": GEO_KEY, "text": GEO_TEXT}
    again = _json("tools", "call", "maps_geo", "--args", miss, "--cache", cache_dir, "--json")
    assert again == first
    _json("tools", "call", "web_search", "--args", '{"query": "x"}', "--cache", cache_dir, "--json", code=1)
    stats = _json("cache", "stats", cache_dir, "--json")
    zero = {"calls": 0, "cache": 0, "memo": 0, "world": 0, "retrieved": 0, "simulated": 0, "error": 0}
    assert stats["tools"] == {
        "maps_geo": zero | {"calls": 3, "cache": 1, "memo": 1, "retrieved": 1},
        "web_search": zero | {"calls": 1, "error": 1},
    }
    assert stats["total"] == zero | {"calls": 4, "cache": 1, "memo": 1, "retrieved": 1, "error": 1}
    assert stats["hit_rate"] == 0.5
    assert stats["entries"] == {"maps_geo": {"cache": 1, "memo": 1}}
    code, output = _run("cache", "stats", cache_dir)
    assert code == 0 and _has(output, "4 calls, hit rate 50.0% (cache + memo)") and "web_search" in output


def test_bad_call_input_exits_2(world_dir: Path, cache_dir: Path, tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    call = ("tools", "call")
    cases: list[tuple[tuple[object, ...], str]] = [
        ((*call, "nope", "--args", "{}", "--world", world_dir), "unknown tool 'nope'; known tools: maps_geo"),
        ((*call, "maps_geo", "--args", "{x", "--world", world_dir), "--args: not valid JSON"),
        (
            (*call, "maps_geo", "--args", '["a"]', "--world", world_dir),
            "--args: must be a JSON object, got list",
        ),
        ((*call, "maps_geo", "--args", "{}", "--world", missing), f"{missing}: world directory not found"),
        ((*call, "maps_geo", "--args", "{}", "--cache", missing), f"{missing}: cache directory not found"),
        ((*call, "maps_geo", "--args", "{}"), "give --world DIR and/or --cache DIR"),
        (("tools", "schema", "nope"), "unknown tool 'nope'"),
        (("cache", "stats", missing), f"{missing}: cache directory does not exist"),
    ]
    for args, expected in cases:
        code, output = _run(*args)
        assert code == 2 and _has(output, expected), (args, output)


def test_corrupt_cache_files_exit_2(cache_dir: Path) -> None:
    bad = cache_dir / "maps_geo_cache.json"
    bad.write_text("[1, 2]")
    for args in (
        ("tools", "call", "maps_geo", "--args", '{"address": "x"}', "--cache", cache_dir),
        ("cache", "stats", cache_dir),
    ):
        code, output = _run(*args)
        assert code == 2 and _has(output, f"{bad}: a cache file must hold one JSON object"), output
    (cache_dir / "stats.json").write_text('{"maps_geo": {"calls": "x"}}')
    bad.write_text("{}")
    code, output = _run("cache", "stats", cache_dir)
    assert code == 2 and _has(output, "stats.json: counters of 'maps_geo' must map")
