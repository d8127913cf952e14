"""Intercity timetables: real departures first, rule-made ones only where real data has none.

A pure function of (seed, the two cities, their hubs, date) and the curated data, so any date can
be asked and a saved world needs no timetable files. Every departure runs daily (a timetable, not
a lottery: the same numbers at the same times every date) and names its `source`:

- trains: ChinaTravel's trains where it covers the city pair (real numbers, stations, times,
  fares); else every RailwayVIS run stopping in both cities in that order (real numbers and stop
  times; fare by rule: G 0.46, C/D 0.31 CNY per rail-km, conventional 0.15 up to 500 rail-km,
  0.26 beyond); runs of a day or longer are left out (a plan's leg crosses midnight at most once);
- flights: per pair of served airports, ChinaTravel's real flights where it has them; else, on a
  route OpenFlights knows (plus the takeovers of airports opened since, see
  `sandbox.curation.timetable_data`),
  1–3 departures a day per airline flying it (ChinaTravel: median 2; numbers = airline code + 4
  seeded digits, block time 35 min + km / 780 km/h, fare 1.1 CNY/km + 50 sold at 34–68 % + 50
  fees: the 5th–95th percentile of ChinaTravel's 1,700 real fares against that full fare);
- gap fill (`synthetic`), only for a city pair with no real train and no real flight: HSR G/D
  (both cities on the network, ≤ 13 h; G at 230 km/h effective, D at 170) and conventional trains
  (80 km/h, < 24 h), between the cities' first stations;
- connections (`synthetic`), for a pair without a real direct flight that is ≥ 1000 rail-km
  apart or has nothing else at all (e.g. 拉萨 ↔ 贵阳): two connecting flights a day over the hub
  airport with real routes to both ends that makes the shortest trip, written as one flight "CA1234/MU5678"
  with a 100-minute layover, sold like a direct flight over both sectors' distance + 100 fees;
- self-drive (`synthetic`, flexible) up to 1200 road-km: 85 km/h plus rests, fuel 0.60 and tolls
  0.45 CNY/km per car shared by 3 (no tolls on the toll-free holidays, `holidays`);
- on public holidays rule flights sell at 68–100 % of the full fare (`holidays`).

Rail-km = 1.25 × great-circle, road-km = 1.3 ×.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from sandbox.world.geography import curated_airports, haversine_km
from sandbox.world.holidays import holiday, toll_free
from sandbox.world.model import City, Hub, IntercityOption
from sandbox.world.realtimes import Run, flights_by_pair, route_airlines, runs, runs_by_city
from sandbox.world.seeding import rng

RAIL_FACTOR = 1.25
ROAD_FACTOR = 1.3
MAX_DRIVE_KM = 1200.0
MAX_HSR_MINUTES = 13 * 60
MAX_LEG_MINUTES = 24 * 60 - 5
"""A plan writes a leg as HH:MM → HH:MM and can cross midnight once, so no service runs a day or longer."""
DAY = 1440
SALE_LOW, SALE_HIGH = 0.34, 0.68
"""Rule fares sell at this share of the full fare: ChinaTravel's real fares' 5th–95th percentile."""
FUEL_CNY_PER_KM, TOLL_CNY_PER_KM = 0.60, 0.45
"""A car's cost per road-km (1.05 together); tolls are waived on the toll-free holidays."""


def _sale(q: Route, *key: object) -> float:
    """A rule flight's share of the full fare on the route's date: higher on public holidays."""
    r = rng(q.seed, "fare", *key, q.date.isoformat())
    return r.uniform(SALE_HIGH, 1.0) if holiday(q.date) else r.uniform(SALE_LOW, SALE_HIGH)


def _round5(minutes: float) -> int:
    return round(minutes / 5.0) * 5


def _fen(cny: float, step_cny: float = 0.5) -> int:
    return round(cny / step_cny) * round(step_cny * 100)


def _slots(r: random.Random, n: int, first: int, last: int) -> list[int]:
    """`n` departure times spread over [first, last], jittered, 5-minute grid."""
    span = (last - first) / n
    return [_round5(first + i * span + r.uniform(0, span * 0.7)) for i in range(n)]


