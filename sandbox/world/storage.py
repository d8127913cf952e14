"""On-disk world format, version 2 (documented in docs/world.md).

    <dir>/manifest.json        format, schema_version, seed, source_hash, cities (with file,
                               sha256 and POI count), hubs
    <dir>/cities/<adcode>.json {schema_version, city, pois: [...]} (only cities with POIs;
                               the others have file null)

JSON with sorted keys (orjson), so the same world gives the same bytes; every file is written
to a temporary name and moved into place, the manifest last.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import fields
from pathlib import Path
from typing import Any

import orjson

from sandbox.world.errors import WorldError
from sandbox.world.model import City, Hub, OpeningHours, OpeningRule, Poi, Window

FORMAT = "tripwright-world"
SCHEMA_VERSION = 2
JSON = Any


def dumps(obj: JSON, *, pretty: bool = False) -> bytes:
    """Deterministic JSON bytes (sorted keys, trailing newline)."""
    opts = orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE | (orjson.OPT_INDENT_2 if pretty else 0)
    return orjson.dumps(obj, option=opts)


def write_atomic(path: Path, data: bytes) -> None:
    """Write bytes to a temporary file beside `path`, then rename it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def sha256(data: bytes) -> str:
    """Hex SHA-256 of bytes."""
    return hashlib.sha256(data).hexdigest()


def opening_to_json(h: OpeningHours | None) -> JSON:
    """Opening hours as plain JSON (None stays null)."""
    if h is None:
        return None
    rules = [
        {
            "date_range": list(r.date_range) if r.date_range else None,
            "weekdays": list(r.weekdays),
            "windows": [[w.open, w.close] for w in r.windows],
        }
        for r in h.rules
    ]
    return {"always_open": h.always_open, "rules": rules}


def opening_from_json(d: JSON) -> OpeningHours | None:
    """Inverse of `opening_to_json`."""
    if d is None:
        return None
    rules = tuple(
        OpeningRule(
            tuple(r["date_range"]) if r["date_range"] else None,
            tuple(r["weekdays"]),
            tuple(Window(o, c) for o, c in r["windows"]),
        )
        for r in d["rules"]
    )
    return OpeningHours(d["always_open"], rules)


def poi_to_json(p: Poi) -> JSON:
    """A POI as plain JSON (every field but the city, which the file names)."""
    out = {f.name: getattr(p, f.name) for f in fields(p) if f.name != "city"}
    out["opening"] = opening_to_json(p.opening)
    return out


def poi_from_json(d: JSON, city: str) -> Poi:
    """Inverse of `poi_to_json`."""
    return Poi(
        **(d | {"city": city, "opening": opening_from_json(d["opening"]), "aliases": tuple(d["aliases"])})
    )


def city_to_json(c: City) -> JSON:
    """A city as plain JSON."""
    return {
        "name": c.name,
        "province": c.province,
        "adcode": c.adcode,
        "lon": c.lon,
        "lat": c.lat,
        "hsr": c.hsr,
    }


def hub_to_json(h: Hub) -> JSON:
    """A hub as plain JSON."""
    return {"name": h.name, "city": h.city, "kind": h.kind, "lon": h.lon, "lat": h.lat, "iata": h.iata}


def city_file(city: City) -> str:
    """Relative path of a city's POI file."""
    return f"cities/{city.adcode}.json"


def city_payload(city: City, pois: tuple[Poi, ...]) -> bytes:
    """The bytes of one city file."""
    return dumps(
        {"schema_version": SCHEMA_VERSION, "city": city.name, "pois": [poi_to_json(p) for p in pois]}
    )


def read_manifest(directory: Path) -> JSON:
    """The parsed manifest, checked for format and version."""
    path = directory / "manifest.json"
    try:
        manifest = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError) as exc:
        raise WorldError(str(path), f"cannot read the world manifest ({exc})") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise WorldError(str(path), f"not a {FORMAT} manifest")
    if manifest.get("schema_version") != SCHEMA_VERSION:
        raise WorldError(
            f"{path}:schema_version", f"unsupported {manifest.get('schema_version')!r}, want {SCHEMA_VERSION}"
        )
    return manifest


def read_city(directory: Path, entry: JSON) -> tuple[Poi, ...]:
    """The POIs of one manifest city entry (none without a file), with the file's hash checked."""
    if entry["file"] is None:
        return ()
    path = directory / entry["file"]
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise WorldError(str(path), f"cannot read city file ({exc})") from exc
    if sha256(data) != entry["sha256"]:
        raise WorldError(str(path), "sha256 differs from the manifest (file changed or stale)")
    try:
        return tuple(poi_from_json(d, entry["name"]) for d in orjson.loads(data)["pois"])
    except (KeyError, TypeError, ValueError) as exc:
        raise WorldError(str(path), f"malformed city file ({exc!r})") from exc
