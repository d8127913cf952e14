"""A city's hubs: its railway station (2–6 km from the centre, seeded), the real airports
within 100 km, and the centre itself (where self-drive legs start and end)."""

from __future__ import annotations

import math

from sandbox.world.geography import CityInfo, airports_near
from sandbox.world.model import Hub
from sandbox.world.seeding import rng

KM_PER_DEG_LAT = 110.57


def offset(lon: float, lat: float, km: float, bearing: float) -> tuple[float, float]:
    """The point `km` away on a bearing (radians), rounded to 6 decimals."""
    dlat = km * math.cos(bearing) / KM_PER_DEG_LAT
    dlon = km * math.sin(bearing) / (111.32 * math.cos(math.radians(lat)))
    return round(lon + dlon, 6), round(lat + dlat, 6)


def city_hubs(info: CityInfo, seed: int) -> tuple[Hub, ...]:
    """Station, airports (nearest first) and centre of a city."""
    c = info.city
    r = rng(seed, "station", c.name)
    slon, slat = offset(c.lon, c.lat, r.uniform(2.0, 6.0), r.uniform(0, 2 * math.pi))
    hubs = [Hub(f"{info.short}站", c.name, "station", slon, slat)]
    hubs += [Hub(a.name, c.name, "airport", a.lon, a.lat, a.iata) for a in airports_near(c)]
    hubs.append(Hub(c.name, c.name, "centre", c.lon, c.lat))
    return tuple(hubs)
