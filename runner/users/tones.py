"""How strongly a traveller means something: the four tiers, said in chat and read back.

The task tables rank items in four tiers. The simulated travellers say must and reject firmly
("一定要", "绝对不") and prefer and avoid softly ("最好", "尽量别"), as the opening messages of the
real tasks do; `tier_of` reads the tier back from a clause. Cues are tried strongest first and
negative before positive, because "最好别" holds "最好" and "不太感兴趣" holds "感兴趣". Counts are
said in Chinese numerals up to ten ("两个景点") and read back in either form.
"""

from __future__ import annotations

import re
from enum import StrEnum


class Tier(StrEnum):
    """How strongly an item is wanted or refused."""

    MUST = "must"
    PREFER = "prefer"
    AVOID = "avoid"
    REJECT = "reject"

    @property
    def positive(self) -> bool:
        """Whether the item is wanted (must, prefer) rather than refused."""
        return self in (Tier.MUST, Tier.PREFER)

    @property
    def firm(self) -> bool:
        """Whether the tier is said firmly (must, reject) rather than softly."""
        return self in (Tier.MUST, Tier.REJECT)


_CUES: tuple[tuple[Tier, tuple[str, ...]], ...] = (
    (Tier.MUST, ("非去不可", "非吃不可", "非坐不可", "非住不可")),
    (Tier.REJECT, ("绝对不", "坚决不", "坚决别", "千万别", "千万不", "一定不", "决不", "死也不")),
    (
        Tier.AVOID,
        (
            *("尽量别", "尽量不", "尽量少", "最好别", "最好不", "就别", "别考虑", "别安排", "避开", "就算了"),
            *("不太", "不怎么", "不想", "不感兴趣", "没兴趣", "不喜欢"),
        ),
    ),
    (Tier.REJECT, ("不去", "不吃", "不坐", "不住", "不碰", "不要", "不能安排")),
    (Tier.MUST, ("一定要", "一定得", "必须", "必去", "必吃", "肯定", "底线", "务必")),
    (Tier.PREFER, ("最好", "倾向", "比较想", "喜欢", "感兴趣", "想", "希望", "挺好", "更好", "就好")),
)


def tier_of(clause: str) -> Tier | None:
    """The tier a clause expresses, by its strongest cue, or None when it has none."""
    for tier, cues in _CUES:
        if any(cue in clause for cue in cues):
            return tier
    return None


_DIGITS = "零一二三四五六七八九"
_NUMERAL = re.compile(r"\d+(?:\.\d+)?|[零一二两三四五六七八九十]+")


def say_count(n: int) -> str:
    """A small count as chat says it: Chinese numerals for 1–10 (2 → "两"), digits otherwise."""
    if n == 2:
        return "两"
    if 1 <= n <= 9:
        return _DIGITS[n]
    return "十" if n == 10 else str(n)


def read_number(text: str) -> int | float | None:
    """A number written in digits or Chinese numerals (0–99), or None; integral values are ints."""
    if _NUMERAL.fullmatch(text) is None:
        return None
    if text[0].isdigit():
        value = float(text)
        return int(value) if value.is_integer() else value
    tens, ten, units = text.replace("两", "二").partition("十")
    if not ten:
        return _DIGITS.index(tens) if len(tens) == 1 else None
    if len(tens) > 1 or len(units) > 1 or "十" in units:
        return None
    return (_DIGITS.index(tens) if tens else 1) * 10 + (_DIGITS.index(units) if units else 0)


NUMERAL = _NUMERAL.pattern
"""A regular expression for a number in digits or Chinese numerals (see `read_number`)."""


_BUDGET = re.compile(r"(\d+(?:\.\d+)?)\s*(?:元|块)")
_BUDGET_CUES = ("预算", "人均", "每人", "每个人", "花费", "花销", "开销", "费用")
_POI_CAP = re.compile(rf"({NUMERAL})\s*个?\s*(?:景点|地方)")
_HOURS_CAP = re.compile(rf"({NUMERAL})\s*个?\s*(?:小时|钟头)")
_CAP_CUES = ("最多", "不超过", "别超过", "不要超过", "不能超过", "以内", "只能", "上限", "至多")


def budgets(text: str) -> list[int | float]:
    """Amounts in CNY ("3200元") of a text that speaks of a budget ("预算", "人均", …), in order."""
    if not any(cue in text for cue in _BUDGET_CUES):
        return []
    return [value for match in _BUDGET.finditer(text) if (value := read_number(match.group(1))) is not None]


def poi_caps(text: str, *, cue: bool = True) -> list[int | float]:
    """Attraction counts ("两个景点") in order; with `cue`, only in a text that sets a cap ("最多",
    "别超过", …)."""
    return _caps(_POI_CAP, text, cue)


def hour_caps(text: str, *, cue: bool = True) -> list[int | float]:
    """Hour counts ("7小时") in order; with `cue`, only in a text that sets a cap."""
    return _caps(_HOURS_CAP, text, cue)


def _caps(pattern: re.Pattern[str], text: str, cue: bool) -> list[int | float]:
    if cue and not any(word in text for word in _CAP_CUES):
        return []
    return [value for match in pattern.finditer(text) if (value := read_number(match.group(1))) is not None]
