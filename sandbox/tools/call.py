"""`call_tool`: validate, look up the cache, answer from the world, fall back, count.

Pipeline for one call: parse the arguments (a JSON string or an object) → validate in the
official order (error: provenance `error`) → official cache or memo hit (provenance `cache`,
or the memoised answer's own) → the world's answer (`world`, recomputed each time: a pure
function of world and arguments) → the cache's fallback, memoised: the LLM simulator when
configured (`simulated`), else the nearest cached entry (`retrieved`) → otherwise, with a world,
the official tools' own "nothing found" text (`NOT_FOUND`, what the official sandbox answers
for an empty result; provenance `world`), and without one the official sandbox's error for an
unconfigured miss. Every outcome is counted in the cache's statistics.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sandbox.cache.keys import key_of
from sandbox.cache.simulator import SimulatorError
from sandbox.cache.store import CachedAnswer, Provenance, ToolCache
from sandbox.tools.answer import is_refusal
from sandbox.tools.formats import dump
from sandbox.tools.registry import ANSWERERS
from sandbox.tools.schemas import SPECS, TOOL_NAMES
from sandbox.tools.validation import validate
from sandbox.world.world import World

NO_ANSWER = "No cached data and no LLM simulator configured"
NOT_FOUND = "没有找到相关信息，请确认输入参数是否正确；如无误，可能当前暂无相关数据"
UNKNOWN_TOOL_STATS = "(unknown tool)"


@dataclass(frozen=True)
class ToolAnswer:
    """The raw result text the agent sees, where it came from, and whether it is an error.

    `source_key` is the cache key of the entry a `retrieved` answer copies.
    """

    text: str
    provenance: Provenance
    error: bool
    source_key: str | None = None


def _error(message: str) -> ToolAnswer:
    return ToolAnswer(dump({"error": message}), "error", True)


def _parse(args: dict[str, Any] | str) -> object:
    if not isinstance(args, str):
        return args
    try:
        parsed: object = json.loads(args)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f'参数不是合法的 JSON：{exc}；请传入 JSON 对象，如 {{"city": "北京市"}}') from exc
    return parsed


def _count(cache: ToolCache | None, tool: str, answer: ToolAnswer, *, memo: bool = False) -> ToolAnswer:
    if cache is not None:
        outcome = "memo" if memo else "error" if answer.error else answer.provenance
        cache.record(tool, outcome)
    return answer


def call_tool(
    name: str, args: dict[str, Any] | str, world: World | None, cache: ToolCache | None
) -> ToolAnswer:
    """Run one tool call against a world and/or a cache; never raises for bad calls."""
    spec = SPECS.get(name)
    if spec is None:
        return _count(
            cache, UNKNOWN_TOOL_STATS, _error(f"未知工具: '{name}'，可用工具为: {list(TOOL_NAMES)}")
        )
    try:
        parsed = _parse(args)
    except ValueError as exc:
        return _count(cache, name, _error(str(exc)))
    known_city = (lambda text: world.city(text) is not None) if world is not None else None
    problem = validate(spec, parsed, known_city)
    if problem is not None or not isinstance(parsed, dict):
        return _count(cache, name, _error(problem or "参数必须是 JSON 对象"))
    key = key_of(parsed)
    if cache is not None:
        hit = cache.lookup(name, key)
        if hit is not None:
            answer = ToolAnswer(hit.text, hit.provenance, False, hit.source_key)
            return _count(cache, name, answer, memo=hit.provenance != "cache")
    if world is not None:
        payload = ANSWERERS[name](world, parsed)
        if payload is not None:
            return _count(cache, name, ToolAnswer(dump(payload), "world", is_refusal(payload)))
    miss = ToolAnswer(NOT_FOUND, "world", False) if world is not None else _error(NO_ANSWER)
    if cache is None:
        return miss
    return _count(cache, name, _fallback(cache, name, parsed, key) or miss)


def _fallback(cache: ToolCache, name: str, args: dict[str, Any], key: str) -> ToolAnswer | None:
    spec = SPECS[name]
    try:
        found: CachedAnswer | None = cache.fallback(name, args, spec.description, spec.parameters)
    except SimulatorError as exc:
        return ToolAnswer(dump({"error": f"LLM simulation failed: {exc}"}), "simulated", True)
    if found is None:
        return None
    cache.remember(name, key, args, found)
    return ToolAnswer(found.text, found.provenance, False, found.source_key)
