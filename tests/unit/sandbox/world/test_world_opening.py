"""Opening-hour semantics: seasons (with year wrap), weekday closures, lunch breaks, overnight."""

from __future__ import annotations

import datetime as dt

from sandbox.world.model import OpeningHours, OpeningRule, Window
from sandbox.world.opening import in_season, merge, windows_on

ALL = (1, 2, 3, 4, 5, 6, 7)
MON = dt.date(2025, 9, 1)  # a Monday


def test_always_open_and_no_data_are_none() -> None:
    assert windows_on(None, MON) is None
    assert windows_on(OpeningHours(True), MON) is None
    assert windows_on(OpeningHours(False, ()), MON) is None


def test_weekly_closure_is_closed() -> None:
    h = OpeningHours(False, (OpeningRule(None, (2, 3, 4, 5, 6, 7), (Window(540, 1020),)),))
    assert windows_on(h, MON) == ()
    assert windows_on(h, MON + dt.timedelta(days=1)) == (Window(540, 1020),)


def test_lunch_break_gives_two_windows() -> None:
    h = OpeningHours(False, (OpeningRule(None, ALL, (Window(840, 1020), Window(540, 690))),))
    assert windows_on(h, MON) == (Window(540, 690), Window(840, 1020))


def test_season_with_year_wrap() -> None:
    h = OpeningHours(
        False,
        (
            OpeningRule(("03-01", "11-30"), ALL, (Window(450, 1080),)),
            OpeningRule(("12-01", "02-29"), ALL, (Window(510, 1020),)),
        ),
    )
    assert windows_on(h, dt.date(2025, 11, 30)) == (Window(450, 1080),)
    assert windows_on(h, dt.date(2025, 12, 1)) == (Window(510, 1020),)
    assert windows_on(h, dt.date(2026, 1, 15)) == (Window(510, 1020),)
    assert windows_on(h, dt.date(2028, 2, 29)) == (Window(510, 1020),)
    assert in_season(("11-01", "03-31"), dt.date(2025, 4, 1)) is False
    assert in_season(None, dt.date(2025, 4, 1)) is True


def test_off_season_is_closed() -> None:
    h = OpeningHours(False, (OpeningRule(("05-01", "10-31"), ALL, (Window(480, 1140),)),))
    assert windows_on(h, dt.date(2025, 11, 1)) == ()


def test_weekday_and_weekend_rules_are_united_not_first_wins() -> None:
    h = OpeningHours(
        False,
        (
            OpeningRule(None, (1, 2, 3, 4, 5), (Window(600, 1080),)),
            OpeningRule(None, (6, 7), (Window(570, 1260),)),
        ),
    )
    assert windows_on(h, MON + dt.timedelta(days=5)) == (Window(570, 1260),)
    assert windows_on(h, MON) == (Window(600, 1080),)


def test_overnight_window_spills_into_the_next_day() -> None:
    h = OpeningHours(False, (OpeningRule(None, (1,), (Window(1080, 1560),)),))
    assert windows_on(h, MON) == (Window(1080, 1560),)
    assert windows_on(h, MON + dt.timedelta(days=1)) == (Window(0, 120),)
    assert windows_on(h, MON + dt.timedelta(days=2)) == ()


def test_merge_joins_touching_and_overlapping() -> None:
    assert merge([Window(600, 700), Window(0, 120), Window(650, 800), Window(800, 900)]) == (
        Window(0, 120),
        Window(600, 900),
    )
