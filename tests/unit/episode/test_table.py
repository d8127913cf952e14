"""The agent's preference table ② read from its text (docs/runner.md#the-protocol-as-implemented, Table ②)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from runner.episode.table import extract_table, looks_like_table, updated_table
from verifier.official.extraction import first_json

TABLE: dict[str, Any] = {
    "User1": {"global_constraints": {"avg_budget": 3000}},
    "User2": {"city_specific_preferences": {}},
}
TEXT = json.dumps(TABLE, ensure_ascii=False)


@pytest.mark.parametrize(
    ("value", "looks"),
    [
        (TABLE, True),
        ({}, False),
        ({"User1": {"global_constraints": {}}, "User2": {"role": "母亲"}}, False),
        ({"User1": "global_constraints"}, False),
        ([TABLE], False),
        ({"days": [{"city_segments": [{}]}]}, False),
    ],
)
def test_looks_like_table(value: Any, looks: bool) -> None:
    assert looks_like_table(value) is looks


def test_first_fenced_block_then_first_object() -> None:
    assert extract_table(f"偏好如下\n```json\n{TEXT}\n```") == TABLE
    assert extract_table(f"偏好如下 {TEXT} 请确认") == TABLE
    assert extract_table(f"```text\n说明\n```\n```json\n{TEXT}\n```") is None
    assert extract_table(f"```json\n{{坏的}}\n```\n{TEXT}") is None
    assert extract_table("没有表") is None


def test_first_json_reads_any_value() -> None:
    assert first_json("```json\n[1, 2]\n```") == [1, 2]
    assert first_json('前 {"a": {"b": 1}} 后') == {"a": {"b": 1}}
    assert first_json("{ 未闭合") is None


def test_replacement_is_whole_or_nothing() -> None:
    current = {"User9": {"global_constraints": {"avg_budget": 1}}}
    assert updated_table(current, TEXT) == TABLE
    assert updated_table(current, "好的") is current
    assert updated_table(current, '{"User1": {"role": "x"}}') is current
