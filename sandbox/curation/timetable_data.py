"""Curate the real timetable data in `sandbox/data/` from `../shared/realdata/` (run once, offline).

    python -m sandbox.curation.timetable_data <realdata dir>

writes, deterministically (sorted rows; re-running reproduces the files byte for byte):
- `trains.csv` — code, mode (高铁 for G/C/D, else 火车), source, stops as
  `station|city|arrive|depart;…` in minutes from the run's first midnight (empty at the ends):
  ChinaTravel's 10-city trains (one row per train and city pair, real stations and fares in
  `fare_cny`; segments that contradict each other dropped by `train_segments.consistent`, the
  count printed) and RailwayVIS runs (stops by city; terminal stations real, intermediate ones by
  the rule in `_station`);
- `flights.csv` — ChinaTravel's real flights between the 10 cities' airports (IATA codes);
- `flight_routes.csv` — OpenFlights domestic routes (2014) between airports of `airports.csv`,
  airlines per route, plus routes of airports opened since (`NEW_AIRPORTS`), none from closed ones;
- `stations.csv` — every station the trains use, with WGS-84 coordinates where ChinaTravel's
  POI file knows them (GCJ-02, converted by `sandbox.curation.coords`; a position far from the
  city dropped, one shared by two stations given to its own by `station_positions.unshare`),
  else empty.
"""

from __future__ import annotations

import csv
import json
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from sandbox.curation.coords import to_wgs84
from sandbox.curation.station_positions import unshare
from sandbox.curation.train_segments import ARRIVE, DEPART, RailTimes, Segment, consistent
from sandbox.world.geography import DATA_DIR, curated_airports, curated_cities, haversine_km
from sandbox.world.realtimes import CHINATRAVEL_AIRPORTS, CLOSED_AIRPORTS

NEW_AIRPORTS: dict[str, tuple[tuple[str, ...], frozenset[str] | None]] = {
    "PKX": (("NAY",), None),
    "TFU": (("CTU",), frozenset({"CA", "3U"})),
}
"""Airports opened after the 2014 route data: (airports whose routes they took over, airlines that
moved — None = all). Daxing (2019) took every Nanyuan route; Tianfu (2021) Air China's and Sichuan
Airlines' Shuangliu routes. PEK keeps its own; see `PKX_FROM_PEK` for the carriers that moved."""
PKX_FROM_PEK = frozenset({"CZ", "MU", "MF", "FM", "KN"})
"""China Southern and China Eastern (with Xiamen, Shanghai and China United) moved to Daxing."""
HSR_PREFIXES = ("G", "C", "D")
CHINATRAVEL_CITIES = {
    "beijing": "北京", "shanghai": "上海", "nanjing": "南京", "suzhou": "苏州", "hangzhou": "杭州",
    "shenzhen": "深圳", "chengdu": "成都", "wuhan": "武汉", "guangzhou": "广州", "chongqing": "重庆",
}  # fmt: skip


def _minutes(text: str) -> int:
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


def _shorts() -> dict[str, str]:
    """Short city name → curated full name (unique shorts only)."""
    count = Counter(info.short for info in curated_cities().values())
    return {i.short: n for n, i in curated_cities().items() if count[i.short] == 1}


def _mode(code: str) -> str:
    return "高铁" if code.startswith(HSR_PREFIXES) else "火车"


def _station_name(name: str) -> str:
    return name if name.endswith("站") else f"{name}站"


def chinatravel_segments(root: Path) -> list[Segment]:
    """Every ChinaTravel train record, file by file (cities as the file names give them)."""
    out = []
    for path in sorted((root / "chinatravel/intercity_transport/train").glob("from_*_to_*.json")):
        a, b = path.stem.removeprefix("from_").split("_to_")
        for t in json.loads(path.read_text(encoding="utf-8")):
            depart, arrive = _minutes(t["BeginTime"]), _minutes(t["EndTime"])
            minutes = round(float(t["Duration"]) * 60)
            fare = f"{float(t['Cost']):g}"
            out.append(Segment(t["TrainID"], t["From"], t["To"], a, b, depart, arrive, minutes, fare))
    return out


def railwayvis_times(root: Path) -> RailTimes:
    """Per RailwayVIS train number, the clock minute it arrives at / leaves each city (first visit)."""
    runs = json.loads((root / "railway/schedulers.json").read_text(encoding="utf-8"))
    out: dict[str, dict[tuple[str, str], int]] = {}
    for code, run in runs.items():
        times = out.setdefault(code, {})
        for stop in run["route"]:
            for kind, key in ((ARRIVE, "arrival"), (DEPART, "departure")):
                if stop[key] != "-":
                    times.setdefault((stop["city"], kind), _minutes(stop[key]) % 1440)
    return out


