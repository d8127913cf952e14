"""`web_search` answered from the world: snippets about the world's places the query names.

A query that names world POIs (by full name, in a city the query mentions or anywhere) gets
one snippet per POI with its price (and holiday prices), rating and opening hours; any other query is not the
world's to answer (the cache falls back to retrieval or the simulator).
"""

from __future__ import annotations

import weakref
from typing import Any

from sandbox.tools.answer import Payload
from sandbox.tools.formats import KIND_NAMES, holiday_price_text, opening_text, yuan
from sandbox.world.geography import short_name
from sandbox.world.holiday_prices import holiday_prices
from sandbox.world.model import Poi
from sandbox.world.world import World

RESULT_LIMIT = 5
MIN_NAME_LENGTH = 2
_NAMES: weakref.WeakKeyDictionary[World, list[tuple[str, str]]] = weakref.WeakKeyDictionary()


def _names(world: World) -> list[tuple[str, str]]:
    """(name, city) of every POI, longest names first, built once per world."""
    if world not in _NAMES:
        pairs = {(poi.name, city) for city in world.cities for poi in world.pois(city)}
        _NAMES[world] = sorted(pairs, key=lambda pair: (-len(pair[0]), pair))
    return _NAMES[world]


def _mentioned_cities(world: World, query: str) -> set[str]:
    return {city for city in world.cities if city in query or short_name(city) in query}


def _snippet(poi: Poi) -> dict[str, Any]:
    price = "免费" if poi.price_fen == 0 else f"{yuan(poi.price_fen)} 元/人"
    label = {"attraction": "门票", "restaurant": "人均", "hotel": "每人每晚"}[poi.kind]
    text = (
        f"{poi.name}是{poi.city}的{KIND_NAMES[poi.kind]}（{poi.category}），地址：{poi.address}。"
        f"{label}：{price}；评分 {poi.rating}；开放时间：{opening_text(poi.opening)}。"
    )
    holidays = holiday_price_text(poi.kind, holiday_prices(poi))
    if holidays:
        text += f"{holidays}。"
    if poi.kind == "attraction":
        text += f"建议游玩 {poi.suggested_visit_minutes} 分钟。"
    return {"title": f"{poi.name} - {poi.city}", "snippet": text, "poi_id": poi.id}


def web_search(world: World, args: dict[str, Any]) -> Payload | None:
    """Snippets for the world POIs named in the query, or None when it names none."""
    query: str = args["query"]
    cities = _mentioned_cities(world, query)
    hits: list[Poi] = []
    for name, city in _names(world):
        if len(name) >= MIN_NAME_LENGTH and name in query and (not cities or city in cities):
            poi = world.poi(city, name)
            if poi is not None and all(not (name in h.name and h.city == city) for h in hits):
                hits.append(poi)
        if len(hits) >= RESULT_LIMIT:
            break
    if not hits:
        return None
    return {"query": query, "count": len(hits), "results": [_snippet(poi) for poi in hits]}
