"""Chinese map datums to WGS-84, in one place.

Chinese map services publish GCJ-02 ("Mars" coordinates: WGS-84 shifted by a published,
deterministic obfuscation on the Krasovsky 1940 ellipsoid) or BD-09 (Baidu: GCJ-02 rotated
and offset once more). The world stores WGS-84 only; every real record passes through
`to_wgs84` once, when `sandbox/data/` is curated.

GCJ-02 → WGS-84 inverts the forward shift by fixed-point iteration (error < 1e-7° after a
few rounds, well under a metre). Outside mainland China's bounding box GCJ-02 equals WGS-84.
"""

from __future__ import annotations

import math

_A = 6378245.0  # Krasovsky 1940 semi-major axis (m)
_EE = 0.00669342162296594323  # its first eccentricity squared
_BD_K = math.pi * 3000.0 / 180.0
DATUMS = ("wgs84", "gcj02", "bd09")


def in_china(lon: float, lat: float) -> bool:
    """Inside the rectangle where GCJ-02 applies (outside it equals WGS-84)."""
    return 72.004 <= lon <= 137.8347 and 0.8293 <= lat <= 55.8271


def _shift_lat(x: float, y: float) -> float:
    s = -100.0 + 2.0 * x + 3.0 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * math.sqrt(abs(x))
    s += (20.0 * math.sin(6.0 * x * math.pi) + 20.0 * math.sin(2.0 * x * math.pi)) * 2.0 / 3.0
    s += (20.0 * math.sin(y * math.pi) + 40.0 * math.sin(y / 3.0 * math.pi)) * 2.0 / 3.0
    s += (160.0 * math.sin(y / 12.0 * math.pi) + 320.0 * math.sin(y * math.pi / 30.0)) * 2.0 / 3.0
    return s


def _shift_lon(x: float, y: float) -> float:
    s = 300.0 + x + 2.0 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * math.sqrt(abs(x))
    s += (20.0 * math.sin(6.0 * x * math.pi) + 20.0 * math.sin(2.0 * x * math.pi)) * 2.0 / 3.0
    s += (20.0 * math.sin(x * math.pi) + 40.0 * math.sin(x / 3.0 * math.pi)) * 2.0 / 3.0
    s += (150.0 * math.sin(x / 12.0 * math.pi) + 300.0 * math.sin(x / 30.0 * math.pi)) * 2.0 / 3.0
    return s


def wgs84_to_gcj02(lon: float, lat: float) -> tuple[float, float]:
    """The forward GCJ-02 shift of a WGS-84 point."""
    if not in_china(lon, lat):
        return lon, lat
    x, y = lon - 105.0, lat - 35.0
    rad = math.radians(lat)
    magic = 1.0 - _EE * math.sin(rad) ** 2
    root = math.sqrt(magic)
    dlat = _shift_lat(x, y) * 180.0 / ((_A * (1.0 - _EE)) / (magic * root) * math.pi)
    dlon = _shift_lon(x, y) * 180.0 / (_A / root * math.cos(rad) * math.pi)
    return lon + dlon, lat + dlat


def gcj02_to_wgs84(lon: float, lat: float) -> tuple[float, float]:
    """The WGS-84 point whose GCJ-02 shift is (lon, lat), by fixed-point iteration."""
    wlon, wlat = lon, lat
    for _ in range(8):
        glon, glat = wgs84_to_gcj02(wlon, wlat)
        wlon, wlat = wlon + lon - glon, wlat + lat - glat
    return wlon, wlat


def bd09_to_gcj02(lon: float, lat: float) -> tuple[float, float]:
    """Undo Baidu's rotation and offset."""
    x, y = lon - 0.0065, lat - 0.006
    r = math.hypot(x, y) - 0.00002 * math.sin(y * _BD_K)
    theta = math.atan2(y, x) - 0.000003 * math.cos(x * _BD_K)
    return r * math.cos(theta), r * math.sin(theta)


def to_wgs84(lon: float, lat: float, datum: str) -> tuple[float, float]:
    """A point of `datum` ("wgs84", "gcj02" or "bd09") in WGS-84."""
    if datum == "wgs84":
        return lon, lat
    if datum == "gcj02":
        return gcj02_to_wgs84(lon, lat)
    if datum == "bd09":
        return gcj02_to_wgs84(*bd09_to_gcj02(lon, lat))
    raise ValueError(f"unknown datum {datum!r}; expected one of {DATUMS}")
