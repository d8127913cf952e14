"""The tool registry: names, schemas in OpenAI function-tool form, and world answerers."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from sandbox.tools.answer import Payload
from sandbox.tools.geo_weather import maps_geo, maps_weather
from sandbox.tools.intercity import travel_search_flights, travel_search_trains
from sandbox.tools.poi_answers import get_poi_detail, search_poi
from sandbox.tools.routes import compare_routes, plan_route, search_along_route
from sandbox.tools.schemas import SPECS, TOOL_NAMES, ToolSpec
from sandbox.tools.web import web_search
from sandbox.world.world import World
from verifier.errors import StructuredError

Answerer = Callable[[World, dict[str, Any]], Payload | None]

ANSWERERS: dict[str, Answerer] = {
    "maps_geo": maps_geo,
    "maps_weather": maps_weather,
    "travel_search_flights": travel_search_flights,
    "travel_search_trains": travel_search_trains,
    "web_search": web_search,
    "search_poi": search_poi,
    "get_poi_detail": get_poi_detail,
    "plan_route": plan_route,
    "compare_routes": compare_routes,
    "search_along_route": search_along_route,
}


class UnknownToolError(StructuredError, ValueError):
    """A tool name that is not one of the ten (the message names it)."""

    def __init__(self, name: str) -> None:
        super().__init__("", f"unknown tool {name!r}; known tools: {', '.join(TOOL_NAMES)}")
        self.name = name


def list_tools() -> tuple[str, ...]:
    """The ten tool names, in the official order."""
    return TOOL_NAMES


def spec_of(name: str) -> ToolSpec:
    """The spec of a tool; `UnknownToolError` for any other name."""
    spec = SPECS.get(name)
    if spec is None:
        raise UnknownToolError(name)
    return spec


def tool_schema(name: str) -> dict[str, Any]:
    """One tool as an OpenAI function tool `{type, function: {name, description, parameters}}`."""
    spec = spec_of(name)
    return {
        "type": "function",
        "function": {
            "name": spec.name,
            "description": spec.description,
            "parameters": copy.deepcopy(spec.parameters),
        },
    }


def openai_tools() -> list[dict[str, Any]]:
    """All ten tools as OpenAI function tools."""
    return [tool_schema(name) for name in TOOL_NAMES]
