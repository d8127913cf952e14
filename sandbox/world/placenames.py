"""Which names denote the same place: keys that ignore a city prefix, a branch in brackets and a
generic suffix ("南京夫子庙" ~ "夫子庙", "青城山景区" ~ "青城山", "鸟巢(国家体育场)" ~ "国家体育场")."""

from __future__ import annotations

import re
from collections.abc import Iterable

SUFFIXES = (
    "生态旅游风景区",
    "风景名胜区",
    "旅游度假区",
    "文化旅游区",
    "历史文化特色街区",
    "历史文化名街",
    "历史文化街区",
    "民俗风貌区",
    "历史街区",
    "旅游区",
    "风景区",
    "景区",
    "步行街",
    "古镇",
    "公园",
    "博物馆",
    "祠堂",
    "度假区",
)
_BRACKETS = re.compile(r"[（(]([^()（）]*)[)）]")
_PARTS = re.compile(r"[－—\-·]")
MIN_KEY = 2


def _strip(text: str, prefixes: tuple[str, ...]) -> str:
    """Drop one leading prefix, then one trailing suffix; a step that leaves < 2 characters is skipped."""
    for p in prefixes:
        if text.startswith(p) and len(text) - len(p) >= MIN_KEY:
            text = text[len(p) :]
            break
    for s in SUFFIXES:
        if text.endswith(s) and len(text) - len(s) >= MIN_KEY:
            return text[: -len(s)]
    return text


def place_keys(name: str, prefixes: Iterable[str], *, parts: bool = False) -> set[str]:
    """Match keys of a name: the name without brackets, and bracket contents that are not a
    branch ("(北京SKP店)"); with `parts`, also each part of a joined title ("八达岭－慕田峪长城")."""
    order = tuple(sorted(set(prefixes), key=lambda p: (-len(p), p)))
    inner = [m for m in _BRACKETS.findall(name) if len(m) >= MIN_KEY and not m.endswith(("店", "馆"))]
    bases = [_BRACKETS.sub("", name).strip(), *(m.removeprefix("原") for m in inner)]
    if parts:
        bases += [p for b in list(bases) for p in _PARTS.split(b) if len(p) >= MIN_KEY]
    return {k for b in bases if b for k in (_strip(b, order),) if len(k) >= MIN_KEY}
