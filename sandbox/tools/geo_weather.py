"""`maps_geo` (geocoding from the world's places) and `maps_weather` (deterministic weather)."""

from __future__ import annotations

import datetime as dt
import hashlib
import math
import random
from typing import Any

from sandbox.tools.answer import Payload
from sandbox.tools.formats import location
from sandbox.tools.place_lookup import known_city, resolve_place
from sandbox.world.elevation import elevation_m
from sandbox.world.model import City
from sandbox.world.world import World

GEO_LIMIT = 5
WEEK = ("一", "二", "三", "四", "五", "六", "日")
LAPSE_PER_KM = 3.6
"""°C per km of elevation: 拉萨's July mean (about 16 °C) against a lowland city at its latitude."""
WINDS = ("北", "东北", "东", "东南", "南", "西南", "西", "西北")


def _formatted(record: City, name: str | None) -> str:
    prefix = record.name if record.province == record.name else f"{record.province}{record.name}"
    return prefix + (name or "")


def _entry(record: City, name: str | None, lon: float, lat: float, level: str) -> dict[str, Any]:
    return {
        "formatted_address": _formatted(record, name),
        "province": record.province,
        "city": record.name,
        "name": name or record.name,
        "location": location(lon, lat),
        "level": level,
    }


def maps_geo(world: World, args: dict[str, Any]) -> Payload | None:
    """Geocode a city, POI or hub name; None when no world city is involved."""
    address: str = args["address"].strip()
    city_arg = args.get("city")
    city = known_city(world, city_arg)
    if city_arg and city_arg.strip() and city is None:
        return None
    whole = world.city_record(address)
    if whole is not None and (city is None or whole.name == city):
        return {"count": 1, "geocodes": [_entry(whole, None, whole.lon, whole.lat, "城市")]}
    place = resolve_place(world, address, city)
    record = world.city_record(place.city if place is not None else city or "")
    if place is not None and record is not None:
        hub = any(h.name == place.name for h in world.hubs(place.city))
        level = "交通枢纽" if hub else "兴趣点"
        return {"count": 1, "geocodes": [_entry(record, place.name, place.lon, place.lat, level)]}
    if city is None or record is None:
        return None
    found = world.search(city, address)[:GEO_LIMIT]
    return {"count": len(found), "geocodes": [_entry(record, p.name, p.lon, p.lat, "兴趣点") for p in found]}


def _rng(city: str, date: dt.date) -> random.Random:
    seed = hashlib.blake2b(f"weather|{city}|{date.isoformat()}".encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(seed, "big"))


def day_forecast(record: City, date: dt.date) -> dict[str, Any]:
    """The weather of a city on a date: a pure function of (city, date).

    Mean temperature falls with latitude and swings more with it over the year (warmest
    around day 200); it falls 3.6 °C per km of elevation and the day–night spread grows 2 °C
    per km (拉萨, 3,650 m: July days average 23/7 °C, January 5/-12 °C); rain is likelier in
    summer and in the south.
    """
    r = _rng(record.name, date)
    km = elevation_m(record.name) / 1000
    season = math.cos(2 * math.pi * (date.timetuple().tm_yday - 200) / 365.25)
    mean = 28 - 0.75 * (record.lat - 18) + (4 + 0.5 * (record.lat - 18)) * season + r.uniform(-2.5, 2.5)
    mean -= LAPSE_PER_KM * km
    high, low = round(mean + r.uniform(3, 6) + km), round(mean - r.uniform(3, 6) - km)
    wet = (0.15 + 0.25 * max(0.0, season)) * (1.0 if record.lat < 35 else 0.6)
    roll = r.random()
    if roll < wet:
        day = "小雪" if high <= 1 else "雷阵雨" if season > 0.5 and r.random() < 0.5 else "小雨"
    else:
        day = "晴" if roll < wet + (1 - wet) * 0.45 else "多云" if roll < wet + (1 - wet) * 0.8 else "阴"
    night = day if r.random() < 0.6 else ("多云" if day != "多云" else "晴")
    wind = r.choice(WINDS)
    return {
        "date": date.isoformat(),
        "week": f"星期{WEEK[date.weekday()]}",
        "dayweather": day,
        "nightweather": night,
        "daytemp": high,
        "nighttemp": low,
        "wind": f"{wind}风",
        "power": r.choice(("1-3级", "3-4级", "4-5级")),
    }


def maps_weather(world: World, args: dict[str, Any]) -> Payload | None:
    """Forecast for `date` and the following `days` days (0..4)."""
    record = world.city_record(args["location"].strip())
    if record is None:
        return None
    start = dt.date.fromisoformat(args["date"])
    days = min(int(args.get("days", 0)), (dt.date.max - start).days)
    forecasts = [day_forecast(record, start + dt.timedelta(days=offset)) for offset in range(days + 1)]
    return {"city": record.name, "province": record.province, "forecasts": forecasts}
