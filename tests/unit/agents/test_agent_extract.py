"""Reading chat into table ② statements: the vocabulary, clauses, tiers, cities, scalars."""

from __future__ import annotations

from runner.agents.extract import Statement, apply, clear, read_statements
from runner.agents.vocab import Kind, Sense, Vocabulary
from runner.users.topics import Field, Topic, empty_preference
from tests.fixtures.sample_game import opening, sample_world

ZH = "珠海市"


def _vocab() -> Vocabulary:
    return Vocabulary.of(sample_world(), [ZH])


def _words(text: str) -> list[str]:
    return [text[t.start : t.end] for t in _vocab().tokens(text)]


def test_tokens_are_leftmost_longest() -> None:
    assert _words("去珠海普陀寺，在珠海吃海鲜火锅和火锅，坐动车") == [
        "珠海普陀寺",
        "珠海",
        "海鲜火锅",
        "火锅",
        "动车",
    ]
    senses = {t.senses for t in _vocab().tokens("长隆海洋王国")}
    assert senses == {(Sense(Kind.PLACE, "长隆海洋王国", (ZH,)),)}
    assert _vocab().tokens("动车")[0].senses == (Sense(Kind.MODE, "高铁"),)


def test_the_opening_messages_read_exactly() -> None:
    user1, user2 = (read_statements(m["content"], _vocab(), [ZH]) for m in opening())
    assert user1 == [
        Statement(Field(Topic.BUDGET), "avg_budget", 3200),
        Statement(Field(Topic.TRANSPORT), "must", "飞机"),
        Statement(Field(Topic.TRANSPORT), "avoid", "火车"),
        Statement(Field(Topic.VISIT, ZH), "must_visit", "珠海普陀寺"),
    ]
    assert user2 == [
        Statement(Field(Topic.VISIT, ZH), "must_visit", "长隆海洋王国"),
        Statement(Field(Topic.FOOD, ZH), "must_eat", "海鲜火锅"),
        Statement(Field(Topic.FOOD, ZH), "reject_eat", "川菜"),
        Statement(Field(Topic.INTENSITY), "max_poi_per_day", 2),
    ]


def test_items_without_a_tier_take_the_next_clauses_tier_only() -> None:
    said = read_statements("海鲜火锅和烧烤，这两样必须吃。豪华型", _vocab(), [ZH])
    assert said == [
        Statement(Field(Topic.FOOD, ZH), "must_eat", "海鲜火锅"),
        Statement(Field(Topic.FOOD, ZH), "must_eat", "烧烤"),
    ]
    assert read_statements("自驾的话，长隆海洋王国必去，带孩子肯定得去", _vocab(), [ZH]) == [
        Statement(Field(Topic.VISIT, ZH), "must_visit", "长隆海洋王国")
    ]


def test_soft_tiers_fill_the_lists_a_topic_has() -> None:
    said = read_statements("海洋馆我最好去看看，住宿倾向舒适型，自驾尽量别安排", _vocab(), [ZH])
    assert said == [
        Statement(Field(Topic.CATEGORY, ZH), "positive", "海洋馆"),
        Statement(Field(Topic.HOTEL), "prefer", "舒适型"),
        Statement(Field(Topic.TRANSPORT), "avoid", "自驾"),
    ]


def test_a_word_with_several_meanings() -> None:
    vocab = Vocabulary(
        {
            "夜市": (Sense(Kind.SIGHT, "夜市", ("A市",)), Sense(Kind.FOOD, "夜市", ("A市",))),
            "古城": (Sense(Kind.PLACE, "古城", ("A市",)), Sense(Kind.SIGHT, "古城", ("A市",))),
        }
    )
    food, sight = Field(Topic.FOOD, "A市"), Field(Topic.CATEGORY, "A市")
    assert read_statements("夜市一定要吃", vocab, ["A市"]) == [Statement(food, "must_eat", "夜市")]
    assert read_statements("夜市一定要逛", vocab, ["A市"]) == [Statement(sight, "positive", "夜市")]
    assert read_statements("夜市一定要逛", vocab, ["A市"], [food]) == [Statement(food, "must_eat", "夜市")]
    assert read_statements("古城一定要去", vocab, ["A市"]) == [
        Statement(Field(Topic.VISIT, "A市"), "must_visit", "古城")
    ]
    assert read_statements("古城最好去", vocab, ["A市"]) == [Statement(sight, "positive", "古城")]


