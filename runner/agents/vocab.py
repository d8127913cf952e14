"""The words an agent can recognise in chat: what the world knows about the task's cities.

Built from the `World` only — its attractions (names and aliases, categories), restaurants
(names, categories) and hotel categories in the task's cities, the official hotel categories,
the intercity modes and the city names — never from the task's preference tables, which an
agent does not see. `tokens` finds them in a text leftmost-longest, so "珠海普陀寺" is a place
and not the city "珠海", and "海鲜火锅" is one food and not "火锅".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from runner.users.compromise import MODES
from sandbox.world.geography import short_name
from sandbox.world.world import World
from verifier.official.poi_db import VALID_HOTEL_CATEGORIES

_MODE_SYNONYMS = {"动车": "高铁"}


class Kind(StrEnum):
    """What a word names."""

    CITY = "city"
    MODE = "mode"
    HOTEL = "hotel"
    PLACE = "place"
    SIGHT = "sight"
    """An attraction category."""
    FOOD = "food"
    """A restaurant category or name."""


@dataclass(frozen=True)
class Sense:
    """One meaning of a word: its kind, the value a table records and, for the kinds kept per
    city, the task's cities whose world knows the word."""

    kind: Kind
    value: str
    cities: tuple[str, ...] = ()


@dataclass(frozen=True)
class Token:
    """A recognised word at `start:end` of a text, with every meaning it has."""

    start: int
    end: int
    senses: tuple[Sense, ...]


class Vocabulary:
    """The recognisable words of one task in one world."""

    def __init__(self, senses: dict[str, tuple[Sense, ...]]) -> None:
        self._senses = senses
        ordered = sorted(senses, key=lambda word: (-len(word), word))
        self._pattern = re.compile("|".join(re.escape(word) for word in ordered)) if ordered else None

    @classmethod
    def of(cls, world: World, cities: Sequence[str]) -> Vocabulary:
        """The vocabulary of these task city keys (as the task writes them) in `world`."""
        found: dict[str, dict[tuple[Kind, str], list[str]]] = {}

        def add(word: str, kind: Kind, value: str, city: str = "") -> None:
            if word.strip():
                where = found.setdefault(word, {}).setdefault((kind, value), [])
                if city and city not in where:
                    where.append(city)

        for mode in MODES:
            add(mode, Kind.MODE, mode)
        for word, mode in _MODE_SYNONYMS.items():
            add(word, Kind.MODE, mode)
        for category in sorted(VALID_HOTEL_CATEGORIES):
            add(category, Kind.HOTEL, category)
        for city in cities:
            add(city, Kind.CITY, city)
            add(short_name(city), Kind.CITY, city)
            for poi in world.pois(city):
                if poi.kind == "attraction":
                    for name in (poi.name, *poi.aliases):
                        add(name, Kind.PLACE, name, city)
                    add(poi.category, Kind.SIGHT, poi.category, city)
                elif poi.kind == "restaurant":
                    add(poi.name, Kind.FOOD, poi.name, city)
                    add(poi.category, Kind.FOOD, poi.category, city)
                elif poi.kind == "hotel":
                    add(poi.category, Kind.HOTEL, poi.category)
        return cls(
            {
                word: tuple(Sense(kind, value, tuple(where)) for (kind, value), where in meanings.items())
                for word, meanings in found.items()
            }
        )

    def tokens(self, text: str) -> list[Token]:
        """The recognised words of `text`, leftmost-longest, in order."""
        if self._pattern is None:
            return []
        return [
            Token(match.start(), match.end(), self._senses[match.group()])
            for match in self._pattern.finditer(text)
        ]
