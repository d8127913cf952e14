"""What a rule-based traveller says about one preference field, and whether it has said it.

The phrasing is a contract with `runner.agents.extract`, which must read every value back:

- a field is one sentence ending in "。"; the first field of a city is introduced by the city key
  in a clause of its own ("在珠海市，…" or "珠海市这边，…");
- a list field says each non-empty tier in one clause of its own, the items joined by "、",
  with a cue of that tier's tone (`runner.users.tones`): must and reject firmly, prefer and avoid
  softly — "海鲜火锅一定要吃，粤式茶点最好能吃到，川菜我绝对不吃。";
- the budget is "人均…{n}元"; the intensity caps are "最多…{n}个景点" and "别超过{h}小时"
  (counts up to ten in Chinese numerals);
- an empty field is one clause with neither items nor numbers ("交通方式我都可以").

Each tone has two wordings; `salt` picks one, so a traveller does not repeat itself word for word.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from runner.users.tones import Tier, budgets, hour_caps, poi_caps, say_count
from runner.users.topics import LISTS, Field, Topic, read

_LIST_WORDING: dict[Topic, dict[Tier, tuple[str, str]]] = {
    Topic.TRANSPORT: {
        Tier.MUST: ("交通一定要坐{items}", "出行必须坐{items}"),
        Tier.PREFER: ("交通最好坐{items}", "我比较倾向坐{items}"),
        Tier.AVOID: ("{items}尽量别安排", "{items}能避开最好"),
        Tier.REJECT: ("{items}我绝对不坐", "{items}坚决不坐"),
    },
    Topic.HOTEL: {
        Tier.PREFER: ("住宿最好是{items}", "住的话我比较倾向{items}"),
        Tier.AVOID: ("{items}就算了吧", "{items}我不太想住"),
    },
    Topic.VISIT: {
        Tier.MUST: ("{items}我一定要去", "{items}是非去不可的"),
        Tier.REJECT: ("{items}我绝对不去", "{items}坚决不去"),
    },
    Topic.CATEGORY: {
        Tier.PREFER: ("我比较喜欢{items}这类地方", "{items}这类我挺感兴趣"),
        Tier.AVOID: ("{items}这类我不太感兴趣", "{items}这类尽量少安排"),
    },
    Topic.FOOD: {
        Tier.MUST: ("{items}一定要吃", "{items}必须得安排一下"),
        Tier.PREFER: ("{items}最好能吃到", "我比较想吃{items}"),
        Tier.AVOID: ("{items}尽量别安排", "{items}我不太想吃"),
        Tier.REJECT: ("{items}我绝对不吃", "{items}千万别安排"),
    },
}

_NOTHING: dict[Topic, str] = {
    Topic.BUDGET: "预算我没什么限制",
    Topic.TRANSPORT: "交通方式我都可以",
    Topic.INTENSITY: "行程松紧我都可以",
    Topic.HOTEL: "住宿我没什么讲究",
    Topic.VISIT: "没有特别必去或不想去的景点",
    Topic.CATEGORY: "景点类型我都可以",
    Topic.FOOD: "吃的方面我没什么忌口",
}

_BUDGET_WORDING = ("我这边人均不能超过{n}元", "预算方面人均最多{n}元")
_POI_WORDING = ("每天最多逛{n}个景点", "一天最多安排{n}个景点")
_HOURS_WORDING = ("活动时间最好别超过{n}小时", "每天活动别超过{n}个小时")
_CITY_WORDING = ("在{city}，", "{city}这边，")


def say_number(value: int | float) -> str:
    """A budget or an hour count as written in chat: integral values without a decimal point."""
    return str(int(value)) if float(value).is_integer() else str(value)


def say_field(preference: Any, field: Field, salt: int) -> str:
    """One field of a preference object as a sentence (without the city introduction)."""
    topic = field.topic
    clauses: list[str] = []
    if topic is Topic.BUDGET:
        budget = read(preference, field, "avg_budget")
        if budget:
            clauses.append(_BUDGET_WORDING[salt % 2].format(n=say_number(budget)))
    elif topic is Topic.INTENSITY:
        pois, hours = read(preference, field, "max_poi_per_day"), read(preference, field, "max_active_hours")
        if pois:
            count = say_count(pois) if float(pois).is_integer() else say_number(pois)
            clauses.append(_POI_WORDING[salt % 2].format(n=count))
        if hours:
            clauses.append(_HOURS_WORDING[salt % 2].format(n=say_number(hours)))
    else:
        for position, (tier, key) in enumerate(LISTS[topic]):
            items = read(preference, field, key)
            if items:
                wording = _LIST_WORDING[topic][tier][(salt + position) % 2]
                clauses.append(wording.format(items="、".join(items)))
    return "，".join(clauses or [_NOTHING[topic]]) + "。"


def say_fields(preference: Any, fields: Sequence[Field], salt: int) -> str:
    """Several fields in order, each city introduced once before its first field."""
    parts: list[str] = []
    city = ""
    for index, field in enumerate(fields):
        if field.city and field.city != city:
            parts.append(_CITY_WORDING[(salt + index) % 2].format(city=field.city))
        city = field.city or city
        parts.append(say_field(preference, field, salt + index))
    return "".join(parts)


def has_content(preference: Any, field: Field) -> bool:
    """Whether the field holds anything to say (a number or an item)."""
    if field.topic is Topic.BUDGET:
        return bool(read(preference, field, "avg_budget"))
    if field.topic is Topic.INTENSITY:
        return bool(read(preference, field, "max_poi_per_day") or read(preference, field, "max_active_hours"))
    return any(read(preference, field, key) for _, key in LISTS[field.topic])


def already_said(preference: Any, field: Field, said: Sequence[str]) -> bool:
    """Whether the traveller's own messages `said` already state every value of the field: each
    item named, the budget and the caps given (in any of the ways chat writes them)."""
    text = "\n".join(said)
    if field.topic is Topic.BUDGET:
        budget = read(preference, field, "avg_budget")
        return not budget or budget in budgets(text)
    if field.topic is Topic.INTENSITY:
        pois, hours = read(preference, field, "max_poi_per_day"), read(preference, field, "max_active_hours")
        return (not pois or pois in poi_caps(text)) and (not hours or hours in hour_caps(text))
    return all(item in text for _, key in LISTS[field.topic] for item in read(preference, field, key))
