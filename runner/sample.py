"""The embedded sample: a real GroupTravelBench task, a small POI file and three plans.

Task `task_004175` (Hefei → Zhuhai, two days, two adults and a small child who is not a user)
comes from GroupTravelBench (CC BY-NC 4.0, see NOTICE). The POI file is hand-made for Zhuhai.
The plans: `good` (valid, realistic), `quirk` (valid under the official profile, but earns
extra utility through free back-to-back repeat meals and stacked hotel entries, spec §12.1)
and `broken` (overlaps, a child named as a participant, a missing cost, a bad time, no
flight home).
"""

from __future__ import annotations

from dataclasses import dataclass

from runner.io import read_json
from runner.loading import load_poi_db, load_task, sample_path
from verifier.model.task import Task
from verifier.model.verdict import Profile, Verdict
from verifier.official.poi_db import PoiDb
from verifier.verify import verify
from verifier.world import WorldFacts

SAMPLE_PLANS = ("good", "quirk", "broken")


@dataclass(frozen=True, slots=True)
class SampleResult:
    """One sample plan judged by one profile."""

    plan: str
    profile: Profile
    verdict: Verdict


def sample_task() -> Task:
    return load_task(sample_path("task.json"), None)


def sample_poi_db() -> PoiDb:
    return load_poi_db(sample_path("poi_db.json"))


def sample_plan(name: str) -> object:
    return read_json(sample_path(f"plan_{name}.json"))


def run_samples(world: WorldFacts | None = None) -> list[SampleResult]:
    """Every sample plan under the official profile, and under strict when a world is given."""
    task, poi_db = sample_task(), sample_poi_db()
    profiles: tuple[Profile, ...] = ("official",) if world is None else ("official", "strict")
    return [
        SampleResult(
            name, profile, verify(task, sample_plan(name), profile=profile, poi_db=poi_db, world=world)
        )
        for name in SAMPLE_PLANS
        for profile in profiles
    ]
