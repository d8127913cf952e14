"""Fields: where they live in a preference object, and which a question asks about."""

from __future__ import annotations

from runner.users.tones import Tier
from runner.users.topics import (
    Field,
    Topic,
    all_fields,
    asked_fields,
    empty_preference,
    keys,
    path,
    read,
    slot_key,
    write,
)
from tests.fixtures.sample_game import slot

ZH = "珠海市"


def test_slot_key_files_a_tier_by_sign_when_the_topic_lacks_it() -> None:
    assert slot_key(Topic.FOOD, Tier.AVOID) == "avoid_eat"
    assert slot_key(Topic.VISIT, Tier.PREFER) == "must_visit"
    assert slot_key(Topic.VISIT, Tier.AVOID) == "reject_visit"
    assert slot_key(Topic.CATEGORY, Tier.MUST) == "positive"
    assert slot_key(Topic.HOTEL, Tier.REJECT) == "avoid"


def test_paths_and_reads_follow_the_task_table() -> None:
    preference = slot("User2")["preference"]
    assert path(Field(Topic.BUDGET), "avg_budget") == ("global_constraints", "avg_budget")
    assert path(Field(Topic.CATEGORY, ZH), "positive") == (
        "city_specific_preferences",
        ZH,
        "attractions",
        "category_pref",
        "positive",
    )
    assert read(preference, Field(Topic.BUDGET), "avg_budget") == 3200
    assert read(preference, Field(Topic.TRANSPORT), "avoid") == ["火车"]
    assert read(preference, Field(Topic.FOOD, ZH), "reject_eat") == ["川菜"]
    assert read(preference, Field(Topic.FOOD, "三亚市"), "must_eat") == []
    assert read({"global_constraints": {"avg_budget": "3200"}}, Field(Topic.BUDGET), "avg_budget") == 0


def test_empty_preference_has_the_task_shape() -> None:
    def shape(value: object) -> object:
        return {k: shape(v) for k, v in value.items()} if isinstance(value, dict) else type(value).__name__

    assert shape(empty_preference([ZH])) == shape(slot("User2")["preference"])


def test_write_sets_a_leaf() -> None:
    preference = empty_preference([ZH])
    write(preference, Field(Topic.VISIT, ZH), "must_visit", ["珠海普陀寺"])
    assert preference["city_specific_preferences"][ZH]["attractions"]["must_visit"] == ["珠海普陀寺"]
    assert keys(Topic.INTENSITY) == ("max_poi_per_day", "max_active_hours")


def test_all_fields_in_asking_order() -> None:
    assert all_fields(["A市", "B市"]) == [
        Field(Topic.BUDGET),
        Field(Topic.TRANSPORT),
        Field(Topic.INTENSITY),
        Field(Topic.HOTEL),
        Field(Topic.VISIT, "A市"),
        Field(Topic.CATEGORY, "A市"),
        Field(Topic.FOOD, "A市"),
        Field(Topic.VISIT, "B市"),
        Field(Topic.CATEGORY, "B市"),
        Field(Topic.FOOD, "B市"),
    ]


def test_asked_fields_from_free_questions() -> None:
    cities = ["北京市", "天津市"]
    assert asked_fields("@User1 你的预算大概是多少？", cities) == [Field(Topic.BUDGET)]
    assert asked_fields("在天津想吃点什么？", cities) == [Field(Topic.FOOD, "天津市")]
    assert asked_fields("住宿和交通有什么要求？", cities) == [Field(Topic.TRANSPORT), Field(Topic.HOTEL)]
    assert asked_fields("有哪些景点是必去的？", cities) == [
        Field(Topic.VISIT, "北京市"),
        Field(Topic.VISIT, "天津市"),
    ]
    assert asked_fields("大家好，我是助手。", cities) == []
