"""Trailing "[pass]" stripping and the exact pass test (docs/runner.md#the-protocol-as-implemented, User
replies)."""

from __future__ import annotations

import pytest

from runner.episode.passes import is_pass, strip_passes


@pytest.mark.parametrize(
    ("text", "stripped"),
    [
        ("好的 [pass]", "好的"),
        ("好的\n[pass]\n[PASS] ", "好的"),
        ("好的[Pass][pass]", "好的"),
        ("[pass]", "[pass]"),
        ("[pass]\n[pass]", "[pass]\n[pass]"),
        ("[PASS]", "[PASS]"),
        ("[pass] 好的", "[pass] 好的"),
        ("没有", "没有"),
    ],
)
def test_strip_passes(text: str, stripped: str) -> None:
    assert strip_passes(text) == stripped


@pytest.mark.parametrize(
    ("text", "passed"),
    [("[pass]", True), (" [pass]\n", True), ("[PASS]", False), ("[pass]\n[pass]", False), ("pass", False)],
)
def test_is_pass_is_exact(text: str, passed: bool) -> None:
    assert is_pass(strip_passes(text)) is passed
