"""Intercity timetables and intracity transfers: magnitudes, availability rules, determinism."""

from __future__ import annotations

import datetime as dt

import pytest

from sandbox.world import World
from sandbox.world.build import build_world
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


def test_beijing_shanghai_trains_are_real_and_leave_from_hongqiao(world: World) -> None:
    g = [o for o in world.intercity_options("上海市", "北京市", DAY) if o.code.startswith("G")]
    assert all(o.source == "ChinaTravel" for o in g)
    assert "上海虹桥站" in {h.name for h in world.hubs("上海市")}
    assert {o.from_hub for o in g} >= {"上海虹桥站"}
    assert [(o.depart, o.arrive, o.to_hub) for o in g if o.code == "G104"] == [(377, 792, "北京南站")]
    assert all(200 <= o.arrive - o.depart <= 480 for o in g)


def test_train_numbers_recur_day_to_day(world: World) -> None:
    monday, tuesday = dt.date(2025, 9, 1), dt.date(2025, 9, 2)
    for a, b in (("北京市", "上海市"), ("上海市", "苏州市")):
        first = [
            (o.code, o.depart, o.arrive) for o in world.intercity_options(a, b, monday) if o.mode != "飞机"
        ]
        again = [
            (o.code, o.depart, o.arrive) for o in world.intercity_options(a, b, tuesday) if o.mode != "飞机"
        ]
        assert first and first == again


def test_daxing_flies_nanyuan_is_closed(world: World) -> None:
    flights = [o for o in world.intercity_options("北京市", "成都市", DAY) if o.mode == "飞机"]
    assert "北京大兴国际机场" in {o.from_hub for o in flights}
    assert "成都天府国际机场" in {o.to_hub for o in flights}
    assert not [h for h in world.hubs("北京市") if h.iata == "NAY"]


def test_no_direct_flight_from_fenghuang_to_altay(world: World) -> None:
    flights = [o for o in world.intercity_options("凤凰县", "阿勒泰地区", DAY) if o.mode == "飞机"]
    assert all("/" in o.code and o.source == "synthetic" for o in flights)


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


def test_every_real_station_position_lies_within_its_city() -> None:
    """Curation drops a source position far from its city (ChinaTravel put 深圳福田站 in Wuhan)."""
    import csv

    from sandbox.curation.timetable_data import STATION_RADIUS_KM
    from sandbox.world.geography import DATA_DIR, curated_cities, haversine_km

    centres = {name: (info.city.lon, info.city.lat) for name, info in curated_cities().items()}
    with (DATA_DIR / "stations.csv").open(encoding="utf-8") as fh:
        rows = [row for row in csv.DictReader(fh) if row["lon"] and row["city"] in centres]
    far = [
        r["name"]
        for r in rows
        if haversine_km(float(r["lon"]), float(r["lat"]), *centres[r["city"]]) > STATION_RADIUS_KM
    ]
    assert rows and far == []
