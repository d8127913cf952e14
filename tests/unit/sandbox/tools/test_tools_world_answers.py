"""Every tool's prices, times and opening windows agree with the World it answers from."""

from __future__ import annotations

import datetime as dt
import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.tools import call_tool
from sandbox.tools.call import NOT_FOUND, ToolAnswer
from sandbox.world.geography import haversine_km
from sandbox.world.model import OpeningHours, OpeningRule, Window
from sandbox.world.opening import windows_on
from tests.fixtures.tools_world import tools_world

WORLD = tools_world()
DATES = [dt.date(2025, 1, 6) + dt.timedelta(days=n) for n in range(0, 360, 37)]


def _ask(name: str, **args: Any) -> Any:
    answer = call_tool(name, args, WORLD, None)
    assert answer.provenance == "world", answer.text
    return json.loads(answer.text)


def _clock(minutes: int) -> str:
    return f"{minutes % 1440 // 60:02d}:{minutes % 60:02d}"


def _fen(price: float) -> int:
    return round(price * 100)


@pytest.mark.parametrize("date", DATES[:4])
def test_flights_are_the_worlds_departures(date: dt.date) -> None:
    got = _ask("travel_search_flights", origin="北京", destination="杭州市", date=date.isoformat())
    options = {o.code: o for o in WORLD.intercity_options("北京市", "杭州市", date) if o.mode == "飞机"}
    assert got["count"] == len(options) == len(got["flights"]) > 0
    for flight in got["flights"]:
        option = options[flight["flight_no"]]
        assert (flight["depart_airport"], flight["arrive_airport"]) == (option.from_hub, option.to_hub)
        assert (flight["depart_time"], flight["arrive_time"]) == (
            _clock(option.depart),
            _clock(option.arrive),
        )
        assert flight["arrive_day_offset"] == option.arrive // 1440
        assert flight["duration_minutes"] == option.arrive - option.depart
        assert _fen(flight["price"]) == option.fare_fen
    departs = [f["depart_time"] for f in got["flights"]]
    assert departs == sorted(departs)


def test_flight_filters_and_sorts() -> None:
    date = "2025-05-01"
    by_price = _ask(
        "travel_search_flights", origin="北京市", destination="杭州市", date=date, sort_by="price"
    )
    prices = [f["price"] for f in by_price["flights"]]
    assert prices == sorted(prices)
    window = _ask(
        "travel_search_flights",
        origin="北京市",
        destination="杭州市",
        date=date,
        depart_time_start="10:00",
        depart_time_end="16:00",
    )
    assert all("10:00" <= f["depart_time"] <= "16:00" for f in window["flights"])
    expected = [
        o
        for o in WORLD.intercity_options("北京市", "杭州市", dt.date(2025, 5, 1))
        if o.mode == "飞机" and 600 <= o.depart <= 960
    ]
    assert window["count"] == len(expected)
    nowhere = _ask("travel_search_flights", origin="北京市", destination="杭州市", date=date, airport="大兴")
    assert nowhere["count"] == 0 and nowhere["flights"] == []


@pytest.mark.parametrize(
    "airport", ["PEK", "pek", "HGH", "首都", "首都机场", "首都机场T3", "T2", "3号航站楼", "萧山"]
)
def test_flight_airport_filter_by_code_name_or_terminal(airport: str) -> None:
    date = "2025-05-01"
    every = _ask("travel_search_flights", origin="北京市", destination="杭州市", date=date)
    some = _ask("travel_search_flights", origin="北京市", destination="杭州市", date=date, airport=airport)
    assert some == every and every["count"] > 0
    assert {f["source"] for f in every["flights"]} == {"ChinaTravel"}


