"""A city's hubs: its railway stations, the real airports within 100 km, and the centre itself
(where self-drive legs start and end).

Stations are those the curated timetable stops at (`stations.csv`), most served first, at their
real position where ChinaTravel knows it, else 2–6 km from the centre (seeded by the station's
name); a city whose airports within 100 km have no routes also gets the nearest
one with routes within 200 km; a city no real train serves gets one station named after it,
placed the same way (its trains are the synthetic gap fill). Closed airports (Nanyuan, NAY)
serve nobody; the twelve airports ChinaTravel names carry their real names.
"""

from __future__ import annotations

import math

from sandbox.world.geography import CityInfo, airports_near
from sandbox.world.model import Hub
from sandbox.world.realtimes import CHINATRAVEL_AIRPORTS, CLOSED_AIRPORTS, route_airlines, stations_by_city
from sandbox.world.seeding import rng

KM_PER_DEG_LAT = 110.57
FAR_AIRPORT_KM = 200.0
"""A city whose airports within 100 km have no routes also uses the nearest flown one within this."""
REAL_AIRPORT_NAMES = {iata: name for name, iata in CHINATRAVEL_AIRPORTS.items()}


def offset(lon: float, lat: float, km: float, bearing: float) -> tuple[float, float]:
    """The point `km` away on a bearing (radians), rounded to 6 decimals."""
    dlat = km * math.cos(bearing) / KM_PER_DEG_LAT
    dlon = km * math.sin(bearing) / (111.32 * math.cos(math.radians(lat)))
    return round(lon + dlon, 6), round(lat + dlat, 6)


def _station(info: CityInfo, name: str, seed: int, lon: float | None, lat: float | None) -> Hub:
    c = info.city
    if lon is None or lat is None:
        r = rng(seed, "station", c.name, name)
        lon, lat = offset(c.lon, c.lat, r.uniform(2.0, 6.0), r.uniform(0, 2 * math.pi))
    return Hub(name, c.name, "station", lon, lat)


def city_hubs(info: CityInfo, seed: int) -> tuple[Hub, ...]:
    """Stations (most served first), airports (nearest first) and centre of a city."""
    c = info.city
    real = stations_by_city().get(c.name, ())
    hubs = [_station(info, s.name, seed, s.lon, s.lat) for s in real]
    if not hubs:
        hubs.append(_station(info, f"{info.short}站", seed, None, None))
    airports = [a for a in airports_near(c) if a.iata not in CLOSED_AIRPORTS]
    flown = {iata for pair in route_airlines() for iata in pair}
    if not any(a.iata in flown for a in airports):
        airports += [a for a in airports_near(c, FAR_AIRPORT_KM) if a.iata in flown and a not in airports][:1]
    hubs += [
        Hub(REAL_AIRPORT_NAMES.get(a.iata, a.name), c.name, "airport", a.lon, a.lat, a.iata) for a in airports
    ]
    hubs.append(Hub(c.name, c.name, "centre", c.lon, c.lat))
    return tuple(hubs)
