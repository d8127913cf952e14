"""Verification speed over the golden corpus: the core loop, and the whole process users run.

Core loop (one process = one core; loading excluded): POI file load time; plans/s for
`verify(profile="official")`; plans/s for the strict profile (with `--world DIR`, else the test
double `tests/fixtures/strict_world.FixtureWorld`); and plans/s for a naive official pass that
rebuilds the plan view for every one of the nine checks and every score, side by side.

Whole process (what a user waits for): the `tripwright` command started `--runs` times each —
`--help`, `verify` of the corpus's first plan, and `verify-batch` of the whole corpus for every
`--jobs` value (start-up, loading, verifying and the atomic write of `--out` included) — with the
median wall and CPU (user + sys) seconds and the peak memory of the largest process
(`getrusage(RUSAGE_CHILDREN).ru_maxrss` in a small launcher process per run). Usage:
    python benchmarks/verify_speed.py [--shared ../shared] [--world DIR] [--rounds 3] [--runs 5]
                                      [--jobs 1 2] [--whole-only]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from verifier.model.task import Task
from verifier.official import checks_fields, checks_hotel, checks_hours, checks_route, checks_time
from verifier.official.completeness import evaluate_preference_completeness
from verifier.official.fairness import evaluate_group_fairness
from verifier.official.plan_view import PlanView, build_view
from verifier.official.poi_db import PoiDb
from verifier.official.utility import evaluate_group_utility
from verifier.referee import verify
from verifier.world_facts import WorldFacts

ROOT = Path(__file__).resolve().parents[1]
Case = tuple[Task, Any, Any, Any]


def load_cases(golden: Path) -> list[Case]:
    tasks = {}
    for line in (golden / "tasks.jsonl").read_text(encoding="utf-8").splitlines():
        task = Task.model_validate(json.loads(line))
        tasks[task.task_id] = task
    cases = []
    for line in (golden / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        cases.append((tasks[case["task_id"]], case["plan"], case.get("effective"), case.get("inferred")))
    return cases


def naive(task: Task, plan: Any, effective: Any, inferred: Any, poi_db: PoiDb) -> None:
    """The official verdict with one fresh walk of the plan per check and per score."""
    table = task.preference_table() if effective is None else effective
    checks: list[Callable[[PlanView], Any]] = [
        checks_route.check_intercity,
        checks_hotel.check_hotel,
        checks_time.check_time_order,
        checks_time.check_overlap,
        lambda view: checks_hours.check_opening_hours(view, poi_db),
        checks_route.check_intracity,
        checks_time.check_timeline,
        checks_fields.check_avg_cost,
        checks_fields.check_participants,
    ]
    for check in checks:
        view = build_view(plan, task.user_names)
        if view.structural_error is None:
            _safe(check, view)
    _safe(evaluate_group_utility, build_view(plan, task.user_names), table, poi_db)
    _safe(evaluate_group_fairness, build_view(plan, task.user_names), table, poi_db)
    if inferred is not None:
        _safe(evaluate_preference_completeness, inferred, table)


def _safe(call: Callable[..., Any], *args: Any) -> None:
    with contextlib.suppress(TypeError, AttributeError, ValueError, KeyError):
        call(*args)


def rate(cases: list[Case], rounds: int, run: Callable[[Case], Any]) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for case in cases:
            run(case)
        best = min(best, time.perf_counter() - start)
    return len(cases) / best


def world_for(directory: str | None) -> tuple[WorldFacts, str]:
    if directory is not None:
        from sandbox.world.world import World

        return World.load(directory), directory
    sys.path.insert(0, str(ROOT / "tests"))
    from fixtures.strict_world import FixtureWorld

    return FixtureWorld(), "test double (tests/fixtures/strict_world.py)"


def tripwright() -> list[str]:
    """The `tripwright` script beside this interpreter, else what that script runs."""
    script = Path(sys.executable).with_name("tripwright")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from runner.cli.app import app; sys.exit(app())"]


LAUNCHER = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
code = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps([code, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss]))
"""
"""Runs one command and prints its exit code, wall and CPU seconds and peak KiB. A small process
of its own: a child's `ru_maxrss` starts at its parent's size, which here would be the loaded
benchmark's."""


