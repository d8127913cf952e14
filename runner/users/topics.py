"""The preference fields a question or an answer is about, and where they live in a table.

A `Field` is one thing an agent can ask a traveller: four global topics (budget, transport,
intensity, hotel) and three per city (places to visit or not, kinds of attraction liked or not,
food). Each topic holds scalars (budget, the intensity caps) or lists by tier; `slot_key` maps a
tier onto the topic's own lists (a topic without a soft tier files a soft item with its firm
one of the same sign, and the other way round). `asked_fields` reads which fields a question asks
about from its wording — the scripted agent's questions and free questions alike.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from runner.users.tones import Tier
from sandbox.world.geography import short_name


class Topic(StrEnum):
    """What a field is about."""

    BUDGET = "budget"
    TRANSPORT = "transport"
    INTENSITY = "intensity"
    HOTEL = "hotel"
    VISIT = "visit"
    CATEGORY = "category"
    FOOD = "food"

    @property
    def per_city(self) -> bool:
        """Whether the topic is kept per city (`city_specific_preferences`)."""
        return self in CITY_TOPICS


GLOBAL_TOPICS = (Topic.BUDGET, Topic.TRANSPORT, Topic.INTENSITY, Topic.HOTEL)
CITY_TOPICS = (Topic.VISIT, Topic.CATEGORY, Topic.FOOD)


@dataclass(frozen=True)
class Field:
    """One askable field: a topic, and the city key for a per-city topic ("" otherwise)."""

    topic: Topic
    city: str = ""


SCALARS: dict[Topic, tuple[str, ...]] = {
    Topic.BUDGET: ("avg_budget",),
    Topic.INTENSITY: ("max_poi_per_day", "max_active_hours"),
}
"""The scalar keys of the scalar topics, in the order an answer states them."""

LISTS: dict[Topic, tuple[tuple[Tier, str], ...]] = {
    Topic.TRANSPORT: (
        (Tier.MUST, "must"),
        (Tier.PREFER, "prefer"),
        (Tier.AVOID, "avoid"),
        (Tier.REJECT, "reject"),
    ),
    Topic.HOTEL: ((Tier.PREFER, "prefer"), (Tier.AVOID, "avoid")),
    Topic.VISIT: ((Tier.MUST, "must_visit"), (Tier.REJECT, "reject_visit")),
    Topic.CATEGORY: ((Tier.PREFER, "positive"), (Tier.AVOID, "negative")),
    Topic.FOOD: (
        (Tier.MUST, "must_eat"),
        (Tier.PREFER, "prefer_eat"),
        (Tier.AVOID, "avoid_eat"),
        (Tier.REJECT, "reject_eat"),
    ),
}
"""The list keys of the list topics with the tier each is said in, in the order an answer states them."""

_PARENT: dict[Topic, tuple[str, ...]] = {
    Topic.BUDGET: ("global_constraints",),
    Topic.TRANSPORT: ("global_constraints", "transport"),
    Topic.INTENSITY: ("global_constraints", "intensity"),
    Topic.HOTEL: ("global_constraints", "hotel_preference"),
    Topic.VISIT: ("attractions",),
    Topic.CATEGORY: ("attractions", "category_pref"),
    Topic.FOOD: ("food",),
}


def slot_key(topic: Topic, tier: Tier) -> str:
    """The list of `topic` an item of this tier goes to (same tier, else same sign)."""
    pairs = LISTS[topic]
    exact = [key for listed, key in pairs if listed == tier]
    if exact:
        return exact[0]
    return next(key for listed, key in pairs if listed.positive == tier.positive)


def path(field: Field, key: str) -> tuple[str, ...]:
    """Where a field's key sits inside a preference object (`global_constraints…` or
    `city_specific_preferences.<city>…`)."""
    parent = _PARENT[field.topic]
    if field.topic.per_city:
        return ("city_specific_preferences", field.city, *parent, key)
    return (*parent, key)


def keys(topic: Topic) -> tuple[str, ...]:
    """Every key a topic holds."""
    return SCALARS.get(topic) or tuple(key for _, key in LISTS[topic])


def read(preference: Any, field: Field, key: str) -> Any:
    """A field's value in a preference object (0 or [] when absent or of the wrong type)."""
    value: Any = preference
    for part in path(field, key):
        value = value.get(part) if isinstance(value, dict) else None
    if field.topic in SCALARS:
        is_number = isinstance(value, int | float) and not isinstance(value, bool)
        return value if is_number else 0
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def empty_preference(cities: Sequence[str]) -> dict[str, Any]:
    """A preference object with every field empty, for these city keys (the task table's shape)."""
    city = {
        "attractions": {
            "must_visit": [],
            "reject_visit": [],
            "category_pref": {"positive": [], "negative": []},
        },
        "food": {"must_eat": [], "prefer_eat": [], "avoid_eat": [], "reject_eat": []},
    }
    return {
        "global_constraints": {
            "avg_budget": 0,
            "transport": {"must": [], "prefer": [], "avoid": [], "reject": []},
            "intensity": {"max_poi_per_day": 0, "max_active_hours": 0},
            "hotel_preference": {"prefer": [], "avoid": []},
        },
        "city_specific_preferences": {name: copy.deepcopy(city) for name in cities},
    }


def write(preference: dict[str, Any], field: Field, key: str, value: Any) -> None:
    """Set a field's key in a preference object, creating the dicts on the way."""
    *parents, leaf = path(field, key)
    node = preference
    for part in parents:
        node = node.setdefault(part, {})
    node[leaf] = value


def all_fields(cities: Sequence[str]) -> list[Field]:
    """Every field for these city keys, in the order a traveller is asked and answers."""
    return [Field(topic) for topic in GLOBAL_TOPICS] + [
        Field(topic, city) for city in cities for topic in CITY_TOPICS
    ]


_QUESTION_CUES: dict[Topic, tuple[str, ...]] = {
    Topic.BUDGET: ("预算", "人均", "花费", "多少钱", "价位", "费用"),
    Topic.TRANSPORT: ("交通", "出行方式", "怎么去", "坐什么"),
    Topic.INTENSITY: ("强度", "节奏", "几个景点", "多少个景点", "活动时间", "几个小时", "多少小时"),
    Topic.HOTEL: ("住宿", "酒店", "住哪", "住什么"),
    Topic.VISIT: ("必去", "想去", "不去", "哪些景点", "什么景点", "哪些地方"),
    Topic.CATEGORY: ("类型", "哪类", "什么样的景点", "感兴趣"),
    Topic.FOOD: ("吃", "美食", "餐饮", "口味", "忌口"),
}


def city_mentions(text: str, cities: Sequence[str]) -> list[str]:
    """The city keys named in `text` by key or short name, in `cities` order."""
    return [city for city in cities if city in text or short_name(city) in text]


def asked_fields(text: str, cities: Sequence[str]) -> list[Field]:
    """The fields a question asks about, in `all_fields` order. Per-city topics are asked for the
    cities the question names, or for all of `cities` when it names none."""
    topics = {topic for topic, cues in _QUESTION_CUES.items() if any(cue in text for cue in cues)}
    named = city_mentions(text, cities) or list(cities)
    return [
        field
        for field in all_fields(cities)
        if field.topic in topics and (not field.topic.per_city or field.city in named)
    ]
