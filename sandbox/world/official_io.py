"""The official POI file (`all_poi_by_city.json`, docs/official.md#the-poi-file) to and from a world.

Exported per POI: `name`, `custom_category` (the category), `poi_type` (attractions | food |
hotels) and `opening_hours` ({always_open, rules[{date_range {start, end} | null, weekdays,
time_windows [{open, close "HH:MM"}]}]} or null). A window past midnight is written with
close < open ("18:00"–"02:00"), a close at exactly midnight as "24:00"; reading inverts both,
so those fields round-trip losslessly for zero-padded times. Everything else (coordinates,
prices, visit lengths, hubs) comes from official tool caches where they say it
(`official_caches`) and from the builder otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson

from sandbox.world.build import assemble
from sandbox.world.errors import WorldError
from sandbox.world.geography import curated_cities, short_name
from sandbox.world.import_report import ImportReport
from sandbox.world.model import OpeningHours, OpeningRule, Poi, Window
from sandbox.world.official_caches import CacheFacts, cache_facts
from sandbox.world.pois import make_poi
from sandbox.world.seeding import rng
from sandbox.world.storage import write_atomic
from sandbox.world.world import World

TO_OFFICIAL = {"attraction": "attractions", "restaurant": "food", "hotel": "hotels"}
FROM_OFFICIAL = {v: k for k, v in TO_OFFICIAL.items()}
_HHMM = re.compile(r"^(\d{1,2}):(\d{2})$")


def _hhmm(minutes: int) -> str:
    if minutes == 1440:
        return "24:00"
    return f"{minutes % 1440 // 60:02d}:{minutes % 60:02d}"


def opening_to_official(h: OpeningHours | None) -> dict[str, Any] | None:
    """Opening hours in the official shape."""
    if h is None:
        return None
    rules = [
        {
            "date_range": {"start": r.date_range[0], "end": r.date_range[1]} if r.date_range else None,
            "weekdays": list(r.weekdays),
            "time_windows": [{"open": _hhmm(w.open), "close": _hhmm(w.close)} for w in r.windows],
        }
        for r in h.rules
    ]
    return {"always_open": h.always_open, "rules": rules}


def export_poi_db(world: World, cities: Sequence[str] | None = None) -> dict[str, list[dict[str, Any]]]:
    """The world's POIs as the official POI file object (cities without POIs left out); each
    alias of a place follows it as an entry of its own, the same facts plus `alias_of`."""
    out = {}
    for city in cities if cities is not None else world.cities:
        key = world.city(city)
        plist = world.pois(key) if key else ()
        if key and plist:
            out[key] = [
                {
                    "name": name,
                    "custom_category": p.category,
                    "poi_type": TO_OFFICIAL[p.kind],
                    "opening_hours": opening_to_official(p.opening),
                }
                | ({"alias_of": p.name} if name != p.name else {})
                for p in plist
                for name in (p.name, *p.aliases)
            ]
    return out


def write_poi_db(world: World, path: str | Path, cities: Sequence[str] | None = None) -> None:
    """Write `export_poi_db` as UTF-8 JSON (non-ASCII kept), atomically, deterministically."""
    write_atomic(Path(path), orjson.dumps(export_poi_db(world, cities), option=orjson.OPT_APPEND_NEWLINE))


def _minutes(text: Any, where: str) -> int:
    m = _HHMM.match(text) if isinstance(text, str) else None
    if m is None or int(m[1]) > 24 or int(m[2]) > 59:
        raise WorldError(where, f"expected a time 'HH:MM', got {text!r}")
    return int(m[1]) * 60 + int(m[2])


def _window(w: Any, where: str, notes: list[str]) -> Window | None:
    """A window; one without a usable open and close is dropped with a note (the official
    checker never matches such a window either)."""
    if not isinstance(w, dict):
        raise WorldError(where, "expected an object {open, close}")
    try:
        a, b = _minutes(w.get("open"), f"{where}.open"), _minutes(w.get("close"), f"{where}.close")
    except WorldError as exc:
        notes.append(f"{exc} (window dropped)")
        return None
    return Window(a, b if b > a else b + 1440)


def _rule(r: Any, where: str, notes: list[str]) -> OpeningRule:
    if not isinstance(r, dict):
        raise WorldError(where, "expected a rule object")
    dr = r.get("date_range")
    if dr and not isinstance(dr, dict):
        raise WorldError(f"{where}.date_range", f"expected null or an object {{start, end}}, got {dr!r}")
    season = (
        (str(dr.get("start") or "01-01"), str(dr.get("end") or "12-31")) if isinstance(dr, dict) else None
    )
    days = r.get("weekdays", [1, 2, 3, 4, 5, 6, 7])
    if not isinstance(days, list) or not all(isinstance(d, int) and 1 <= d <= 7 for d in days):
        raise WorldError(f"{where}.weekdays", f"expected ISO weekdays 1..7, got {days!r}")
    raw = r.get("time_windows") or []
    if not isinstance(raw, list):
        raise WorldError(f"{where}.time_windows", "expected a list")
    windows = [_window(w, f"{where}.time_windows[{i}]", notes) for i, w in enumerate(raw)]
    return OpeningRule(season, tuple(days), tuple(w for w in windows if w is not None))


def opening_from_official(h: Any, where: str, notes: list[str]) -> OpeningHours | None:
    """Official opening hours → `OpeningHours` (null → None); a missing `weekdays` means every
    day, a missing season bound its year end, unusable windows are dropped into `notes`."""
    if h is None:
        return None
    if not isinstance(h, dict):
        raise WorldError(where, "expected null or an object {always_open, rules}")
    rules = h.get("rules") or []
    if not isinstance(rules, list):
        raise WorldError(f"{where}.rules", "expected a list")
    parsed = tuple(_rule(r, f"{where}.rules[{i}]", notes) for i, r in enumerate(rules))
    return OpeningHours(bool(h.get("always_open")), parsed)


def _city_key(city: str, report: ImportReport) -> str | None:
    """The curated key for a file's city key ("怀化" → "怀化市", noted), or None (skipped)."""
    names = curated_cities()
    if city in names:
        return city
    key = next((n for n in (f"{city}市", *sorted(names)) if n in names and short_name(n) == city), None)
    if key is None:
        report.skipped.append(f"{city}: not a curated city (all its POIs skipped)")
    else:
        report.notes.append(f"{city}: imported as {key}")
    return key


