"""Turning tool arguments into the world's cities and places.

A place argument is a POI or hub name, optionally prefixed with its city ("杭州市西湖"),
or coordinates "lon,lat"; coordinates resolve to the world place at exactly that point
(six decimals, as answers print them) in the city or, without a city, in the nearest cities.
"""

from __future__ import annotations

from dataclasses import dataclass

from sandbox.tools.checks import parse_coordinates
from sandbox.world.geography import haversine_km
from sandbox.world.world import World

NEAREST_CITIES = 3


@dataclass(frozen=True)
class Place:
    """A resolved place: city key, world name and coordinates."""

    city: str
    name: str
    lon: float
    lat: float


def known_city(world: World, text: str | None) -> str | None:
    """The world's key of a city argument (trimmed), or None."""
    return world.city(text.strip()) if text and text.strip() else None


def _at(world: World, city: str, lon: float, lat: float) -> Place | None:
    point = (round(lon, 6), round(lat, 6))
    for poi in world.pois(city):
        if (round(poi.lon, 6), round(poi.lat, 6)) == point:
            return Place(city, poi.name, poi.lon, poi.lat)
    for hub in world.hubs(city):
        if (round(hub.lon, 6), round(hub.lat, 6)) == point:
            return Place(city, hub.name, hub.lon, hub.lat)
    return None


def nearest_cities(world: World, lon: float, lat: float, count: int = NEAREST_CITIES) -> list[str]:
    """The `count` cities whose centres are nearest to a point."""
    records = [record for name in world.cities if (record := world.city_record(name)) is not None]
    records.sort(key=lambda c: (haversine_km(lon, lat, c.lon, c.lat), c.name))
    return [record.name for record in records[:count]]


def _named(world: World, city: str, text: str) -> Place | None:
    coords = world.place(city, text)
    return Place(city, text, coords[0], coords[1]) if coords else _strip_prefix(world, text, city)


def _prefixed_city(world: World, text: str) -> str | None:
    for size in range(min(len(text) - 1, 12), 1, -1):
        city = world.city(text[:size])
        if city is not None:
            return city
    return None


def resolve_place(world: World, text: str, city: str | None) -> Place | None:
    """The world place a place argument names (in `city` when given), or None."""
    text = text.strip()
    coords = parse_coordinates(text)
    if coords is not None:
        lon, lat = coords
        for candidate in [city] if city else nearest_cities(world, lon, lat):
            found = _at(world, candidate, lon, lat)
            if found:
                return found
        return None
    if city:
        return _named(world, city, text)
    prefixed = _prefixed_city(world, text)
    if prefixed:
        found = _strip_prefix(world, text, prefixed)
        if found:
            return found
    for candidate in world.cities:
        coords = world.place(candidate, text)
        if coords is not None:
            return Place(candidate, text, coords[0], coords[1])
    return None


def _strip_prefix(world: World, text: str, city: str) -> Place | None:
    for size in range(min(len(text) - 1, 12), 1, -1):
        if world.city(text[:size]) == city:
            rest = text[size:]
            coords = world.place(city, rest)
            if coords is not None:
                return Place(city, rest, coords[0], coords[1])
    return None
