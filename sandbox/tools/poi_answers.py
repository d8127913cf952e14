"""`search_poi` and `get_poi_detail` from the world's POIs.

Prices are per person in yuan on an ordinary day (`price_fen`; hotels also give the room,
`room_price_fen`), with the holiday prices (`sandbox.world.holiday_prices`) as one line of text
where a place has any, and in `get_poi_detail` also as data per holiday; opening hours are the
POI's `opening` as text and as rules (see `formats`). Price filters and sorting read the
ordinary price.
"""

from __future__ import annotations

import re
from typing import Any

from sandbox.tools.answer import Payload, refuse
from sandbox.tools.formats import (
    KIND_NAMES,
    holiday_price_rules,
    holiday_price_text,
    location,
    opening_rules,
    opening_text,
    yuan,
)
from sandbox.tools.place_lookup import known_city, resolve_place
from sandbox.world.geography import haversine_km
from sandbox.world.holiday_prices import holiday_prices
from sandbox.world.model import Poi
from sandbox.world.world import World

DEFAULT_RADIUS_KM = 5.0
_SPLIT = re.compile(r"[\s,，、|/;；]+")


def poi_summary(poi: Poi) -> dict[str, Any]:
    """The entry every POI list shows: identity, place, price (and room price), its holiday
    prices, rating, hours, the record's source (a real data set or "synthetic") and the place's
    other names."""
    entry: dict[str, Any] = {
        "id": poi.id,
        "name": poi.name,
        "type": KIND_NAMES[poi.kind],
        "category": poi.category,
        "address": poi.address,
        "location": location(poi.lon, poi.lat),
        "price": yuan(poi.price_fen),
        "rating": poi.rating,
        "opening_hours": opening_text(poi.opening),
        "source": poi.source,
    }
    if poi.aliases:
        entry["aliases"] = list(poi.aliases)
    if poi.kind == "hotel":
        entry["room_price"] = yuan(poi.room_price_fen)
    holidays = holiday_prices(poi)
    if holidays:
        entry["holiday_price"] = holiday_price_text(poi.kind, holidays)
    return entry


def keyword_matches(
    world: World, city: str, keywords: str, near: tuple[float, float] | None, radius: float | None
) -> list[Poi]:
    """POIs of the city matching any of the keywords (split on spaces and separators), deduplicated."""
    seen: dict[str, Poi] = {}
    for word in [w for w in _SPLIT.split(keywords) if w] or [keywords.strip()]:
        for poi in world.search(city, word, near=near, radius_km=radius):
            seen.setdefault(poi.id, poi)
    return list(seen.values())


def _in_price(poi: Poi, low: float | None, high: float | None) -> bool:
    price = poi.price_fen / 100
    return (low is None or price >= low) and (high is None or price <= high)


def search_poi(world: World, args: dict[str, Any]) -> Payload | None:
    """POIs of the city matching any keyword, filtered by region, radius and price, sorted, paged."""
    city = known_city(world, args["city"])
    if city is None:
        return None
    near: tuple[float, float] | None = None
    radius: float | None = None
    if args.get("location"):
        place = resolve_place(world, args["location"], city)
        if place is None:
            return refuse(
                f"参数 'location' 无法定位：'{args['location']}' 不是 {city} 的已知地点，"
                "请改用地点全称或 '经度,纬度' 坐标"
            )
        near = (place.lon, place.lat)
        radius = float(args["radius_km"]) if args.get("radius_km") is not None else DEFAULT_RADIUS_KM
    found = keyword_matches(world, city, args["keywords"], near, radius)
    region = (args.get("region") or "").strip()
    if region:
        found = [p for p in found if region in p.address]
    found = [p for p in found if _in_price(p, args.get("price_min"), args.get("price_max"))]
    found = _sort(found, args.get("sort_by"), near)
    page, size = int(args.get("page", 1)), int(args.get("page_size", 10))
    shown = found[(page - 1) * size : page * size]
    items = []
    for poi in shown:
        entry = poi_summary(poi)
        if near is not None:
            entry["distance_m"] = round(haversine_km(near[0], near[1], poi.lon, poi.lat) * 1000)
        items.append(entry)
    return {"city": city, "count": len(found), "page": page, "page_size": size, "pois": items}


def _sort(found: list[Poi], sort_by: str | None, near: tuple[float, float] | None) -> list[Poi]:
    if sort_by == "distance" and near is not None:
        return sorted(found, key=lambda p: (haversine_km(near[0], near[1], p.lon, p.lat), p.id))
    if sort_by == "rating":
        return sorted(found, key=lambda p: (-p.rating, p.id))
    if sort_by == "price_low":
        return sorted(found, key=lambda p: (p.price_fen, p.id))
    if sort_by == "price_high":
        return sorted(found, key=lambda p: (-p.price_fen, p.id))
    return found


def get_poi_detail(world: World, args: dict[str, Any]) -> Payload | None:
    """The full record of a world POI id; None for ids the world does not issue."""
    poi = world.poi_by_id(args["id"].strip())
    if poi is None:
        return None
    detail = poi_summary(poi)
    detail["city"] = poi.city
    detail["opening_rules"] = opening_rules(poi.opening)
    holidays = holiday_prices(poi)
    if holidays:
        detail["holiday_prices"] = holiday_price_rules(poi.kind, holidays)
    detail["always_open"] = poi.opening is None or poi.opening.always_open or not poi.opening.rules
    if poi.kind == "attraction":
        detail["min_visit_minutes"] = poi.min_visit_minutes
        detail["suggested_visit_minutes"] = poi.suggested_visit_minutes
    return detail
