"""The builder: grounding in the tasks' vocabulary, clean names, determinism, structured errors."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from sandbox.world import World, WorldError
from sandbox.world.build import build_world
from sandbox.world.pois import MIN_PER_CATEGORY
from tests.fixtures.hangzhou_task import TASK


@pytest.fixture(scope="module")
def world() -> World:
    return build_world([TASK], seed=11)


def test_named_attractions_exist_verbatim(world: World) -> None:
    for name in ("西湖", "灵隐寺", "杭州乐园", "杭州西湖风景名胜区"):
        p = world.poi("杭州市", name)
        assert p is not None and p.kind == "attraction"


def test_every_preference_word_has_enough_pois(world: World) -> None:
    for cat in ("博物馆", "湿地公园", "古镇", "游乐园"):
        assert len(world.pois("杭州市", "attraction", cat)) >= MIN_PER_CATEGORY
    for item in ("杭帮菜", "火锅", "牛肉火锅", "面馆", "拉面"):
        assert len(world.pois("杭州市", "restaurant", item)) >= MIN_PER_CATEGORY
    for cat in ("经济型", "民宿", "豪华型"):
        assert len(world.pois("杭州市", "hotel", cat)) >= 3


def test_generated_names_hold_no_foreign_preference_word(world: World) -> None:
    named = {"西湖", "灵隐寺", "杭州乐园", "杭州西湖风景名胜区"}
    words = named | {"博物馆", "湿地公园", "古镇", "游乐园", "杭帮菜", "火锅", "牛肉火锅", "面馆", "拉面"}
    words |= {"经济型", "民宿", "豪华型"}
    for p in world.pois("杭州市"):
        if p.name in named or p.source != "synthetic":
            continue
        stray = [w for w in words if w in p.name and w not in p.category]
        assert not stray, (p.name, p.category, stray)


def test_names_are_unique_per_city_and_ids_unique(world: World) -> None:
    pois = world.pois("杭州市")
    assert len({p.name for p in pois}) == len(pois)
    ids = [p.id for c in world.cities for p in world.pois(c)]
    assert len(set(ids)) == len(ids)
    assert world.poi_by_id(pois[0].id) == pois[0]


def test_departure_city_gets_a_base_set_and_untouched_cities_none(world: World) -> None:
    assert len(world.pois("南京市", "hotel")) >= 13
    assert world.pois("拉萨市") == ()
    assert world.city("拉萨") == "拉萨市"


def test_prices_and_visits_are_sane(world: World) -> None:
    for p in world.pois("杭州市"):
        assert p.price_fen >= 0
        assert p.kind == "hotel" or p.source != "synthetic" or p.price_fen % 100 == 0
        if p.kind == "hotel":
            assert 100_00 // 2 <= p.price_fen <= 2500_00 and p.room_price_fen == 2 * p.price_fen
        else:
            assert 0 < p.min_visit_minutes <= p.suggested_visit_minutes and p.room_price_fen == 0
        assert (3.6 if p.source == "synthetic" else 0.0) <= p.rating <= 5.0


def test_same_tasks_and_seed_give_identical_bytes(tmp_path: Path, world: World) -> None:
    build_world([copy.deepcopy(TASK)], seed=11).save(tmp_path / "a")
    world.save(tmp_path / "b")
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert files
    for f in files:
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes()
    assert not list(tmp_path.rglob("*.tmp"))


def test_another_seed_gives_another_world(world: World) -> None:
    other = build_world([TASK], seed=12)
    assert [p.name for p in other.pois("杭州市")] != [p.name for p in world.pois("杭州市")]
    assert other.poi("杭州市", "灵隐寺") is not None


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda t: t["metadata"].pop("departure_city"), "tasks[0].metadata.departure_city"),
        (lambda t: t["metadata"].update(cities=[]), "tasks[0].metadata.cities"),
        (lambda t: t["metadata"].update(cities=["火星市"]), "tasks.metadata"),
        (lambda t: t.update(user_preferences=[]), "tasks[0].user_preferences"),
        (
            lambda t: t["user_preferences"]["User1"]["preference"]["city_specific_preferences"]["杭州市"][
                "food"
            ].update(must_eat="面"),
            "tasks[0].user_preferences.User1.preference.city_specific_preferences.杭州市.food.must_eat",
        ),
    ],
)
def test_malformed_tasks_raise_a_structured_error(mutate: Any, field: str) -> None:
    task = copy.deepcopy(TASK)
    mutate(task)
    with pytest.raises(WorldError) as err:
        build_world([task], seed=1)
    assert err.value.field == field


def test_seed_must_be_an_integer() -> None:
    with pytest.raises(WorldError) as err:
        build_world([TASK], seed="1")  # type: ignore[arg-type]
    assert err.value.field == "seed"
