"""Real geography from the curated CSVs in `sandbox/data/` (see docs/world.md for sources).

Cities sit at their real centres (cpca adcodes.csv); airports at their real coordinates
(airportsdata). A city is served by every airport within `AIRPORT_RADIUS_KM` of its centre.
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from sandbox.world.model import City

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
AIRPORT_RADIUS_KM = 100.0
EARTH_RADIUS_KM = 6371.0088
_ETHNIC = (
    "土家|苗|侗|傣|藏|羌|彝|白|哈尼|壮|回|蒙古|朝鲜|哈萨克|柯尔克孜|布依|景颇|傈僳|黎|纳西|瑶|仫佬|毛南|仡佬"
)
_AUTONOMOUS = re.compile(rf"(?:(?:{_ETHNIC})族?)+自治[州县]$")
_SUFFIX = re.compile(r"(?:市|县|地区|林区|盟|区)$")


def short_name(name: str) -> str:
    """The name without its administrative suffix ("海口市" → "海口", "恩施土家族苗族自治州" → "恩施")."""
    stripped = _AUTONOMOUS.sub("", name)
    if stripped == name:
        stripped = _SUFFIX.sub("", name)
    return stripped if len(stripped) >= 2 else name


@dataclass(frozen=True, slots=True)
class CityInfo:
    """A curated city: the `City` record plus build-time facts."""

    city: City
    short: str
    price_level: float


@dataclass(frozen=True, slots=True)
class Airport:
    """A curated airport."""

    iata: str
    name: str
    lon: float
    lat: float


def haversine_km(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Great-circle distance in km."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(a))


def _rows(name: str) -> list[dict[str, str]]:
    with (DATA_DIR / name).open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


@cache
def curated_cities() -> dict[str, CityInfo]:
    """Every curated city by its full name."""
    out = {}
    for r in _rows("cities.csv"):
        city = City(r["name"], r["province"], r["adcode"], float(r["lon"]), float(r["lat"]), r["hsr"] == "1")
        out[city.name] = CityInfo(city, r["short"], float(r["price_level"]))
    return out


@cache
def curated_airports() -> tuple[Airport, ...]:
    """Every curated airport, by IATA code."""
    return tuple(
        Airport(r["iata"], r["name"], float(r["lon"]), float(r["lat"])) for r in _rows("airports.csv")
    )


def airports_near(city: City, radius_km: float = AIRPORT_RADIUS_KM) -> tuple[Airport, ...]:
    """Airports within `radius_km` of a city's centre, nearest first."""
    dist = [(haversine_km(city.lon, city.lat, a.lon, a.lat), a.iata, a) for a in curated_airports()]
    return tuple(a for d, _, a in sorted(dist) if d <= radius_km)


def short_index(names: list[str], shorts: dict[str, str]) -> dict[str, str]:
    """Short → full name; on a clash the name ending in 市 wins, else the clash is dropped."""
    by_short: dict[str, list[str]] = {}
    for n in sorted(names):
        by_short.setdefault(shorts[n], []).append(n)
    out = {}
    for short, full in by_short.items():
        cities = [n for n in full if n.endswith("市")] if len(full) > 1 else full
        if len(cities) == 1:
            out[short] = cities[0]
    return out