def chinatravel_trains(segments: Iterable[Segment]) -> list[list[str]]:
    """One row per ChinaTravel segment: two stops with real stations and the fare."""
    shorts = _shorts()
    rows = []
    for s in segments:
        days = round((s.depart + s.minutes - s.arrive) / 1440)
        stops = [
            (s.origin, shorts[s.origin_city], "", str(s.depart)),
            (s.destination, shorts[s.destination_city], str(s.arrive + 1440 * days), ""),
        ]
        rows.append([s.code, _mode(s.code), "ChinaTravel", ";".join("|".join(x) for x in stops), s.fare])
    return rows


def _terminals(runs: dict[str, dict[str, object]], to_city: dict[str, str]) -> dict[tuple[str, bool], str]:
    """The most used terminal station per (city, HSR?) in the runs."""
    used: Counter[tuple[str, bool, str]] = Counter()
    for code, run in runs.items():
        for key in ("start", "end"):
            station = str(run[key])
            city = to_city.get(station)
            if city:
                used[(city, code.startswith(HSR_PREFIXES), station)] += 1
    best: dict[tuple[str, bool], str] = {}
    for (city, hsr, station), _n in sorted(used.items(), key=lambda kv: (-kv[1], kv[0])):
        best.setdefault((city, hsr), station)
    return best


def railwayvis_trains(root: Path) -> list[list[str]]:
    """Every RailwayVIS run with at least two stops in curated cities."""
    shorts = _shorts()
    runs = json.loads((root / "railway/schedulers.json").read_text(encoding="utf-8"))
    raw = json.loads((root / "railway/station2city.json").read_text(encoding="utf-8"))
    to_city: dict[str, str] = json.loads(raw) if isinstance(raw, str) else raw
    listed = _listed_stations(root)
    terminals = _terminals(runs, to_city)
    rows = []
    for code in sorted(runs):
        run = runs[code]
        route = run["route"]
        stops = []
        for i, stop in enumerate(route):
            city = shorts.get(stop["city"])
            if city is None:
                continue
            hsr = code.startswith(HSR_PREFIXES)
            end = run["start"] if i == 0 else run["end"] if i == len(route) - 1 else None
            if end is not None and to_city.get(end) != stop["city"]:
                end = None
            station = end or _station(stop["city"], hsr, terminals, listed)
            arrive = "" if stop["arrival"] == "-" else str(_minutes(stop["arrival"]))
            depart = "" if stop["departure"] == "-" else str(_minutes(stop["departure"]))
            stops.append((_station_name(station), city, arrive, depart))
        if len({s[1] for s in stops}) >= 2:
            rows.append([code, _mode(code), "RailwayVIS", ";".join("|".join(s) for s in stops), ""])
    return rows


def _station(
    city: str, hsr: bool, terminals: dict[tuple[str, bool], str], listed: dict[str, list[str]]
) -> str:
    """An intermediate stop's station (the data names only the city): the city's most used
    terminal of the same class (HSR or conventional), else of the other class, else the 12306
    station named after the city, else the city's first 12306 station, else the city's name."""
    for key in ((city, hsr), (city, not hsr)):
        if key in terminals:
            return terminals[key]
    names = listed.get(city, [])
    return city if city in names or not names else names[0]


def _listed_stations(root: Path) -> dict[str, list[str]]:
    """12306 station names by their city, in the list's order."""
    text = (root / "stations/data.ts").read_text(encoding="utf-8")
    body = text[text.index('"') + 1 : text.rindex('"')]
    out: dict[str, list[str]] = {}
    for record in body.split("@"):
        fields = record.split("|")
        if len(fields) >= 8:
            out.setdefault(fields[7], []).append(fields[1])
    return out


def flights(root: Path) -> list[list[str]]:
    """ChinaTravel's flights: code, from, to (IATA), depart, arrive (minutes), fare (CNY)."""
    rows = []
    path = root / "chinatravel/intercity_transport/airplane.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        f = json.loads(line)
        depart, end = _minutes(f["BeginTime"]), _minutes(f["EndTime"])
        arrive = end + (1440 if end < depart else 0)
        a, b = CHINATRAVEL_AIRPORTS[f["From"]], CHINATRAVEL_AIRPORTS[f["To"]]
        rows.append([f["FlightID"], a, b, str(depart), str(arrive), f"{float(f['Cost']):g}"])
    return sorted(set(map(tuple, rows)))  # type: ignore[arg-type]


