"""Tool-call and cache latency (single process, wall clock).

Prints p50 / p99 per tool for `call_tool` over a built world (no cache, then through a
`ToolCache` with persisted stats), cache-hit latency over an official-format cache file, and
the FAISS fallback on N synthetic cached entries (index build, reload, query). Usage:
    python benchmarks/tools_speed.py [--shared ../shared] [--world DIR] [--tasks 40]
                                     [--calls 200] [--entries 100000]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from sandbox.cache import HashEmbedder, NeighbourIndex, ToolCache, key_of
from sandbox.tools import call_tool
from sandbox.world.build import build_world
from sandbox.world.world import World

ROOT = Path(__file__).resolve().parents[1]
T = TypeVar("T")
WORDS = ["火锅", "博物馆", "酒店", "小吃", "公园", "寺庙", "夜市", "咖啡", "烧烤", "古镇"]


def percentiles(samples: list[float]) -> tuple[float, float]:
    """p50 and p99 in milliseconds."""
    ordered = sorted(samples)
    return statistics.median(ordered) * 1e3, ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1e3


def timed_each(fn: Callable[[T], object], items: Iterable[T]) -> list[float]:
    """Seconds taken by `fn(item)` for each item."""
    out = []
    for item in items:
        start = time.perf_counter()
        fn(item)
        out.append(time.perf_counter() - start)
    return out


def workload(world: World, calls: int, seed: int = 0) -> list[tuple[str, dict[str, Any]]]:
    """`calls` plausible calls per tool drawn from the world's cities and places."""
    r = random.Random(seed)
    cities = [c for c in world.cities if world.pois(c)]
    work: list[tuple[str, dict[str, Any]]] = []
    for _ in range(calls):
        city, other = r.choice(cities), r.choice(cities)
        pois = world.pois(city)
        a, b = r.choice(pois), r.choice(pois)
        date = f"2025-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"
        word = r.choice([*WORDS, a.category])
        work += [
            ("maps_geo", {"address": a.name, "city": city}),
            ("maps_weather", {"location": city, "date": date, "days": r.randint(0, 4)}),
            (
                "travel_search_flights",
                {"origin": city, "destination": other, "date": date, "sort_by": "price"},
            ),
            ("travel_search_trains", {"origin": city, "destination": other, "date": date}),
            ("web_search", {"query": f"{a.name} 门票 开放时间"}),
            ("search_poi", {"keywords": word, "city": city, "location": b.name, "radius_km": 5}),
            ("get_poi_detail", {"id": a.id}),
            ("plan_route", {"origin": a.name, "destination": b.name, "city": city, "mode": "transit"}),
            ("compare_routes", {"origin": a.name, "destination": b.name, "city": city}),
            ("search_along_route", {"origin": a.name, "destination": b.name, "keywords": word, "city": city}),
        ]
    return work


def bench_tools(world: World, calls: int, cache: ToolCache | None) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {}
    for name, args in workload(world, calls):
        start = time.perf_counter()
        call_tool(name, args, world, cache)
        samples.setdefault(name, []).append(time.perf_counter() - start)
    return samples


def synthetic_entries(count: int, seed: int = 1) -> dict[str, str]:
    """`count` distinct search_poi cache entries (key → raw result)."""
    r = random.Random(seed)
    cities = [f"城市{n:03d}市" for n in range(400)]
    entries: dict[str, str] = {}
    while len(entries) < count:
        args = {
            "city": r.choice(cities),
            "keywords": r.choice(WORDS) + r.choice(WORDS),
            "page": r.randint(1, 40),
        }
        entries[key_of(args)] = json.dumps({"pois": [args["keywords"]]}, ensure_ascii=False)
    return entries


def bench_cache(directory: Path, entries: dict[str, str], queries: int) -> None:
    (directory / "search_poi_cache.json").write_text(
        json.dumps(entries, ensure_ascii=False), encoding="utf-8"
    )
    keys = list(entries)[:queries]
    cache = ToolCache(directory, persist_stats=False)
    start = time.perf_counter()
    cache.official("search_poi")
    print(f"load {len(entries)} entries: {time.perf_counter() - start:.2f} s")
    p50, p99 = percentiles(timed_each(lambda key: cache.lookup("search_poi", key), keys))
    print(f"ToolCache.lookup hit: p50 {p50 * 1e3:.1f} µs  p99 {p99 * 1e3:.1f} µs")
    calls = [dict(json.loads(key)) for key in keys]
    p50, p99 = percentiles(timed_each(lambda args: call_tool("search_poi", args, None, cache), calls))
    print(f"call_tool cache hit (validation + key + lookup): p50 {p50:.3f} ms  p99 {p99:.3f} ms")
    embedder = HashEmbedder()
    corpus = cache.corpus("search_poi")
    start = time.perf_counter()
    NeighbourIndex.load_or_build(directory, "search_poi", embedder, corpus)
    took = time.perf_counter() - start
    print(f"FAISS index build ({len(corpus)} × {embedder.dim}, embed + add + save): {took:.2f} s")
    start = time.perf_counter()
    index = NeighbourIndex.load_or_build(directory, "search_poi", embedder, corpus)
    print(f"FAISS index reload: {time.perf_counter() - start:.2f} s")
    r = random.Random(2)
    probes = [
        {"city": f"城市{r.randint(0, 399):03d}市", "keywords": r.choice(WORDS), "page": 1}
        for _ in range(queries)
    ]
    p50, p99 = percentiles(timed_each(lambda probe: index.search(probe, 8), probes))
    print(f"FAISS fallback query (embed + top-8): p50 {p50:.2f} ms  p99 {p99:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--world", type=Path, default=None, help="a saved world directory")
    parser.add_argument("--tasks", type=int, default=40, help="tasks to build the world from")
    parser.add_argument("--calls", type=int, default=200, help="calls per tool")
    parser.add_argument("--entries", type=int, default=100_000, help="synthetic cached entries")
    parser.add_argument("--queries", type=int, default=300)
    opts = parser.parse_args()
    if opts.world is not None:
        world = World.load(opts.world)
    else:
        lines = (opts.shared / "gtb" / "tasks.jsonl").read_text(encoding="utf-8").splitlines()
        world = build_world([json.loads(line) for line in lines[: opts.tasks]], seed=0)
    print(f"world: {len(world.cities)} cities, {sum(len(world.pois(c)) for c in world.cities)} POIs")
    with tempfile.TemporaryDirectory() as tmp:
        for label, cache in (("no cache", None), ("ToolCache, stats persisted", ToolCache(Path(tmp)))):
            print(f"\ncall_tool over the world ({label}), {opts.calls} calls per tool, ms:")
            for name, samples in bench_tools(world, opts.calls, cache).items():
                p50, p99 = percentiles(samples)
                print(f"  {name:22s} p50 {p50:7.3f}  p99 {p99:7.3f}")
    print()
    with tempfile.TemporaryDirectory() as tmp:
        bench_cache(Path(tmp), synthetic_entries(opts.entries), opts.queries)


if __name__ == "__main__":
    main()
