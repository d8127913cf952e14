"""The scripted interview: the question asks every field, answers replace them, and a rule user's
answer reads back into exactly its own preferences (property over generated slots)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from runner.agents.elicit import interview, question
from runner.agents.vocab import Vocabulary
from runner.episode.conversation import MessageEntry, UserRequest, message
from runner.users.rules import RulesUser
from runner.users.topics import all_fields, asked_fields, empty_preference
from tests.fixtures.sample_game import opening, sample_raw, sample_task, sample_world
from verifier.model.task import Task
from verifier.official.poi_db import VALID_HOTEL_CATEGORIES

ZH = "珠海市"
USERS = ["User2", "User1"]


def _vocab() -> Vocabulary:
    return Vocabulary.of(sample_world(), [ZH])


def _agent(text: str) -> MessageEntry:
    return message("Agent", text, has_tool_calls=False)


def test_the_question_asks_every_field_of_one_user() -> None:
    text = question("User2", [ZH, "澳门特别行政区"])
    assert text == (
        "@User2 想请你说说你的偏好：人均预算、交通方式、"
        "行程强度（每天最多几个景点、活动几个小时）、住宿偏好，以及在珠海市、澳门特别行政区必去或不想去的景点、喜欢或不感兴趣的景点类型、想吃和不吃的东西。"
    )
    assert asked_fields(text, [ZH, "澳门特别行政区"]) == all_fields([ZH, "澳门特别行政区"])


def test_interview_state_from_history() -> None:
    history = [*opening(), _agent(question("User2", [ZH])), message("User2", "我这边人均不能超过2000元。")]
    state = interview(history, USERS, [ZH], _vocab())
    assert state.asked == ("User2",)
    assert state.next_user(USERS) == "User1"
    user2 = state.table["User2"]
    assert user2["global_constraints"]["avg_budget"] == 2000
    assert user2["city_specific_preferences"][ZH]["attractions"]["must_visit"] == []
    assert user2["global_constraints"]["intensity"]["max_poi_per_day"] == 0
    assert state.table["User1"]["city_specific_preferences"][ZH]["attractions"]["must_visit"] == [
        "珠海普陀寺"
    ]


def test_only_the_reply_right_after_the_question_is_the_answer() -> None:
    history = [
        *opening(),
        _agent(question("User2", [ZH])),
        message("User1", "我这边人均不能超过2000元。"),
        message("User2", "我这边人均不能超过2500元。"),
    ]
    state = interview(history, USERS, [ZH], _vocab())
    assert state.table["User2"]["city_specific_preferences"][ZH]["attractions"]["must_visit"] == [
        "长隆海洋王国"
    ]
    assert state.table["User2"]["global_constraints"]["avg_budget"] == 2500
    assert state.table["User1"]["global_constraints"]["avg_budget"] == 2000


def _items(kind: str, *, category: bool = False) -> list[str]:
    pois = [poi for poi in sample_world().pois(ZH) if poi.kind == kind]
    return sorted({poi.category if category else poi.name for poi in pois})


def _words(pool: list[str]) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(pool), unique=True, max_size=3)


@st.composite
def preferences(draw: st.DrawFn) -> dict[str, Any]:
    """A preference object of the sample's shape drawn from the world's words."""
    modes, hotels = ["高铁", "飞机", "火车", "自驾"], sorted(VALID_HOTEL_CATEGORIES)
    places, sights = _items("attraction"), _items("attraction", category=True)
    foods = _items("restaurant", category=True)
    preference = empty_preference([ZH])
    constraints = preference["global_constraints"]
    constraints["avg_budget"] = draw(st.one_of(st.just(0), st.integers(300, 30000)))
    constraints["transport"] = {tier: draw(_words(modes)) for tier in ("must", "prefer", "avoid", "reject")}
    constraints["intensity"] = {
        "max_poi_per_day": draw(st.integers(0, 12)),
        "max_active_hours": draw(st.sampled_from([0, 5, 6.5, 7, 8, 10, 12])),
    }
    constraints["hotel_preference"] = {tier: draw(_words(hotels)) for tier in ("prefer", "avoid")}
    city = preference["city_specific_preferences"][ZH]
    city["attractions"] = {
        "must_visit": draw(_words(places)),
        "reject_visit": draw(_words(places)),
        "category_pref": {"positive": draw(_words(sights)), "negative": draw(_words(sights))},
    }
    city["food"] = {
        tier: draw(_words(foods)) for tier in ("must_eat", "prefer_eat", "avoid_eat", "reject_eat")
    }
    return preference


@settings(max_examples=60, deadline=None)
@given(preference=preferences(), seed=st.integers(0, 2**16))
def test_ask_answer_extract_gives_back_every_value(preference: dict[str, Any], seed: int) -> None:
    raw = sample_raw()
    raw["user_preferences"]["User2"]["preference"] = preference
    task = Task.model_validate(raw)
    asked = _agent(question("User2", [ZH]))
    slot = raw["user_preferences"]["User2"]
    reply = RulesUser("User2", task, seed=seed).reply(
        UserRequest("User2", task, [asked], slot, True, 2, mentioned=True)
    )
    table = interview([asked, message("User2", reply.content)], USERS, [ZH], _vocab()).table
    assert table["User2"] == preference


def test_the_sample_users_answers_read_back_exactly() -> None:
    task = sample_task()
    for user in USERS:
        asked = _agent(question(user, [ZH]))
        slot = sample_raw()["user_preferences"][user]
        reply = RulesUser(user, task, seed=0).reply(
            UserRequest(user, task, [*opening(), asked], slot, True, 2, mentioned=True)
        )
        state = interview([*opening(), asked, message(user, reply.content)], USERS, [ZH], _vocab())
        assert state.table[user] == slot["preference"]
