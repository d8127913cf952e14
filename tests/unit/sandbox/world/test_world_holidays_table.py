"""The hand-written holiday table against the `holidays` package (dev dependency): each entry is
one break of the State Council schedule — the package's holidays and in-lieu days off, plus the
weekends that are not swapped working days (调休), as maximal runs of days off."""

from __future__ import annotations

import datetime as dt

from holidays.countries.china import China

from sandbox.world.holidays import HOLIDAYS, TOLL_FREE

NAMES = ("元旦", "春节", "清明节", "劳动节", "端午节", "中秋节", "国庆节")


def _breaks(year: int) -> list[tuple[str, str, str]]:
    cn = China(years=year, language="zh_CN")  # type: ignore[no-untyped-call]
    workdays = set(cn.weekend_workdays)
    day, end = dt.date(year, 1, 1), dt.date(year, 12, 31)
    runs: list[list[dt.date]] = []
    while day <= end:
        if day in cn or (day.weekday() >= 5 and day not in workdays):
            if runs and runs[-1][-1] == day - dt.timedelta(days=1):
                runs[-1].append(day)
            else:
                runs.append([day])
        day += dt.timedelta(days=1)
    out = []
    for run in runs:
        named = [n for d in run for n in NAMES if str(cn.get(d, "")).startswith(n)]
        if named:
            out.append((named[0], run[0].isoformat(), run[-1].isoformat()))
    return out


def test_table_is_the_state_council_schedule() -> None:
    assert list(HOLIDAYS) == _breaks(2025) + _breaks(2026)


def test_toll_free_holidays_are_in_the_table() -> None:
    assert {name for name, _, _ in HOLIDAYS} >= TOLL_FREE == {"春节", "清明节", "劳动节", "国庆节"}
