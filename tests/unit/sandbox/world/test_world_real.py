"""Real places first: the famous examples of issue 8, aliases, provenance and the datum transform."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from sandbox.curation.coords import gcj02_to_wgs84, to_wgs84, wgs84_to_gcj02
from sandbox.world import World
from sandbox.world.build import build_world
from sandbox.world.geography import haversine_km
from sandbox.world.model import Window
from sandbox.world.official_io import export_poi_db, import_official
from sandbox.world.opening import windows_on

TIANANMEN = (116.3913, 39.9075)  # WGS-84
PEOPLES_SQUARE = (121.4737, 31.2304)
YELLOW_CRANE_TOWER = (114.2981, 30.5447)
NAMES = {
    "北京市": ["八达岭长城", "什刹海"],
    "上海市": ["上海迪士尼乐园", "上海迪士尼度假区", "外滩", "外滩观景台"],
    "武汉市": ["黄鹤楼"],
    "阿勒泰地区": ["喀纳斯"],
    "乌鲁木齐市": [],
    "凤凰县": [],
}


def _task() -> dict[str, Any]:
    city_prefs = {
        city: {
            "attractions": {"must_visit": names, "reject_visit": [], "category_pref": {}},
            "food": {},
        }
        for city, names in NAMES.items()
    }
    user = {"preference": {"global_constraints": {}, "city_specific_preferences": city_prefs}}
    return {
        "task_id": "t",
        "metadata": {"departure_city": "南京市", "cities": list(NAMES)},
        "user_preferences": {"User1": user},
    }


@pytest.fixture(scope="module")
def world() -> World:
    return build_world([_task()], seed=1)


def _poi(world: World, city: str, name: str) -> Any:
    p = world.poi(city, name)
    assert p is not None
    return p


def _km(p: Any, point: tuple[float, float]) -> float:
    return haversine_km(p.lon, p.lat, *point)


def test_badaling_is_far_paid_and_long(world: World) -> None:
    p = _poi(world, "北京市", "八达岭长城")
    assert (p.source, p.price_fen, p.min_visit_minutes, p.suggested_visit_minutes) == (
        "ChinaTravel",
        4000,
        60,
        150,
    )
    assert round(_km(p, TIANANMEN)) == 59
    assert p.address == "北京市延庆区"


def test_disney_is_one_place_in_pudong_under_both_names(world: World) -> None:
    park, resort = _poi(world, "上海市", "上海迪士尼乐园"), _poi(world, "上海市", "上海迪士尼度假区")
    assert park.id == resort.id and (park.lon, park.lat) == (resort.lon, resort.lat)
    assert (park.name, resort.name) == ("上海迪士尼乐园", "上海迪士尼度假区")
    assert [p.name for p in world.pois("上海市") if p.id == park.id] == ["上海迪士尼度假区"]
    assert (resort.aliases, park.aliases) == (("上海迪士尼乐园",), ("上海迪士尼度假区",))
    assert (park.price_fen, park.min_visit_minutes, park.address) == (39900, 120, "上海市浦东新区")
    assert windows_on(park.opening, dt.date(2025, 7, 1)) == (Window(510, 1290),)
    assert round(_km(park, PEOPLES_SQUARE)) == 20


def test_famous_free_and_geocoded_places(world: World) -> None:
    assert _poi(world, "北京市", "什刹海").price_fen == 0
    bund = _poi(world, "上海市", "外滩")
    assert (bund.lon, bund.lat, bund.source) == (121.486122, 31.239744, "ChinaTravel")
    assert _km(_poi(world, "武汉市", "黄鹤楼"), YELLOW_CRANE_TOWER) < 0.5
    kanas = _poi(world, "阿勒泰地区", "喀纳斯")
    assert (kanas.source, kanas.category, kanas.aliases) == ("scenic5a", "5A景区", ("阿勒泰地区喀纳斯景区",))
    centre = world.city_record("阿勒泰地区")
    assert centre is not None and round(_km(kanas, (centre.lon, centre.lat))) == 105


def test_unknown_named_place_sits_where_its_name_says(world: World) -> None:
    deck = _poi(world, "上海市", "外滩观景台")
    assert deck.source == "synthetic" and _km(deck, (121.486122, 31.239744)) <= 1.5


def test_xinjiang_keeps_its_own_clock(world: World) -> None:
    day = dt.date(2025, 7, 1)
    opens = {
        w.open
        for p in world.pois("乌鲁木齐市", "restaurant")
        for w in windows_on(p.opening, day) or ()
        if p.source == "synthetic"
    }
    assert min(opens - {0}) == 480 and not opens & set(range(990, 1110))  # 0: last night spills over


def test_luxury_rooms_in_a_county_town_cost_less_than_in_shanghai(world: World) -> None:
    def median_room(city: str) -> int:
        rooms = sorted(p.room_price_fen for p in world.pois(city, "hotel", "豪华型"))
        return rooms[len(rooms) // 2]

    assert median_room("凤凰县") < median_room("上海市")
    assert max(p.room_price_fen for p in world.pois("凤凰县", "hotel", "豪华型")) < 1700_00


def test_official_export_lists_every_name_and_import_folds_aliases(world: World) -> None:
    db = export_poi_db(world, ["上海市"])
    entries = {e["name"]: e for e in db["上海市"]}
    assert entries["上海迪士尼乐园"]["alias_of"] == "上海迪士尼度假区"
    assert "alias_of" not in entries["上海迪士尼度假区"]
    back, _ = import_official(db, fill=False)
    resort = _poi(back, "上海市", "上海迪士尼度假区")
    assert resort.aliases == ("上海迪士尼乐园",) and _poi(back, "上海市", "上海迪士尼乐园").id == resort.id


def test_datum_transforms_round_trip_and_pin_known_points() -> None:
    lon, lat = gcj02_to_wgs84(*wgs84_to_gcj02(116.3913, 39.9075))
    assert (round(lon, 7), round(lat, 7)) == (116.3913, 39.9075)
    assert tuple(round(v, 6) for v in to_wgs84(116.404091, 39.910095, "bd09")) == (116.391473, 39.902349)
    assert to_wgs84(2.35, 48.85, "gcj02") == (2.35, 48.85)
    with pytest.raises(ValueError, match="unknown datum"):
        to_wgs84(0, 0, "osgb36")
