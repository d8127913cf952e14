"""Intercity timetables, generated on demand from geography and the world seed.

A pure function of (seed, the two cities' hubs, date), so any date can be asked and a saved
world needs no timetable files. Magnitudes (docs/world.md): HSR G trains 0.46 CNY/km at an
effective 230 km/h, D trains 0.31 CNY/km at 170 km/h; conventional trains 80 km/h, hard seat
0.15 CNY/km up to 500 rail-km, hard sleeper 0.26 CNY/km beyond; flights only between cities
that each have an airport within 100 km and are ≥ 350 km apart, full fare 1.1 CNY/km + 50,
sold at 35–100 % plus 50 CNY fees; self-drive up to 1200 road-km, 85 km/h plus rests, fuel and
tolls 1.05 CNY/km per car shared by 3. Rail-km = 1.25 × great-circle, road-km = 1.3 ×.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from sandbox.world.geography import haversine_km
from sandbox.world.model import City, Hub, IntercityOption
from sandbox.world.seeding import rng

RAIL_FACTOR = 1.25
ROAD_FACTOR = 1.3
MAX_DRIVE_KM = 1200.0
MIN_FLIGHT_KM = 350.0
MAX_HSR_MINUTES = 13 * 60
MAX_LEG_MINUTES = 24 * 60 - 5
"""A plan writes a leg as HH:MM → HH:MM and can cross midnight once, so no service runs a day or longer."""
AIRLINES = ("CA", "MU", "CZ", "HU", "3U", "ZH", "MF", "SC", "FM", "HO")


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

    def option(
        self, mode: str, *, depart: int, minutes: int, fare: int, code: str, ends: tuple[Hub, Hub]
    ) -> IntercityOption:
        """An option of this route."""
        return IntercityOption(
            mode, self.a.name, self.b.name, self.date, depart, depart + minutes, fare, code,
            ends[0].name, ends[1].name, mode == "自驾",
        )  # fmt: skip


def _rail(q: Route) -> list[IntercityOption]:
    a, b = q.a, q.b
    ends = (q.hubs("station")[0][0], q.hubs("station")[1][0])
    r = rng(q.seed, "rail", a.name, b.name, q.date.isoformat())
    rail_km = max(haversine_km(a.lon, a.lat, b.lon, b.lat) * RAIL_FACTOR, 20.0)
    out = []
    if a.hsr and b.hsr and rail_km / 230 * 60 + 10 <= MAX_HSR_MINUTES:
        n = 12 if rail_km < 300 else 8 if rail_km < 800 else 5 if rail_km < 1500 else 3
        for dep in _slots(r, n, 390, 1170):
            g = r.random() < 0.75
            minutes = _round5(rail_km / (230 if g else 170) * 60 + 10 + r.uniform(0, 20))
            fare = _fen(rail_km * (0.46 if g else 0.31))
            out.append(
                q.option(
                    "高铁",
                    depart=dep,
                    minutes=minutes,
                    fare=fare,
                    code=f"{'G' if g else 'D'}{r.randint(1, 9999)}",
                    ends=ends,
                )
            )
    for dep in _slots(r, 2 if rail_km < 300 else 3, 360, 1380):
        minutes = _round5(rail_km / 80 * 60 + 10 + r.uniform(0, 40))
        if minutes > MAX_LEG_MINUTES:
            continue
        fare = _fen(rail_km * (0.15 if rail_km <= 500 else 0.26))
        out.append(
            q.option(
                "火车",
                depart=dep,
                minutes=minutes,
                fare=fare,
                code=f"{r.choice('KTZ')}{r.randint(1, 9999)}",
                ends=ends,
            )
        )
    return out


def _flights(q: Route) -> list[IntercityOption]:
    out = []
    ha, hb = q.hubs("airport")
    for pa in ha[:2]:
        for pb in hb[:2]:
            km = haversine_km(pa.lon, pa.lat, pb.lon, pb.lat)
            if pa.iata == pb.iata or km < MIN_FLIGHT_KM:
                continue
            r = rng(q.seed, "air", pa.iata, pb.iata, q.date.isoformat())
            full = km * 1.1 + 50
            for dep in _slots(r, r.randint(2, 6), 420, 1350):
                minutes = _round5(35 + km / 780 * 60 + r.uniform(0, 15))
                fare = _fen(full * r.uniform(0.35, 1.0), 10.0) + 5000
                out.append(
                    q.option(
                        "飞机",
                        depart=dep,
                        minutes=minutes,
                        fare=fare,
                        code=f"{r.choice(AIRLINES)}{r.randint(1000, 9999)}",
                        ends=(pa, pb),
                    )
                )
    return out


def _drive(q: Route) -> list[IntercityOption]:
    road_km = haversine_km(q.a.lon, q.a.lat, q.b.lon, q.b.lat) * ROAD_FACTOR
    if road_km > MAX_DRIVE_KM:
        return []
    minutes = _round5(road_km / 85 * 60 + (road_km // 300) * 20 + 10)
    ca, cb = q.hubs("centre")
    fare = _fen(road_km * 1.05 / 3, 1.0)
    return [q.option("自驾", depart=480, minutes=minutes, fare=fare, code="自驾", ends=(ca[0], cb[0]))]


def options(q: Route) -> list[IntercityOption]:
    """Every departure of a route, sorted by departure."""
    if q.a.name == q.b.name:
        return []
    out = _rail(q) + _flights(q) + _drive(q)
    return sorted(out, key=lambda o: (o.depart, o.mode, o.code, o.from_hub, o.to_hub))
