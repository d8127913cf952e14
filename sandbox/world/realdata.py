"""The real places shipped in `sandbox/data/` (curated by `sandbox.curation.real_places`, WGS-84).

`real_city(name)` gives one city's real attractions, hotels, restaurants and districts, and
answers which real attraction a task's name denotes: the exact name, then the hand-made alias
table (`place_aliases.csv`; an empty `real_name` says "a different place"), then a shared match
key (`placenames.place_keys`). ChinaTravel records win over the 5A list's, then the better rated,
then the shorter name. A part of a joined 5A title ("岳麓山·橘子洲旅游区") only places a name
(`anchor`): the parts are different places inside one scenic area.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from functools import cache

from sandbox.world.geography import DATA_DIR, curated_cities
from sandbox.world.placenames import place_keys

Row = dict[str, str]
DATA_FILES = (
    "real_attractions.csv",
    "real_hotels.csv",
    "real_restaurants.csv",
    "districts.csv",
    "place_aliases.csv",
)
SOURCE_RANK = {"ChinaTravel": 0, "scenic5a": 1}


def _rows(name: str) -> list[Row]:
    with (DATA_DIR / name).open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


@dataclass(frozen=True, slots=True)
class District:
    """A county-level unit of a city and its centre."""

    name: str
    short: str
    lon: float
    lat: float


@dataclass
class RealCity:
    """One city's real records and its name index."""

    city: str
    prefixes: tuple[str, ...]
    attractions: list[Row] = field(default_factory=list)
    hotels: list[Row] = field(default_factory=list)
    restaurants: list[Row] = field(default_factory=list)
    districts: list[District] = field(default_factory=list)
    aliases: dict[str, str] = field(default_factory=dict)
    _exact: dict[str, Row] = field(default_factory=dict)
    _keys: dict[str, Row] = field(default_factory=dict)
    _parts: dict[str, Row] = field(default_factory=dict)

    def index(self) -> None:
        """Build the exact-name and match-key indexes (best record per key)."""
        for row in sorted(self.attractions, key=_rank):
            self._exact.setdefault(row["name"], row)
            prefixes = self.prefixes + _area_prefixes(row["area"])
            for key in place_keys(row["name"], prefixes):
                self._keys.setdefault(key, row)
            if row["source"] == "scenic5a":
                for key in place_keys(row["name"], prefixes, parts=True):
                    self._parts.setdefault(key, row)

    def attraction(self, name: str) -> Row | None:
        """The real attraction a name denotes, or None."""
        if name in self._exact:
            return self._exact[name]
        if name in self.aliases:
            return self._exact.get(self.aliases[name])  # "" (a different place) is never a name
        return next((self._keys[k] for k in sorted(place_keys(name, self.prefixes)) if k in self._keys), None)

    def anchor(self, name: str) -> tuple[float, float] | None:
        """Where a name says it is: in the scenic area whose title names it ("橘子洲" → 岳麓山·橘子洲
        旅游区), inside the longest real attraction name it contains ("外滩观景台" → 外滩), else at
        the district it names ("延庆…" → 延庆区)."""
        part = next(
            (self._parts[k] for k in sorted(place_keys(name, self.prefixes)) if k in self._parts), None
        )
        if part is not None:
            return float(part["lon"]), float(part["lat"])
        inside = [
            r for r in self.attractions if len(r["name"]) >= 2 and r["name"] in name and r["name"] != name
        ]
        if inside:
            best = min(inside, key=lambda r: (-len(r["name"]), _rank(r)))
            return float(best["lon"]), float(best["lat"])
        for d in sorted(self.districts, key=lambda d: (-len(d.short), d.name)):
            if d.name in name or (len(d.short) >= 2 and d.short in name):
                return d.lon, d.lat
        return None

    def district_of(self, lon: float, lat: float) -> str | None:
        """The name of the nearest district centre, or None without districts."""
        if not self.districts:
            return None
        return min(self.districts, key=lambda d: ((d.lon - lon) ** 2 + (d.lat - lat) ** 2, d.name)).name


def _rank(row: Row) -> tuple[int, float, int, str]:
    rating = float(row["rating"]) if row["rating"] else 0.0
    return (SOURCE_RANK.get(row["source"], 9), -rating, len(row["name"]), row["name"])


def _area_prefixes(area: str) -> tuple[str, ...]:
    if not area:
        return ()
    short = area[:-1] if len(area) > 2 and area.endswith(("区", "县", "市", "旗")) else area
    return (area, short)


def _short_district(name: str) -> str:
    for suffix in ("新区", "区", "县", "市", "旗"):
        if name.endswith(suffix) and len(name) - len(suffix) >= 2:
            return name[: -len(suffix)]
    return name


@cache
def _all() -> dict[str, RealCity]:
    cities = curated_cities()
    out: dict[str, RealCity] = {}

    def get(name: str) -> RealCity:
        if name not in out:
            info = cities[name]
            out[name] = RealCity(name, (name, info.short))
        return out[name]

    for row in _rows("real_attractions.csv"):
        get(row["city"]).attractions.append(row)
    for row in _rows("real_hotels.csv"):
        get(row["city"]).hotels.append(row)
    for row in _rows("real_restaurants.csv"):
        get(row["city"]).restaurants.append(row)
    for row in _rows("districts.csv"):
        name = row["name"]
        get(row["city"]).districts.append(
            District(name, _short_district(name), float(row["lon"]), float(row["lat"]))
        )
    for row in _rows("place_aliases.csv"):
        get(row["city"]).aliases[row["name"]] = row["real_name"]
    for rc in out.values():
        rc.index()
    return out


def real_city(name: str) -> RealCity:
    """The real records of a curated city (empty for a city without any)."""
    return _all().get(name) or RealCity(name, (name,))