def whole_run(argv: list[str]) -> tuple[float, float, float]:
    """One run of a command: wall seconds, CPU seconds (user + sys) and peak MiB — the command's
    own figures plus those of the worker processes it waited for; the peak is the largest
    single process (`getrusage(RUSAGE_CHILDREN).ru_maxrss`, KiB on Linux)."""
    done = subprocess.run([sys.executable, "-c", LAUNCHER, *argv], capture_output=True, text=True, check=True)
    code, wall, cpu, peak = json.loads(done.stdout)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {code}")
    return wall, cpu, peak / 1024


def whole_process(label: str, argv: list[str], runs: int) -> None:
    """Print the median wall and CPU seconds and the peak memory of `runs` runs of a command."""
    whole_run(argv)  # warm the file cache and the bytecode
    walls, cpus, peaks = zip(*(whole_run(argv) for _ in range(runs)), strict=True)
    print(
        f"{label:34} wall {statistics.median(walls):6.3f} s   cpu {statistics.median(cpus):6.3f} s"
        f"   peak {max(peaks):6.1f} MiB"
    )


def whole_figures(golden: Path, runs: int, jobs: list[int]) -> None:
    """The whole-process figures: start-up commands, then verify-batch for each --jobs."""
    command = tripwright()
    paths = ["--poi-db", str(golden / "poi_db.json"), "--tasks", str(golden / "tasks.jsonl")]
    first = json.loads((golden / "cases.jsonl").read_text(encoding="utf-8").splitlines()[0])
    lines = (golden / "cases.jsonl").read_bytes().count(b"\n")
    print(f"whole process: the tripwright command, median of {runs} runs after one warm-up")
    with tempfile.TemporaryDirectory() as directory:
        plan = Path(directory) / "plan.json"
        plan.write_text(json.dumps(first["plan"], ensure_ascii=False), encoding="utf-8")
        verify = [*command, "verify", "--task", paths[3], "--task-id", first["task_id"], "--plan", str(plan)]
        whole_process("tripwright --help", [*command, "--help"], runs)
        whole_process("tripwright verify (one plan)", [*verify, *paths[:2]], runs)
        batch = [*command, "verify-batch", str(golden / "cases.jsonl"), *paths, "--profile", "official"]
        for count in jobs:
            out = ["--out", str(Path(directory) / "out.jsonl"), "--jobs", str(count)]
            whole_process(f"verify-batch {lines} cases --jobs {count}", [*batch, *out], runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    parser.add_argument("--world", default=None)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=5, help="whole-process runs per command (median)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="verify-batch --jobs values")
    parser.add_argument("--whole-only", action="store_true", help="skip the core-loop figures")
    args = parser.parse_args()
    golden = Path(args.shared) / "golden" / "official"
    if not args.whole_only:
        core_figures(golden, args.world, args.rounds)
        print()
    whole_figures(golden, args.runs, args.jobs)


def core_figures(golden: Path, world_dir: str | None, rounds: int) -> None:
    """The core-loop figures: POI file load, then plans/s of each pass over loaded cases."""
    start = time.perf_counter()
    poi_db = PoiDb.load(golden / "poi_db.json")
    load = time.perf_counter() - start
    cases = load_cases(golden)
    world, world_name = world_for(world_dir)

    def official(case: Case) -> Any:
        return verify(
            case[0], case[1], profile="official", poi_db=poi_db, effective=case[2], inferred=case[3]
        )

    def strict(case: Case) -> Any:
        return verify(
            case[0],
            case[1],
            profile="strict",
            poi_db=poi_db,
            world=world,
            effective=case[2],
            inferred=case[3],
        )

    print(f"POI file load: {load * 1000:.0f} ms ({len(poi_db.cities)} cities)")
    print(f"corpus: {len(cases)} golden plans, best of {rounds} rounds, one process")
    single = rate(cases, rounds, official)
    walks = rate(cases, rounds, lambda c: naive(*c, poi_db))
    print(f"official verify():           {single:8.0f} plans/s")
    print(f"official naive (re-walks):   {walks:8.0f} plans/s  (verify() is {single / walks:.2f}x)")
    print(f"strict verify() [{world_name}]: {rate(cases, rounds, strict):8.0f} plans/s")


if __name__ == "__main__":
    main()
