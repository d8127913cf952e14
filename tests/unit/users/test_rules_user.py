"""The rule-based traveller: exact answers per field and tone, volunteering, passing, determinism."""

from __future__ import annotations

import pytest

from runner.agents.elicit import question
from runner.episode.conversation import MessageEntry, UserRequest, message
from runner.users.answers import already_said, say_field, say_fields
from runner.users.rules import PASS, RulesUser, stable_int
from runner.users.topics import Field, Topic, all_fields, empty_preference
from tests.fixtures.sample_game import opening, sample_task, slot

ZH = "珠海市"
USER2 = slot("User2")["preference"]


@pytest.mark.parametrize(
    ("field", "firm_first", "soft_first"),
    [
        (Field(Topic.BUDGET), "我这边人均不能超过3200元。", "预算方面人均最多3200元。"),
        (Field(Topic.TRANSPORT), "交通一定要坐飞机，火车尽量别安排。", "出行必须坐飞机，火车能避开最好。"),
        (
            Field(Topic.INTENSITY),
            "每天最多逛两个景点，活动时间最好别超过7小时。",
            "一天最多安排两个景点，每天活动别超过7个小时。",
        ),
        (
            Field(Topic.HOTEL),
            "住宿最好是商务酒店、舒适型，豪华型我不太想住。",
            "住的话我比较倾向商务酒店、舒适型，豪华型就算了吧。",
        ),
        (
            Field(Topic.VISIT, ZH),
            "长隆海洋王国我一定要去，凤凰山风景旅游区坚决不去。",
            "长隆海洋王国是非去不可的，凤凰山风景旅游区我绝对不去。",
        ),
        (
            Field(Topic.CATEGORY, ZH),
            "我比较喜欢海洋馆、滨海公园这类地方。",
            "海洋馆、滨海公园这类我挺感兴趣。",
        ),
        (
            Field(Topic.FOOD, ZH),
            "海鲜火锅一定要吃，我比较想吃粤式茶点，川菜千万别安排。",
            "海鲜火锅必须得安排一下，粤式茶点最好能吃到，川菜我绝对不吃。",
        ),
    ],
)
def test_each_field_in_both_wordings(field: Field, firm_first: str, soft_first: str) -> None:
    assert say_field(USER2, field, 0) == firm_first
    assert say_field(USER2, field, 1) == soft_first


def test_every_tier_of_a_four_tier_field_has_its_tone() -> None:
    preference = empty_preference([ZH])
    preference["global_constraints"]["transport"] = {
        "must": ["高铁"],
        "prefer": ["自驾"],
        "avoid": ["火车"],
        "reject": ["飞机"],
    }
    assert say_field(preference, Field(Topic.TRANSPORT), 0) == (
        "交通一定要坐高铁，我比较倾向坐自驾，火车尽量别安排，飞机坚决不坐。"
    )
    assert say_field(preference, Field(Topic.TRANSPORT), 1) == (
        "出行必须坐高铁，交通最好坐自驾，火车能避开最好，飞机我绝对不坐。"
    )


def test_empty_fields_say_so_without_items() -> None:
    preference = empty_preference([ZH])
    said = [say_field(preference, field, 0) for field in all_fields([ZH])]
    assert said == [
        "预算我没什么限制。",
        "交通方式我都可以。",
        "行程松紧我都可以。",
        "住宿我没什么讲究。",
        "没有特别必去或不想去的景点。",
        "景点类型我都可以。",
        "吃的方面我没什么忌口。",
    ]


def test_cities_are_introduced_once() -> None:
    fields = [Field(Topic.BUDGET), Field(Topic.VISIT, ZH), Field(Topic.FOOD, ZH)]
    assert say_fields(USER2, fields, 0) == (
        "我这边人均不能超过3200元。"
        "珠海市这边，长隆海洋王国是非去不可的，凤凰山风景旅游区我绝对不去。"
        "海鲜火锅一定要吃，我比较想吃粤式茶点，川菜千万别安排。"
    )


