"""Review findings in the world: corrupt manifests, city files and official-file types give
`WorldError`; opening hours answer on the first representable date."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

import pytest

from sandbox.world import World, WorldError
from sandbox.world.model import Window
from sandbox.world.official_io import import_official
from tests.fixtures.tools_world import tools_world


@pytest.fixture()
def saved(tmp_path: Path) -> Path:
    tools_world().save(tmp_path)
    return tmp_path


def _edit_manifest(root: Path, change: object) -> None:
    path = root / "manifest.json"
    manifest = json.loads(path.read_text())
    change(manifest)  # type: ignore[operator]
    path.write_text(json.dumps(manifest, ensure_ascii=False))


def test_hub_of_unknown_city_is_a_world_error(saved: Path) -> None:
    _edit_manifest(
        saved,
        lambda m: m["hubs"].append(
            {"name": "x站", "city": "火星市", "kind": "station", "lon": 1.0, "lat": 1.0, "iata": None}
        ),
    )
    with pytest.raises(WorldError, match="hub 'x站' names unknown city '火星市'") as info:
        World.load(saved)
    assert info.value.field == str(saved / "manifest.json")


def test_city_entry_without_file_is_a_world_error(saved: Path) -> None:
    _edit_manifest(saved, lambda m: m["cities"][2].pop("file"))
    with pytest.raises(WorldError, match="malformed manifest") as info:
        World.load(saved)
    assert info.value.field == str(saved / "manifest.json")


def test_non_integer_seed_is_a_world_error(saved: Path) -> None:
    _edit_manifest(saved, lambda m: m.update(seed="abc"))
    with pytest.raises(WorldError, match="malformed manifest"):
        World.load(saved)


@pytest.mark.parametrize("content", [b'{"pois": [{"name": "a"}]}', b"[1]", b'{"pois": [1]}'])
def test_malformed_city_file_with_matching_hash_is_a_world_error(saved: Path, content: bytes) -> None:
    city = saved / "cities" / "330100.json"
    city.write_bytes(content)
    _edit_manifest(
        saved,
        lambda m: next(c for c in m["cities"] if c["adcode"] == "330100").update(
            sha256=hashlib.sha256(content).hexdigest()
        ),
    )
    with pytest.raises(WorldError, match="malformed city file") as info:
        World.load(saved)
    assert info.value.field == str(city)


def test_opening_windows_on_the_first_date_has_no_previous_day() -> None:
    world = tools_world()
    assert world.opening_windows("杭州市", "河坊街夜市", dt.date.min) == (Window(1080, 1560),)
    assert world.opening_windows("杭州市", "河坊街夜市", dt.date(1, 1, 2)) == (
        Window(0, 120),
        Window(1080, 1560),
    )


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        (
            {"opening_hours": {"rules": [{"date_range": ["05-01", "10-31"], "time_windows": []}]}},
            "海口市[0].opening_hours.rules[0].date_range",
        ),
        ({"custom_category": ["海鲜"]}, "海口市[0].custom_category"),
    ],
)
def test_official_import_rejects_wrong_types(entry: dict[str, object], field: str) -> None:
    with pytest.raises(WorldError) as info:
        import_official({"海口市": [{"name": "a", "poi_type": "food", **entry}]}, fill=False)
    assert info.value.field == field


def test_official_import_keeps_a_falsy_date_range_as_no_season() -> None:
    rule = {"date_range": [], "weekdays": [1], "time_windows": [{"open": "09:00", "close": "10:00"}]}
    world, _ = import_official(
        {"海口市": [{"name": "a", "poi_type": "food", "opening_hours": {"rules": [rule]}}]}, fill=False
    )
    assert world.opening_windows("海口市", "a", dt.date(2025, 12, 1)) == (Window(540, 600),)
