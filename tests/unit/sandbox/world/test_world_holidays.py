"""Public holidays: the table, dearer rule flights, toll-free self-drive; trains unchanged."""

from __future__ import annotations

import datetime as dt

from sandbox.world.holidays import holiday, toll_free
from tests.fixtures.tools_world import tools_world

WORLD = tools_world()
EVE, NATIONAL_DAY = dt.date(2025, 9, 30), dt.date(2025, 10, 1)


def test_holiday_table() -> None:
    assert [holiday(dt.date(2025, 10, d)) for d in (1, 8, 9)] == ["国庆节", "国庆节", None]
    assert holiday(dt.date(2026, 2, 17)) == "春节" and toll_free(dt.date(2026, 2, 17))
    assert holiday(dt.date(2026, 6, 20)) == "端午节" and not toll_free(dt.date(2026, 6, 20))


def _fares(a: str, b: str, date: dt.date, mode: str) -> dict[str, int]:
    return {o.code: o.fare_fen for o in WORLD.intercity_options(a, b, date) if o.mode == mode}


def test_self_drive_is_toll_free_and_trains_keep_their_fares() -> None:
    assert _fares("杭州市", "上海市", EVE, "自驾") == {"自驾": 7500}
    assert _fares("杭州市", "上海市", NATIONAL_DAY, "自驾") == {"自驾": 4300}
    assert _fares("杭州市", "上海市", EVE, "高铁") == _fares("杭州市", "上海市", NATIONAL_DAY, "高铁")