def test_trains_are_the_worlds_rail_departures() -> None:
    date = dt.date(2025, 5, 1)
    got = _ask("travel_search_trains", origin="上海市", destination="杭州市", date=date.isoformat())
    options = {
        o.code: o for o in WORLD.intercity_options("上海市", "杭州市", date) if o.mode in ("高铁", "火车")
    }
    assert got["count"] == len(options)
    for train in got["trains"]:
        option = options[train["train_no"]]
        assert (train["depart_station"], train["arrive_station"]) == (option.from_hub, option.to_hub)
        assert (train["depart_time"], train["arrive_time"]) == (_clock(option.depart), _clock(option.arrive))
        assert _fen(train["price"]) == option.fare_fen
    fast = [t["train_no"][0] in "GCD" for t in got["trains"]]
    assert fast == sorted(fast, reverse=True)
    regular = _ask(
        "travel_search_trains",
        origin="上海市",
        destination="杭州市",
        date="2025-05-01",
        train_type_filter="regular",
    )
    assert regular["count"] == sum(1 for o in options.values() if o.mode == "火车")
    assert all(t["train_type"] == "普通列车" for t in regular["trains"])
    by_duration = _ask(
        "travel_search_trains", origin="上海市", destination="杭州市", date="2025-05-01", sort_by="duration"
    )
    durations = [t["duration_minutes"] for t in by_duration["trains"]]
    assert durations == sorted(durations)


def test_no_flights_between_near_cities() -> None:
    got = _ask("travel_search_flights", origin="上海市", destination="杭州市", date="2025-05-01")
    assert got["count"] == 0


def _check_poi_entry(entry: dict[str, Any]) -> None:
    poi = WORLD.poi_by_id(entry["id"])
    assert poi is not None and entry["name"] == poi.name
    assert _fen(entry["price"]) == poi.price_fen
    if poi.kind == "hotel":
        assert _fen(entry["room_price"]) == poi.room_price_fen
    assert entry["location"] == f"{poi.lon:.6f},{poi.lat:.6f}"


def test_search_poi_prices_filters_and_pages() -> None:
    everything = _ask("search_poi", keywords="杭州", city="杭州市", page_size=20)
    assert everything["count"] == 0
    hotpot = _ask("search_poi", keywords="火锅", city="杭州", sort_by="price_low")
    assert [p["name"] for p in hotpot["pois"]] == ["小龙坎火锅", "海底捞火锅(湖滨店)"]
    for entry in hotpot["pois"]:
        _check_poi_entry(entry)
    cheap = _ask("search_poi", keywords="酒店 火锅", city="杭州市", price_max=140)
    assert {p["name"] for p in cheap["pois"]} == {"小龙坎火锅", "如家酒店(龙翔桥店)", "海底捞火锅(湖滨店)"}
    region = _ask("search_poi", keywords="酒店", city="杭州市", region="西湖区")
    assert [p["name"] for p in region["pois"]] == ["西湖国宾馆"]
    near = _ask("search_poi", keywords="火锅", city="杭州市", location="西湖风景区", radius_km=3)
    assert [p["name"] for p in near["pois"]] == ["海底捞火锅(湖滨店)"]
    assert near["pois"][0]["distance_m"] == round(haversine_km(120.148, 30.242, 120.165, 30.259) * 1000)
    every = "火锅 酒店 宾馆 博物馆 寺庙 夜市 自然风光 主题公园 杭帮菜"
    pages = [
        _ask("search_poi", keywords=every, city="杭州市", page=n, page_size=4)["pois"] for n in (1, 2, 3)
    ]
    full = _ask("search_poi", keywords=every, city="杭州市", page_size=20)["pois"]
    assert [p["id"] for page in pages for p in page] == [p["id"] for p in full]
    assert len(full) == len(WORLD.pois("杭州市"))


def _rules_back(rules: list[dict[str, Any]] | None, always: bool) -> OpeningHours | None:
    if rules is None:
        return None if not always else OpeningHours(True)
    return OpeningHours(
        False,
        tuple(
            OpeningRule(
                tuple(rule["season"]) if rule["season"] else None,  # type: ignore[arg-type]
                tuple(rule["weekdays"]),
                tuple(Window(w["open"], w["close"]) for w in rule["windows"]),
            )
            for rule in rules
        ),
    )


@pytest.mark.parametrize("poi", [p for city in WORLD.cities for p in WORLD.pois(city)], ids=lambda p: p.id)
def test_poi_detail_opening_rules_give_the_worlds_windows(poi: Any) -> None:
    detail = _ask("get_poi_detail", id=poi.id)
    _check_poi_entry(detail)
    hours = _rules_back(detail["opening_rules"], detail["always_open"])
    for date in [*DATES, dt.date(2025, 11, 1), dt.date(2025, 2, 28), dt.date(2025, 3, 1)]:
        assert windows_on(hours, date) == WORLD.opening_windows(poi.city, poi.name, date)
    if poi.kind == "attraction":
        assert detail["min_visit_minutes"] == poi.min_visit_minutes