def _request(history: list[MessageEntry], *, mentioned: bool = False, user: str = "User2") -> UserRequest:
    return UserRequest(user, sample_task(), history, slot(user), True, 2, mentioned=mentioned)


def _agent(text: str) -> MessageEntry:
    return message("Agent", text, has_tool_calls=False)


def test_mentioned_with_the_question_answers_every_field() -> None:
    user = RulesUser("User2", sample_task(), seed=0)
    history = [*opening(), _agent(question("User2", [ZH]))]
    assert user.reply(_request(history, mentioned=True)).content == (
        "好的，我这边人均不能超过3200元。出行必须坐飞机，火车能避开最好。每天最多逛两个景点，活动时间最好别超过7小时。"
        "住的话我比较倾向商务酒店、舒适型，豪华型就算了吧。在珠海市，长隆海洋王国我一定要去，凤凰山风景旅游区坚决不去。"
        "海洋馆、滨海公园这类我挺感兴趣。海鲜火锅一定要吃，我比较想吃粤式茶点，川菜千万别安排。"
    )


def test_a_question_to_everyone_is_answered_when_polled() -> None:
    user = RulesUser("User2", sample_task(), seed=0, volunteer_rate=0)
    assert (
        user.reply(_request([*opening(), _agent("请大家说说预算？")])).content == "我这边人均不能超过3200元。"
    )
    assert user.reply(_request([*opening(), _agent("@User1 请说说预算？")])).content == PASS


def test_polled_without_a_question_passes_or_volunteers_the_first_unsaid_field() -> None:
    history = [*opening(), _agent("大家好")]
    assert (
        RulesUser("User2", sample_task(), seed=0, volunteer_rate=0).reply(_request(history)).content == PASS
    )
    volunteered = RulesUser("User2", sample_task(), seed=0, volunteer_rate=1).reply(_request(history)).content
    assert volunteered == "另外，我这边人均不能超过3200元。"


def test_nothing_left_to_say_means_pass_or_a_short_reply() -> None:
    everything = say_fields(USER2, all_fields([ZH]), 0)
    history = [*opening(), message("User2", everything, has_tool_calls=False), _agent("大家好")]
    eager = RulesUser("User2", sample_task(), seed=0, volunteer_rate=1)
    assert eager.reply(_request(history)).content == PASS
    history[-1] = _agent("@User2 你好")
    assert eager.reply(_request(history, mentioned=True)).content == "我这边没有别的要求了，你安排就好。"


def test_already_said_reads_the_opening_wording() -> None:
    said = [m["content"] for m in opening() if m["role"] == "User2"]
    assert already_said(USER2, Field(Topic.VISIT, ZH), said) is False
    assert already_said(USER2, Field(Topic.INTENSITY), said) is False
    assert (
        already_said(
            slot("User2")["preference"] | {"global_constraints": {"intensity": {"max_poi_per_day": 2}}},
            Field(Topic.INTENSITY),
            said,
        )
        is True
    )
    assert already_said(USER2, Field(Topic.BUDGET), ["人均不能超过3200元"]) is True


def test_replies_are_deterministic_and_seeded() -> None:
    history = [*opening(), _agent("大家好")]
    replies = {
        seed: [
            RulesUser("User2", sample_task(), seed=seed).reply(_request(history * length)).content
            for length in range(1, 13)
        ]
        for seed in (0, 1)
    }
    again = [
        RulesUser("User2", sample_task(), seed=0).reply(_request(history * n)).content for n in range(1, 13)
    ]
    assert replies[0] == again
    assert replies[0] != replies[1]
    assert stable_int("task_004175", "User2", 0) == 5942156451255964591


def test_describe_and_bad_rate() -> None:
    assert RulesUser("User2", sample_task(), seed=3).describe() == {
        "kind": "rules",
        "seed": 3,
        "volunteer_rate": 0.3,
    }
    with pytest.raises(ValueError, match="volunteer_rate"):
        RulesUser("User2", sample_task(), seed=3, volunteer_rate=2)