@dataclass(frozen=True, slots=True)
class Route:
    """One (from city, to city, date) question with both cities' hubs."""

    seed: int
    a: City
    b: City
    hubs_a: tuple[Hub, ...]
    hubs_b: tuple[Hub, ...]
    date: dt.date

    def hubs(self, kind: str) -> tuple[list[Hub], list[Hub]]:
        """Both ends' hubs of one kind."""
        return [h for h in self.hubs_a if h.kind == kind], [h for h in self.hubs_b if h.kind == kind]

    def rail_km(self) -> float:
        """Rail distance between the two city centres."""
        return max(haversine_km(self.a.lon, self.a.lat, self.b.lon, self.b.lat) * RAIL_FACTOR, 20.0)

    def option(
        self,
        mode: str,
        *,
        depart: int,
        minutes: int,
        fare: int,
        code: str,
        ends: tuple[str, str],
        source: str,
    ) -> IntercityOption:
        """An option of this route."""
        return IntercityOption(
            mode, self.a.name, self.b.name, self.date, depart, depart + minutes, fare, code,
            ends[0], ends[1], mode == "自驾", source,
        )  # fmt: skip


def _rule_fare(code: str, rail_km: float) -> int:
    if code.startswith("G"):
        return _fen(rail_km * 0.46)
    if code.startswith(("C", "D")):
        return _fen(rail_km * 0.31)
    return _fen(rail_km * (0.15 if rail_km <= 500 else 0.26))


def _run_option(q: Route, run: Run, i: int, j: int) -> IntercityOption | None:
    """The run from its stop i to its stop j, if that is a plannable leg."""
    start, end = run.stops[i], run.stops[j]
    if start.depart is None or end.arrive is None or not 0 < end.arrive - start.depart <= MAX_LEG_MINUTES:
        return None
    fare = run.fare_fen if run.fare_fen is not None else _rule_fare(run.code, q.rail_km())
    return q.option(
        run.mode, depart=start.depart % DAY, minutes=end.arrive - start.depart, fare=fare, code=run.code,
        ends=(start.station, end.station), source=run.source,
    )  # fmt: skip


def _real_rail(q: Route) -> list[IntercityOption]:
    table = runs()
    at_b = {i: j for i, j in runs_by_city().get(q.b.name, ())}
    found: dict[str, list[IntercityOption]] = {}
    for i, stop_a in runs_by_city().get(q.a.name, ()):
        stop_b = at_b.get(i)
        if stop_b is None or stop_b <= stop_a:
            continue
        option = _run_option(q, table[i], stop_a, stop_b)
        if option is not None:
            found.setdefault(option.source, []).append(option)
    return found.get("ChinaTravel") or found.get("RailwayVIS", [])


def _synthetic_rail(q: Route) -> list[IntercityOption]:
    ends = (q.hubs("station")[0][0].name, q.hubs("station")[1][0].name)
    r = rng(q.seed, "rail", q.a.name, q.b.name)
    rail_km = q.rail_km()
    out = []
    if q.a.hsr and q.b.hsr and rail_km / 230 * 60 + 10 <= MAX_HSR_MINUTES:
        n = 12 if rail_km < 300 else 8 if rail_km < 800 else 5 if rail_km < 1500 else 3
        for dep in _slots(r, n, 390, 1170):
            g = r.random() < 0.75
            minutes = _round5(rail_km / (230 if g else 170) * 60 + 10 + r.uniform(0, 20))
            code = f"{'G' if g else 'D'}{r.randint(1, 9999)}"
            out.append(
                q.option("高铁", depart=dep, minutes=minutes, fare=_rule_fare(code, rail_km), code=code,
                         ends=ends, source="synthetic")
            )  # fmt: skip
    for dep in _slots(r, 2 if rail_km < 300 else 3, 360, 1380):
        minutes = _round5(rail_km / 80 * 60 + 10 + r.uniform(0, 40))
        code = f"{r.choice('KTZ')}{r.randint(1, 9999)}"
        if minutes <= MAX_LEG_MINUTES:
            out.append(
                q.option("火车", depart=dep, minutes=minutes, fare=_rule_fare(code, rail_km), code=code,
                         ends=ends, source="synthetic")
            )  # fmt: skip
    return out


def _flights(q: Route) -> list[IntercityOption]:
    out = []
    ha, hb = q.hubs("airport")
    real, routes = flights_by_pair(), route_airlines()
    for pa in ha:
        for pb in hb:
            pair = (pa.iata or "", pb.iata or "")
            if pair[0] == pair[1]:
                continue
            if pair in real:
                out += [
                    q.option("飞机", depart=f.depart, minutes=f.arrive - f.depart, fare=f.fare_fen,
                             code=f.code, ends=(pa.name, pb.name), source="ChinaTravel")
                    for f in real[pair]
                ]  # fmt: skip
            elif pair in routes:
                out += _route_flights(q, pa, pb, routes[pair])
    return out


