"""FAISS retrieval over cached arguments: self first, deterministic, persisted, rebuilt on change."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.cache.embed import HashEmbedder
from sandbox.cache.keys import key_of
from sandbox.cache.neighbours import NeighbourIndex

CITIES = ["北京市", "上海市", "杭州市", "三亚市", "成都市", "西安市"]
WORDS = ["火锅", "博物馆", "酒店", "夜市", "烤鸭", "寺庙", "公园"]
ARGS = st.fixed_dictionaries(
    {"city": st.sampled_from(CITIES), "keywords": st.sampled_from(WORDS)},
    optional={"page": st.integers(1, 5), "region": st.none() | st.sampled_from(["西湖区", "朝阳区"])},
)


def _entries(args_list: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {key_of(args): args for args in args_list}


@settings(max_examples=40, deadline=None)
@given(st.lists(ARGS, min_size=1, max_size=25))
def test_an_exact_cached_argument_retrieves_itself_first(args_list: list[dict[str, Any]]) -> None:
    entries = _entries(args_list)
    index = NeighbourIndex.build(HashEmbedder(dim=256), entries)
    for key, args in entries.items():
        best = index.search(args, 3)[0]
        assert best.key == key
        assert abs(best.score - 1.0) < 1e-5


@settings(max_examples=20, deadline=None)
@given(st.lists(ARGS, min_size=1, max_size=25), ARGS)
def test_retrieval_is_deterministic(args_list: list[dict[str, Any]], query: dict[str, Any]) -> None:
    entries = _entries(args_list)
    first = NeighbourIndex.build(HashEmbedder(dim=256), entries).search(query, 5)
    second = NeighbourIndex.build(HashEmbedder(dim=256), dict(reversed(list(entries.items())))).search(
        query, 5
    )
    assert first == second
    assert [n.score for n in first] == sorted((n.score for n in first), reverse=True)


def test_nearest_is_the_lexically_closest_entry() -> None:
    entries = _entries([{"city": "北京市", "keywords": "火锅"}, {"city": "三亚市", "keywords": "潜水"}])
    found = NeighbourIndex.build(HashEmbedder(), entries).search({"city": "北京市", "keywords": "火锅店"}, 2)
    assert [n.key for n in found] == [
        key_of({"city": "北京市", "keywords": "火锅"}),
        key_of({"city": "三亚市", "keywords": "潜水"}),
    ]


def test_empty_corpus_finds_nothing() -> None:
    assert NeighbourIndex.build(HashEmbedder(), {}).search({"city": "北京市"}, 3) == []


def test_index_is_persisted_and_reused(tmp_path: Path) -> None:
    entries = _entries([{"city": c, "keywords": w} for c in CITIES for w in WORDS])
    built = NeighbourIndex.load_or_build(tmp_path, "search_poi", HashEmbedder(dim=128), entries)
    meta = json.loads((tmp_path / "search_poi_index.json").read_text())
    assert meta["embedder_id"] == "hash-crc32-char1-3-d128-v1" and meta["dim"] == 128 and meta["count"] == 42
    stamp = (tmp_path / "search_poi_index.faiss").stat().st_mtime_ns
    again = NeighbourIndex.load_or_build(tmp_path, "search_poi", HashEmbedder(dim=128), entries)
    assert (tmp_path / "search_poi_index.faiss").stat().st_mtime_ns == stamp
    query = {"city": "杭州市", "keywords": "夜市"}
    assert again.search(query, 4) == built.search(query, 4)


def test_index_is_rebuilt_when_embedder_or_corpus_changes(tmp_path: Path) -> None:
    entries = _entries([{"city": c, "keywords": "火锅"} for c in CITIES])
    NeighbourIndex.load_or_build(tmp_path, "search_poi", HashEmbedder(dim=128), entries)
    NeighbourIndex.load_or_build(tmp_path, "search_poi", HashEmbedder(dim=64), entries)
    assert json.loads((tmp_path / "search_poi_index.json").read_text())["dim"] == 64
    grown = {**entries, **_entries([{"city": "北京市", "keywords": "烤鸭"}])}
    index = NeighbourIndex.load_or_build(tmp_path, "search_poi", HashEmbedder(dim=64), grown)
    assert json.loads((tmp_path / "search_poi_index.json").read_text())["count"] == 7
    assert index.search({"city": "北京市", "keywords": "烤鸭"}, 1)[0].key == key_of(
        {"city": "北京市", "keywords": "烤鸭"}
    )


def test_corrupt_index_file_is_rebuilt(tmp_path: Path) -> None:
    entries = _entries([{"city": c, "keywords": "火锅"} for c in CITIES])
    NeighbourIndex.load_or_build(tmp_path, "search_poi", HashEmbedder(dim=64), entries)
    (tmp_path / "search_poi_index.faiss").write_bytes(b"garbage")
    index = NeighbourIndex.load_or_build(tmp_path, "search_poi", HashEmbedder(dim=64), entries)
    assert len(index.keys) == 6
    assert not list(tmp_path.glob("*.tmp"))
