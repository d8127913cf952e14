"""What the tasks name, per city: the vocabulary a world must contain (its grounding).

Read from raw task dicts (GroupTravelBench format). Malformed tasks raise `WorldError`
naming the JSON path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sandbox.world.errors import WorldError


@dataclass
class CityVocab:
    """Preference words used for one destination city, over every task and user."""

    visit_names: set[str] = field(default_factory=set)
    attraction_categories: set[str] = field(default_factory=set)
    food_items: set[str] = field(default_factory=set)
    hotel_categories: set[str] = field(default_factory=set)

    def words(self) -> set[str]:
        """Every word a generated name must not contain by accident."""
        return self.visit_names | self.attraction_categories | self.food_items | self.hotel_categories


@dataclass
class Grounding:
    """Destination vocabularies and every city a task mentions."""

    destinations: dict[str, CityVocab] = field(default_factory=dict)
    cities: set[str] = field(default_factory=set)


def _dict(obj: Any, path: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise WorldError(path, f"expected an object, got {type(obj).__name__}")
    return obj


def _strings(obj: Any, path: str) -> list[str]:
    if obj is None:
        return []
    if not isinstance(obj, list) or not all(isinstance(x, str) for x in obj):
        raise WorldError(path, "expected a list of strings")
    return [x for x in obj if x]


def _add_city_prefs(vocab: CityVocab, prefs: dict[str, Any], path: str) -> None:
    attractions = _dict(prefs.get("attractions") or {}, f"{path}.attractions")
    vocab.visit_names.update(_strings(attractions.get("must_visit"), f"{path}.attractions.must_visit"))
    vocab.visit_names.update(_strings(attractions.get("reject_visit"), f"{path}.attractions.reject_visit"))
    cats = _dict(attractions.get("category_pref") or {}, f"{path}.attractions.category_pref")
    for tier in ("positive", "negative"):
        vocab.attraction_categories.update(
            _strings(cats.get(tier), f"{path}.attractions.category_pref.{tier}")
        )
    food = _dict(prefs.get("food") or {}, f"{path}.food")
    for tier in ("must_eat", "prefer_eat", "avoid_eat", "reject_eat"):
        vocab.food_items.update(_strings(food.get(tier), f"{path}.food.{tier}"))


def _add_task(g: Grounding, task: Any, i: int) -> None:
    task = _dict(task, f"tasks[{i}]")
    meta = _dict(task.get("metadata"), f"tasks[{i}].metadata")
    departure = meta.get("departure_city")
    if not isinstance(departure, str) or not departure:
        raise WorldError(f"tasks[{i}].metadata.departure_city", "expected a non-empty string")
    dests = _strings(meta.get("cities"), f"tasks[{i}].metadata.cities")
    if not dests:
        raise WorldError(f"tasks[{i}].metadata.cities", "expected at least one city")
    g.cities.update([departure, *dests])
    users = _dict(task.get("user_preferences"), f"tasks[{i}].user_preferences")
    hotel_words: set[str] = set()
    for user, entry in users.items():
        upath = f"tasks[{i}].user_preferences.{user}.preference"
        pref = _dict(_dict(entry, upath[: -len(".preference")]).get("preference"), upath)
        glob = _dict(pref.get("global_constraints") or {}, f"{upath}.global_constraints")
        hotel = _dict(glob.get("hotel_preference") or {}, f"{upath}.global_constraints.hotel_preference")
        for tier in ("prefer", "avoid"):
            hotel_words.update(
                _strings(hotel.get(tier), f"{upath}.global_constraints.hotel_preference.{tier}")
            )
        per_city = _dict(pref.get("city_specific_preferences") or {}, f"{upath}.city_specific_preferences")
        for city, prefs in per_city.items():
            cpath = f"{upath}.city_specific_preferences.{city}"
            _add_city_prefs(g.destinations.setdefault(city, CityVocab()), _dict(prefs, cpath), cpath)
            g.cities.add(city)
    for city in dests:
        g.destinations.setdefault(city, CityVocab()).hotel_categories.update(hotel_words)


def grounding(tasks: list[Any]) -> Grounding:
    """The vocabulary of every destination city over all tasks."""
    g = Grounding()
    for i, task in enumerate(tasks):
        _add_task(g, task, i)
    return g