def test_opening_hours_text() -> None:
    assert (
        _ask("get_poi_detail", id="330100A002")["opening_hours"]
        == "周二至周日 09:00-17:00；周一 不开放；其余时间不开放"
    )
    assert (
        _ask("get_poi_detail", id="330100A004")["opening_hours"]
        == "周一至周日 18:00-次日02:00；其余时间不开放"
    )
    assert (
        _ask("get_poi_detail", id="330100R001")["opening_hours"]
        == "周一至周日 11:00-14:00、17:00-21:00；其余时间不开放"
    )
    assert _ask("get_poi_detail", id="330100A001")["opening_hours"] == "全天开放"
    assert _ask("get_poi_detail", id="330100A005")["opening_hours"].startswith("暂无营业时间信息")


MODES = {"transit": "公共交通", "driving": "自驾", "walking": "步行", "bicycling": "骑车", "taxi": "打车"}
PAIRS = [
    ("西湖风景区", "灵隐寺"),
    ("杭州东站", "楼外楼"),
    ("西湖国宾馆", "西湖国宾馆"),
    ("萧山机场(HGH)", "宋城"),
]


@pytest.mark.parametrize(("origin", "destination"), PAIRS)
def test_routes_are_the_worlds_transfers(origin: str, destination: str) -> None:
    compared = _ask("compare_routes", origin=origin, destination=destination)
    assert [r["mode"] for r in compared["routes"]] == ["driving", "taxi", "transit", "walking", "bicycling"]
    for route in compared["routes"]:
        move = WORLD.transfer("杭州市", origin, destination, MODES[route["mode"]])
        assert move is not None
        assert (route["duration_minutes"], _fen(route["cost"])) == (move.minutes, move.cost_fen)
    for mode in ("transit", "driving", "walking", "bicycling"):
        planned = _ask("plan_route", origin=origin, destination=destination, mode=mode, city="杭州市")
        move = WORLD.transfer("杭州市", origin, destination, MODES[mode])
        assert move is not None
        assert (planned["routes"][0]["duration_minutes"], _fen(planned["routes"][0]["cost"])) == (
            move.minutes,
            move.cost_fen,
        )


def test_routes_accept_coordinates_printed_by_other_tools() -> None:
    geo = _ask("maps_geo", address="灵隐寺", city="杭州市")["geocodes"][0]
    assert geo["location"] == "120.101000,30.241000"
    by_coords = _ask("plan_route", origin=geo["location"], destination="杭州东站", mode="walking")
    by_name = _ask("plan_route", origin="灵隐寺", destination="杭州东站", mode="walking")
    assert by_coords["routes"] == by_name["routes"]
    assert by_coords["origin"]["name"] == "灵隐寺"


def test_cross_city_routes_offer_the_worlds_self_drive() -> None:
    drive = next(
        o for o in WORLD.intercity_options("杭州市", "上海市", dt.date(2025, 1, 1)) if o.mode == "自驾"
    )
    plan = _ask("plan_route", origin="西湖风景区", destination="外滩", mode="driving")
    compare = _ask("compare_routes", origin="西湖风景区", destination="外滩", city="杭州市")
    assert plan == compare
    assert (plan["city"], plan["destination_city"]) == ("杭州市", "上海市")
    assert plan["routes"] == [
        {
            "mode": "driving",
            "mode_name": "自驾",
            "duration_minutes": drive.arrive - drive.depart,
            "duration": "2小时40分",
            "cost": 75,
            "distance_km": 214.34,
            "from_hub": "杭州市",
            "to_hub": "上海市",
            "source": "synthetic",
        }
    ]
    assert (drive.arrive - drive.depart, drive.fare_fen) == (160, 7500)
    walking = call_tool(
        "plan_route", {"origin": "西湖风景区", "destination": "外滩", "mode": "walking"}, WORLD, None
    )
    assert walking.error and walking.provenance == "world"
    assert "不在同一城市：跨城只提供自驾" in json.loads(walking.text)["error"]
    far = call_tool("compare_routes", {"origin": "西湖风景区", "destination": "北京南站"}, WORLD, None)
    assert json.loads(far.text)["error"].startswith("'杭州市' 到 '北京市' 超出自驾范围")


