"""Compromises: what a proposal changes, accepted by flag and quota, markers in the §7.6 grammar."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from runner.episode.conversation import MessageEntry, UserRequest, message
from runner.episode.markers import find_marker
from runner.users.compromise import Change, proposed_change
from runner.users.rules import RulesUser
from runner.users.topics import Field, Topic
from tests.fixtures.sample_game import opening, sample_task, slot

ZH = "珠海市"
USER2 = slot("User2")["preference"]
MARKER = re.compile(r"\[([\w.]+)[^\S\n]*:[^\S\n]*(.*)\]\s*\Z")
"""§7.6: the reply ENDS with `[path : value]`, path word characters and dots, value to the last `]`."""


def _marker(text: str) -> tuple[str, Any]:
    found = MARKER.search(text.splitlines()[-1])
    assert found is not None, text
    return found.group(1), json.loads(found.group(2))


def _set(preference: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    changed = json.loads(json.dumps(preference))
    *parents, leaf = dotted.split(".")
    node = changed
    for part in parents:
        node = node[part]
    assert leaf in node
    node[leaf] = value
    return changed


@pytest.mark.parametrize(
    ("proposal", "path", "value"),
    [
        ("预算能不能提高到3500元？", "global_constraints.avg_budget", 3500),
        ("把预算从3200元提高到3600元可以吗", "global_constraints.avg_budget", 3600),
        ("每天4个景点可以吗？", "global_constraints.intensity.max_poi_per_day", 4),
        ("每天活动9小时能接受吗？", "global_constraints.intensity.max_active_hours", 9),
        ("火车可以接受吗？", "global_constraints.transport.avoid", []),
        ("能不能把飞机换成高铁？", "global_constraints.transport.must", []),
        ("大家都坐高铁行吗？", "global_constraints.transport.must", []),
        ("豪华型也可以接受吗？", "global_constraints.hotel_preference.avoid", []),
        ("可以取消长隆海洋王国吗？", f"city_specific_preferences.{ZH}.attractions.must_visit", []),
        ("凤凰山风景旅游区能不能去一下？", f"city_specific_preferences.{ZH}.attractions.reject_visit", []),
        ("川菜可以接受吗？", f"city_specific_preferences.{ZH}.food.reject_eat", []),
        ("粤式茶点不吃了可以吗？", f"city_specific_preferences.{ZH}.food.prefer_eat", []),
    ],
)
def test_a_compromisable_user_accepts_with_a_valid_marker(proposal: str, path: str, value: Any) -> None:
    user = RulesUser("User2", sample_task(), seed=0)
    reply = user.reply(_request(f"@User2 {proposal}", compromisable=True, left=2)).content
    assert reply.startswith("好吧，为了大家我退一步，")
    assert _marker(reply) == (path, value)
    engine_reading = find_marker(reply)
    assert engine_reading is not None and (engine_reading.path, engine_reading.value) == (path, value)
    assert _set(USER2, path, value) != USER2


@pytest.mark.parametrize(("compromisable", "left"), [(False, 2), (True, 0)])
def test_no_flag_or_no_quota_refuses_and_restates(compromisable: bool, left: int) -> None:
    user = RulesUser("User2", sample_task(), seed=0)
    reply = user.reply(
        _request("@User2 预算能不能提高到3500元？", compromisable=compromisable, left=left)
    ).content
    assert reply in {
        "抱歉，这个我没法让步。我这边人均不能超过3200元。",
        "抱歉，这个我没法让步。预算方面人均最多3200元。",
    }
    assert MARKER.search(reply) is None


def test_no_marker_unless_the_agent_named_this_user_last() -> None:
    user = RulesUser("User2", sample_task(), seed=0, volunteer_rate=0)
    reply = user.reply(_request("@User2 预算能不能提高到3500元？@User1 你呢？", compromisable=True, left=2))
    assert reply.content == "[pass]"


def test_lowering_agreeing_or_just_asking_proposes_nothing() -> None:
    assert proposed_change("总费用大约2800元，可以吗？", USER2, [ZH]) is None
    assert proposed_change("每天2个景点可以吗？", USER2, [ZH]) is None
    assert proposed_change("长隆海洋王国可以吗？", USER2, [ZH]) is None
    assert proposed_change("想请你说说你的偏好：人均预算、交通方式。", USER2, [ZH]) is None
    assert proposed_change("预算3500元", USER2, [ZH]) is None


def test_a_change_marker_and_its_markability() -> None:
    change = Change(Field(Topic.VISIT, ZH), "must_visit", ["珠海普陀寺"], "")
    assert change.marker() == f'[city_specific_preferences.{ZH}.attractions.must_visit : ["珠海普陀寺"]]'
    assert change.markable
    assert not Change(Field(Topic.VISIT, "珠海 市"), "must_visit", [], "").markable


def _request(text: str, *, compromisable: bool, left: int) -> UserRequest:
    history: list[MessageEntry] = [*opening(), message("Agent", text, has_tool_calls=False)]
    return UserRequest("User2", sample_task(), history, slot("User2"), compromisable, left, mentioned=True)
