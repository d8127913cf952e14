"""The ten tools keep the official names and parameter schemas (docs/tools.md#names-and-parameters)."""

from __future__ import annotations

from typing import Any

import pytest

from sandbox.tools import UnknownToolError, list_tools, openai_tools, tool_schema

OFFICIAL = {
    "maps_geo": (["address"], ["address", "city"]),
    "maps_weather": (["location", "date"], ["location", "date", "days"]),
    "travel_search_flights": (
        ["origin", "destination", "date"],
        ["origin", "destination", "date", "depart_time_start", "depart_time_end", "sort_by", "airport"],
    ),
    "travel_search_trains": (
        ["origin", "destination", "date"],
        [
            "origin",
            "destination",
            "date",
            "depart_time_start",
            "depart_time_end",
            "sort_by",
            "train_type_filter",
        ],
    ),
    "web_search": (["query"], ["query"]),
    "search_poi": (
        ["keywords", "city"],
        [
            "keywords",
            "city",
            "region",
            "location",
            "radius_km",
            "price_min",
            "price_max",
            "sort_by",
            "page",
            "page_size",
        ],
    ),
    "get_poi_detail": (["id"], ["id"]),
    "plan_route": (["origin", "destination"], ["origin", "destination", "mode", "city", "date", "time"]),
    "compare_routes": (["origin", "destination"], ["origin", "destination", "city"]),
    "search_along_route": (
        ["origin", "destination", "keywords"],
        ["origin", "destination", "keywords", "mode", "city", "route_range", "route_index", "poi_limit"],
    ),
}


def _props(name: str) -> dict[str, Any]:
    props: dict[str, Any] = tool_schema(name)["function"]["parameters"]["properties"]
    return props


def test_names_in_official_order() -> None:
    assert list_tools() == tuple(OFFICIAL)


@pytest.mark.parametrize("name", list(OFFICIAL))
def test_required_and_parameter_names(name: str) -> None:
    schema = tool_schema(name)
    assert schema["type"] == "function"
    function = schema["function"]
    assert function["name"] == name and function["description"]
    assert function["parameters"]["type"] == "object"
    assert function["parameters"]["required"] == OFFICIAL[name][0]
    assert list(function["parameters"]["properties"]) == OFFICIAL[name][1]
    assert all(prop.get("description") for prop in function["parameters"]["properties"].values())


def test_types_defaults_enums_and_ranges() -> None:
    assert _props("maps_weather")["days"] == {
        "type": "integer",
        "description": _props("maps_weather")["days"]["description"],
        "default": 0,
        "minimum": 0,
        "maximum": 4,
    }
    assert _props("travel_search_flights")["sort_by"]["anyOf"] == [
        {"type": "string", "enum": ["depart_time", "price", "duration"]},
        {"type": "null"},
    ]
    assert _props("travel_search_trains")["sort_by"]["anyOf"][0]["enum"] == [
        "depart_time",
        "depart_time_desc",
        "duration",
        "price",
    ]
    assert _props("travel_search_trains")["train_type_filter"]["anyOf"][0]["enum"] == [
        "high_speed",
        "high_speed_and_emu",
        "regular",
    ]
    poi = _props("search_poi")
    assert poi["radius_km"]["anyOf"][0] == {"type": "number", "exclusiveMinimum": 0}
    assert poi["price_min"]["anyOf"][0] == {"type": "number", "minimum": 0}
    assert poi["sort_by"]["anyOf"][0]["enum"] == [
        "relevance",
        "distance",
        "rating",
        "price_low",
        "price_high",
    ]
    assert (poi["page"]["default"], poi["page"]["minimum"]) == (1, 1)
    assert (poi["page_size"]["default"], poi["page_size"]["minimum"], poi["page_size"]["maximum"]) == (
        10,
        1,
        20,
    )
    route = _props("plan_route")
    assert route["mode"]["type"] == "string" and route["mode"]["default"] == "transit"
    assert route["mode"]["enum"] == ["transit", "driving", "walking", "bicycling"]
    along = _props("search_along_route")
    assert (
        along["mode"]["enum"] == ["driving", "walking", "bicycling"] and along["mode"]["default"] == "driving"
    )
    assert (
        along["route_range"]["default"],
        along["route_range"]["minimum"],
        along["route_range"]["maximum"],
    ) == (500, 1, 3000)
    assert (along["route_index"]["default"], along["route_index"]["minimum"]) == (1, 1)
    assert (along["poi_limit"]["default"], along["poi_limit"]["maximum"]) == (20, 50)


def test_openai_tools_lists_all_ten_and_returns_copies() -> None:
    tools = openai_tools()
    assert [tool["function"]["name"] for tool in tools] == list(OFFICIAL)
    tools[0]["function"]["parameters"]["properties"].clear()
    assert _props("maps_geo")


def test_unknown_tool_is_a_named_error() -> None:
    with pytest.raises(UnknownToolError, match="unknown tool 'maps_geocode'; known tools: maps_geo"):
        tool_schema("maps_geocode")
