"""The embedded sample: a real task, the world built from it, and three plans judged by both profiles.

Task `task_004175` (Hefei → Zhuhai, two days, two adults and a small child who is not a user)
comes from GroupTravelBench (CC BY-NC 4.0, see NOTICE). Its world is built from the task alone
(`SEED`), exactly as `tripwright world build` would, and the world's export is the official POI
file, so both profiles read the same facts. The plans:

- `greedy`: the constructive planner's plan (`solver.greedy`), valid under `strict`;
- `quirk`: `greedy` plus three exploits of docs/official.md#ways-to-inflate-gu that the official profile
accepts — the
  night's hotel entry stacked twice (+1 per user who prefers its category), a meal declared
  free (`avg_cost` 0 lowers the budget total) and a bogus ten-minute same-city leg of the mode
  the travellers must take on the last morning (+2 each); `strict` rejects each;
- `broken`: `greedy` with a visit ending at "25:00" and the transfer before a meal removed;
  both profiles reject it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from runner.loading.benchmark_data import load_task, sample_path
from runner.loading.files import atomic_write_bytes, read_json
from sandbox.world.build import build_world
from sandbox.world.official_io import export_poi_db
from sandbox.world.world import World
from solver.greedy import greedy_plan
from verifier.model.plan import hhmm, minutes
from verifier.model.task import Task
from verifier.model.verdict import Profile, Verdict
from verifier.official.poi_db import PoiDb
from verifier.referee import verify

SEED = 1
PROFILES: tuple[Profile, ...] = ("official", "strict")


@dataclass(frozen=True, slots=True)
class Sample:
    """The sample task, the seed its world was built with, the world, its official POI file and the plans."""

    task: Task
    seed: int
    world: World
    poi_file: dict[str, list[dict[str, Any]]]
    plans: dict[str, dict[str, Any]]

    @property
    def poi_db(self) -> PoiDb:
        return PoiDb(self.poi_file)


@dataclass(frozen=True, slots=True)
class SampleResult:
    """One sample plan judged by one profile."""

    plan: str
    profile: Profile
    verdict: Verdict


def sample_task() -> Task:
    return load_task(sample_path("task.json"), None)


def build_sample() -> Sample:
    """Build the sample world and plans (deterministic: same output on every run)."""
    task = sample_task()
    world = build_world([read_json(sample_path("task.json"))], seed=SEED)
    good = greedy_plan(task, world)
    plans = {"greedy": good, "quirk": quirk_plan(good, task), "broken": broken_plan(good)}
    return Sample(task, SEED, world, export_poi_db(world), plans)


def run_samples(sample: Sample) -> list[SampleResult]:
    """Every sample plan under both profiles."""
    poi_db = sample.poi_db
    return [
        SampleResult(
            name, profile, verify(sample.task, plan, profile=profile, poi_db=poi_db, world=sample.world)
        )
        for name, plan in sample.plans.items()
        for profile in PROFILES
    ]


def write_sample(sample: Sample, out: Path) -> list[Path]:
    """Write task, world, POI file and plans under `out` (atomically) for `tripwright verify` to re-run."""
    sample.world.save(out / "world")
    files = {
        "task.json": sample_path("task.json").read_bytes(),
        "all_poi_by_city.json": _json(sample.poi_file),
    }
    files |= {f"plan_{name}.json": _json(plan) for name, plan in sample.plans.items()}
    for name, data in files.items():
        atomic_write_bytes(out / name, data)
    return [out / "world", *(out / name for name in files)]


def quirk_plan(plan: dict[str, Any], task: Task) -> dict[str, Any]:
    """`plan` with a stacked hotel entry, a free meal and a bogus same-city leg (see the module doc)."""
    edited = copy.deepcopy(plan)
    hotel_block = next(block for block in _blocks(edited) if block["activities"][-1]["type"] == "hotel")
    hotel_block["activities"].append(copy.deepcopy(hotel_block["activities"][-1]))
    next(act for act in _activities(edited) if act["type"] == "food")["avg_cost"] = 0
    day = edited["days"][-1]
    first = day["city_segments"][0]
    city = first["city"]
    start = minutes(first["activities"][0]["start_time"])
    day["city_segments"].insert(
        0,
        {
            "type": "intercity_transport",
            "from_city": city,
            "to_city": city,
            "transport_mode": _must_mode(task),
            "start_time": hhmm(start - 20),
            "end_time": hhmm(start - 10),
            "avg_cost": 0,
        },
    )
    return edited


def _must_mode(task: Task) -> str:
    """The transport mode most travellers must take (the bogus leg earns +2 for each of them)."""
    wanted = [
        mode
        for user in task.user_preferences.values()
        for mode in user.preference.global_constraints.transport.must
    ]
    return max(sorted(set(wanted)), key=wanted.count) if wanted else "高铁"


def broken_plan(plan: dict[str, Any]) -> dict[str, Any]:
    """`plan` with a visit ending at "25:00" and the transfer before the first meal removed."""
    edited = copy.deepcopy(plan)
    next(act for act in _activities(edited) if act["type"] == "attraction")["end_time"] = "25:00"
    for block in _blocks(edited):
        acts = block["activities"]
        at = next((i for i in range(1, len(acts)) if acts[i]["type"] == "food"), None)
        if at is not None and acts[at - 1]["type"] == "intracity_transport":
            del acts[at - 1]
            break
    return edited


def _blocks(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for day in plan["days"]:
        yield from (seg for seg in day["city_segments"] if "activities" in seg)


def _activities(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for block in _blocks(plan):
        yield from block["activities"]


def _json(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_INDENT_2) + b"\n"
