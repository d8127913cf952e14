"""Chinese public holidays 2025–2026 (State Council schedules) and what they do to prices.

Dates are the official days off, inclusive. On these days rule-made flights sell near full
fare (the upper third of the real fares' spread up to 100 %), and on the four toll-free
holidays (春节, 清明节, 劳动节, 国庆节) small passenger cars use expressways free, so
self-drive costs fuel only. Train fares are regulated and do not change; real records keep the
fares their source gives.

The table is checked against the `holidays` package (PyPI; a dev dependency, too large to ship
for thirteen rows) by `tests/unit/sandbox/world/test_world_holidays_table.py`.
"""

from __future__ import annotations

import datetime as dt

HOLIDAYS: tuple[tuple[str, str, str], ...] = (
    ("元旦", "2025-01-01", "2025-01-01"),
    ("春节", "2025-01-28", "2025-02-04"),
    ("清明节", "2025-04-04", "2025-04-06"),
    ("劳动节", "2025-05-01", "2025-05-05"),
    ("端午节", "2025-05-31", "2025-06-02"),
    ("国庆节", "2025-10-01", "2025-10-08"),
    ("元旦", "2026-01-01", "2026-01-03"),
    ("春节", "2026-02-15", "2026-02-23"),
    ("清明节", "2026-04-04", "2026-04-06"),
    ("劳动节", "2026-05-01", "2026-05-05"),
    ("端午节", "2026-06-19", "2026-06-21"),
    ("中秋节", "2026-09-25", "2026-09-27"),
    ("国庆节", "2026-10-01", "2026-10-07"),
)
"""(name, first day, last day); 2025's 国庆节 includes 中秋节 (10-06)."""
TOLL_FREE = frozenset({"春节", "清明节", "劳动节", "国庆节"})


def holiday(date: dt.date) -> str | None:
    """The public holiday a date falls in, or None."""
    day = date.isoformat()
    return next((name for name, first, last in HOLIDAYS if first <= day <= last), None)


def toll_free(date: dt.date) -> bool:
    """Whether expressways are free for small passenger cars on a date."""
    return holiday(date) in TOLL_FREE
