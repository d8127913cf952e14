"""The curated real timetable data (`sandbox/data/trains.csv`, `flights.csv`, `flight_routes.csv`,
`stations.csv`; made by `sandbox.curation.timetable_data`), loaded once and indexed.

A train is a run: its stops (station, city, arrival, departure) in minutes from the run's first
midnight. It runs every day, so a city pair's trains are the same every date.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache

from sandbox.world.geography import DATA_DIR

CHINATRAVEL_AIRPORTS = {
    "北京首都国际机场": "PEK", "北京大兴国际机场": "PKX", "上海虹桥国际机场": "SHA",
    "上海浦东国际机场": "PVG", "广州白云国际机场": "CAN", "深圳宝安国际机场": "SZX",
    "成都双流国际机场": "CTU", "成都天府国际机场": "TFU", "重庆江北国际机场": "CKG",
    "杭州萧山国际机场": "HGH", "武汉天河国际机场": "WUH", "南京禄口国际机场": "NKG",
}  # fmt: skip
"""The airports ChinaTravel's flights name, by their IATA codes (the curation reads its flights
with them; hubs keep their real names)."""
CLOSED_AIRPORTS = frozenset({"NAY"})
"""Beijing Nanyuan closed on 2019-09-25 (replaced by Daxing)."""


@dataclass(frozen=True, slots=True)
class Stop:
    """One stop of a run; `arrive` / `depart` None at the run's ends."""

    station: str
    city: str
    arrive: int | None
    depart: int | None


@dataclass(frozen=True, slots=True)
class Run:
    """A real train: number, mode (高铁 / 火车), source, stops, fare (fen) where the source gives it."""

    code: str
    mode: str
    source: str
    stops: tuple[Stop, ...]
    fare_fen: int | None


@dataclass(frozen=True, slots=True)
class Flight:
    """A real flight between two airports (IATA), minutes of the departure date."""

    code: str
    origin: str
    destination: str
    depart: int
    arrive: int
    fare_fen: int


@dataclass(frozen=True, slots=True)
class Station:
    """A station of the timetable; `lon` / `lat` None where no real position is known."""

    name: str
    city: str
    lon: float | None
    lat: float | None


def _rows(name: str) -> list[dict[str, str]]:
    with (DATA_DIR / name).open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _minute(text: str) -> int | None:
    return int(text) if text else None


@cache
def runs() -> tuple[Run, ...]:
    """Every curated train run, in file order (ChinaTravel first)."""
    out = []
    for r in _rows("trains.csv"):
        stops = tuple(
            Stop(station, city, _minute(arrive), _minute(depart))
            for station, city, arrive, depart in (s.split("|") for s in r["stops"].split(";"))
        )
        fare = round(float(r["fare_cny"]) * 100) if r["fare_cny"] else None
        out.append(Run(r["code"], r["mode"], r["source"], stops, fare))
    return tuple(out)


@cache
def runs_by_city() -> dict[str, tuple[tuple[int, int], ...]]:
    """City → (run index, stop index) of every stop there."""
    table: dict[str, list[tuple[int, int]]] = {}
    for i, run in enumerate(runs()):
        for j, stop in enumerate(run.stops):
            table.setdefault(stop.city, []).append((i, j))
    return {city: tuple(v) for city, v in table.items()}


@cache
def flights_by_pair() -> dict[tuple[str, str], tuple[Flight, ...]]:
    """(origin IATA, destination IATA) → real flights."""
    table: dict[tuple[str, str], list[Flight]] = {}
    for r in _rows("flights.csv"):
        fare = round(float(r["fare_cny"]) * 100)
        f = Flight(r["code"], r["from"], r["to"], int(r["depart"]), int(r["arrive"]), fare)
        table.setdefault((f.origin, f.destination), []).append(f)
    return {k: tuple(v) for k, v in table.items()}


@cache
def route_airlines() -> dict[tuple[str, str], tuple[str, ...]]:
    """(origin IATA, destination IATA) → airline codes flying the route."""
    return {(r["from"], r["to"]): tuple(r["airlines"].split()) for r in _rows("flight_routes.csv")}


@cache
def stations_by_city() -> dict[str, tuple[Station, ...]]:
    """City → its stations, most served first (then by name)."""
    served: dict[str, int] = {}
    for run in runs():
        for stop in run.stops:
            served[stop.station] = served.get(stop.station, 0) + 1
    table: dict[str, list[Station]] = {}
    for r in _rows("stations.csv"):
        lon, lat = (float(r["lon"]), float(r["lat"])) if r["lon"] else (None, None)
        table.setdefault(r["city"], []).append(Station(r["name"], r["city"], lon, lat))
    return {
        city: tuple(sorted(v, key=lambda s: (-served.get(s.name, 0), s.name))) for city, v in table.items()
    }
