"""Saved worlds load back identically; subsets load lazily; bad directories give WorldError."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from sandbox.world import World, WorldError
from sandbox.world.build import build_world
from sandbox.world.storage import SCHEMA_VERSION

TASK = {
    "task_id": "t",
    "time": "2025-09-02",
    "metadata": {"departure_city": "长沙市", "cities": ["凤凰县", "张家界市"], "date": "三天两夜"},
    "user_preferences": {},
}


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[World, Path]:
    world = build_world([TASK], seed=5)
    path = tmp_path_factory.mktemp("w")
    world.save(path)
    return world, path


def test_round_trip_is_identical(saved: tuple[World, Path]) -> None:
    world, path = saved
    back = World.load(path)
    assert back.cities == world.cities and back.seed == 5 and back.source_hash == world.source_hash
    for c in ("凤凰县", "张家界市", "长沙市"):
        assert back.pois(c) == world.pois(c)
        assert back.hubs(c) == world.hubs(c)
    day = dt.date(2025, 9, 3)
    assert back.intercity_options("凤凰", "张家界", day) == world.intercity_options("凤凰县", "张家界市", day)


def test_manifest_is_versioned_and_documented(saved: tuple[World, Path]) -> None:
    _, path = saved
    manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["format"] == "tripwright-world" and manifest["schema_version"] == SCHEMA_VERSION
    entry = next(e for e in manifest["cities"] if e["name"] == "凤凰县")
    assert entry["file"] == "cities/433123.json" and entry["pois"] > 0 and len(entry["sha256"]) == 64
    assert next(e for e in manifest["cities"] if e["name"] == "拉萨市")["file"] is None


def test_subset_loads_others_lazily(saved: tuple[World, Path]) -> None:
    world, path = saved
    sub = World.load(path, cities=["凤凰"])
    assert sub.pois("凤凰县") == world.pois("凤凰县")
    assert sub.poi("长沙市", world.pois("长沙市")[0].name) == world.pois("长沙市")[0]


def test_unknown_subset_city_is_an_error(saved: tuple[World, Path]) -> None:
    with pytest.raises(WorldError) as err:
        World.load(saved[1], cities=["火星"])
    assert err.value.field == "cities"


def test_changed_city_file_is_detected(saved: tuple[World, Path], tmp_path: Path) -> None:
    world, _ = saved
    world.save(tmp_path)
    (tmp_path / "cities/433123.json").write_bytes(b"{}")
    with pytest.raises(WorldError, match="sha256"):
        World.load(tmp_path)


def test_missing_or_foreign_manifest(tmp_path: Path) -> None:
    with pytest.raises(WorldError, match="manifest"):
        World.load(tmp_path)
    (tmp_path / "manifest.json").write_text('{"format": "tripwright-world", "schema_version": 99}')
    with pytest.raises(WorldError, match="unsupported"):
        World.load(tmp_path)
    (tmp_path / "manifest.json").write_text("[]")
    with pytest.raises(WorldError, match="not a tripwright-world"):
        World.load(tmp_path)
