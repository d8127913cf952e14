"""The LAST @-mention rule (docs/runner.md#the-protocol-as-implemented, @-mentions)."""

from __future__ import annotations

import pytest

from runner.episode.mentions import last_mention

NAMES = ["User1", "User2", "User10", "Agent"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("@User1 你觉得呢？", "User1"),
        ("@User1 和 @User2 都说说", "User2"),
        ("@User2 先说，然后 @User1", "User1"),
        ("@User10 呢", "User10"),
        ("@User1你好", "User1"),
        ("@User1_x", None),
        ("@User1a", None),
        ("@User19", None),
        ("＠User1 全角不算", None),
        ("写信到 a@User2.com", "User2"),
        ("@Agent 帮我查", "Agent"),
        ("@user1 大小写不同", None),
        ("没有提到任何人", None),
        ("@User1 @Nobody", "User1"),
    ],
)
def test_last_mention(text: str, expected: str | None) -> None:
    assert last_mention(text, NAMES) == expected


def test_longest_name_is_tried_first_at_one_position() -> None:
    assert last_mention("@User10", ["User1", "User10"]) == "User10"
    assert last_mention("@User10", ["User1"]) is None


def test_no_names_no_mention() -> None:
    assert last_mention("@User1", []) is None
