"""Regional rules for synthetic facts: the local working clock and the hotel price tier.

China keeps one clock (UTC+8), but the west lives later: in Xinjiang shops, offices and
restaurants keep "Xinjiang time" (about two hours behind Beijing: lunch from ~13:30, dinner
from ~19:30), in Tibet and Qinghai about an hour, in Gansu and Ningxia about half an hour
(docs/world.md). Synthetic opening hours there shift later by `clock_shift`.

Hotel rooms follow the city tier more steeply than meals and tickets: a luxury room in a
county town costs well under one in Shanghai (`hotel_level`).
"""

from __future__ import annotations

from sandbox.world.geography import CityInfo

CLOCK_SHIFT_MIN = {
    "新疆维吾尔自治区": 120,
    "西藏自治区": 60,
    "青海省": 60,
    "甘肃省": 30,
    "宁夏回族自治区": 30,
}
HOTEL_LEVEL = {1.30: 1.30, 1.15: 1.10}
PREFECTURE_HOTEL_LEVEL = 0.90
COUNTY_HOTEL_LEVEL = 0.75


def clock_shift(info: CityInfo) -> int:
    """Minutes by which the city's day runs later than Beijing's (0 in the east)."""
    return CLOCK_SHIFT_MIN.get(info.city.province, 0)


def hotel_level(info: CityInfo) -> float:
    """Room-price multiplier: 1.30 for 北上广深, 1.10 for the high-cost cities (price level 1.15),
    0.90 for other prefecture-level cities, 0.75 for county-level ones (adcode not ending 00)."""
    if info.price_level in HOTEL_LEVEL:
        return HOTEL_LEVEL[info.price_level]
    return PREFECTURE_HOTEL_LEVEL if info.city.adcode.endswith("00") else COUNTY_HOTEL_LEVEL
