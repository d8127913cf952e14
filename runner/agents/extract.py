"""Reading preferences out of chat text into statements about the table ② fields.

A text is cut into clauses at punctuation (never inside a recognised word, `runner.agents.vocab`).
In each clause:

- the cities it names become the city context, kept for the clauses after it until another
  city is named; a per-city word goes to the context (a place: to the context cities that have
  it, else to every city that has it — "在长沙…，凤凰中华大熊猫乐园也是非去不可的"); with no
  context, to the task cities whose world knows the word, else to every task city;
- a budget ("人均…3200元") and the intensity caps ("最多…两个景点", "别超过7小时") are read as
  numbers (`runner.users.tones`);
- every other recognised word is an item filed by the clause's tier (`runner.users.tones.tier_of`)
  under its topic: a mode → transport, a hotel category → hotel, an attraction → places to visit
  or not, an attraction category → kinds liked or not, a restaurant category or name → food.
  A word with several meanings takes the one in `scope` (the fields just asked), else food when
  the clause speaks of eating, else a place when said firmly and a category when said softly.
  Items of a clause without a tier take the next clause's tier when that clause names none
  ("海鲜火锅和烧烤，这两样必须吃"). Items never heard of are not read — the agent only knows the
  world's words.

This reads the rule-based travellers' answers (`runner.users.answers`) exactly and free text as
well as the words allow.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from runner.agents.vocab import Kind, Sense, Token, Vocabulary
from runner.users.tones import Tier, budgets, hour_caps, poi_caps, tier_of
from runner.users.topics import SCALARS, Field, Topic, keys, read, slot_key, write

_CLAUSE = re.compile(r"[^，,。！!？?；;：\n]+")
_TOPIC_OF_KIND = {
    Kind.MODE: Topic.TRANSPORT,
    Kind.HOTEL: Topic.HOTEL,
    Kind.PLACE: Topic.VISIT,
    Kind.SIGHT: Topic.CATEGORY,
    Kind.FOOD: Topic.FOOD,
}
_EATING = ("吃", "餐", "菜", "美食")
_MASK = "\x00"
_JOINERS = frozenset("和与及跟、 ")


@dataclass(frozen=True)
class Statement:
    """One value for one key of a field: a scalar, or an item to add to a list."""

    field: Field
    key: str
    value: Any


def read_statements(
    text: str, vocab: Vocabulary, cities: Sequence[str], scope: Collection[Field] = ()
) -> list[Statement]:
    """Every statement the text makes, in text order (see the module docstring)."""
    tokens = vocab.tokens(text)
    masked = _masked(text, tokens)
    scope_topics = {field.topic for field in scope}
    context: list[str] = []
    waiting: list[tuple[Token, list[str]]] = []
    found: list[Statement] = []
    for clause in _CLAUSE.finditer(masked):
        words = [token for token in tokens if clause.start() <= token.start < clause.end()]
        items, context, named = _placed(words, masked, context)
        cue = clause.group()
        found += _scalars(cue)
        tier = tier_of(cue)
        if tier is None:
            waiting = items
            continue
        items, waiting = items or waiting, []
        meant = [(_meaning(token.senses, tier, cue, scope_topics), where) for token, where in items]
        for sense, where in meant:
            found += _items(sense, tier, _cities_of(sense, where, cities))
        if not named:
            context = _home([sense for sense, _ in meant]) or context
    return found


def _placed(
    words: Sequence[Token], masked: str, context: list[str]
) -> tuple[list[tuple[Token, list[str]]], list[str], bool]:
    """A clause's items, each with the cities it is said of, the city context after the clause
    and whether the clause named a city.

    A city applies to the items after it; cities joined by "和", "、", … apply together ("在太原和
    忻州"). A word that is both a city and a place ("九寨沟") is the city when "的", "那边" or
    "这边" follows it."""
    items: list[tuple[Token, list[str]]] = []
    current, city_end = context, -1
    for token in words:
        city = _as_city(token, masked)
        if city is None:
            items.append((token, current))
            continue
        joined = city_end >= 0 and all(char in _JOINERS for char in masked[city_end : token.start])
        current, city_end = ([*current, city] if joined else [city]), token.end
    return items, current, city_end >= 0


def _as_city(token: Token, masked: str) -> str | None:
    city = next((sense.value for sense in token.senses if sense.kind is Kind.CITY), None)
    if city is None:
        return None
    alone = all(sense.kind is Kind.CITY for sense in token.senses)
    return city if alone or masked[token.end : token.end + 1] in ("的", "那", "这") else None


def _home(meant: Sequence[Sense]) -> list[str]:
    """The one city all the places a clause names are in ("杭州宋城…，但那边的寺庙…"), or []."""
    homes = {sense.cities for sense in meant if sense.kind is Kind.PLACE}
    return list(next(iter(homes))) if len(homes) == 1 and len(next(iter(homes))) == 1 else []


def _masked(text: str, tokens: Sequence[Token]) -> str:
    """The text with recognised words blanked, so their letters are no cue and no punctuation."""
    chars = list(text)
    for token in tokens:
        chars[token.start : token.end] = _MASK * (token.end - token.start)
    return "".join(chars)


def _scalars(cue: str) -> list[Statement]:
    readers = (
        (Field(Topic.BUDGET), "avg_budget", budgets(cue)),
        (Field(Topic.INTENSITY), "max_poi_per_day", poi_caps(cue)),
        (Field(Topic.INTENSITY), "max_active_hours", hour_caps(cue)),
    )
    return [Statement(field, key, values[0]) for field, key, values in readers if values]


def _meaning(senses: Sequence[Sense], tier: Tier, cue: str, scope: Collection[Topic]) -> Sense:
    """The sense a word has here (see the module docstring); ties keep the vocabulary's order."""
    eating = any(word in cue for word in _EATING)

    def rank(sense: Sense) -> int:
        topic = _TOPIC_OF_KIND[sense.kind]
        score = 4 * (topic in scope) + 2 * ((topic is Topic.FOOD) == eating)
        return score + (topic is (Topic.VISIT if tier.firm else Topic.CATEGORY))

    candidates = [sense for sense in senses if sense.kind is not Kind.CITY]
    return max(candidates, key=rank)


def _cities_of(sense: Sense, context: Sequence[str], cities: Sequence[str]) -> list[str]:
    """The cities a per-city item goes to: a place to the context cities that have it, else to
    every city that has it; another item to the context, else to the cities that know the word,
    else to every task city."""
    if sense.kind is Kind.PLACE:
        return [city for city in context if city in sense.cities] or list(sense.cities) or list(context)
    return list(context) or list(sense.cities) or list(cities)


def _items(sense: Sense, tier: Tier, cities: Sequence[str]) -> list[Statement]:
    topic = _TOPIC_OF_KIND[sense.kind]
    key = slot_key(topic, tier)
    if not topic.per_city:
        return [Statement(Field(topic), key, sense.value)]
    return [Statement(Field(topic, city), key, sense.value) for city in cities]


def apply(preference: dict[str, Any], statement: Statement) -> None:
    """Record a statement in a preference object: a scalar is set, an item added once."""
    field, key, value = statement.field, statement.key, statement.value
    if field.topic in SCALARS:
        write(preference, field, key, value)
        return
    items = read(preference, field, key)
    if value not in items:
        write(preference, field, key, [*items, value])


def clear(preference: dict[str, Any], field: Field) -> None:
    """Empty every key of a field (an answer to a question about it says all there is)."""
    for key in keys(field.topic):
        write(preference, field, key, 0 if field.topic in SCALARS else [])
