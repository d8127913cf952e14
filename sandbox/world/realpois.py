"""Real records (`sandbox.world.realdata`) as world POIs, their facts taken as the source gives them.

ChinaTravel gives position, one daily opening window ("0:00–24:00" = always open), ticket or
average spend in CNY, recommended visit hours and a rating; the world's category is read from
the name (`categories.named_category` words) or else from ChinaTravel's first type tag
(`TAG_CATEGORY`); hotels are classed by feature, else by room price (`hotel_category`). A 5A
list record gives only name, position and grade: the rest follows the 5A景区 rules of
`categories` (marked in docs/world.md). Ratings the source lacks are drawn (3.8–4.8).
"""

from __future__ import annotations

import random

from sandbox.world.categories import NAMED_RULES, attraction_spec, food_spec
from sandbox.world.geography import CityInfo
from sandbox.world.hours import opening_hours
from sandbox.world.model import OpeningHours, OpeningRule, Poi, Window
from sandbox.world.realdata import RealCity, Row

ALL_DAYS = (1, 2, 3, 4, 5, 6, 7)
MIN_VISIT = 15
TAG_CATEGORY = {
    "历史古迹": "文物古迹", "博物馆/纪念馆": "博物馆", "自然风光": "自然风光", "人文景观": "人文景观",
    "大学校园": "人文景观", "美术馆/艺术馆": "博物馆", "红色景点": "红色景点", "游乐园/体育娱乐": "游乐园",
    "图书馆": "人文景观", "园林": "园林", "文化旅游区": "4A景区", "公园": "公园", "商业街区": "特色街区",
}  # fmt: skip
CUISINE_CATEGORY = {
    "小吃": "特色小吃",
    "快餐简餐": "小吃快餐",
    "其他中餐": "中餐",
    "其他": "中餐",
    "西餐": "西餐厅(综合风味)",
}
HOTEL_FEATURE = {
    "民宿": "民宿",
    "客栈": "客栈",
    "电竞酒店": "电竞酒店",
    "电竞房": "电竞酒店",
    "酒店公寓": "公寓式酒店",
}
HOTEL_PRICE_CLASSES = ((350, "经济型"), (600, "舒适型"), (1200, "高档型"))


def _hm(text: str) -> int:
    h, m = text.split(":")
    return int(h) * 60 + int(m)


def daily_window(open_: str, close: str) -> OpeningHours:
    """One window every day; 0:00–24:00 (or an open equal to the close) is always open; a close
    before the open runs past midnight."""
    a, b = _hm(open_), _hm(close)
    if (a == 0 and b >= 1440) or a % 1440 == b % 1440:
        return OpeningHours(True)
    return OpeningHours(False, (OpeningRule(None, ALL_DAYS, (Window(a, b if b > a else b + 1440),)),))


def attraction_category(row: Row) -> str:
    """The world category of a real attraction."""
    if row["grade"] == "5A":
        return "5A景区"
    by_name = next((cat for word, cat in NAMED_RULES if word in row["name"]), None)
    if by_name is not None:
        return by_name
    first = row["tags"].split(";")[0] if row["tags"] else ""
    return TAG_CATEGORY.get(first, "特色景点")


def hotel_category(row: Row) -> str:
    """By feature (民宿, 客栈, 电竞, 公寓), else by double-room price: <350 经济型, <600 舒适型,
    <1200 高档型, else 豪华型 (CNY)."""
    if row["feature"] in HOTEL_FEATURE:
        return HOTEL_FEATURE[row["feature"]]
    room = float(row["room_cny"])
    return next((cat for limit, cat in HOTEL_PRICE_CLASSES if room < limit), "豪华型")


def _fen(cny: str) -> int:
    return round(float(cny) * 100)


def _address(real: RealCity, info: CityInfo, lon: float, lat: float) -> str:
    return info.city.name + (real.district_of(lon, lat) or "")


def real_attraction(
    row: Row, info: CityInfo, real: RealCity, name: str, *, aliases: tuple[str, ...], r: random.Random
) -> Poi:
    """A real attraction under `name` (a task's name for it, or its own) with its other names."""
    category = attraction_category(row)
    lon, lat = float(row["lon"]), float(row["lat"])
    if row["source"] == "ChinaTravel":
        low, high = float(row["visit_min_h"] or 0), float(row["visit_max_h"] or 0)
        visit = (max(MIN_VISIT, round(low * 60)), max(MIN_VISIT, round(low * 60), round(high * 60)))
        price, rating = _fen(row["price_cny"] or "0"), float(row["rating"] or 4.5)
        opening = daily_window(row["open"], row["close"])
    else:
        spec = attraction_spec(category)
        visit, rating = spec.visit, round(r.uniform(4.3, 4.9), 1)
        price = round(r.uniform(*spec.price) * info.price_level / 5) * 500
        opening = opening_hours(spec.hours, r, off_season_ok=False)
    return Poi(
        "", name, info.city.name, "attraction", category, lon, lat, price, 0, visit[0], visit[1], rating,
        _address(real, info, lon, lat), opening, row["source"], aliases,
    )  # fmt: skip


def real_hotel(row: Row, info: CityInfo, real: RealCity, r: random.Random) -> Poi:
    """A real hotel: its double-room price, always open."""
    lon, lat = float(row["lon"]), float(row["lat"])
    room = _fen(row["room_cny"])
    return Poi(
        "", row["name"], info.city.name, "hotel", hotel_category(row), lon, lat, room // 2, room, 0, 0,
        round(r.uniform(3.8, 4.8), 1), _address(real, info, lon, lat), OpeningHours(True), row["source"],
    )  # fmt: skip


def real_restaurant(row: Row, info: CityInfo, real: RealCity, r: random.Random) -> Poi:
    """A real restaurant: its cuisine (as a world category), average spend and daily hours."""
    lon, lat = float(row["lon"]), float(row["lat"])
    category = CUISINE_CATEGORY.get(row["cuisine"], row["cuisine"])
    visit = food_spec(category).visit
    return Poi(
        "", row["name"], info.city.name, "restaurant", category, lon, lat, _fen(row["price_cny"]), 0,
        visit[0], visit[1], round(r.uniform(3.8, 4.8), 1), _address(real, info, lon, lat),
        daily_window(row["open"], row["close"]), row["source"],
    )  # fmt: skip
