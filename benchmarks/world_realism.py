"""World realism: how much of the world built for all gtb tasks (seed 1) is real, and where.

Run: `.venv/bin/python benchmarks/world_realism.py [path/to/tasks.jsonl]`. Each measurement is
a function returning printable lines; places (named places, records by source, distances,
famous examples) and legs (routes, train numbers, speeds) live in separate sections so each
can grow on its own; the budget calibration table closes the report. Legs are measured twice:
every distinct departure offered for the tasks' required legs (the calibration route), and the
legs the greedy plans take; speeds between the legs' hubs (stations, airports), not city centres.
"""

from __future__ import annotations

import datetime as dt
import json
import statistics
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from sandbox.world import World
from sandbox.world.build import build_world
from sandbox.world.calibration import itinerary, report
from sandbox.world.errors import WorldError
from sandbox.world.geography import haversine_km
from sandbox.world.model import INTERCITY_MODES, IntercityOption
from sandbox.world.provenance import SYNTHETIC, by_source, summary_line
from sandbox.world.realdata import real_city
from sandbox.world.realtimes import stations_by_city
from sandbox.world.vocab import grounding
from solver.greedy import greedy_plan
from verifier.model.plan import minutes
from verifier.model.task import Task
from verifier.strict.timetable import match_leg

DEFAULT_TASKS = Path(__file__).resolve().parents[2] / "shared" / "gtb" / "tasks.jsonl"
SEED = 1
Measure = Callable[[World, list[dict[str, Any]]], list[str]]


# places ------------------------------------------------------------------------------------
def _named(tasks: list[dict[str, Any]]) -> dict[str, set[str]]:
    return {city: v.visit_names for city, v in grounding(tasks).destinations.items() if v.visit_names}


def named_places_real(world: World, tasks: list[dict[str, Any]]) -> list[str]:
    """Share of named places (must_visit / reject_visit) that are real records, by city."""
    rows = []
    for city, names in sorted(_named(tasks).items()):
        real = sum((p := world.poi(city, n)) is not None and p.source != SYNTHETIC for n in names)
        rows.append((city, len(names), real))
    total, real_total = sum(n for _, n, _ in rows), sum(r for _, _, r in rows)
    lines = [f"named places real: {real_total} / {total} ({real_total / total:.1%}) in {len(rows)} cities"]
    lines += [f"  {city}: {real} / {n} ({real / n:.0%})" for city, n, real in rows if real]
    rest = [(n, r) for _, n, r in rows if not r]
    lines.append(f"  {len(rest)} other cities: 0 / {sum(n for n, _ in rest)} (no real record names them)")
    return lines


def named_place_distances(world: World, tasks: list[dict[str, Any]]) -> list[str]:
    """Named places against real coordinates: real records sit on them; the others sit where
    their name says (a real place or district they name) or, unplaced, at this distance from
    the centre."""
    real_km, anchored_km, free_km = [], [], []
    for city, names in _named(tasks).items():
        rc, record = real_city(city), world.city_record(city)
        for name in names:
            p = world.poi(city, name)
            if p is None or record is None:
                continue
            row = rc.attraction(name)
            anchor = rc.anchor(name)
            if row is not None:
                real_km.append(haversine_km(p.lon, p.lat, float(row["lon"]), float(row["lat"])))
            elif anchor is not None:
                anchored_km.append(haversine_km(p.lon, p.lat, *anchor))
            else:
                free_km.append(haversine_km(p.lon, p.lat, record.lon, record.lat))
    return [
        f"real named places: {len(real_km)}, distance from the real record: {_spread(real_km)} km",
        f"placed by name (a real place or district they name): {len(anchored_km)}, "
        f"distance from that point: {_spread(anchored_km)} km",
        f"unplaced (category scatter): {len(free_km)}, distance from the centre: {_spread(free_km)} km",
    ]


def records_by_source(world: World, tasks: list[dict[str, Any]]) -> list[str]:
    """POIs by kind and source over the whole world."""
    return ["records by source: " + summary_line(by_source(world))]


FAMOUS = (
    ("北京市", "八达岭长城", (116.3913, 39.9075), "天安门"),
    ("上海市", "上海迪士尼乐园", (121.4737, 31.2304), "人民广场"),
    ("北京市", "什刹海", (116.3913, 39.9075), "天安门"),
    ("上海市", "外滩", (121.4737, 31.2304), "人民广场"),
)


def famous_examples(world: World, tasks: list[dict[str, Any]]) -> list[str]:
    """Issue 8's examples as this world has them."""
    lines = []
    for city, name, point, what in FAMOUS:
        p = world.poi(city, name)
        if p is None:
            lines.append(f"{name}: not in this world")
            continue
        km = haversine_km(p.lon, p.lat, *point)
        lines.append(
            f"{name} ({p.source}): {km:.1f} km from {what}, {p.price_fen / 100:g} CNY, "
            f"visit {p.min_visit_minutes}–{p.suggested_visit_minutes} min, id {p.id}, "
            f"aliases {list(p.aliases)}"
        )
    return lines


def _spread(values: list[float]) -> str:
    if not values:
        return "-"
    return f"min {min(values):.2f} / median {statistics.median(values):.2f} / max {max(values):.2f}"


PLACES: list[Measure] = [records_by_source, named_places_real, named_place_distances, famous_examples]


# legs (intercity timetables) ---------------------------------------------------------------
REAL_NUMBERS = ("ChinaTravel", "RailwayVIS")
"""Sources whose train / flight numbers are real (OpenFlights: real route and airline, number by rule)."""
SOURCES = ("ChinaTravel", "RailwayVIS", "OpenFlights", SYNTHETIC)


