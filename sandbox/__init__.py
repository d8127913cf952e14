"""The sandbox: the World (cities, POIs, timetables, travel times) and the ten travel tools
served from it through the official-style cache.

Build a world with `build_world(tasks, seed)` or `import_official(poi_db)`, keep it with
`World.save` / `World.load`, answer tool calls with `call_tool(name, args, world, cache)`. The
names below are imported on first use; docs/api.md lists them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import verifier.faces

if TYPE_CHECKING:
    from sandbox.cache.report import cache_stats
    from sandbox.cache.store import CacheFileError, ToolCache
    from sandbox.tools.call import ToolAnswer, call_tool
    from sandbox.tools.registry import UnknownToolError, list_tools, openai_tools, tool_schema
    from sandbox.world.build import build_world
    from sandbox.world.errors import WorldError
    from sandbox.world.official_io import export_poi_db, import_official, write_poi_db
    from sandbox.world.world import World

_HOMES = {
    "CacheFileError": "sandbox.cache.store",
    "ToolAnswer": "sandbox.tools.call",
    "ToolCache": "sandbox.cache.store",
    "UnknownToolError": "sandbox.tools.registry",
    "World": "sandbox.world.world",
    "WorldError": "sandbox.world.errors",
    "build_world": "sandbox.world.build",
    "cache_stats": "sandbox.cache.report",
    "call_tool": "sandbox.tools.call",
    "export_poi_db": "sandbox.world.official_io",
    "import_official": "sandbox.world.official_io",
    "list_tools": "sandbox.tools.registry",
    "openai_tools": "sandbox.tools.registry",
    "tool_schema": "sandbox.tools.registry",
    "write_poi_db": "sandbox.world.official_io",
}
"""Each public name and the module it lives in."""

__all__ = [
    "CacheFileError",
    "ToolAnswer",
    "ToolCache",
    "UnknownToolError",
    "World",
    "WorldError",
    "build_world",
    "cache_stats",
    "call_tool",
    "export_poi_db",
    "import_official",
    "list_tools",
    "openai_tools",
    "tool_schema",
    "write_poi_db",
]


__getattr__ = verifier.faces.lazy_names(__name__, _HOMES)
