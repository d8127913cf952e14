"""The ten travel tools: official names, parameter JSON schemas and Chinese descriptions.

Parameter names, types, defaults, enums and requiredness follow the official tool list
(docs/tools.md#names-and-parameters); the descriptions are ours. `anyOf [T, null]` marks nullable parameters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DATE_HINT = "日期，格式 YYYY-MM-DD，如 2025-05-01"
TIME_HINT = "时间，格式 HH:MM（24 小时制），如 08:30"
PLACE_HINT = "地点名称（景点、餐厅、酒店、车站、机场）或坐标 '经度,纬度'"


def _str(description: str) -> dict[str, Any]:
    return {"type": "string", "description": description}


def _nullable(kind: str, description: str, **extra: Any) -> dict[str, Any]:
    return {"anyOf": [{"type": kind, **extra}, {"type": "null"}], "description": description}


def _int(description: str, default: int, minimum: int, maximum: int | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer", "description": description, "default": default}
    schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return schema


@dataclass(frozen=True)
class ToolSpec:
    """A tool's name, description and parameter schema (a JSON Schema object)."""

    name: str
    description: str
    parameters: dict[str, Any]

    @property
    def properties(self) -> dict[str, dict[str, Any]]:
        props: dict[str, dict[str, Any]] = self.parameters["properties"]
        return props

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(self.parameters.get("required", ()))


def _spec(name: str, description: str, properties: dict[str, Any], required: list[str]) -> ToolSpec:
    return ToolSpec(name, description, {"type": "object", "properties": properties, "required": required})


_ROUTE_ENDS = {"origin": _str(f"起点：{PLACE_HINT}"), "destination": _str(f"终点：{PLACE_HINT}")}
_INTERCITY = {
    "origin": _str("出发城市，如 '北京市'"),
    "destination": _str("到达城市，如 '上海市'"),
    "date": _str(f"出发{DATE_HINT}"),
    "depart_time_start": _nullable("string", f"最早出发{TIME_HINT}"),
    "depart_time_end": _nullable("string", f"最晚出发{TIME_HINT}，不得早于最早出发时间"),
}

TOOL_SPECS: tuple[ToolSpec, ...] = (
    _spec(
        "maps_geo",
        "地理编码：把地点或地址转换为经纬度坐标（'经度,纬度'）。",
        {"address": _str("要查询的地点名称或地址"), "city": _nullable("string", "所在城市，可缩小范围")},
        ["address"],
    ),
    _spec(
        "maps_weather",
        "查询城市某日起的天气预报（最多 5 天）。",
        {
            "location": _str("城市名，如 '杭州市'"),
            "date": _str(f"起始{DATE_HINT}"),
            "days": _int("额外预报天数：0 表示只查当天，最多 4（共 5 天）", 0, 0, 4),
        },
        ["location", "date"],
    ),
    _spec(
        "travel_search_flights",
        "查询国内航班：时刻、机场、票价、飞行时长。",
        {
            **_INTERCITY,
            "sort_by": _nullable("string", "排序方式", enum=["depart_time", "price", "duration"]),
            "airport": _nullable("string", "机场关键词，如 '虹桥'，只返回出发或到达机场包含该词的航班"),
        },
        ["origin", "destination", "date"],
    ),
    _spec(
        "travel_search_trains",
        "查询国内火车/高铁车次：时刻、车站、票价、历时；默认高铁动车（G/D/C）在前。",
        {
            **_INTERCITY,
            "sort_by": _nullable(
                "string", "排序方式", enum=["depart_time", "depart_time_desc", "duration", "price"]
            ),
            "train_type_filter": _nullable(
                "string",
                "车型：high_speed=高铁(G/C)，high_speed_and_emu=高铁和动车(G/C/D)，regular=普通列车",
                enum=["high_speed", "high_speed_and_emu", "regular"],
            ),
        },
        ["origin", "destination", "date"],
    ),
    _spec(
        "web_search",
        "网页搜索：返回与查询相关的摘要（如景点介绍、门票、开放时间）。",
        {"query": _str("搜索内容")},
        ["query"],
    ),
    _spec(
        "search_poi",
        "搜索城市中的景点、餐厅、酒店；结果带 ID，可用 get_poi_detail 查看详情。",
        {
            "keywords": _str("关键词：类别或名称，如 '火锅'、'博物馆'、'经济型酒店'"),
            "city": _str("城市名，如 '成都市'"),
            "region": _nullable("string", "区县名，如 '锦江区'"),
            "location": _nullable("string", f"中心点：{PLACE_HINT}；配合 radius_km 做周边搜索"),
            "radius_km": _nullable("number", "搜索半径（公里），大于 0，默认 5", exclusiveMinimum=0),
            "price_min": _nullable("number", "最低人均价格（元），不小于 0", minimum=0),
            "price_max": _nullable("number", "最高人均价格（元），不小于 price_min", minimum=0),
            "sort_by": _nullable(
                "string", "排序方式", enum=["relevance", "distance", "rating", "price_low", "price_high"]
            ),
            "page": _int("页码，从 1 开始", 1, 1),
            "page_size": _int("每页条数，1 到 20", 10, 1, 20),
        },
        ["keywords", "city"],
    ),
    _spec(
        "get_poi_detail",
        "按 search_poi 返回的 ID 查询地点详情：地址、价格、评分、开放时间、建议游玩时长。",
        {"id": _str("search_poi 结果中的 ID")},
        ["id"],
    ),
    _spec(
        "plan_route",
        "市内路线规划（公交地铁 transit、驾车 driving、步行 walking、骑行 bicycling）：时长与费用。",
        {
            **_ROUTE_ENDS,
            "mode": {
                "type": "string",
                "enum": ["transit", "driving", "walking", "bicycling"],
                "default": "transit",
                "description": "出行方式",
            },
            "city": _nullable("string", "城市名；transit 模式必填"),
            "date": _nullable("string", f"出行{DATE_HINT}"),
            "time": _nullable("string", f"出发{TIME_HINT}"),
        },
        ["origin", "destination"],
    ),
    _spec(
        "compare_routes",
        "比较同一起终点的驾车、打车、公交地铁、步行、骑行的时长、距离与费用。",
        {**_ROUTE_ENDS, "city": _nullable("string", "城市名（公交方案需要）")},
        ["origin", "destination"],
    ),
    _spec(
        "search_along_route",
        "沿途搜索：在起点到终点的路线附近查找地点（餐厅、景点、酒店等）。",
        {
            **_ROUTE_ENDS,
            "keywords": _str("关键词，如 '咖啡'、'小吃'"),
            "mode": {
                "type": "string",
                "enum": ["driving", "walking", "bicycling"],
                "default": "driving",
                "description": "出行方式",
            },
            "city": _nullable("string", "城市名"),
            "route_range": _int("离路线的最大距离（米），1 到 3000", 500, 1, 3000),
            "route_index": _int("路线序号，从 1 开始", 1, 1),
            "poi_limit": _int("最多返回条数，1 到 50", 20, 1, 50),
        },
        ["origin", "destination", "keywords"],
    ),
)

SPECS: dict[str, ToolSpec] = {spec.name: spec for spec in TOOL_SPECS}
TOOL_NAMES: tuple[str, ...] = tuple(spec.name for spec in TOOL_SPECS)
