"""The group's preferences as the greedy planner reads them: per-option group scores.

Scores follow the official group-utility components (verifier/official/utility_*.py), summed
over the scored users, using the world's category of a place: attractions (must_visit +2 once
per item, reject_visit −2, else category_pref ±1 per visit), meals (name stage must > reject >
prefer > avoid, else category stage), intercity modes (must +2 / reject −2, else prefer +1 /
avoid −1) and hotel categories (prefer +1, else avoid −1). Each per-place score is the sum of
its parts by official detail field (`UserPrefs.*_fields`; the oracle's compromise-aware
ceiling waives whole fields). The table is read defensively: a field of the wrong type counts
as empty.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from verifier.model.task import Task

Words = tuple[str, ...]


def _obj(value: Any, *keys: str) -> dict[str, Any]:
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, dict) else {}


def _words(value: dict[str, Any], key: str) -> Words:
    found = value.get(key)
    return tuple(w for w in found if isinstance(w, str)) if isinstance(found, list) else ()


def _number(value: dict[str, Any], key: str) -> float:
    found = value.get(key)
    return float(found) if isinstance(found, int | float) and not isinstance(found, bool) else 0.0


NO_WORDS: tuple[Words, Words, Words, Words] = ((), (), (), ())

Parts = tuple[tuple[str, int], ...]
"""A score split by the official detail field that earns each part: `(field, score)` pairs."""


@dataclass(frozen=True)
class UserPrefs:
    """One scored user's table, as tuples: `(must, reject, prefer, avoid)`-style word lists."""

    attractions: dict[str, tuple[Words, Words, Words, Words]]
    """city → (must_visit, reject_visit, category positive, category negative)."""
    food: dict[str, tuple[Words, Words, Words, Words]]
    """city → (must_eat, reject_eat, prefer_eat, avoid_eat)."""
    transport_words: tuple[Words, Words, Words, Words]
    """(must, reject, prefer, avoid)."""
    hotel_words: tuple[Words, Words]
    """(prefer, avoid)."""
    budget_fen: int
    max_pois: int
    max_active_minutes: int

    def attraction(self, city: str, name: str, category: str) -> tuple[int, frozenset[int], frozenset[int]]:
        """This user's category score of one visit (0 when a must_visit or reject_visit item
        matches the name: such a place scores through its items only), and the positions in
        the must_visit and reject_visit lists of the items the name contains (+2 / −2 once per
        list entry over the trip, duplicates included, as the official loop counts them)."""
        must, reject, _, _ = self.attractions.get(city, NO_WORDS)
        musts = frozenset(k for k, item in enumerate(must) if item in name)
        rejects = frozenset(k for k, item in enumerate(reject) if item in name)
        return _total(self.attraction_fields(city, name, category)), musts, rejects

    def attraction_fields(self, city: str, name: str, category: str) -> Parts:
        """The category score of one visit by official field: `category_pref.positive` +1 and
        `category_pref.negative` −1 (both may fire); none when an item matches the name."""
        must, reject, positive, negative = self.attractions.get(city, NO_WORDS)
        if any(item in name for item in (*must, *reject)):
            return ()
        hits = (("category_pref.positive", positive, 1), ("category_pref.negative", negative, -1))
        return tuple((field, score) for field, words, score in hits if _category_hit(words, name, category))

    def meal(self, city: str, name: str, category: str) -> int:
        """This user's score of one meal at a restaurant."""
        return _total(self.meal_fields(city, name, category))

    def meal_fields(self, city: str, name: str, category: str) -> Parts:
        """The score of one meal by official field (the stage that fired; two fields when the
        category is both a must_eat and a reject_eat)."""
        return _meal_fields(self.food.get(city, NO_WORDS), name, category)

    def transport(self, mode: str) -> int:
        """This user's score of one intercity leg by `mode`."""
        return _total(self.transport_fields(mode))

    def transport_fields(self, mode: str) -> Parts:
        """The score of one leg by official field: `transport.must` +2 and `transport.reject` −2
        (both may fire), else `transport.prefer` +1, else `transport.avoid` −1."""
        must, reject, prefer, avoid = self.transport_words
        hard = tuple(
            (field, score)
            for field, words, score in (("transport.must", must, 2), ("transport.reject", reject, -2))
            if mode in words
        )
        if hard:
            return hard
        soft = (("transport.prefer", prefer, 1), ("transport.avoid", avoid, -1))
        return next((((field, score),) for field, words, score in soft if mode in words), ())

    def hotel(self, category: str) -> int:
        """This user's score of one hotel entry of this category."""
        return _total(self.hotel_fields(category))

    def hotel_fields(self, category: str) -> Parts:
        """The score of one hotel entry by official field: `hotel_preference.prefer` +1, else
        `hotel_preference.avoid` −1."""
        prefer, avoid = self.hotel_words
        options = (("hotel_preference.prefer", prefer, 1), ("hotel_preference.avoid", avoid, -1))
        return next((((field, score),) for field, words, score in options if category in words), ())


