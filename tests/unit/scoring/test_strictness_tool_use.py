"""Strict vs loose validity and the tool-use penalty: exact figures on hand-made lines."""

from __future__ import annotations

import json
from typing import Any

import pytest

from runner.scoring.strictness import strict_and_loose
from runner.scoring.tool_use import (
    ToolUse,
    penalised,
    raw_score,
    schema_error,
    tool_use_summary,
    trajectory_tool_use,
)


def scored(
    strict: bool | None, official: bool | None, checks: list[str] = (), ratio: float | None = None
) -> dict[str, Any]:  # type: ignore[assignment]
    return {
        "strict_valid": strict,
        "official_valid": official,
        "strict_failed_checks": list(checks),
        "gu_ratio": ratio,
    }


def test_strict_and_loose_rates_and_the_checks_between_them() -> None:
    lines = [
        scored(True, True),
        scored(False, True, ("8", "5")),
        scored(False, True, ("5", "5")),
        scored(True, False),
        scored(None, None),
    ]
    assert strict_and_loose(lines) == {
        "trials": 5,
        "loose_rate": 0.6,
        "strict_rate": 0.4,
        "loose_only": 2,
        "strict_only": 1,
        "separating_checks": {"5": 2, "8": 1},
    }
    assert strict_and_loose([])["loose_rate"] is None


def call(name: str, arguments: str) -> dict[str, Any]:
    return {"type": "tool_call", "name": name, "arguments": arguments}


GOOD = json.dumps({"keywords": "长隆", "city": "珠海市"}, ensure_ascii=False)


@pytest.mark.parametrize(
    ("name", "arguments", "problem"),
    [
        ("search_poi", GOOD, None),
        ("maps_weather", '{"city": "火星市"}', "未知参数"),  # wrong parameter name
        ("search_poi", '{"keywords": "长隆"}', "缺少必填参数"),
        ("search_flights", "{}", "unknown tool"),
        ("search_poi", "{keywords", "not JSON"),
        ("search_poi", '{"raw_arguments": "{city: 珠海"}', "未知参数: 'raw_arguments'"),
        ("search_poi", '{"keywords": "长隆", "city": "火星市"}', None),  # an unknown city is the world's
    ],
)
def test_schema_errors(name: str, arguments: str, problem: str | None) -> None:
    found = schema_error(name, arguments)
    assert (found is None) if problem is None else (found is not None and problem in found)


def test_trajectory_rate_raw_and_penalised_scores() -> None:
    history = [
        {"type": "message", "role": "Agent", "content": "", "has_tool_calls": True},
        call("search_poi", GOOD),
        {"type": "tool_result", "name": "search_poi", "result": "[]", "error": False},
        call("search_poi", "{keywords"),
        call("search_poi", GOOD),
        call("nope", "{}"),
    ]
    use = trajectory_tool_use({"conversation_history": history})
    assert (use.calls, use.schema_errors, use.rate) == (4, 2, 0.5)
    assert trajectory_tool_use({"success": False}) == ToolUse(0, 0)
    assert raw_score(scored(True, True, ratio=0.8)) == 0.8
    assert raw_score(scored(False, True, ratio=0.8)) == 0.0
    assert raw_score(scored(True, True, ratio=None)) is None
    assert raw_score(None) is None
    assert penalised(0.8, use) == 0.4
    assert penalised(0.8, ToolUse(0, 0)) == 0.8


def test_summary_over_a_group() -> None:
    bad = {"conversation_history": [call("search_poi", GOOD), call("nope", "{}")]}
    clean = {"conversation_history": [call("search_poi", GOOD)]}
    silent: dict[str, Any] = {"conversation_history": []}
    pairs = [
        (bad, scored(True, True, ratio=1.0)),
        (clean, scored(True, True, ratio=0.5)),
        (silent, scored(None, None)),
        (silent, None),
    ]
    assert tool_use_summary(pairs) == {
        "trials": 4,
        "tool_calls": 3,
        "schema_errors": 1,
        "mean_schema_error_rate": 0.25,
        "scored": 3,
        "raw_score": 0.5,
        "penalised_score": 0.3333,
    }
