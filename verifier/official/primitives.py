"""Shared helpers of the official evaluator, with Python's exact semantics.

The public evaluator parses times with `datetime.strptime(s, "%H:%M")`, resolves participants
with a truthiness fallback and compares city names after stripping one administrative
suffix. These re-implementations reproduce every edge: one-digit hours and minutes parse,
Unicode digits parse, "24:00" and surrounding spaces do not, non-strings give None.
Results are memoised because plans repeat the same strings many times.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from typing import Any

_TIME = re.compile(r"(?P<H>2[0-3]|[0-1]\d|\d):(?P<M>[0-5]\d|\d)", re.IGNORECASE)
_DATE = re.compile(r"(?P<Y>\d\d\d\d)-(?P<m>1[0-2]|0[1-9]|[1-9])-(?P<d>3[0-1]|[1-2]\d|0[1-9]|[1-9]| [1-9])")
_CITY_SUFFIXES = ("市", "区", "县", "自治州", "地区")
_ALL = ["All"]


def parse_time(value: Any) -> int | None:
    """Minutes since midnight as `strptime(value, "%H:%M")` would read it, else None."""
    if not isinstance(value, str):
        return None
    return _parse_time_str(value)


@lru_cache(maxsize=4096)
def _parse_time_str(value: str) -> int | None:
    match = _TIME.match(value)
    if match is None or match.end() != len(value):
        return None
    return int(match["H"]) * 60 + int(match["M"])


def parse_date(value: Any) -> dt.date | None:
    """The date `strptime(value, "%Y-%m-%d")` would read (one-digit month/day accepted), else None."""
    if not isinstance(value, str):
        return None
    return _parse_date_str(value)


@lru_cache(maxsize=1024)
def _parse_date_str(value: str) -> dt.date | None:
    match = _DATE.match(value)
    if match is None or match.end() != len(value):
        return None
    try:
        return dt.date(int(match["Y"]), int(match["m"]), int(match["d"]))
    except ValueError:
        return None


def participants_of(activity: dict[str, Any], user_names: list[str]) -> Any:
    """Who takes part: everyone when `participants` is falsy or exactly ["All"], else the raw value.

    The raw value is returned unchanged, so a string makes later membership tests substring
    tests and `["All", "User1"]` means only User1 — as in the official code.
    """
    value = activity.get("participants")
    if not value or value == _ALL:
        return user_names
    return value


def ranges_overlap(start1: Any, end1: Any, start2: Any, end2: Any) -> bool:
    """True iff two forward time ranges overlap; unparseable, empty or overnight ranges never do."""
    s1, e1, s2, e2 = parse_time(start1), parse_time(end1), parse_time(start2), parse_time(end2)
    if s1 is None or e1 is None or s2 is None or e2 is None:
        return False
    if e1 <= s1 or e2 <= s2:
        return False
    return s1 < e2 and s2 < e1


def strip_city_suffix(name: Any) -> Any:
    """Drop the first of 市/区/县/自治州/地区 the name ends with (and is longer than).

    Like the official helper it calls `name.endswith`, so a non-string raises AttributeError.
    """
    for suffix in _CITY_SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def cities_match(a: Any, b: Any) -> bool:
    """Official city equality: equal, or equal after stripping one suffix from each."""
    return bool(a == b or strip_city_suffix(a) == strip_city_suffix(b))