def flight_routes(root: Path) -> list[list[str]]:
    """Directed airport pairs with their airlines: OpenFlights, then the new airports' takeovers."""
    known = {a.iata for a in curated_airports()} - CLOSED_AIRPORTS
    airlines: dict[tuple[str, str], set[str]] = {}
    with (root / "openflights/routes_china_domestic.dat").open(encoding="utf-8") as fh:
        for row in csv.reader(fh):
            airline, a, b, stops = row[0], row[2], row[4], row[7]
            if stops == "0" and len(airline) == 2:
                airlines.setdefault((a, b), set()).add(airline)
    out = {(a, b): (sorted(s), "OpenFlights") for (a, b), s in airlines.items() if a in known and b in known}
    for new, (olds, movers) in NEW_AIRPORTS.items():
        for (a, b), carriers in sorted(airlines.items()):
            for old in olds + (("PEK",) if new == "PKX" else ()):
                moved = PKX_FROM_PEK if old == "PEK" else movers
                take = sorted(c for c in carriers if moved is None or c in moved)
                ends = (new, b) if a == old else (a, new) if b == old else None
                if take and ends and ends[0] != ends[1] and set(ends) <= known | {new}:
                    merged = sorted(set(out.get(ends, ([], ""))[0]) | set(take))
                    out[ends] = (merged, f"OpenFlights via {old}")
    return [[a, b, " ".join(s), src] for (a, b), (s, src) in sorted(out.items())]


STATION_RADIUS_KM = 80.0
"""A station position farther than this from its city's centre is a source error (ChinaTravel
puts 深圳福田站 in Wuhan): the station is then placed by rule like one without a position."""


def stations(root: Path, trains: Iterable[list[str]]) -> list[list[str]]:
    """Every station of the trains with its city and, where ChinaTravel knows it (within
    `STATION_RADIUS_KM` of the city's centre, and its own: `station_positions.unshare`), its
    WGS-84 position."""
    seen = {(s.split("|")[0], s.split("|")[1]) for row in trains for s in row[3].split(";")}
    centres = {name: (info.city.lon, info.city.lat) for name, info in curated_cities().items()}
    where: dict[tuple[str, str], tuple[float, float] | None] = {}
    for city, pois in _chinatravel_pois(root).items():
        known: dict[str, tuple[float, float]] = {}
        for name, pos in pois:
            if (name, city) in seen and haversine_km(*pos, *centres[city]) <= STATION_RADIUS_KM:
                known.setdefault(name, pos)
        for station, placed in unshare(known, pois, centres[city], STATION_RADIUS_KM).items():
            where[(city, station)] = placed
    out = []
    for name, city in sorted(seen):
        point = where.get((city, name))
        out.append([name, city, f"{point[0]:.6f}" if point else "", f"{point[1]:.6f}" if point else ""])
    return out


def _chinatravel_pois(root: Path) -> dict[str, list[tuple[str, tuple[float, float]]]]:
    """Every POI of ChinaTravel's per-city POI files: (name, WGS-84 position) by curated city."""
    shorts = _shorts()
    out: dict[str, list[tuple[str, tuple[float, float]]]] = {}
    for folder, short in CHINATRAVEL_CITIES.items():
        for p in json.loads((root / f"chinatravel/poi/{folder}/poi.json").read_text(encoding="utf-8")):
            lat, lon = p["position"]
            where = to_wgs84(float(lon), float(lat), "gcj02")
            out.setdefault(shorts[short], []).append((str(p["name"]), where))
    return out


def _write(name: str, header: list[str], rows: Iterable[Iterable[str]]) -> None:
    with (DATA_DIR / name).open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def main(argv: list[str]) -> None:
    """Write the four timetable files from the realdata directory."""
    root = Path(argv[0])
    segments, report = consistent(chinatravel_segments(root), railwayvis_times(root))
    trains = chinatravel_trains(segments) + railwayvis_trains(root)
    print(report.summary())
    _write("trains.csv", ["code", "mode", "source", "stops", "fare_cny"], trains)
    _write("flights.csv", ["code", "from", "to", "depart", "arrive", "fare_cny"], flights(root))
    _write("flight_routes.csv", ["from", "to", "airlines", "source"], flight_routes(root))
    _write("stations.csv", ["name", "city", "lon", "lat"], stations(root, trains))


if __name__ == "__main__":
    main(sys.argv[1:])
