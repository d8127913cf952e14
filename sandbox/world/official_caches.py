"""Facts taken from official tool caches (docs/tools.md#cache: `{tool: {cache key: raw result string}}`).

Results are opaque strings, usually the JSON of a map API answer. Scanned tools: `search_poi`,
`get_poi_detail` and `maps_geo`. From every JSON object that has a `name` (or, for
`maps_geo`, from the `address` argument of its key) we take a location ("lon,lat" string or
numeric `lon`/`lng` + `lat`) and a price (`cost`, `price`, `avg_price` or `biz_ext.cost`, CNY).
Anything unparsable is ignored; the builder supplies the rest.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import orjson

from sandbox.world.import_report import ImportReport
from sandbox.world.model import Poi

TOOLS = ("search_poi", "get_poi_detail", "maps_geo")
PRICE_KEYS = ("cost", "price", "avg_price")


@dataclass
class CacheFacts:
    """Coordinates and prices (fen) by POI name."""

    coords: dict[str, tuple[float, float]] = field(default_factory=dict)
    prices: dict[str, int] = field(default_factory=dict)

    def apply(self, p: Poi, report: ImportReport) -> Poi:
        """The POI with cached coordinates / price where known (hotel prices are rooms)."""
        if p.name in self.coords:
            lon, lat = self.coords[p.name]
            p = replace(p, lon=lon, lat=lat)
            report.coords_from_cache += 1
        if p.name in self.prices:
            fen = self.prices[p.name]
            p = (
                replace(p, price_fen=fen // 2, room_price_fen=fen)
                if p.kind == "hotel"
                else replace(p, price_fen=fen)
            )
            report.prices_from_cache += 1
        return p


def _number(v: Any) -> float | None:
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) and x > 0 else None


def _location(d: Mapping[str, Any]) -> tuple[float, float] | None:
    loc = d.get("location")
    if isinstance(loc, str) and loc.count(",") == 1:
        lon, lat = (_number(x) for x in loc.split(","))
    else:
        lon, lat = _number(d.get("lon", d.get("lng"))), _number(d.get("lat"))
    if lon is None or lat is None or not (73 <= lon <= 136 and 3 <= lat <= 54):
        return None
    return (round(lon, 6), round(lat, 6))


def _price(d: Mapping[str, Any]) -> int | None:
    ext = d.get("biz_ext")
    sources = [d, ext] if isinstance(ext, dict) else [d]
    for src in sources:
        for k in PRICE_KEYS:
            x = _number(src.get(k))
            if x is not None:
                return round(x * 100)
    return None


def _objects(obj: Any) -> Iterator[dict[str, Any]]:
    if isinstance(obj, dict):
        yield obj
        for v in obj.values():
            yield from _objects(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _objects(v)


def _address(key: str) -> str | None:
    try:
        pairs = orjson.loads(key)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(pairs, list):
        return None
    args = {p[0]: p[1] for p in pairs if isinstance(p, list) and len(p) == 2}
    addr = args.get("address")
    return addr if isinstance(addr, str) and addr else None


def _learn(facts: CacheFacts, d: dict[str, Any], name: str) -> None:
    loc = _location(d)
    if loc is not None:
        facts.coords.setdefault(name, loc)
    price = _price(d)
    if price is not None:
        facts.prices.setdefault(name, price)


def cache_facts(caches: Mapping[str, Mapping[str, str]]) -> CacheFacts:
    """Scan the caches (keys in sorted order, so the result is deterministic)."""
    facts = CacheFacts()
    for tool in TOOLS:
        entries = caches.get(tool, {})
        for key in sorted(entries):
            try:
                result = orjson.loads(entries[key])
            except orjson.JSONDecodeError:
                continue
            address = _address(key) if tool == "maps_geo" else None
            for d in _objects(result):
                name = d.get("name")
                if isinstance(name, str) and name:
                    _learn(facts, d, name)
                elif address is not None:
                    _learn(facts, d, address)
    return facts