def _import_city(city: str, entries: Any, seed: int, facts: CacheFacts, report: ImportReport) -> list[Poi]:
    if not isinstance(entries, list):
        raise WorldError(city, "expected a list of POI objects")
    key = _city_key(city, report)
    if key is None:
        return []
    info = curated_cities()[key]
    out: list[Poi] = []
    for i, e in enumerate(entries):
        where = f"{city}[{i}]"
        kind = FROM_OFFICIAL.get(e.get("poi_type", "")) if isinstance(e, dict) else None
        name = e.get("name") if isinstance(e, dict) else None
        if kind is None or not isinstance(name, str) or not name:
            report.skipped.append(f"{where}: no name or poi_type not attractions/food/hotels")
            continue
        target = next((q for q in out if q.name == e.get("alias_of")), None)
        if target is not None:
            out[out.index(target)] = replace(target, aliases=(*target.aliases, name))
            continue
        category = e.get("custom_category") or ""
        if not isinstance(category, str):
            raise WorldError(f"{where}.custom_category", f"expected a string, got {category!r}")
        p = make_poi(info, kind, str(category), name, rng(seed, "import", key, i))
        opening = opening_from_official(e.get("opening_hours"), f"{where}.opening_hours", report.notes)
        p = replace(p, opening=opening)
        out.append(facts.apply(p, report))
    report.pois += len(out)
    return out


def import_official(
    poi_db: Any,
    *,
    seed: int = 0,
    tasks: Sequence[Any] = (),
    caches: Mapping[str, Mapping[str, str]] | None = None,
    fill: bool = True,
) -> tuple[World, ImportReport]:
    """A world from an official POI file object (+ optional tool caches `{tool: {key: raw}}`).

    The file's POIs come first in each city, in file order. With `fill`, the builder adds the
    tasks' named places, the base set and category fill-ups; without, the world holds only the
    file's POIs (for round trips). Unknown cities raise `WorldError`.
    """
    if not isinstance(poi_db, dict):
        raise WorldError("poi_db", "expected an object {city: [POI, …]}")
    report = ImportReport()
    facts = cache_facts(caches or {})
    existing: dict[str, list[Poi]] = {}
    for city, entries in poi_db.items():
        for p in _import_city(city, entries, seed, facts, report):
            existing.setdefault(p.city, []).append(p)
    extra = orjson.dumps([poi_db, caches or {}], option=orjson.OPT_SORT_KEYS)
    world = assemble(tasks if fill else (), seed, existing, extra, fill=fill)
    return world, report


def read_poi_db(path: str | Path) -> Any:
    """Parse an official POI file; unreadable or non-JSON → `WorldError`."""
    try:
        return orjson.loads(Path(path).read_bytes())
    except (OSError, orjson.JSONDecodeError) as exc:
        raise WorldError(str(path), f"cannot read the POI file ({exc})") from exc
