"""Difficulty groups in report order: overall first, then easy, medium, hard, then any other."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

OVERALL = "overall"
KNOWN = ("easy", "medium", "hard")

T = TypeVar("T")


def group_order(names: Iterable[str]) -> list[str]:
    """The distinct difficulty names: easy, medium, hard first, the rest in first-seen order."""
    seen = list(dict.fromkeys(names))
    return [name for name in KNOWN if name in seen] + [name for name in seen if name not in KNOWN]


def by_group(items: list[T], difficulty: Callable[[T], str]) -> dict[str, list[T]]:
    """`overall` (every item) and one list per difficulty, in report order."""
    groups: dict[str, list[T]] = {}
    for item in items:
        groups.setdefault(difficulty(item), []).append(item)
    return {OVERALL: items} | {name: groups[name] for name in group_order(groups)}
