"""Weather by latitude, altitude and season: 拉萨 in July is mild, not a lowland summer."""

from __future__ import annotations

import datetime as dt
import statistics

from sandbox.tools.geo_weather import day_forecast
from sandbox.world.elevation import elevation_m
from sandbox.world.geography import curated_cities


def _month(city: str, month: int) -> tuple[float, float]:
    record = curated_cities()[city].city
    days = [day_forecast(record, dt.date(2025, month, d)) for d in range(1, 29)]
    return statistics.mean(d["daytemp"] for d in days), statistics.mean(d["nighttemp"] for d in days)


def test_lhasa_in_july_is_mild_and_its_nights_cool() -> None:
    assert elevation_m("拉萨市") == 3650 and elevation_m("上海市") == 0
    record = curated_cities()["拉萨市"].city
    day = day_forecast(record, dt.date(2025, 7, 15))
    assert (day["daytemp"], day["nighttemp"]) == (21, 6)
    high, low = _month("拉萨市", 7)
    assert 20 <= high <= 26 and 4 <= low <= 11
    assert high - low >= 13  # the thin air's wide day–night spread


def test_altitude_cools_against_a_lowland_city_of_the_same_latitude() -> None:
    lhasa, yibin = _month("拉萨市", 7), _month("宜宾市", 7)
    assert yibin[0] - lhasa[0] >= 8
    winter_high, winter_low = _month("拉萨市", 1)
    assert winter_low < -8 < winter_high