def _segment_distance_m(point: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """Point-to-segment distance in an equirectangular plane around the segment (metres)."""
    kx = 111_320.0 * math.cos(math.radians((a[1] + b[1]) / 2))
    px, py = (point[0] - a[0]) * kx, (point[1] - a[1]) * 111_320.0
    bx, by = (b[0] - a[0]) * kx, (b[1] - a[1]) * 111_320.0
    t = max(0.0, min(1.0, (px * bx + py * by) / (bx * bx + by * by)))
    return math.hypot(px - t * bx, py - t * by)


def test_search_along_route_corridor() -> None:
    ask = {"origin": "西湖风景区", "destination": "杭州东站", "keywords": "火锅"}
    assert _ask("search_along_route", **ask, route_range=50)["count"] == 0
    assert [p["name"] for p in _ask("search_along_route", **ask, route_range=100)["pois"]] == ["小龙坎火锅"]
    wide = _ask("search_along_route", **ask, route_range=3000)
    assert [p["name"] for p in wide["pois"]] == ["海底捞火锅(湖滨店)", "小龙坎火锅"]
    move = WORLD.transfer("杭州市", "西湖风景区", "杭州东站", "自驾")
    assert move is not None and wide["route"]["duration_minutes"] == move.minutes
    for entry in wide["pois"]:
        _check_poi_entry(entry)
        poi = WORLD.poi_by_id(entry["id"])
        assert poi is not None
        expected = _segment_distance_m((poi.lon, poi.lat), (120.148, 30.242), (120.212601, 30.290851))
        assert abs(entry["distance_to_route_m"] - expected) <= 1
    limited = _ask("search_along_route", **ask, route_range=3000, poi_limit=1)
    assert [p["name"] for p in limited["pois"]] == ["海底捞火锅(湖滨店)"]
    second = call_tool(
        "search_along_route",
        {"origin": "西湖风景区", "destination": "杭州东站", "keywords": "火锅", "route_index": 2},
        WORLD,
        None,
    )
    assert second.error and "route_index" in json.loads(second.text)["error"]


def test_geocoding() -> None:
    assert _ask("maps_geo", address="杭州市")["geocodes"][0]["level"] == "城市"
    hub = _ask("maps_geo", address="杭州东站")["geocodes"][0]
    assert hub["level"] == "交通枢纽" and hub["location"] == "120.212601,30.290851"
    prefixed = _ask("maps_geo", address="杭州西湖风景区")["geocodes"][0]
    assert (prefixed["name"], prefixed["formatted_address"]) == ("西湖风景区", "浙江省杭州市西湖风景区")
    partial = _ask("maps_geo", address="火锅", city="杭州市")
    assert [g["name"] for g in partial["geocodes"]] == ["海底捞火锅(湖滨店)", "小龙坎火锅"]
    assert _ask("maps_geo", address="不存在的地方", city="杭州市") == {"count": 0, "geocodes": []}
    assert call_tool("maps_geo", {"address": "不存在的地方"}, WORLD, None) == ToolAnswer(
        NOT_FOUND, "world", False
    )


def test_weather_is_a_function_of_city_and_date() -> None:
    three = _ask("maps_weather", location="杭州市", date="2025-07-30", days=2)["forecasts"]
    assert [f["date"] for f in three] == ["2025-07-30", "2025-07-31", "2025-08-01"]
    assert _ask("maps_weather", location="杭州", date="2025-08-01")["forecasts"] == [three[2]]
    assert all(f["daytemp"] > f["nighttemp"] for f in three)
    assert three[0]["week"] == "星期三"
    winter_north = _ask("maps_weather", location="北京市", date="2025-01-15")["forecasts"][0]
    summer_south = _ask("maps_weather", location="杭州市", date="2025-07-15")["forecasts"][0]
    assert winter_north["daytemp"] < summer_south["nighttemp"]


def test_web_search_quotes_the_worlds_facts() -> None:
    got = _ask("web_search", query="灵隐寺 门票 开放时间")
    assert [r["poi_id"] for r in got["results"]] == ["330100A003"]
    assert "门票：45 元/人" in got["results"][0]["snippet"]
    assert "03-01至10-31 周一至周日 07:00-18:00" in got["results"][0]["snippet"]
    assert call_tool("web_search", {"query": "杭州有什么好玩的"}, WORLD, None).text == NOT_FOUND


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["北京市", "上海市", "杭州市"]),
    st.sampled_from(["北京市", "上海市", "杭州市"]),
    st.dates(dt.date(2024, 1, 1), dt.date(2026, 12, 31)),
    st.sampled_from([None, "depart_time", "price", "duration", "depart_time_desc"]),
)
def test_every_listed_train_exists_in_the_world(
    origin: str, destination: str, date: dt.date, sort_by: str | None
) -> None:
    answer = call_tool(
        "travel_search_trains",
        {"origin": origin, "destination": destination, "date": date.isoformat(), "sort_by": sort_by},
        WORLD,
        None,
    )
    got = json.loads(answer.text)
    real = {
        (o.code, o.depart, o.arrive, o.fare_fen) for o in WORLD.intercity_options(origin, destination, date)
    }
    for train in got["trains"]:
        start = int(train["depart_time"][:2]) * 60 + int(train["depart_time"][3:])
        arrive = start + train["duration_minutes"]
        assert (train["train_no"], start, arrive, _fen(train["price"])) in real


