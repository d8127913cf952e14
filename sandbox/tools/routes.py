"""`plan_route`, `compare_routes` and `search_along_route` from the world's transfers.

Durations and costs are `World.transfer` between the two resolved places (both must lie in
one city); distances are the world's street distance (1.3 × great circle). The corridor of
`search_along_route` is the straight segment from origin to destination in a local metric
projection (shapely), buffered by `route_range` metres; POIs are listed in route order.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely

from sandbox.tools.answer import Payload, refuse
from sandbox.tools.formats import duration_text, location, yuan
from sandbox.tools.places import Place, known_city, resolve_place
from sandbox.tools.poi_answers import keyword_matches, poi_summary
from sandbox.world.transfers import street_km
from sandbox.world.world import World

MODES = {"transit": "公共交通", "driving": "自驾", "walking": "步行", "bicycling": "骑车", "taxi": "打车"}
COMPARED = ("driving", "taxi", "transit", "walking", "bicycling")
METRES_PER_DEGREE = 111_320.0


def _ends(world: World, args: dict[str, Any]) -> tuple[Place, Place] | Payload | None:
    city_arg = args.get("city")
    city = known_city(world, city_arg)
    if city_arg and city_arg.strip() and city is None:
        return None
    origin = resolve_place(world, args["origin"], city)
    destination = None
    if city is None and origin is not None:
        destination = resolve_place(world, args["destination"], origin.city)
    destination = destination or resolve_place(world, args["destination"], city)
    if origin is None or destination is None:
        return None
    if origin.city != destination.city:
        return refuse(
            f"起点 '{origin.name}'（{origin.city}）与终点 '{destination.name}'"
            f"（{destination.city}）不在同一城市："
            "市内路线工具只规划同城路线，城际交通请用 travel_search_trains 或 travel_search_flights"
        )
    return origin, destination


def _leg(world: World, origin: Place, destination: Place, mode: str) -> dict[str, Any] | None:
    move = world.transfer(origin.city, origin.name, destination.name, MODES[mode])
    if move is None:
        return None
    km = (
        street_km((origin.lon, origin.lat), (destination.lon, destination.lat))
        if origin != destination
        else 0.0
    )
    return {
        "mode": mode,
        "mode_name": MODES[mode],
        "duration_minutes": move.minutes,
        "duration": duration_text(move.minutes),
        "cost": yuan(move.cost_fen),
        "distance_km": round(km, 2),
    }


def _endpoint(place: Place) -> dict[str, str]:
    return {"name": place.name, "location": location(place.lon, place.lat)}


def plan_route(world: World, args: dict[str, Any]) -> Payload | None:
    """One route by the asked mode (default transit)."""
    ends = _ends(world, args)
    if not isinstance(ends, tuple):
        return ends
    origin, destination = ends
    leg = _leg(world, origin, destination, args.get("mode", "transit"))
    if leg is None:
        return None
    return {
        "city": origin.city,
        "origin": _endpoint(origin),
        "destination": _endpoint(destination),
        "routes": [leg],
    }


def compare_routes(world: World, args: dict[str, Any]) -> Payload | None:
    """Every intracity mode side by side (cost per person)."""
    ends = _ends(world, args)
    if not isinstance(ends, tuple):
        return ends
    origin, destination = ends
    legs = [leg for mode in COMPARED if (leg := _leg(world, origin, destination, mode)) is not None]
    return {
        "city": origin.city,
        "origin": _endpoint(origin),
        "destination": _endpoint(destination),
        "routes": legs,
    }


def _scale(origin: Place, destination: Place) -> tuple[float, float]:
    """Metres per degree of longitude and latitude around the route (equirectangular)."""
    lat0 = (origin.lat + destination.lat) / 2
    return METRES_PER_DEGREE * math.cos(math.radians(lat0)), METRES_PER_DEGREE


def search_along_route(world: World, args: dict[str, Any]) -> Payload | None:
    """POIs matching the keywords within `route_range` metres of the route, in route order."""
    ends = _ends(world, args)
    if not isinstance(ends, tuple):
        return ends
    origin, destination = ends
    if int(args.get("route_index", 1)) != 1:
        return refuse(f"参数 'route_index' 超出范围：{args['route_index']}，该起终点只有 1 条路线，请使用 1")
    leg = _leg(world, origin, destination, args.get("mode", "driving"))
    if leg is None:
        return None
    kx, ky = _scale(origin, destination)
    line = shapely.LineString(
        [(origin.lon * kx, origin.lat * ky), (destination.lon * kx, destination.lat * ky)]
    )
    candidates = keyword_matches(world, origin.city, args["keywords"], None, None)
    points = shapely.points(np.array([[p.lon * kx, p.lat * ky] for p in candidates]).reshape(-1, 2))
    gaps = shapely.distance(line, points) if candidates else np.zeros(0)
    along = shapely.line_locate_point(line, points) if candidates else np.zeros(0)
    limit, reach = int(args.get("poi_limit", 20)), int(args.get("route_range", 500))
    hits = sorted((float(along[i]), poi.id, i) for i, poi in enumerate(candidates) if float(gaps[i]) <= reach)
    pois = [
        {
            **poi_summary(candidates[i]),
            "distance_to_route_m": round(float(gaps[i])),
            "distance_from_origin_m": round(position),
        }
        for position, _, i in hits[:limit]
    ]
    return {
        "city": origin.city,
        "origin": _endpoint(origin),
        "destination": _endpoint(destination),
        "route": leg,
        "count": len(pois),
        "pois": pois,
    }
