"""CLI group `tripwright world`: build, inspect, export and import sandbox worlds (thin wrappers)."""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from runner.cli.support import EXIT_OK, out, print_json, user_errors
from runner.loading.files import InputError

if TYPE_CHECKING:
    from sandbox.world.world import World

KINDS = ("attraction", "restaurant", "hotel")
MAX_NOTES = 10

app = typer.Typer(
    help="Build, inspect, export and import sandbox worlds (docs/world.md).", no_args_is_help=True
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed: same inputs and seed → same bytes.")]
WorldArg = Annotated[Path, typer.Argument(help="World directory.")]


@contextmanager
def _writing(path: Path) -> Iterator[None]:
    """An OSError while writing `path` becomes an InputError naming it."""
    try:
        yield
    except OSError as exc:
        raise InputError(path, f"cannot write: {exc.strerror or exc}") from exc


@contextmanager
def _about(path: Path) -> Iterator[None]:
    """A WorldError raised while using the file at `path` becomes an InputError naming it."""
    from sandbox.world.errors import WorldError

    try:
        yield
    except WorldError as exc:
        raise InputError(path, exc.problem, where=exc.field) from exc


def _task_dicts(path: Path) -> list[dict[str, Any]]:
    """Raw task objects of a task file, each checked to load as a Task."""
    from runner.loading.benchmark_data import read_tasks

    return [value for value, _ in read_tasks(path)]


def _counts(world: World, city: str) -> dict[str, int]:
    kinds = Counter(p.kind for p in world.pois(city))
    return {kind: kinds[kind] for kind in KINDS}


def _summary(world: World) -> dict[str, Any]:
    """Seed, source hash, city count and POI counts per kind, in total, by source and per city."""
    from sandbox.world import provenance

    per_city = {c: _counts(world, c) for c in world.cities if world.pois(c)}
    totals = {kind: sum(counts[kind] for counts in per_city.values()) for kind in KINDS}
    return {
        "seed": world.seed,
        "source_hash": world.source_hash,
        "cities": len(world.cities),
        "cities_with_pois": len(per_city),
        "pois": totals,
        "sources": provenance.by_source(world),
        "per_city": per_city,
    }


def _print_summary(title: str, summary: dict[str, Any]) -> None:
    from runner.cli.tables import cli_table
    from sandbox.world import provenance

    console = out()
    console.print(title)
    console.print(
        f"seed {summary['seed']}, {summary['cities']} cities ({summary['cities_with_pois']} with POIs), "
        + ", ".join(f"{n} {kind}s" for kind, n in summary["pois"].items())
    )
    table = cli_table("city", *KINDS, title="POIs per city")
    for city, counts in summary["per_city"].items():
        table.add_row(city, *(str(counts[kind]) for kind in KINDS))
    console.print(table)
    console.print("records by source: " + provenance.summary_line(summary["sources"]))


def _calibration(world: World, tasks: list[dict[str, Any]], path: Path) -> dict[str, Any]:
    """Per-task cheapest / lavish cost and the budget table (docs/world.md, Calibration)."""
    from sandbox.world import calibration

    costs = []
    for number, task in enumerate(tasks, start=1):
        try:
            costs.append(calibration.task_cost(world, task))
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(path, f"cannot cost the trip ({exc})", where=f"task {number}") from exc
    travellers = sum(b > 0 for c in costs for b in c.budgets_fen)
    table = (
        calibration.report(world, tasks)
        if travellers >= 2
        else f"{travellers} traveller(s) with a budget: too few for the table"
    )
    rows = [
        {
            "task_id": c.task_id,
            "cheapest_fen": c.cheapest_fen,
            "lavish_fen": c.lavish_fen,
            "budgets_fen": list(c.budgets_fen),
        }
        for c in costs
    ]
    return {"tasks": rows, "table": table}


@app.command("build")
def build_command(
    *,
    tasks: Annotated[Path, typer.Option("--tasks", help="Tasks: a JSON object or array, or JSONL.")],
    out_dir: Annotated[Path, typer.Option("--out", help="World directory to write.")],
    seed: SeedOpt = 0,
    with_calibration: Annotated[
        bool, typer.Option("--calibration", help="Also print the budget calibration table.")
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Build a deterministic world from a task set and save it."""
    from sandbox.world.build import build_world

    started = time.perf_counter()
    with user_errors():
        task_list = _task_dicts(tasks)
        with _about(tasks):
            world = build_world(task_list, seed)
        costs = _calibration(world, task_list, tasks) if with_calibration else None
        with _writing(out_dir):
            world.save(out_dir)
        document = {"path": str(out_dir), **_summary(world)}
        document["seconds"] = round(time.perf_counter() - started, 3)
        if costs is not None:
            document["calibration"] = costs
    if json_out:
        print_json(document)
        raise typer.Exit(EXIT_OK)
    _print_summary(f"world written to {out_dir} in {document['seconds']:.2f} s", document)
    if with_calibration:
        sys.stdout.write(document["calibration"]["table"] + "\n")


@app.command("info")
def info_command(
    world_dir: WorldArg,
    city: Annotated[str | None, typer.Option("--city", help="Summarise one city's POIs.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Manifest facts and POI counts per city (or one city's POIs by kind and category)."""
    from runner.loading.benchmark_data import load_sandbox_world
    from sandbox.world import storage

    with user_errors():
        world = load_sandbox_world(world_dir)
        manifest = storage.read_manifest(world_dir)
        document: dict[str, Any] = {
            "path": str(world_dir),
            "format": manifest["format"],
            "schema_version": manifest["schema_version"],
            **_summary(world),
        }
        if city is not None:
            document["city"] = _city_detail(world, city)
    if json_out:
        print_json(document)
        raise typer.Exit(EXIT_OK)
    if city is None:
        _print_summary(f"{world_dir}: {manifest['format']} v{manifest['schema_version']}", document)
    else:
        _print_city(document["city"])


def _city_detail(world: World, name: str) -> dict[str, Any]:
    """One city: POIs per kind, per (kind, category), and price range per kind (fen)."""
    key = world.city(name)
    if key is None:
        raise InputError(None, f"--city {name!r} is not a city of this world")
    pois = world.pois(key)
    categories = Counter((p.kind, p.category) for p in pois)
    prices = {kind: [p.price_fen for p in pois if p.kind == kind] for kind in KINDS if world.pois(key, kind)}
    return {
        "name": key,
        "pois": _counts(world, key),
        "categories": [
            {"kind": kind, "category": category, "pois": n}
            for (kind, category), n in sorted(categories.items())
        ],
        "price_fen": {kind: {"min": min(values), "max": max(values)} for kind, values in prices.items()},
    }


def _print_city(detail: dict[str, Any]) -> None:
    from runner.cli.tables import cli_table

    console = out()
    counts = ", ".join(f"{n} {kind}s" for kind, n in detail["pois"].items())
    console.print(f"{detail['name']}: {counts}")
    for kind, span in detail["price_fen"].items():
        console.print(f"  {kind} price per person: {span['min'] / 100:g}–{span['max'] / 100:g} CNY")
    table = cli_table("kind", "category", "POIs", title="categories")
    for row in detail["categories"]:
        table.add_row(row["kind"], row["category"], str(row["pois"]))
    console.print(table)


@app.command("export-poi-db")
def export_command(
    world_dir: WorldArg,
    out_file: Annotated[Path, typer.Option("--out", help="Official POI file to write (JSON).")],
    cities: Annotated[
        list[str] | None, typer.Option("--city", metavar="<str>", help="Export only this city (repeatable).")
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Write the world's POIs as the official all_poi_by_city.json file."""
    from runner.loading.benchmark_data import load_sandbox_world
    from sandbox.world import official_io

    with user_errors():
        world = load_sandbox_world(world_dir)
        chosen = None if not cities else [_city_key(world, c) for c in cities]
        exported = official_io.export_poi_db(world, chosen)
        with _writing(out_file):
            official_io.write_poi_db(world, out_file, chosen)
    document = {
        "path": str(out_file),
        "cities": {city: len(entries) for city, entries in exported.items()},
        "pois": sum(len(entries) for entries in exported.values()),
    }
    if json_out:
        print_json(document)
        raise typer.Exit(EXIT_OK)
    out().print(f"{document['pois']} POIs of {len(exported)} cities written to {out_file}")


def _city_key(world: World, name: str) -> str:
    key = world.city(name)
    if key is None:
        raise InputError(None, f"--city {name!r} is not a city of this world")
    if not world.pois(key):
        raise InputError(None, f"--city {name!r}: the world has no POIs in {key}")
    return key


def _read_caches(directory: Path) -> dict[str, dict[str, str]]:
    """Official `<tool>_cache.json` files of a directory, for the tools that hold POI facts."""
    from sandbox.cache.store import ToolCache
    from sandbox.world.official_caches import TOOLS as CACHE_TOOLS

    if not directory.is_dir():
        raise InputError(directory, "cache directory not found")
    cache = ToolCache(directory, persist_stats=False)
    return {tool: cache.official(tool) for tool in CACHE_TOOLS}


@app.command("import")
def import_command(
    *,
    poi_db: Annotated[Path, typer.Option("--poi-db", help="Official POI file (all_poi_by_city.json).")],
    out_dir: Annotated[Path, typer.Option("--out", help="World directory to write.")],
    caches: Annotated[
        Path | None, typer.Option("--caches", help="Directory of official <tool>_cache.json files.")
    ] = None,
    tasks: Annotated[
        Path | None, typer.Option("--tasks", help="Tasks whose named places and words the fill adds.")
    ] = None,
    fill: Annotated[
        bool, typer.Option("--fill/--no-fill", help="Add generated POIs after the file's.")
    ] = True,
    seed: SeedOpt = 0,
    json_out: JsonOpt = False,
) -> None:
    """Build a world from the official POI file (plus official tool caches) and save it."""
    from sandbox.world import official_io

    with user_errors():
        task_list = [] if tasks is None else _task_dicts(tasks)
        raw_caches = None if caches is None else _read_caches(caches)
        raw_poi_db = official_io.read_poi_db(poi_db)
        with _about(poi_db):
            world, report = official_io.import_official(
                raw_poi_db, seed=seed, tasks=task_list, caches=raw_caches, fill=fill
            )
        with _writing(out_dir):
            world.save(out_dir)
    document = {
        "path": str(out_dir),
        **_summary(world),
        "imported_pois": report.pois,
        "coords_from_cache": report.coords_from_cache,
        "prices_from_cache": report.prices_from_cache,
        "skipped": report.skipped,
        "notes": report.notes,
    }
    if json_out:
        print_json(document)
        raise typer.Exit(EXIT_OK)
    _print_summary(f"world written to {out_dir}", document)
    console = out()
    console.print(
        f"imported {report.pois} POIs from {poi_db} (coordinates from caches: {report.coords_from_cache}, "
        f"prices from caches: {report.prices_from_cache}); {len(report.skipped)} skipped, "
        f"{len(report.notes)} notes"
    )
    for label, items in (("skipped", report.skipped), ("note", report.notes)):
        for item in items[:MAX_NOTES]:
            console.print(f"  {label}: {item}", markup=False)
        if len(items) > MAX_NOTES:
            console.print(f"  … {len(items) - MAX_NOTES} more {label} lines (use --json for all)")