PLACES = [p.name for c in WORLD.cities for p in WORLD.pois(c)] + [
    "杭州东站",
    "外滩",
    "120.101000,30.241000",
    "不存在",
]
TEXT = st.sampled_from([*PLACES, "火锅", "博物馆", "酒店 火锅", "杭州市", "北京", "上海市"])
CITY = st.none() | st.sampled_from(["杭州市", "上海", "北京市"])
PLAUSIBLE: dict[str, Any] = {
    "maps_geo": st.fixed_dictionaries({"address": TEXT}, optional={"city": CITY}),
    "maps_weather": st.fixed_dictionaries(
        {"location": st.sampled_from(["杭州市", "北京"]), "date": st.dates().map(str)},
        optional={"days": st.integers(0, 4)},
    ),
    "web_search": st.fixed_dictionaries({"query": TEXT}),
    "search_poi": st.fixed_dictionaries(
        {"keywords": TEXT, "city": st.sampled_from(["杭州市", "上海市"])},
        optional={
            "location": st.none() | st.sampled_from(PLACES),
            "radius_km": st.none() | st.floats(0.1, 50),
            "price_max": st.none() | st.integers(0, 2000),
            "sort_by": st.none()
            | st.sampled_from(["relevance", "distance", "rating", "price_low", "price_high"]),
            "page": st.integers(1, 3),
        },
    ),
    "get_poi_detail": st.fixed_dictionaries(
        {"id": st.sampled_from(["330100A001", "110000A001", "999999X", "B0"])}
    ),
    "plan_route": st.fixed_dictionaries(
        {
            "origin": st.sampled_from(PLACES),
            "destination": st.sampled_from(PLACES),
            "city": st.sampled_from(["杭州市", "上海市"]),
        },
        optional={"mode": st.sampled_from(["transit", "driving", "walking", "bicycling"])},
    ),
    "compare_routes": st.fixed_dictionaries(
        {"origin": st.sampled_from(PLACES), "destination": st.sampled_from(PLACES)}, optional={"city": CITY}
    ),
    "search_along_route": st.fixed_dictionaries(
        {"origin": st.sampled_from(PLACES), "destination": st.sampled_from(PLACES), "keywords": TEXT},
        optional={"route_range": st.integers(1, 3000), "poi_limit": st.integers(1, 50), "city": CITY},
    ),
}


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(PLAUSIBLE)).flatmap(lambda name: st.tuples(st.just(name), PLAUSIBLE[name])))
def test_plausible_calls_never_crash_and_prices_match(call: tuple[str, dict[str, Any]]) -> None:
    name, args = call
    answer = call_tool(name, args, WORLD, None)
    payload = json.loads(answer.text) if answer.text != NOT_FOUND else {}
    assert answer.error == (set(payload) == {"error"})
    for entry in payload.get("pois", []) + payload.get("geocodes", []):
        if "id" in entry:
            _check_poi_entry(entry)
