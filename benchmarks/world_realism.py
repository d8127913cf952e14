"""World realism: how much of the world built for all gtb tasks (seed 1) is real, and where.

Run: `.venv/bin/python benchmarks/world_realism.py [path/to/tasks.jsonl]`. Each measurement is
a function returning printable lines; places (named places, records by source, distances,
famous examples) and legs (routes, train numbers, speeds) live in separate sections so each
can grow on its own; the budget calibration table closes the report.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sandbox.world import World
from sandbox.world.build import build_world
from sandbox.world.calibration import report
from sandbox.world.errors import WorldError
from sandbox.world.geography import haversine_km
from sandbox.world.provenance import SYNTHETIC, by_source, summary_line
from sandbox.world.realdata import real_city
from sandbox.world.vocab import grounding

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
LEGS: list[Measure] = []


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
