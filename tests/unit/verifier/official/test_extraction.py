"""Official plan detection (§1.2), extraction (§1.3) and the structural gate."""

from __future__ import annotations

import json
from typing import Any

import pytest

from verifier.official.extraction import (
    check_is_travel_plan,
    extract_plan_from_conversation,
    is_valid_travel_plan,
)

PLAN = {"days": [{"day": 1, "city_segments": [{"city": "西安市", "activities": []}]}]}
OLD_PLAN = {"days": [{"day": 1, "city_segments": [{"city": "北京市", "activities": []}]}]}
PLAN_TEXT = json.dumps(PLAN, ensure_ascii=False)


def _agent(content: str, **extra: Any) -> dict[str, Any]:
    return {"role": "Agent", "content": content, **extra}


@pytest.mark.parametrize(
    ("plan", "expected"),
    [
        (PLAN, True),
        ({"days": [{"city_segments": [{}]}, "later days are not inspected"]}, True),
        ({"days": []}, False),
        ({"days": [{"city_segments": []}]}, False),
        ({"days": ["第一天"]}, False),
        ({"days": {"1": {}}}, False),
        ([PLAN], False),
        (None, False),
    ],
)
def test_gate(plan: Any, expected: bool) -> None:
    assert is_valid_travel_plan(plan) is expected


def test_fenced_plan_is_extracted() -> None:
    history = [
        {"role": "User1", "content": "出发吧"},
        _agent(f"方案如下：\n```json\n{PLAN_TEXT}\n```\n请确认"),
    ]
    assert extract_plan_from_conversation(history) == PLAN


def test_object_before_days_makes_the_fallback_reject_and_an_older_draft_wins() -> None:
    unfenced = '{"meta": {"version": 2}, "days": ' + json.dumps(PLAN["days"], ensure_ascii=False) + "}"
    old = f"```json\n{json.dumps(OLD_PLAN, ensure_ascii=False)}\n```"
    assert extract_plan_from_conversation([_agent(old), _agent(unfenced)]) == OLD_PLAN
    assert extract_plan_from_conversation([_agent(unfenced)]) is None


def test_prose_mentioning_days_before_an_unfenced_plan_defeats_the_fallback() -> None:
    content = 'the "days" are listed below: ' + PLAN_TEXT
    assert extract_plan_from_conversation([_agent(content)]) is None
    assert extract_plan_from_conversation([_agent("plan: " + PLAN_TEXT)]) == PLAN


def test_plan_only_in_an_intermediate_tool_calling_message() -> None:
    history = [
        _agent(f"```json\n{PLAN_TEXT}\n```", has_tool_calls=True),
        {"role": "Tool", "content": "days city_segments"},
        _agent("已完成，请查看上面的方案"),
        {"role": "User2", "content": f"```json\n{json.dumps(OLD_PLAN)}\n```"},
    ]
    assert extract_plan_from_conversation(history) == PLAN


def test_detection_uses_only_the_first_fenced_block() -> None:
    table = '```json\n{"User1": {"avg_budget": 3000}}\n```'
    assert check_is_travel_plan(f"{table}\n```json\n{PLAN_TEXT}\n```") is None
    assert check_is_travel_plan(f"```JSON\n{PLAN_TEXT}\n```") is None
    assert check_is_travel_plan(f"```\n{PLAN_TEXT}\n```") == PLAN
    assert check_is_travel_plan(f"好的，方案：{PLAN_TEXT} 以上") == PLAN
    assert check_is_travel_plan("还没有方案") is None


def test_braces_inside_strings_break_brace_matching() -> None:
    tricky = {"days": [{"city_segments": [{"city": "西安市", "activities": [{"location": "大{雁塔"}]}]}]}
    assert check_is_travel_plan("方案 " + json.dumps(tricky, ensure_ascii=False)) is None