def user_prefs(prefs: Any) -> UserPrefs:
    """One user's preference object, normalised."""
    cities = _obj(prefs, "city_specific_preferences")
    attractions: dict[str, tuple[Words, Words, Words, Words]] = {}
    food: dict[str, tuple[Words, Words, Words, Words]] = {}
    for city in cities:
        section = _obj(cities, city, "attractions")
        category = _obj(section, "category_pref")
        attractions[city] = (
            _words(section, "must_visit"),
            _words(section, "reject_visit"),
            _words(category, "positive"),
            _words(category, "negative"),
        )
        meals = _obj(cities, city, "food")
        food[city] = (
            _words(meals, "must_eat"),
            _words(meals, "reject_eat"),
            _words(meals, "prefer_eat"),
            _words(meals, "avoid_eat"),
        )
    constraints = _obj(prefs, "global_constraints")
    transport = _obj(constraints, "transport")
    hotel = _obj(constraints, "hotel_preference")
    intensity = _obj(constraints, "intensity")
    return UserPrefs(
        attractions=attractions,
        food=food,
        transport_words=(
            _words(transport, "must"),
            _words(transport, "reject"),
            _words(transport, "prefer"),
            _words(transport, "avoid"),
        ),
        hotel_words=(_words(hotel, "prefer"), _words(hotel, "avoid")),
        budget_fen=round(_number(constraints, "avg_budget") * 100),
        max_pois=int(_number(intensity, "max_poi_per_day")),
        max_active_minutes=int(_number(intensity, "max_active_hours") * 60),
    )


@dataclass(frozen=True)
class GroupPrefs:
    """Every scored user's preferences and the group-level scores of options."""

    users: tuple[UserPrefs, ...]

    def attraction(self, city: str, name: str, category: str) -> tuple[int, frozenset[tuple[int, int]]]:
        """Group score of visiting an attraction apart from its must_visit items, and those items
        (`(user index, position in the must_visit list)`); each scores +2 once per user, so the
        caller adds 2 per item not yet satisfied."""
        fixed = 0
        musts: set[tuple[int, int]] = set()
        for i, user in enumerate(self.users):
            score, hits, rejects = user.attraction(city, name, category)
            musts |= {(i, item) for item in hits}
            fixed += score - 2 * len(rejects)
        return fixed, frozenset(musts)

    def meal(self, city: str, name: str, category: str) -> int:
        """Group score of one meal at a restaurant."""
        return sum(user.meal(city, name, category) for user in self.users)

    def transport(self, mode: str) -> int:
        """Group score of one intercity leg by `mode`."""
        return sum(user.transport(mode) for user in self.users)

    def hotel(self, category: str) -> int:
        """Group score of one night in a hotel of this category."""
        return sum(user.hotel(category) for user in self.users)

    @property
    def max_pois(self) -> int | None:
        """The group's attraction cap per day: the smallest positive `max_poi_per_day`."""
        return min((u.max_pois for u in self.users if u.max_pois > 0), default=None)

    @property
    def max_active_minutes(self) -> int | None:
        """The group's active-time cap per day: the smallest positive `max_active_hours`, in minutes."""
        return min((u.max_active_minutes for u in self.users if u.max_active_minutes > 0), default=None)


def _category_hit(words: Words, name: str, category: str) -> int:
    return int(any(word in name for word in words) or category in words)


def _meal_fields(food: tuple[Words, Words, Words, Words], name: str, category: str) -> Parts:
    """Name stage (first list with an item in the name), else category stage (must_eat and
    reject_eat both may fire; else prefer_eat, else avoid_eat)."""
    must, reject, prefer, avoid = food
    stages = (
        ("must_eat", must, 2),
        ("reject_eat", reject, -2),
        ("prefer_eat", prefer, 1),
        ("avoid_eat", avoid, -1),
    )
    for field, items, score in stages:
        if any(item in name for item in items):
            return ((field, score),)
    hard = tuple((field, score) for field, items, score in stages[:2] if category in items)
    if hard:
        return hard
    return next((((field, score),) for field, items, score in stages[2:] if category in items), ())


def _total(parts: Parts) -> int:
    return sum(score for _, score in parts)


def group_prefs(task: Task, effective: dict[str, Any] | None) -> GroupPrefs:
    """The scored users of a preference table (default: the task's own), as official GU selects
    them: each of the task's users whose entry has `preference` or `global_constraints`
    (scored on `preference` when present, else on the entry itself)."""
    table = task.preference_table() if effective is None else effective
    users: list[UserPrefs] = []
    for name in task.user_names:
        entry = table.get(name) if isinstance(table, dict) else None
        if isinstance(entry, dict) and ("preference" in entry or "global_constraints" in entry):
            users.append(user_prefs(entry.get("preference", entry)))
    return GroupPrefs(tuple(users))
