"""Tool-specific argument checks that a JSON schema cannot express
(docs/tools.md#validation-first-failure-wins).

They run after the type and schema-constraint checks, so values have their schema type.
Each check returns an error text naming the parameter and the accepted form, or None.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from typing import Any

CityCheck = Callable[[str], bool]

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_TIME = re.compile(r"([0-9]{2}):([0-9]{2})")
_COORD = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$")

NON_BLANK: dict[str, tuple[str, ...]] = {
    "maps_geo": ("address",),
    "maps_weather": ("location",),
    "travel_search_flights": ("origin", "destination"),
    "travel_search_trains": ("origin", "destination"),
    "web_search": ("query",),
    "search_poi": ("keywords", "city"),
    "get_poi_detail": ("id",),
    "plan_route": ("origin", "destination"),
    "compare_routes": ("origin", "destination"),
    "search_along_route": ("origin", "destination", "keywords"),
}
CITIES: dict[str, tuple[str, ...]] = {
    "maps_weather": ("location",),
    "travel_search_flights": ("origin", "destination"),
    "travel_search_trains": ("origin", "destination"),
    "search_poi": ("city",),
    "plan_route": ("city",),
    "compare_routes": ("city",),
    "search_along_route": ("city",),
}
DATES: dict[str, tuple[str, ...]] = {
    "maps_weather": ("date",),
    "travel_search_flights": ("date",),
    "travel_search_trains": ("date",),
    "plan_route": ("date",),
}
TIMES: dict[str, tuple[str, ...]] = {
    "travel_search_flights": ("depart_time_start", "depart_time_end"),
    "travel_search_trains": ("depart_time_start", "depart_time_end"),
    "plan_route": ("time",),
}
PLACES: dict[str, tuple[str, ...]] = {
    "search_poi": ("location",),
    "plan_route": ("origin", "destination"),
    "compare_routes": ("origin", "destination"),
    "search_along_route": ("origin", "destination"),
}


def date_error(name: str, value: str) -> str | None:
    """`YYYY-MM-DD` and a real calendar date."""
    if _DATE.fullmatch(value):
        try:
            dt.date.fromisoformat(value)
            return None
        except ValueError:
            return f"参数 '{name}' 不是有效日期：'{value}'（该日期不存在），格式为 YYYY-MM-DD"
    return f"参数 '{name}' 格式错误：'{value}'，应为 YYYY-MM-DD，如 2025-05-01"


def time_error(name: str, value: str) -> str | None:
    """`HH:MM` with hours 00–23 and minutes 00–59."""
    match = _TIME.fullmatch(value)
    if match and int(match.group(1)) <= 23 and int(match.group(2)) <= 59:
        return None
    return f"参数 '{name}' 格式错误：'{value}'，应为 HH:MM（00:00 到 23:59），如 08:30"


def parse_coordinates(value: str) -> tuple[float, float] | None:
    """ "lon,lat" as two floats, or None when the text is not of that form."""
    match = _COORD.match(value)
    return (float(match.group(1)), float(match.group(2))) if match else None


def place_error(name: str, value: str) -> str | None:
    """Non-blank; text starting with three digits must be "lon,lat" within range."""
    if not value.strip():
        return f"参数 '{name}' 不能为空：请给出地点名称或坐标 '经度,纬度'"
    if not value[:3].isdigit():
        return None
    coords = parse_coordinates(value)
    if coords is None:
        return f"参数 '{name}' 坐标格式错误：'{value}'，应为 '经度,纬度'，如 '116.397,39.909'"
    lon, lat = coords
    if not (-180 <= lon <= 180 and -90 <= lat <= 90):
        return f"参数 '{name}' 坐标超出范围：'{value}'，经度在 -180 到 180，纬度在 -90 到 90"
    return None


def _present(args: Mapping[str, Any], name: str) -> str | None:
    value = args.get(name)
    return value if isinstance(value, str) else None


def field_checks(tool: str, args: Mapping[str, Any], known_city: CityCheck | None) -> str | None:
    """The first failing field check of a call, or None."""
    for name in NON_BLANK.get(tool, ()):
        if not args[name].strip():
            return f"参数 '{name}' 不能为空"
    for name in CITIES.get(tool, ()):
        value = _present(args, name)
        if value and value.strip() and known_city is not None and not known_city(value.strip()):
            return f"参数 '{name}' 不是已知城市：'{value}'，请使用中国城市名，如 '北京市'、'杭州市'"
    for name in DATES.get(tool, ()):
        value = _present(args, name)
        error = date_error(name, value) if value is not None else None
        if error:
            return error
    for name in TIMES.get(tool, ()):
        value = _present(args, name)
        error = time_error(name, value) if value is not None else None
        if error:
            return error
    for name in PLACES.get(tool, ()):
        value = _present(args, name)
        error = place_error(name, value) if value is not None else None
        if error:
            return error
    return _cross_field_error(tool, args)


def _cross_field_error(tool: str, args: Mapping[str, Any]) -> str | None:
    start, end = _present(args, "depart_time_start"), _present(args, "depart_time_end")
    if start and end and start > end:
        return f"参数 'depart_time_start'（{start}）不能晚于 'depart_time_end'（{end}）"
    low, high = args.get("price_min"), args.get("price_max")
    if low is not None and high is not None and low > high:
        return f"参数 'price_min'（{low}）不能大于 'price_max'（{high}）"
    if tool == "plan_route" and args.get("mode", "transit") == "transit" and not args.get("city"):
        return "transit 模式下参数 'city' 必须传入（如 '北京市'）"
    return None