def _route_flights(q: Route, pa: Hub, pb: Hub, airlines: tuple[str, ...]) -> list[IntercityOption]:
    """A real route's daily schedule: 1–3 flights per airline, stable numbers and times."""
    km = haversine_km(pa.lon, pa.lat, pb.lon, pb.lat)
    r = rng(q.seed, "air", pa.iata, pb.iata)
    codes = [f"{airline}{r.randint(1000, 9999)}" for airline in airlines for _ in range(r.randint(1, 3))]
    out = []
    for dep, code in zip(_slots(r, len(codes), 420, 1350), codes, strict=True):
        minutes = _round5(35 + km / 780 * 60 + r.uniform(0, 15))
        sale = _sale(q, code, pa.iata, pb.iata)
        fare = _fen((km * 1.1 + 50) * sale, 10.0) + 5000
        out.append(
            q.option("飞机", depart=dep, minutes=minutes, fare=fare, code=code, ends=(pa.name, pb.name),
                     source="OpenFlights")
        )  # fmt: skip
    return out


LAYOVER_MINUTES = 100
CONNECTION_RAIL_KM = 1000.0
"""Beyond this rail distance a pair without a real direct flight gets the connecting flights."""


def _connections(q: Route) -> list[IntercityOption]:
    """Two daily connecting itineraries over the best hub of real routes (see the module docstring)."""
    routes = route_airlines()
    where = {a.iata: a for a in curated_airports()}
    best: tuple[float, str, str, str] | None = None
    ha, hb = q.hubs("airport")
    for pa in ha:
        for pb in hb:
            for (x, via), _ in routes.items():
                if x != pa.iata or (via, pb.iata) not in routes or via not in where:
                    continue
                h = where[via]
                km = haversine_km(pa.lon, pa.lat, h.lon, h.lat) + haversine_km(h.lon, h.lat, pb.lon, pb.lat)
                if best is None or (km, pa.name, pb.name, via) < best:
                    best = (km, pa.name, pb.name, via)
    if best is None:
        return []
    km, a_name, b_name, via = best
    r = rng(q.seed, "connection", a_name, b_name, via)
    pa_iata = next(h.iata for h in ha if h.name == a_name)
    pb_iata = next(h.iata for h in hb if h.name == b_name)
    first, second = routes[(pa_iata or "", via)], routes[(via, pb_iata or "")]
    out = []
    for dep in _slots(r, 2, 420, 840):
        minutes = _round5(2 * 35 + km / 780 * 60 + LAYOVER_MINUTES)
        code = f"{r.choice(first)}{r.randint(1000, 9999)}/{r.choice(second)}{r.randint(1000, 9999)}"
        sale = _sale(q, code)
        fare = _fen((km * 1.1 + 100) * sale, 10.0) + 10000
        if minutes <= MAX_LEG_MINUTES:
            out.append(
                q.option("飞机", depart=dep, minutes=minutes, fare=fare, code=code, ends=(a_name, b_name),
                         source="synthetic")
            )  # fmt: skip
    return out


def _drive(q: Route) -> list[IntercityOption]:
    road_km = haversine_km(q.a.lon, q.a.lat, q.b.lon, q.b.lat) * ROAD_FACTOR
    if road_km > MAX_DRIVE_KM:
        return []
    minutes = _round5(road_km / 85 * 60 + (road_km // 300) * 20 + 10)
    ca, cb = q.hubs("centre")
    per_km = FUEL_CNY_PER_KM + (0.0 if toll_free(q.date) else TOLL_CNY_PER_KM)
    fare = _fen(road_km * per_km / 3, 1.0)
    return [
        q.option("自驾", depart=480, minutes=minutes, fare=fare, code="自驾", ends=(ca[0].name, cb[0].name),
                 source="synthetic")
    ]  # fmt: skip


def options(q: Route) -> list[IntercityOption]:
    """Every departure of a route, sorted by departure; a number listed twice (the real data has
    a few) is kept at its earliest departure."""
    if q.a.name == q.b.name:
        return []
    rail, air = _real_rail(q), _flights(q)
    if not rail and not air:
        rail = _synthetic_rail(q)
    drive = _drive(q)
    if not air and ((not rail and not drive) or q.rail_km() >= CONNECTION_RAIL_KM):
        air = _connections(q)
    ordered = sorted(rail + air + drive, key=lambda o: (o.depart, o.mode, o.code, o.from_hub, o.to_hub))
    unique: dict[str, IntercityOption] = {}
    for o in ordered:
        unique.setdefault(o.code if o.mode != "自驾" else "", o)
    return sorted(unique.values(), key=lambda o: (o.depart, o.mode, o.code, o.from_hub, o.to_hub))
