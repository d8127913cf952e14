"""Intercity timetables and intracity transfers: magnitudes, availability rules, determinism."""

from __future__ import annotations

import datetime as dt

import pytest

from sandbox.world import World
from sandbox.world.build import build_world
from sandbox.world.geography import haversine_km
from sandbox.world.transfers import transfer

DAY = dt.date(2025, 10, 8)
TASK = {
    "task_id": "t",
    "time": "2025-10-08",
    "metadata": {"departure_city": "北京市", "cities": ["上海市", "苏州市", "稻城县"], "date": "四天三夜"},
    "user_preferences": {},
}


@pytest.fixture(scope="module")
def world() -> World:
    return build_world([TASK], seed=2)


def test_options_sorted_and_consistent(world: World) -> None:
    opts = world.intercity_options("北京市", "上海市", DAY)
    assert [o.depart for o in opts] == sorted(o.depart for o in opts)
    assert {o.mode for o in opts} == {"高铁", "火车", "飞机"}  # 1390 road-km: too far to drive
    for o in opts:
        assert o.arrive > o.depart and o.fare_fen > 0 and o.date == DAY
        assert o.flexible == (o.mode == "自驾")
        assert world.place("北京市", o.from_hub) is not None and world.place("上海市", o.to_hub) is not None


def test_hsr_fare_follows_distance(world: World) -> None:
    a, b = world.city_record("北京市"), world.city_record("上海市")
    assert a is not None and b is not None
    rail_km = haversine_km(a.lon, a.lat, b.lon, b.lat) * 1.25
    g = [o for o in world.intercity_options("北京市", "上海市", DAY) if o.code.startswith("G")]
    assert g and all(abs(o.fare_fen - rail_km * 46) <= 50 for o in g)
    assert all(200 <= o.arrive - o.depart <= 480 for o in g)


def test_no_flight_between_neighbours_and_no_hsr_without_network(world: World) -> None:
    modes = {o.mode for o in world.intercity_options("上海市", "苏州市", DAY)}
    assert "飞机" not in modes and {"高铁", "火车", "自驾"} <= modes
    drive = [o for o in world.intercity_options("上海市", "苏州市", DAY) if o.mode == "自驾"]
    assert len(drive) == 1 and drive[0].from_hub == "上海市" and drive[0].to_hub == "苏州市"
    modes = {o.mode for o in world.intercity_options("北京市", "稻城县", DAY)}
    assert modes == {"飞机"}, "no HSR network, too far to drive, and over a day by conventional train"


def test_same_city_unknown_city_and_repeat_calls(world: World) -> None:
    assert world.intercity_options("上海市", "上海", DAY) == []
    assert world.intercity_options("上海市", "火星", DAY) == []
    assert world.intercity_options("上海", "北京", DAY) == world.intercity_options("上海市", "北京市", DAY)
    assert world.intercity_options("上海", "北京", DAY) != world.intercity_options(
        "上海", "北京", DAY + dt.timedelta(1)
    )


def test_transfer_modes_order_and_costs() -> None:
    a, b = (121.47, 31.23), (121.50, 31.26)
    walk, bike, bus, taxi, car = (transfer(a, b, m) for m in ("步行", "骑车", "公共交通", "打车", "自驾"))
    assert walk and bike and bus and taxi and car
    assert walk.minutes > bike.minutes > taxi.minutes and walk.cost_fen == 0
    assert bus.cost_fen == 200 and taxi.cost_fen == 700 and bike.cost_fen == 150
    assert transfer(a, a, "步行") == transfer(a, a, "打车")
    assert transfer(a, b, "飞行") is None


def test_world_transfer_between_named_places(world: World) -> None:
    hotel = world.pois("上海市", "hotel")[0].name
    station = world.hubs("上海")[0].name
    t = world.transfer("上海", hotel, station, "公共交通")
    assert t is not None and t.minutes >= 10
    assert world.transfer("上海", hotel, hotel, "步行") is not None
    assert world.transfer("上海", hotel, "上海市", "自驾") is not None
