"""How tool answers write times, money, distances and opening hours.

Answers are JSON text (non-ASCII kept, keys in the order built, so byte-stable). Times are
"HH:MM" of the day in question plus a day offset when past midnight; money is yuan
(fen / 100, an integer when whole); opening hours and holiday prices come as text and as
structured rules.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from sandbox.world.holiday_prices import HolidayPrice
from sandbox.world.model import OpeningHours, OpeningRule, Window

DAY = 1440
WEEKDAY_NAMES = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
KIND_NAMES = {"attraction": "景点", "restaurant": "餐厅", "hotel": "酒店"}


def dump(answer: Any) -> str:
    """The JSON text of an answer."""
    return json.dumps(answer, ensure_ascii=False)


def clock(minutes: int) -> str:
    """ "HH:MM" of a minute count, modulo one day."""
    minutes %= DAY
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def yuan(fen: int) -> int | float:
    """Fen as yuan: an int when whole, else a two-decimal float."""
    return fen // 100 if fen % 100 == 0 else round(fen / 100, 2)


def duration_text(minutes: int) -> str:
    """ "2小时15分" style duration."""
    hours, rest = divmod(minutes, 60)
    if hours and rest:
        return f"{hours}小时{rest}分"
    return f"{hours}小时" if hours else f"{rest}分钟"


def location(lon: float, lat: float) -> str:
    """ "lon,lat" with six decimals (as the world stores them)."""
    return f"{lon:.6f},{lat:.6f}"


def window_pair(window: Window) -> list[str]:
    """A window as ["HH:MM", "HH:MM"], the close marked "次日" when past midnight."""
    close = clock(window.close)
    return [clock(window.open), f"次日{close}" if window.close > DAY else close]


def weekdays_text(days: tuple[int, ...]) -> str:
    """ISO weekdays as "周一至周五" for a run, else "周一、周三"."""
    ordered = sorted(set(days))
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{WEEKDAY_NAMES[ordered[0] - 1]}至{WEEKDAY_NAMES[ordered[-1] - 1]}"
    return "、".join(WEEKDAY_NAMES[day - 1] for day in ordered)


def _rule_text(rule: OpeningRule) -> str:
    season = f"{rule.date_range[0]}至{rule.date_range[1]} " if rule.date_range else ""
    if not rule.windows:
        return f"{season}{weekdays_text(rule.weekdays)} 不开放"
    spans = "、".join("-".join(window_pair(window)) for window in rule.windows)
    return f"{season}{weekdays_text(rule.weekdays)} {spans}"


def opening_text(hours: OpeningHours | None) -> str:
    """Opening hours as one line of Chinese text."""
    if hours is None:
        return "暂无营业时间信息（视为全天可到访）"
    if hours.always_open or not hours.rules:
        return "全天开放"
    return "；".join(_rule_text(rule) for rule in hours.rules) + "；其余时间不开放"


def opening_rules(hours: OpeningHours | None) -> list[dict[str, Any]] | None:
    """Opening rules as data (None when there is no constraint)."""
    if hours is None or hours.always_open or not hours.rules:
        return None
    return [
        {
            "season": list(rule.date_range) if rule.date_range else None,
            "weekdays": list(rule.weekdays),
            "windows": [
                {"open": w.open, "close": w.close, "text": "-".join(window_pair(w))} for w in rule.windows
            ],
        }
        for rule in hours.rules
    ]


def date_span(first: dt.date, last: dt.date) -> str:
    """ "2025-10-01至10-08" (the year once when both dates share it), one date when equal."""
    if first == last:
        return first.isoformat()
    end = last.isoformat()[5:] if first.year == last.year else last.isoformat()
    return f"{first.isoformat()}至{end}"


def holiday_price_text(kind: str, prices: tuple[HolidayPrice, ...]) -> str:
    """Holiday prices as one line of Chinese text, holidays grouped by price ("" when none)."""
    groups: dict[tuple[int, int], list[str]] = {}
    for p in prices:
        groups.setdefault((p.price_fen, p.room_price_fen), []).append(
            f"{p.holiday} {date_span(p.first, p.last)}"
        )
    if kind == "hotel":
        parts = [
            f"每人每晚 {yuan(price)} 元（整间 {yuan(room)} 元）：{'、'.join(spans)}"
            for (price, room), spans in groups.items()
        ]
        return "节假日房价（按入住日期）：" + "；".join(parts) if parts else ""
    parts = [f"{yuan(price)} 元/人：{'、'.join(spans)}" for (price, _), spans in groups.items()]
    return "节假日门票：" + "；".join(parts) if parts else ""


def holiday_price_rules(kind: str, prices: tuple[HolidayPrice, ...]) -> list[dict[str, Any]]:
    """Holiday prices as data: per holiday its dates (a hotel: the check-in dates), price and room."""
    out = []
    for p in prices:
        entry: dict[str, Any] = {"holiday": p.holiday}
        entry["check_in_dates" if kind == "hotel" else "dates"] = [p.first.isoformat(), p.last.isoformat()]
        entry["price"] = yuan(p.price_fen)
        if kind == "hotel":
            entry["room_price"] = yuan(p.room_price_fen)
        out.append(entry)
    return out
