"""World speed: build time over all gtb tasks, load time of one task's cities, lookup latency,
tool-call latency (p50/p99 per tool) and the FAISS fallback on 100k cached entries.

Run: `.venv/bin/python benchmarks/world_speed.py [path/to/tasks.jsonl]`. Each measurement is a
function returning printable lines; the tool and FAISS figures reuse `tools_speed.py` (which
also runs alone, with more options).
"""

from __future__ import annotations

import datetime as dt
import json
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sandbox.world import World
from sandbox.world.build import build_world

DEFAULT_TASKS = Path(__file__).resolve().parents[2] / "shared" / "gtb" / "tasks.jsonl"


def latency_us(fn: Callable[[], object], n: int = 2000) -> tuple[float, float]:
    """p50 and p99 of `n` calls, in microseconds."""
    samples = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1e6)
    q = statistics.quantiles(samples, n=100, method="inclusive")
    return q[49], q[98]


def measure_build(tasks: list[dict[str, Any]], folder: Path) -> list[str]:
    """Build and save the world of all tasks."""
    t = time.perf_counter()
    world = build_world(tasks, seed=1)
    built = time.perf_counter() - t
    t = time.perf_counter()
    world.save(folder)
    saved = time.perf_counter() - t
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    pois = sum(len(world.pois(c)) for c in world.cities)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    return [
        f"build: {built:.2f} s for {len(tasks)} tasks; {pois} POIs; save {saved:.2f} s; {size / 1e6:.1f} MB",
        f"peak memory (max RSS) after build and save: {peak:.0f} MiB",
    ]


def measure_load(task: dict[str, Any], folder: Path) -> list[str]:
    """Load only one task's cities."""
    cities = [task["metadata"]["departure_city"], *task["metadata"]["cities"]]
    t = time.perf_counter()
    World.load(folder, cities=cities)
    return [f"load {len(cities)} cities of {task['task_id']}: {(time.perf_counter() - t) * 1000:.1f} ms"]


def measure_lookups(task: dict[str, Any], folder: Path) -> list[str]:
    """Latency of the WorldFacts queries the verifier makes."""
    world = World.load(folder, cities=[task["metadata"]["departure_city"], *task["metadata"]["cities"]])
    city, dep = task["metadata"]["cities"][0], task["metadata"]["departure_city"]
    day = dt.date.fromisoformat(task["time"])
    a, b = world.pois(city)[0].name, world.pois(city, "hotel")[0].name
    calls: dict[str, Callable[[], object]] = {
        "poi": lambda: world.poi(city, a),
        "opening_windows": lambda: world.opening_windows(city, a, day),
        "intercity_options (cached)": lambda: world.intercity_options(dep, city, day),
        "transfer": lambda: world.transfer(city, a, b, "打车"),
        "search": lambda: world.search(city, "博物馆"),
    }
    lines = []
    for name, fn in calls.items():
        p50, p99 = latency_us(fn)
        lines.append(f"{name}: p50 {p50:.1f} µs, p99 {p99:.1f} µs")
    fresh = World.load(folder, cities=[dep, city])
    dates = [day + dt.timedelta(days=i) for i in range(200)]
    t = time.perf_counter()
    for d in dates:
        fresh.intercity_options(dep, city, d)
    lines.append(
        f"intercity_options (uncached): {(time.perf_counter() - t) / len(dates) * 1e6:.0f} µs per call"
    )
    return lines


def measure_tools(tasks: list[dict[str, Any]], folder: Path) -> list[str]:
    """Tool calls answered from the world of all tasks; FAISS fallback over 100k cached entries."""
    from tools_speed import bench_cache, bench_tools, percentiles, synthetic_entries

    world = World.load(folder)
    lines = ["call_tool over the world, 200 calls per tool (ms):"]
    for name, samples in bench_tools(world, 200, None).items():
        p50, p99 = percentiles(samples)
        lines.append(f"  {name:22s} p50 {p50:7.3f}  p99 {p99:7.3f}")
    with tempfile.TemporaryDirectory() as tmp:
        bench_cache(Path(tmp), synthetic_entries(100_000), 300)
    return lines


MEASUREMENTS: list[Callable[[list[dict[str, Any]], Path], list[str]]] = [
    measure_build,
    lambda tasks, folder: measure_load(tasks[0], folder),
    lambda tasks, folder: measure_lookups(tasks[0], folder),
    measure_tools,
]


def main(path: Path) -> None:
    """Run every measurement on one temporary world directory."""
    tasks = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        for measure in MEASUREMENTS:
            for line in measure(tasks, Path(tmp)):
                print(line)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_TASKS)
