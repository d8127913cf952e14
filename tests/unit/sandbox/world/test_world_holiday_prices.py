"""Holiday prices: hotel nights into a day off and theme-park tickets dearer; World and tools agree."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.tools import call_tool
from sandbox.world.holiday_prices import HolidayPrice, holiday_prices, price_on
from sandbox.world.model import Poi
from tests.fixtures.tools_world import tools_world

WORLD = tools_world()
HOTEL = Poi(
    "330100H9", "湖滨酒店", "杭州市", "hotel", "舒适型", 120.16, 30.26, 20000, 40000, 0, 0, 4.5, "", None
)
PARK = Poi(
    "330100A9", "乐园", "杭州市", "attraction", "游乐园", 120.1, 30.2, 39900, 0, 180, 360, 4.6, "", None
)
MUSEUM = replace(PARK, category="博物馆", price_fen=5000)
MEAL = replace(HOTEL, kind="restaurant", category="杭帮菜", price_fen=9000, room_price_fen=0)


def _day(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def test_hotel_nights_into_a_day_off_cost_more() -> None:
    nights = ["2025-09-29", "2025-09-30", "2025-10-01", "2025-10-07", "2025-10-08"]
    assert [price_on(HOTEL, _day(d)) for d in nights] == [20000, 30000, 30000, 30000, 20000]
    assert price_on(HOTEL, _day("2025-04-03")) == 24000, "清明节: a short break, room × 1.2"
    assert price_on(HOTEL, _day("2026-02-16")) == 30000, "春节 in 杭州: a long break"
    assert price_on(replace(HOTEL, city="北京市"), _day("2026-02-16")) == 20000, "春节 in 北京: quiet"


def test_theme_park_tickets_cost_more_on_days_off_only() -> None:
    days = ["2025-09-30", "2025-10-01", "2025-10-08", "2025-10-09"]
    assert [price_on(PARK, _day(d)) for d in days] == [39900, 70000, 70000, 39900]
    assert price_on(MUSEUM, _day("2025-10-01")) == 5000, "government-priced tickets do not rise"
    assert price_on(replace(PARK, price_fen=0), _day("2025-10-01")) == 0
    assert price_on(MEAL, _day("2025-10-01")) == 9000


def test_holiday_price_list_of_a_hotel() -> None:
    listed = holiday_prices(HOTEL)
    assert len(listed) == 13
    assert listed[0] == HolidayPrice("元旦", _day("2024-12-31"), _day("2024-12-31"), 24000, 48000)
    assert listed[5] == HolidayPrice("国庆节", _day("2025-09-30"), _day("2025-10-07"), 30000, 60000)
    assert len(holiday_prices(replace(HOTEL, city="上海市"))) == 11, "no 春节 surcharge in 上海"
    assert holiday_prices(MUSEUM) == holiday_prices(MEAL) == ()


@settings(max_examples=60, deadline=None)
@given(
    poi=st.sampled_from([HOTEL, PARK, MUSEUM, MEAL, replace(HOTEL, city="广州市")]),
    price=st.integers(0, 300_000),
    date=st.dates(dt.date(2024, 12, 1), dt.date(2026, 12, 31)),
)
def test_the_price_of_a_date_is_the_listed_holiday_price_or_the_ordinary_one(
    poi: Poi, price: int, date: dt.date
) -> None:
    place = replace(poi, price_fen=price, room_price_fen=2 * price if poi.kind == "hotel" else 0)
    listed = [p.price_fen for p in holiday_prices(place) if p.first <= date <= p.last]
    assert price_on(place, date) == (listed[0] if listed else price)
    assert price_on(place, date) >= price


def test_world_answers_dated_prices_by_name() -> None:
    assert WORLD.price_fen_on("杭州", "如家酒店(龙翔桥店)", _day("2025-10-01")) == 21000
    assert WORLD.price_fen_on("杭州市", "如家酒店(龙翔桥店)", _day("2025-10-09")) == 13950
    assert WORLD.price_fen_on("杭州市", "宋城", _day("2025-10-01")) == 54500
    assert WORLD.price_fen_on("杭州市", "楼外楼", _day("2025-10-01")) == 15000
    assert WORLD.price_fen_on("杭州市", "火星酒店", _day("2025-10-01")) is None


def _ask(name: str, **args: Any) -> Any:
    answer = call_tool(name, args, WORLD, None)
    assert answer.provenance == "world", answer.text
    return json.loads(answer.text)


def test_search_poi_shows_the_holiday_prices_and_their_dates() -> None:
    (hotel,) = _ask("search_poi", keywords="如家", city="杭州市")["pois"]
    assert hotel["price"] == 139.5 and hotel["room_price"] == 279
    assert hotel["holiday_price"] == (
        "节假日房价（按入住日期）："
        "每人每晚 165 元（整间 330 元）：元旦 2024-12-31、清明节 2025-04-03至04-05、"
        "端午节 2025-05-30至06-01、元旦 2025-12-31至2026-01-02、清明节 2026-04-03至04-05、"
        "端午节 2026-06-18至06-20、中秋节 2026-09-24至09-26；"
        "每人每晚 210 元（整间 420 元）：春节 2025-01-27至02-03、劳动节 2025-04-30至05-04、"
        "国庆节 2025-09-30至10-07、春节 2026-02-14至02-22、劳动节 2026-04-30至05-04、"
        "国庆节 2026-09-30至10-06"
    )
    (park,) = _ask("search_poi", keywords="宋城", city="杭州市")["pois"]
    assert park["holiday_price"].startswith("节假日门票：545 元/人：元旦 2025-01-01、春节 2025-01-28至02-04")
    (museum,) = _ask("search_poi", keywords="浙江省博物馆", city="杭州市")["pois"]
    assert "holiday_price" not in museum


def test_poi_detail_lists_each_holiday_and_agrees_with_the_world() -> None:
    for poi_id in ("330100H002", "330100A005"):
        detail = _ask("get_poi_detail", id=poi_id)
        rows = detail["holiday_prices"]
        assert len(rows) == 13
        key = "check_in_dates" if poi_id[6] == "H" else "dates"
        for row in rows:
            first, last = (_day(d) for d in row[key])
            for date in (first, last):
                assert WORLD.price_fen_on("杭州市", detail["name"], date) == round(row["price"] * 100)
            before = WORLD.price_fen_on("杭州市", detail["name"], first - dt.timedelta(days=1))
            assert before == round(detail["price"] * 100)
    national = _ask("get_poi_detail", id="330100H002")["holiday_prices"][5]
    assert national == {
        "holiday": "国庆节",
        "check_in_dates": ["2025-09-30", "2025-10-07"],
        "price": 210,
        "room_price": 420,
    }
