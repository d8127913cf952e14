"""`plan_route`, `compare_routes` and `search_along_route` from the world's transfers.

Durations and costs are `World.transfer` between the two resolved places (both must lie in
one city); distances are the world's street distance (1.3 × great circle). The corridor of
`search_along_route` is the straight segment from origin to destination in a local metric
projection (shapely), buffered by `route_range` metres; POIs are listed in route order.

Ends in two cities: `plan_route` by driving and `compare_routes` answer with the world's
intercity self-drive (`World.intercity_options` mode 自驾: centre to centre, any departure,
its time and fuel-and-toll cost per person); other modes point to the intercity tools.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import numpy as np
import shapely

from sandbox.tools.answer import Payload, refuse
from sandbox.tools.formats import duration_text, location, yuan
from sandbox.tools.place_lookup import Place, known_city, resolve_place
from sandbox.tools.poi_answers import keyword_matches, poi_summary
from sandbox.world.geography import haversine_km
from sandbox.world.timetables import ROAD_FACTOR
from sandbox.world.transfers import street_km
from sandbox.world.world import World

MODES = {"transit": "公共交通", "driving": "自驾", "walking": "步行", "bicycling": "骑车", "taxi": "打车"}
COMPARED = ("driving", "taxi", "transit", "walking", "bicycling")
METRES_PER_DEGREE = 111_320.0
SELF_DRIVE = "自驾"
ANY_DATE = dt.date(2025, 1, 1)
"""Self-drive is the same every date; a route query without a date asks this one."""


def _cross_city(origin: Place, destination: Place) -> Payload:
    return refuse(
        f"起点 '{origin.name}'（{origin.city}）与终点 '{destination.name}'"
        f"（{destination.city}）不在同一城市：跨城只提供自驾（mode=driving 或 compare_routes），"
        "火车和航班请用 travel_search_trains 或 travel_search_flights"
    )


def _ends(world: World, args: dict[str, Any]) -> tuple[Place, Place] | None:
    """Both ends, each in the city given, else the other end's city, else anywhere."""
    city_arg = args.get("city")
    city = known_city(world, city_arg)
    if city_arg and city_arg.strip() and city is None:
        return None
    origin = resolve_place(world, args["origin"], city) or resolve_place(world, args["origin"], None)
    destination = None
    if city is None and origin is not None:
        destination = resolve_place(world, args["destination"], origin.city)
    destination = (
        destination
        or resolve_place(world, args["destination"], city)
        or resolve_place(world, args["destination"], None)
    )
    if origin is None or destination is None:
        return None
    return origin, destination


def _drive(world: World, origin: Place, destination: Place, date: dt.date) -> dict[str, Any] | None:
    """The intercity self-drive between the two ends' cities, or None beyond driving range."""
    drive = [o for o in world.intercity_options(origin.city, destination.city, date) if o.mode == SELF_DRIVE]
    if not drive:
        return None
    minutes = drive[0].arrive - drive[0].depart
    a, b = world.city_record(origin.city), world.city_record(destination.city)
    km = haversine_km(a.lon, a.lat, b.lon, b.lat) * ROAD_FACTOR if a and b else 0.0
    return {
        "mode": "driving",
        "mode_name": SELF_DRIVE,
        "duration_minutes": minutes,
        "duration": duration_text(minutes),
        "cost": yuan(drive[0].fare_fen),
        "distance_km": round(km, 2),
        "from_hub": drive[0].from_hub,
        "to_hub": drive[0].to_hub,
        "source": drive[0].source,
    }


def _intercity(world: World, args: dict[str, Any], origin: Place, destination: Place) -> Payload:
    date = dt.date.fromisoformat(args["date"]) if args.get("date") else ANY_DATE
    leg = _drive(world, origin, destination, date)
    if leg is None:
        return refuse(
            f"'{origin.city}' 到 '{destination.city}' 超出自驾范围（公路里程 > 1200 km），"
            "请用 travel_search_trains 或 travel_search_flights"
        )
    return {
        "city": origin.city,
        "destination_city": destination.city,
        "origin": _endpoint(origin),
        "destination": _endpoint(destination),
        "routes": [leg],
    }


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
    if ends is None:
        return None
    origin, destination = ends
    mode = args.get("mode", "transit")
    if origin.city != destination.city:
        return _intercity(world, args, origin, destination) if mode == "driving" else _cross_city(*ends)
    leg = _leg(world, origin, destination, mode)
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
    if ends is None:
        return None
    origin, destination = ends
    if origin.city != destination.city:
        return _intercity(world, args, origin, destination)
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
    if ends is None:
        return None
    origin, destination = ends
    if origin.city != destination.city:
        return _cross_city(origin, destination)
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
