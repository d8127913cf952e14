"""Invariants of the world built from all GroupTravelBench tasks in ../shared (built once)."""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from sandbox.world import World
from sandbox.world.build import build_world
from sandbox.world.calibration import itinerary, task_cost, trip_days
from sandbox.world.geography import curated_cities, haversine_km
from sandbox.world.official_io import export_poi_db, import_official, read_poi_db
from sandbox.world.regional import clock_shift
from sandbox.world.timetables import RAIL_FACTOR

pytestmark = pytest.mark.shared
SEED = 20260101
FAR_RAIL_KM = 1850.0
"""From here on no conventional train makes the leg in under a day, so the cheapest leg flies."""


@pytest.fixture(scope="module")
def tasks(shared_dir: Path) -> list[dict[str, Any]]:
    lines = (shared_dir / "gtb" / "tasks.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def world(tasks: list[dict[str, Any]]) -> World:
    return build_world(tasks, SEED)


def _vocab(tasks: list[dict[str, Any]]) -> dict[str, dict[str, set[str]]]:
    out: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for t in tasks:
        hotel = set()
        for u in t["user_preferences"].values():
            g = u["preference"]["global_constraints"]
            hotel |= set(g["hotel_preference"]["prefer"]) | set(g["hotel_preference"]["avoid"])
            for city, p in u["preference"]["city_specific_preferences"].items():
                a, f = p["attractions"], p["food"]
                out[city]["names"] |= set(a["must_visit"]) | set(a["reject_visit"])
                out[city]["cats"] |= set(a["category_pref"]["positive"]) | set(a["category_pref"]["negative"])
                out[city]["food"] |= {
                    x for k in ("must_eat", "prefer_eat", "avoid_eat", "reject_eat") for x in f[k]
                }
        for city in t["metadata"]["cities"]:
            out[city]["hotel"] |= hotel
    return out


def test_named_places_exist_verbatim_as_attractions(world: World, tasks: list[dict[str, Any]]) -> None:
    missing = [
        (city, n)
        for city, v in _vocab(tasks).items()
        for n in v["names"]
        if (p := world.poi(city, n)) is None or p.kind != "attraction"
    ]
    assert not missing


def test_every_preference_word_has_several_pois(world: World, tasks: list[dict[str, Any]]) -> None:
    short = []
    for city, v in _vocab(tasks).items():
        for kind, key in (("attraction", "cats"), ("restaurant", "food"), ("hotel", "hotel")):
            short += [(city, w) for w in v[key] if w and len(world.pois(city, kind, w)) < 3]
    assert not short


def test_generated_names_hold_no_foreign_preference_word(world: World, tasks: list[dict[str, Any]]) -> None:
    bad = []
    for city, v in _vocab(tasks).items():
        words = {w for key in ("names", "cats", "food", "hotel") for w in v[key] if w}
        for p in world.pois(city):
            if p.name not in v["names"] and p.source == "synthetic":
                bad += [(city, p.name, w) for w in words if w in p.name and w not in p.category]
    assert not bad


def test_every_leg_is_reachable_on_its_day(world: World, tasks: list[dict[str, Any]]) -> None:
    unreachable = []
    for t in tasks:
        start = dt.date.fromisoformat(t["time"])
        legs, _ = itinerary(t)
        assert legs[-1][2] == trip_days(t) - 1
        for a, b, day in legs:
            options = world.intercity_options(a, b, start + dt.timedelta(days=day))
            if not options:
                unreachable.append((t["task_id"], a, b))
            assert all(o.arrive - o.depart < 24 * 60 for o in options), (
                "a plan cannot write a leg of a day or more"
            )
    assert not unreachable


def test_meals_and_beds_every_trip_day(world: World, tasks: list[dict[str, Any]]) -> None:
    def open_at(city: str, day: dt.date, minute: int) -> bool:
        for p in world.pois(city, "restaurant"):
            ws = world.opening_windows(city, p.name, day)
            if ws is None or any(w.open <= minute and minute + 45 <= w.close for w in ws):
                return True
        return False

    for t in tasks:
        start = dt.date.fromisoformat(t["time"])
        for city in t["metadata"]["cities"]:
            assert world.pois(city, "hotel")
            late = clock_shift(curated_cities()[world.city(city) or city])  # the west lives later
            for d in range(trip_days(t)):
                day = start + dt.timedelta(days=d)
                assert (
                    open_at(city, day, 7 * 60 + late)
                    and open_at(city, day, 12 * 60 + late)
                    and open_at(city, day, 18 * 60 + 30 + late)
                )


def test_prices_and_hours_are_sane(world: World) -> None:
    for city in world.cities:
        for p in world.pois(city):
            assert 0 <= p.price_fen <= (2000_00 if p.source == "synthetic" else 4000_00)  # real rides
            for rule in p.opening.rules if p.opening else ():
                assert set(rule.weekdays) <= set(range(1, 8))
                assert all(0 <= w.open < w.close <= 2880 and w.close - w.open < 1440 for w in rule.windows)


def _longest_rail_km(world: World, task: dict[str, Any]) -> float:
    def km(a: str, b: str) -> float:
        ca, cb = world.city_record(a), world.city_record(b)
        assert ca is not None and cb is not None
        return haversine_km(ca.lon, ca.lat, cb.lon, cb.lat) * RAIL_FACTOR

    return max(km(a, b) for a, b, _ in itinerary(task)[0])


def test_budgets_bind(world: World, tasks: list[dict[str, Any]]) -> None:
    """Cheap trips fit, lavish ones don't; the misfits fly far (docs/world.md, Calibration)."""
    pairs = [(c, b, t) for t in tasks for c in [task_cost(world, t)] for b in c.budgets_fen]
    near = [(c, b) for c, b, t in pairs if _longest_rail_km(world, t) < FAR_RAIL_KM]
    assert sum(c.cheapest_fen <= b for c, b, _ in pairs) >= 0.93 * len(pairs)
    assert sum(c.cheapest_fen <= b for c, b in near) >= 0.985 * len(near)
    assert sum(c.lavish_fen > b for c, b, _ in pairs) >= 0.95 * len(pairs)


def test_build_is_byte_deterministic(world: World, tasks: list[dict[str, Any]], tmp_path: Path) -> None:
    world.save(tmp_path / "a")
    build_world(list(reversed(tasks)), SEED).save(tmp_path / "b")
    a = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in (tmp_path / "a").rglob("*") if p.is_file()}
    b = {p.relative_to(tmp_path / "b"): p.read_bytes() for p in (tmp_path / "b").rglob("*") if p.is_file()}
    assert a == b


def test_golden_poi_file_round_trips_where_well_formed(shared_dir: Path) -> None:
    db = read_poi_db(shared_dir / "golden" / "official" / "poi_db.json")
    world, report = import_official(db, seed=1, fill=False)
    out = export_poi_db(world)
    kept = {
        k: [e for e in v if e.get("name") and e.get("poi_type") in ("attractions", "food", "hotels")]
        for k, v in db.items()
    }
    assert report.pois == sum(len(v) for v in kept.values())

    def well_formed(e: dict[str, Any]) -> bool:
        rules = (e["opening_hours"] or {}).get("rules", [])
        windows = [w for r in rules for w in r.get("time_windows") or []]
        seasons_whole = all(r.get("date_range") is None or len(r["date_range"]) == 2 for r in rules)
        return (
            seasons_whole
            and all("weekdays" in r for r in rules)
            and all(len(w.get("open", "")) == 5 == len(w.get("close", "")) for w in windows)
        )

    for city in ("海口市", "北京市", "杭州市"):
        pairs = list(zip(kept[city], out[city], strict=True))
        assert all(a == b for a, b in pairs if well_formed(a))
