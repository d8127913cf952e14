"""Verification speed over the golden corpus (single process = one core; loading excluded).

Prints: POI file load time; plans/s for `verify(profile="official")`; plans/s for the strict
profile (with `--world DIR`, else the test double `tests/fixtures/strict_world.FixtureWorld`);
and plans/s for a naive official pass that rebuilds the plan view for every one of the nine
checks and every score, side by side. Usage:
    python benchmarks/verify_speed.py [--shared ../shared] [--world DIR] [--rounds 3]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
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
from verifier.verify import verify
from verifier.world import WorldFacts

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    parser.add_argument("--world", default=None)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    golden = Path(args.shared) / "golden" / "official"
    start = time.perf_counter()
    poi_db = PoiDb.load(golden / "poi_db.json")
    load = time.perf_counter() - start
    cases = load_cases(golden)
    world, world_name = world_for(args.world)

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
    print(f"corpus: {len(cases)} golden plans, best of {args.rounds} rounds, one process")
    single = rate(cases, args.rounds, official)
    walks = rate(cases, args.rounds, lambda c: naive(*c, poi_db))
    print(f"official verify():           {single:8.0f} plans/s")
    print(f"official naive (re-walks):   {walks:8.0f} plans/s  (verify() is {single / walks:.2f}x)")
    print(f"strict verify() [{world_name}]: {rate(cases, args.rounds, strict):8.0f} plans/s")


if __name__ == "__main__":
    main()
