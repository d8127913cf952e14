"""The official POI file and tool caches: lossless round trip, quirks tolerated, facts taken."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sandbox.world import Window, WorldError
from sandbox.world.official_io import export_poi_db, import_official, read_poi_db, write_poi_db

OH = {
    "always_open": False,
    "rules": [
        {
            "date_range": {"start": "11-01", "end": "03-31"},
            "weekdays": [2, 3, 4, 5, 6, 7],
            "time_windows": [{"open": "09:00", "close": "12:00"}, {"open": "14:00", "close": "17:00"}],
        },
        {
            "date_range": None,
            "weekdays": [1, 2, 3, 4, 5, 6, 7],
            "time_windows": [{"open": "18:00", "close": "02:00"}, {"open": "08:00", "close": "24:00"}],
        },
    ],
}
DB: dict[str, Any] = {
    "海口市": [
        {"name": "海南省博物馆", "custom_category": "博物馆", "poi_type": "attractions", "opening_hours": OH},
        {"name": "老爸茶店", "custom_category": "", "poi_type": "food", "opening_hours": None},
        {
            "name": "椰风宾馆",
            "custom_category": "经济型",
            "poi_type": "hotels",
            "opening_hours": {"always_open": True, "rules": []},
        },
    ],
    "凤凰县": [
        {"name": "凤凰古城", "custom_category": "古镇", "poi_type": "attractions", "opening_hours": None}
    ],
}


def test_round_trip_is_lossless() -> None:
    world, report = import_official(DB, seed=1, fill=False)
    assert report.pois == 4 and not report.skipped and not report.notes
    assert export_poi_db(world) == DB
    p = world.poi("海口市", "海南省博物馆")
    assert p is not None and p.opening is not None
    assert p.opening.rules[1].windows == (Window(1080, 1560), Window(480, 1440))


def test_write_and_read_the_file(tmp_path: Path) -> None:
    world, _ = import_official(DB, seed=1, fill=False)
    write_poi_db(world, tmp_path / "all_poi_by_city.json")
    assert read_poi_db(tmp_path / "all_poi_by_city.json") == DB
    assert (
        json.loads((tmp_path / "all_poi_by_city.json").read_text(encoding="utf-8"))["凤凰县"][0]["name"]
        == "凤凰古城"
    )


def test_fill_adds_the_builder_set_after_the_file_pois() -> None:
    world, _ = import_official(DB, seed=1)
    assert world.pois("凤凰县")[0].name == "凤凰古城"
    assert len(world.pois("凤凰县", "hotel")) >= 13


def test_quirks_are_tolerated_and_reported() -> None:
    db = {
        "怀化": [
            {
                "name": "芷江受降旧址",
                "poi_type": "attractions",
                "custom_category": "纪念馆",
                "opening_hours": {
                    "always_open": False,
                    "rules": [
                        {
                            "date_range": None,
                            "time_windows": [{"open": "9:00"}, {"open": "9:30", "close": "17:00"}],
                        }
                    ],
                },
            }
        ],
        "海口市": [{"name": "", "poi_type": "attractions"}, {"name": "x", "poi_type": "unknown"}],
        "火星": [{"name": "y", "poi_type": "food"}],
    }
    world, report = import_official(db, seed=1, fill=False)
    p = world.poi("怀化市", "芷江受降旧址")
    assert p is not None and p.opening is not None
    assert p.opening.rules[0].weekdays == (1, 2, 3, 4, 5, 6, 7)
    assert p.opening.rules[0].windows == (Window(570, 1020),)
    assert len(report.skipped) == 3 and any("火星" in s for s in report.skipped)
    assert any("close" in n for n in report.notes) and "怀化: imported as 怀化市" in report.notes


@pytest.mark.parametrize(
    ("db", "field"),
    [
        ([], "poi_db"),
        ({"海口市": {}}, "海口市"),
        (
            {"海口市": [{"name": "a", "poi_type": "food", "opening_hours": {"rules": [{"weekdays": [0]}]}}]},
            "海口市[0].opening_hours.rules[0].weekdays",
        ),
        (
            {"海口市": [{"name": "a", "poi_type": "food", "opening_hours": "daily"}]},
            "海口市[0].opening_hours",
        ),
    ],
)
def test_malformed_files_raise_structured_errors(db: Any, field: str) -> None:
    with pytest.raises(WorldError) as err:
        import_official(db)
    assert err.value.field == field


def test_tool_cache_facts_are_taken() -> None:
    caches = {
        "search_poi": {
            '[["city","海口市"],["keywords","博物馆"]]': json.dumps(
                {"pois": [{"name": "海南省博物馆", "location": "110.35,20.02", "biz_ext": {"cost": "0"}}]}
            ),
            '[["city","海口市"],["keywords","宾馆"]]': json.dumps(
                {"pois": [{"name": "椰风宾馆", "lng": 110.3, "lat": 20.0, "price": "288"}]}
            ),
            "garbage": "not json",
        },
        "maps_geo": {
            '[["address","凤凰古城"],["city","凤凰县"]]': json.dumps(
                {"geocodes": [{"location": "109.6,27.95"}]}
            )
        },
    }
    world, report = import_official(DB, seed=1, caches=caches, fill=False)
    museum, hotel, town = (
        world.poi("海口市", "海南省博物馆"),
        world.poi("海口市", "椰风宾馆"),
        world.poi("凤凰县", "凤凰古城"),
    )
    assert museum and hotel and town
    assert (museum.lon, museum.lat) == (110.35, 20.02) and (town.lon, town.lat) == (109.6, 27.95)
    assert hotel.room_price_fen == 28800 and hotel.price_fen == 14400
    assert report.coords_from_cache == 3 and report.prices_from_cache == 1
