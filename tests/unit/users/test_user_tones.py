"""Tiers read from chat clauses (the real opening messages' wording) and numbers said and read."""

from __future__ import annotations

import pytest

from runner.users.tones import Tier, budgets, hour_caps, poi_caps, read_number, say_count, tier_of


@pytest.mark.parametrize(
    ("clause", "tier"),
    [
        ("去珠海必须坐飞机", Tier.MUST),
        ("长隆海洋王国是非去不可的", Tier.MUST),
        ("海鲜火锅必须得安排一下", Tier.MUST),
        ("火车尽量别安排", Tier.AVOID),
        ("住的地方豪华型酒店就算了吧", Tier.AVOID),
        ("飞机能避开最好", Tier.AVOID),
        ("这类我不太感兴趣", Tier.AVOID),
        ("活动时间最好别超过9小时", Tier.AVOID),
        ("但川菜我绝对不碰", Tier.REJECT),
        ("长沙世界之窗我绝对不去", Tier.REJECT),
        ("那边的炖菜我不碰", Tier.REJECT),
        ("住宿我倾向于高档型", Tier.PREFER),
        ("这类我挺感兴趣", Tier.PREFER),
        ("佛山的顺德菜也非吃不可", Tier.MUST),
        ("武汉那边的烤肉肯定也得吃一下", Tier.MUST),
        ("披萨咱们坚决别安排", Tier.REJECT),
        ("火车尽量就别坐了", Tier.AVOID),
        ("西式快餐我就不怎么想吃了", Tier.AVOID),
        ("住舒适型或者经济型的就挺好", Tier.PREFER),
        ("吃的方面", None),
    ],
)
def test_tier_of_reads_the_strongest_cue(clause: str, tier: Tier | None) -> None:
    assert tier_of(clause) == tier


def test_tier_sign_and_firmness() -> None:
    assert [(t.positive, t.firm) for t in Tier] == [
        (True, True),
        (True, False),
        (False, False),
        (False, True),
    ]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("两", 2),
        ("三", 3),
        ("十", 10),
        ("十二", 12),
        ("二十", 20),
        ("二十五", 25),
        ("3200", 3200),
        ("7.5", 7.5),
    ],
)
def test_read_number(text: str, value: float) -> None:
    assert read_number(text) == value


@pytest.mark.parametrize("text", ["", "百", "一二", "十十"])
def test_read_number_refuses_what_it_cannot_read(text: str) -> None:
    assert read_number(text) is None


def test_say_count_uses_numerals_up_to_ten() -> None:
    assert [say_count(n) for n in (1, 2, 3, 9, 10, 12)] == ["一", "两", "三", "九", "十", "12"]


def test_budget_needs_a_budget_word() -> None:
    assert budgets("我自己人均不能超过 3200 元") == [3200]
    assert budgets("个人预算不能超过2500元，门票100元") == [2500, 100]
    assert budgets("门票100元") == []


def test_caps_need_a_cap_word_unless_told_otherwise() -> None:
    assert poi_caps("一天最多只能逛两个景点") == [2]
    assert poi_caps("每天最多逛 2 个景点就行") == [2]
    assert hour_caps("每天活动时间最好别超过9小时") == [9]
    assert hour_caps("每天活动别超过7.5个小时") == [7.5]
    assert poi_caps("每天4个景点可以吗") == []
    assert poi_caps("每天4个景点可以吗", cue=False) == [4]
