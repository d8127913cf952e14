"""`travel_search_flights` and `travel_search_trains` from the world's timetables.

Every listed departure is one `World.intercity_options` entry of the asked date: times are
its `depart` / `arrive` minutes, price its `fare_fen`, stations and airports its hubs, `source`
its provenance. The flights' `airport` filter matches either end by IATA code ("PEK", any
case), by name or a part of it ("首都", "首都机场", "大兴国际机场"), or by a terminal ("T3",
"首都机场T3", "3号航站楼"): the world has no terminals, so the airport part must match and a
terminal alone matches every airport.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

from sandbox.tools.answer import Payload
from sandbox.tools.formats import clock, duration_text, yuan
from sandbox.world.model import IntercityOption
from sandbox.world.world import World

HIGH_SPEED = ("G", "C")
EMU = ("D",)
TRAIN_FILTERS: dict[str, Callable[[str], bool]] = {
    "high_speed": lambda code: code.startswith(HIGH_SPEED),
    "high_speed_and_emu": lambda code: code.startswith(HIGH_SPEED + EMU),
    "regular": lambda code: not code.startswith(HIGH_SPEED + EMU),
}


TERMINAL = re.compile(r"\s*(?:T\d|\d号?航站楼|航站楼)\s*$", re.IGNORECASE)


def airport_matches(query: str, name: str, iata: str | None) -> bool:
    """Whether an `airport` filter names an airport (see the module docstring)."""
    if iata is not None and query.upper() == iata:
        return True
    wanted = TERMINAL.sub("", query).strip()
    if not wanted:
        return True
    return any(wanted in text for text in (name, name.replace("国际", ""), name.removesuffix("机场")))


def _minutes(text: str | None, default: int) -> int:
    if not text:
        return default
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


def _window(args: dict[str, Any]) -> tuple[int, int]:
    return _minutes(args.get("depart_time_start"), 0), _minutes(args.get("depart_time_end"), 1439)


def _options(world: World, args: dict[str, Any], modes: tuple[str, ...]) -> list[IntercityOption] | None:
    origin, destination = world.city(args["origin"].strip()), world.city(args["destination"].strip())
    if origin is None or destination is None:
        return None
    date = dt.date.fromisoformat(args["date"])
    low, high = _window(args)
    return [
        option
        for option in world.intercity_options(origin, destination, date)
        if option.mode in modes and low <= option.depart <= high
    ]


def _common(option: IntercityOption) -> dict[str, Any]:
    minutes = option.arrive - option.depart
    return {
        "depart_time": clock(option.depart),
        "arrive_time": clock(option.arrive),
        "arrive_day_offset": option.arrive // 1440,
        "duration_minutes": minutes,
        "duration": duration_text(minutes),
        "price": yuan(option.fare_fen),
        "source": option.source,
    }


def _sorted(options: list[IntercityOption], sort_by: str | None) -> list[IntercityOption]:
    base = sorted(options, key=lambda o: (o.depart, o.code, o.from_hub, o.to_hub))
    if sort_by == "price":
        return sorted(base, key=lambda o: o.fare_fen)
    if sort_by == "duration":
        return sorted(base, key=lambda o: o.arrive - o.depart)
    if sort_by == "depart_time_desc":
        return sorted(base, key=lambda o: -o.depart)
    return base


def travel_search_flights(world: World, args: dict[str, Any]) -> Payload | None:
    """Flights of the date in the departure window, optionally at an airport, sorted."""
    options = _options(world, args, ("飞机",))
    if options is None:
        return None
    airport = (args.get("airport") or "").strip()
    if airport:
        ends = (world.city(args["origin"].strip()) or "", world.city(args["destination"].strip()) or "")
        iata = {h.name: h.iata for city in ends for h in world.hubs(city)}
        options = [
            o
            for o in options
            if any(airport_matches(airport, h, iata.get(h)) for h in (o.from_hub, o.to_hub))
        ]
    flights = [
        {"flight_no": o.code, "depart_airport": o.from_hub, "arrive_airport": o.to_hub, **_common(o)}
        for o in _sorted(options, args.get("sort_by"))
    ]
    return _listing(world, args, "flights", flights)


def _train_type(code: str) -> str:
    if code.startswith(HIGH_SPEED):
        return "高铁"
    return "动车" if code.startswith(EMU) else "普通列车"


def travel_search_trains(world: World, args: dict[str, Any]) -> Payload | None:
    """Trains of the date in the departure window, by type filter; G/C/D first by default."""
    options = _options(world, args, ("高铁", "火车"))
    if options is None:
        return None
    kind = args.get("train_type_filter")
    if kind is not None:
        options = [o for o in options if TRAIN_FILTERS[kind](o.code)]
    ordered = _sorted(options, args.get("sort_by"))
    if args.get("sort_by") is None:
        ordered = sorted(ordered, key=lambda o: not o.code.startswith(HIGH_SPEED + EMU))
    trains = [
        {
            "train_no": o.code,
            "train_type": _train_type(o.code),
            "depart_station": o.from_hub,
            "arrive_station": o.to_hub,
            **_common(o),
        }
        for o in ordered
    ]
    return _listing(world, args, "trains", trains)


def _listing(world: World, args: dict[str, Any], label: str, items: list[dict[str, Any]]) -> Payload:
    return {
        "origin": world.city(args["origin"].strip()),
        "destination": world.city(args["destination"].strip()),
        "date": args["date"],
        "count": len(items),
        label: items,
    }
