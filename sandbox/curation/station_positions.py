"""Station positions from ChinaTravel's POI file, with its shared-position errors undone.

ChinaTravel's `poi/<city>/poi.json` lists stations among its POIs, and sometimes gives two
stations of a city one position (广州站 and 广州南站 both at 广州南站's). The rule: a position
shared by several stations of a city belongs to the station whose *named POIs* — the other
POIs of the file named after it (hotels "广州南站丽芮酒店", "维也纳酒店(广州南站高铁站店)") —
surround it: their median lies within `OWNER_KM` of it, the nearest such median wins. Every
other station of the group moves to the median of its own named POIs when it has at least
`MIN_NAMED` of them within `radius_km` of the city centre, else loses the position (and is
placed by the rule for stations without one). A POI is named after a station when its name
contains the station's name, or for "X站" the colloquial "X火车站" (广州站 → "广州火车站希尔顿欢朋酒店").
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence

from sandbox.world.geography import haversine_km

Point = tuple[float, float]
OWNER_KM = 3.0
"""A shared position belongs to a station whose named POIs' median lies this close to it."""
MIN_NAMED = 3
"""Named POIs needed to place a station at their median."""


def named_after(station: str, poi: str) -> bool:
    """Whether a POI's name names the station (its name, or "X火车站" for "X站"), the station itself aside."""
    if poi == station:
        return False
    return station in poi or station.removesuffix("站") + "火车站" in poi


def named_median(
    station: str, pois: Sequence[tuple[str, Point]], centre: Point, radius_km: float
) -> Point | None:
    """The median position of the station's named POIs within the radius (None: too few)."""
    near = [p for name, p in pois if named_after(station, name) and haversine_km(*p, *centre) <= radius_km]
    if len(near) < MIN_NAMED:
        return None
    return statistics.median(p[0] for p in near), statistics.median(p[1] for p in near)


def unshare(
    positions: Mapping[str, Point], pois: Sequence[tuple[str, Point]], centre: Point, radius_km: float
) -> dict[str, Point | None]:
    """Each station's position after the rule (unchanged for a station whose position is its own)."""
    groups: dict[Point, list[str]] = {}
    for station, point in positions.items():
        groups.setdefault(point, []).append(station)
    out: dict[str, Point | None] = dict(positions)
    for point, stations in groups.items():
        if len(stations) < 2:
            continue
        medians = {s: named_median(s, pois, centre, radius_km) for s in sorted(stations)}
        near = sorted((haversine_km(*m, *point), s) for s, m in medians.items() if m is not None)
        owner = near[0][1] if near and near[0][0] <= OWNER_KM else None
        for station in stations:
            out[station] = point if station == owner else medians[station]
    return out