def offered_legs(world: World, tasks: list[dict[str, Any]]) -> list[str]:
    """Every option offered for every task's required legs (departure → cities in order →
    departure, each on its day as in the calibration route), each distinct departure once."""
    distinct: dict[tuple[str, ...], IntercityOption] = {}
    for task in tasks:
        start = dt.date.fromisoformat(task["time"])
        for a, b, day in itinerary(task)[0]:
            for o in world.intercity_options(a, b, start + dt.timedelta(days=day)):
                distinct.setdefault((o.from_city, o.to_city, o.mode, o.code, o.from_hub, o.to_hub), o)
    title = "options offered for the required legs (distinct departures)"
    return _leg_lines(title, world, list(distinct.values()))


def greedy_legs(world: World, tasks: list[dict[str, Any]]) -> list[str]:
    """The legs of the greedy plans, one per leg of each task's plan, read back from the timetable."""
    legs = []
    for raw in tasks:
        plan = greedy_plan(Task.model_validate(raw), world)
        for day in plan["days"]:
            date = dt.date.fromisoformat(day["date"])
            for seg in day["city_segments"]:
                if seg.get("type") != "intercity_transport":
                    continue
                depart, arrive = minutes(seg["start_time"]), minutes(seg["end_time"])
                arrive += 1440 if arrive <= depart else 0
                options = world.intercity_options(seg["from_city"], seg["to_city"], date)
                chosen = match_leg(options, seg["transport_mode"], depart, arrive).option
                legs += [o for o in options if o is chosen]
    return _leg_lines("legs of the greedy plans", world, legs)


def _leg_lines(title: str, world: World, legs: list[IntercityOption]) -> list[str]:
    n = len(legs)
    timetabled = [o for o in legs if not o.flexible]
    real_route = sum(o.source != SYNTHETIC for o in timetabled)
    real_number = sum(o.source in REAL_NUMBERS for o in timetabled)
    lines = [
        f"{title}: {n}",
        "  by source: " + ", ".join(f"{s} {_share(sum(o.source == s for o in legs), n)}" for s in SOURCES),
        f"  timetabled (not self-drive): {len(timetabled)}; on a real route "
        f"{_share(real_route, len(timetabled))}, real number {_share(real_number, len(timetabled))}",
    ]
    for mode in INTERCITY_MODES:
        of_mode = [o for o in legs if o.mode == mode]
        if of_mode:
            counts = ", ".join(f"{s} {c}" for s in SOURCES if (c := sum(o.source == s for o in of_mode)))
            lines.append(f"  {mode} {len(of_mode)}: {counts}")
    lines += _speed_lines(world, legs)
    return lines


def _speed_lines(world: World, legs: list[IntercityOption]) -> list[str]:
    """Implied speed per mode: great-circle km between the two hubs over the scheduled minutes
    (self-drive: between the city centres; connections include the layover)."""
    lines = ["  implied speed, hub to hub (km/h, min / median / max; slowest and fastest):"]
    for mode in INTERCITY_MODES:
        timed = ((_hub_km(world, o), o) for o in legs if o.mode == mode)
        speeds = sorted(((km / (o.arrive - o.depart) * 60, o) for km, o in timed if km), key=lambda p: p[0])
        if not speeds:
            continue
        values, (slow, fast) = [v for v, _ in speeds], (speeds[0][1], speeds[-1][1])
        lines.append(f"    {mode} ({len(values)}): {_kmh(values)}; {_leg_name(slow)}; {_leg_name(fast)}")
        if mode in ("高铁", "火车"):
            placed = [v for v, o in speeds if {o.from_hub, o.to_hub} <= _real_stations()]
            if placed:
                lines.append(f"      both stations at real positions ({len(placed)}): {_kmh(placed)}")
    return lines


def _hub_km(world: World, o: IntercityOption) -> float | None:
    a = next((h for h in world.hubs(o.from_city) if h.name == o.from_hub), None)
    b = next((h for h in world.hubs(o.to_city) if h.name == o.to_hub), None)
    return haversine_km(a.lon, a.lat, b.lon, b.lat) if a and b else None


@cache
def _real_stations() -> frozenset[str]:
    """Stations at a real position (the others are placed 2–6 km from the centre by rule)."""
    return frozenset(s.name for group in stations_by_city().values() for s in group if s.lon is not None)


def _kmh(values: list[float]) -> str:
    return f"{min(values):.0f} / {statistics.median(values):.0f} / {max(values):.0f}"


def _leg_name(o: IntercityOption) -> str:
    return f"{o.code} {o.from_hub} → {o.to_hub} {o.arrive - o.depart} min ({o.source})"


def _share(count: int, n: int) -> str:
    return f"{count} ({count / n:.1%})" if n else "0"


LEGS: list[Measure] = [offered_legs, greedy_legs]


# budgets -----------------------------------------------------------------------------------
def calibration_table(world: World, tasks: list[dict[str, Any]]) -> list[str]:
    """The budget calibration table (docs/world.md, Calibration)."""
    try:
        return report(world, tasks).splitlines()
    except WorldError as exc:
        return [f"calibration: {exc}"]


def main(path: Path) -> None:
    """Build the world of every task and print each section."""
    tasks = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    world = build_world(tasks, SEED)
    sections: dict[str, list[Measure]] = {"places": PLACES, "legs": LEGS, "budgets": [calibration_table]}
    for title, measures in sections.items():
        print(f"== {title} ==")
        for measure in measures:
            for line in measure(world, tasks):
                print(line)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_TASKS)
