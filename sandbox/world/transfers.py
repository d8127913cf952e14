"""Intracity travel between two points by mode, from coordinates (no randomness).

Street distance = 1.3 × great-circle. Door-to-door minutes and per-person cost (docs/world.md):
walking 4.5 km/h, free; cycling (shared bike) 13 km/h + 3 min, 1.5 CNY per started 30 min;
public transport 10 min access/wait + 22 km/h, 2 CNY up to 6 km then +1 CNY per 8 km (max
10); taxi 5 min wait + 30 km/h, 13 CNY for 3 km then 2.5 CNY/km, per car shared by 3 (per
person, rounded up to 1 CNY); self-drive 8 min parking + 30 km/h, 0.8 CNY/km per car shared
by 3 + 5 CNY parking per person. Same place → 0 minutes, 0 cost.
"""

from __future__ import annotations

import math

from sandbox.world.geography import haversine_km
from sandbox.world.model import Transfer

STREET_FACTOR = 1.3
CAR_SHARE = 3


def _taxi_fen(km: float) -> int:
    car = 13.0 + max(0.0, km - 3.0) * 2.5
    return math.ceil(car / CAR_SHARE) * 100


def _transit_fen(km: float) -> int:
    return 100 * min(10, 2 + math.ceil(max(0.0, km - 6.0) / 8.0))


def street_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Street distance in km between two (lon, lat) points."""
    return haversine_km(a[0], a[1], b[0], b[1]) * STREET_FACTOR


def transfer(a: tuple[float, float], b: tuple[float, float], mode: str) -> Transfer | None:
    """Door-to-door transfer by an intracity mode; None for an unknown mode."""
    if a == b:
        return Transfer(0, 0)
    km = street_km(a, b)
    if mode == "步行":
        return Transfer(max(1, math.ceil(km / 4.5 * 60)), 0)
    if mode == "骑车":
        minutes = math.ceil(3 + km / 13 * 60)
        return Transfer(minutes, 150 * math.ceil(minutes / 30))
    if mode == "公共交通":
        return Transfer(math.ceil(10 + km / 22 * 60), _transit_fen(km))
    if mode == "打车":
        return Transfer(math.ceil(5 + km / 30 * 60), _taxi_fen(km))
    if mode == "自驾":
        return Transfer(math.ceil(8 + km / 30 * 60), math.ceil(km * 0.8 / CAR_SHARE) * 100 + 500)
    return None