def test_city_context_carries_and_defaults() -> None:
    vocab = Vocabulary(
        {
            "北京市": (Sense(Kind.CITY, "北京市"),),
            "天津": (Sense(Kind.CITY, "天津市"),),
            "烧烤": (Sense(Kind.FOOD, "烧烤", ("北京市", "天津市")),),
            "卤煮": (Sense(Kind.FOOD, "卤煮", ("北京市",)),),
        }
    )
    cities = ["北京市", "天津市"]
    assert read_statements("在天津，烧烤一定要吃。卤煮最好能吃到", vocab, cities) == [
        Statement(Field(Topic.FOOD, "天津市"), "must_eat", "烧烤"),
        Statement(Field(Topic.FOOD, "天津市"), "prefer_eat", "卤煮"),
    ]
    assert read_statements("卤煮最好能吃到，烧烤绝对不吃", vocab, cities) == [
        Statement(Field(Topic.FOOD, "北京市"), "prefer_eat", "卤煮"),
        Statement(Field(Topic.FOOD, "北京市"), "reject_eat", "烧烤"),
        Statement(Field(Topic.FOOD, "天津市"), "reject_eat", "烧烤"),
    ]


def _cities_vocab() -> Vocabulary:
    return Vocabulary(
        {
            "太原": (Sense(Kind.CITY, "太原市"),),
            "忻州": (Sense(Kind.CITY, "忻州市"),),
            "九寨沟": (Sense(Kind.CITY, "九寨沟县"), Sense(Kind.PLACE, "九寨沟", ("九寨沟县",))),
            "游乐园": (Sense(Kind.SIGHT, "游乐园", ("太原市", "忻州市", "九寨沟县")),),
            "烧烤": (Sense(Kind.FOOD, "烧烤", ("太原市", "忻州市", "九寨沟县")),),
            "晋祠": (Sense(Kind.PLACE, "晋祠", ("太原市",)),),
        }
    )


def test_joined_cities_apply_together_and_the_latest_city_wins() -> None:
    cities = ["太原市", "忻州市", "九寨沟县"]
    said = read_statements("在太原和忻州我都不太想去游乐园", _cities_vocab(), cities)
    assert [s.field.city for s in said] == ["太原市", "忻州市"]
    said = read_statements("太原的烧烤和忻州的游乐园都一定要安排", _cities_vocab(), cities)
    assert [(s.field.city, s.value) for s in said] == [("太原市", "烧烤"), ("忻州市", "游乐园")]


def test_a_city_that_is_also_a_place() -> None:
    cities = ["太原市", "忻州市", "九寨沟县"]
    assert read_statements("九寨沟的烧烤千万别安排", _cities_vocab(), cities) == [
        Statement(Field(Topic.FOOD, "九寨沟县"), "reject_eat", "烧烤")
    ]
    assert read_statements("九寨沟、晋祠一定要去", _cities_vocab(), cities) == [
        Statement(Field(Topic.VISIT, "九寨沟县"), "must_visit", "九寨沟"),
        Statement(Field(Topic.VISIT, "太原市"), "must_visit", "晋祠"),
    ]


def test_places_set_the_context_for_what_follows() -> None:
    cities = ["太原市", "忻州市", "九寨沟县"]
    said = read_statements("晋祠我是非去不可的，但那边的游乐园尽量避开吧", _cities_vocab(), cities)
    assert said == [
        Statement(Field(Topic.VISIT, "太原市"), "must_visit", "晋祠"),
        Statement(Field(Topic.CATEGORY, "太原市"), "negative", "游乐园"),
    ]
    said = read_statements("在忻州，晋祠一定要去", _cities_vocab(), cities)
    assert said == [Statement(Field(Topic.VISIT, "太原市"), "must_visit", "晋祠")]


def test_apply_adds_once_and_clear_empties() -> None:
    preference = empty_preference([ZH])
    eat = Statement(Field(Topic.FOOD, ZH), "must_eat", "烧烤")
    for statement in (eat, eat, Statement(Field(Topic.BUDGET), "avg_budget", 1800)):
        apply(preference, statement)
    assert preference["city_specific_preferences"][ZH]["food"]["must_eat"] == ["烧烤"]
    assert preference["global_constraints"]["avg_budget"] == 1800
    clear(preference, Field(Topic.BUDGET))
    clear(preference, Field(Topic.FOOD, ZH))
    assert preference == empty_preference([ZH])
