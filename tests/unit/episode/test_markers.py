"""Compromise marker grammar and value parsing with its repairs (docs/runner.md#the-protocol-as-implemented,
Compromises)."""

from __future__ import annotations

from typing import Any

import pytest

from runner.episode.conversation import message
from runner.episode.markers import Marker, asked_by_agent, find_marker, parse_value

NAMES = ["User1", "User2", "Agent"]


def test_spec_examples() -> None:
    assert find_marker("好吧\n[global_constraints.transport.must : 飞机]") == Marker(
        "global_constraints.transport.must", "飞机", "好吧", True, "飞机"
    )
    assert find_marker("可以 [global_constraints.avg_budget : 1800]") == Marker(
        "global_constraints.avg_budget", "1800", "可以", True, 1800
    )
    assert find_marker(
        '行吧 [city_specific_preferences.西安市.attractions.must_visit : ["兵马俑"]]'
    ) == Marker(
        "city_specific_preferences.西安市.attractions.must_visit", '["兵马俑"]', "行吧", True, ["兵马俑"]
    )


@pytest.mark.parametrize(
    "text",
    [
        "[a.b : 1] 谢谢",
        "[a.b ： 1]",
        "[a.b：1]",
        "没有标记",
        "[a b : 1]",
        "[a.b : 1\n]",
    ],
)
def test_no_marker(text: str) -> None:
    assert find_marker(text) is None


def test_marker_ends_the_reply_up_to_white_space() -> None:
    marker = find_marker("好的\n[a.b:2]  \n\n")
    assert marker is not None and (marker.path, marker.value, marker.remainder) == ("a.b", 2, "好的")


def test_value_runs_to_the_last_bracket_of_the_line() -> None:
    marker = find_marker('[a.b : ["x"], ["y"]]')
    assert marker is not None and (marker.raw, marker.parsed) == ('["x"], ["y"]', False)


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("1800", 1800),
        ("1800.5", 1800.5),
        ('"飞机"', "飞机"),
        ("飞机", "飞机"),
        ("1800元", "1800元"),
        ("true", True),
        ("null", None),
        ("NaN", "NaN"),
        ("[]", []),
        ("[", []),
        ("{", {}),
        ('["x","y"', ["x", "y"]),
        ('{"a": 1', {"a": 1}),
        ('["x", "y"]', ["x", "y"]),
        ("-5", -5),
    ],
)
def test_readable_values(raw: str, value: Any) -> None:
    assert parse_value(raw) == (True, value)


@pytest.mark.parametrize("raw", ['"飞机', "-x", "01", "[1, 2]x", '{"a": }', "-Infinity"])
def test_malformed_values(raw: str) -> None:
    assert parse_value(raw) == (False, None)


def test_malformed_marker_is_still_found() -> None:
    marker = find_marker('好 [a.b : "飞机]')
    assert marker == Marker("a.b", '"飞机', "好", False, None)


def test_asked_by_agent_needs_the_agent_and_its_last_mention() -> None:
    assert asked_by_agent(message("Agent", "@User2 @User1 可以吗"), "User1", NAMES)
    assert not asked_by_agent(message("Agent", "@User1 @User2 可以吗"), "User1", NAMES)
    assert not asked_by_agent(message("User2", "@User1 可以吗"), "User1", NAMES)
    assert not asked_by_agent(message("Agent", "大家可以吗"), "User1", NAMES)
    assert not asked_by_agent(None, "User1", NAMES)
