"""`build_world(tasks, seed)`: a deterministic world grounded in the tasks' vocabulary.

Every curated city is in the world (with its hubs, so timetables answer for any pair); the
cities the tasks use (departures and destinations) get POIs: every must_visit / reject_visit
name verbatim as an attraction of its city, a base set, and `MIN_PER_CATEGORY` POIs of every
attraction category, food item and hotel category the tasks use there. Same tasks and seed →
the same world, byte for byte once saved.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from sandbox.world.errors import WorldError
from sandbox.world.geography import DATA_DIR, CityInfo, curated_cities
from sandbox.world.hubs import city_hubs
from sandbox.world.model import Poi
from sandbox.world.pois import assign_ids, city_pois
from sandbox.world.realdata import DATA_FILES
from sandbox.world.vocab import CityVocab, grounding
from sandbox.world.world import World

BUILDER_VERSION = "2"


def source_hash(tasks: Sequence[Any], extra: bytes = b"") -> str:
    """SHA-256 over the builder version, the curated data and the tasks (sorted by id)."""
    h = hashlib.sha256(f"tripwright-world-builder/{BUILDER_VERSION}\n".encode())
    for name in ("cities.csv", "airports.csv", *DATA_FILES):
        h.update((DATA_DIR / name).read_bytes())
    ordered = sorted(tasks, key=lambda t: str(t.get("task_id", "")) if isinstance(t, dict) else "")
    h.update(orjson.dumps(ordered, option=orjson.OPT_SORT_KEYS))
    h.update(extra)
    return h.hexdigest()


def resolve_cities(names: set[str], field: str) -> dict[str, CityInfo]:
    """Curated records of the named cities; an unknown city is a `WorldError`."""
    cur = curated_cities()
    unknown = sorted(n for n in names if n not in cur)
    if unknown:
        raise WorldError(field, f"cities not in sandbox/data/cities.csv: {unknown}")
    return {n: cur[n] for n in sorted(names)}


def assemble(
    tasks: Sequence[Any],
    seed: int,
    existing: Mapping[str, Sequence[Poi]],
    hash_extra: bytes = b"",
    *,
    fill: bool = True,
) -> World:
    """A world from tasks plus already known POIs per city (kept first, as they are); without
    `fill`, the known POIs only (numbered)."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise WorldError("seed", f"expected an integer, got {seed!r}")
    g = grounding(list(tasks))
    wanted = resolve_cities(g.cities | set(existing), "tasks.metadata")
    if fill:
        vocab = g.destinations
        pois = {
            n: city_pois(i, vocab.get(n, CityVocab()), seed, existing.get(n, ())) for n, i in wanted.items()
        }
    else:
        pois = {n: assign_ids(i, existing.get(n, ())) for n, i in wanted.items()}
    cur = curated_cities()
    hubs = [h for info in cur.values() for h in city_hubs(info, seed)]
    return World(
        [i.city for i in cur.values()], hubs, pois, seed=seed, source_hash=source_hash(tasks, hash_extra)
    )


def build_world(tasks: list[dict[str, Any]], seed: int) -> World:
    """A deterministic world for these GroupTravelBench tasks (raw task dicts)."""
    return assemble(tasks, seed, {})
