"""Group-utility components scored per city: attractions (docs/official.md#scoring) and food (§3.4).

Both read the user's activities of one exact city key (`_city == key`, no suffix folding), keep
those the user takes part in and drop invalid split activities. Matching is Python substring
`in` on the raw location, categories come from the official POI resolver (resolved once per
activity and plan, in the order the official loops first need them), and every visit or meal
scores on its own (repeats count).
"""

from __future__ import annotations

from typing import Any

from verifier.official.score_index import UNRESOLVED, ScoreIndex

Detail = dict[str, Any]


def score_attractions(prefs: Any, user: str, index: ScoreIndex) -> list[Detail]:
    """must_visit +2 / reject_visit −2 once per item; then category_pref.positive +1 per other
    visit, then category_pref.negative −1 per other visit (two separate passes)."""
    details: list[Detail] = []
    for city, city_prefs in prefs.get("city_specific_preferences", {}).items():
        section = city_prefs.get("attractions", {})
        entries = index.places_of(index.attractions.get(city), user)
        strong: set[Any] = set()
        for field, score in (("must_visit", 2), ("reject_visit", -2)):
            for item in section.get(field, []):
                hits = []
                for entry in entries:
                    if item in entry.location:
                        hits.append(entry.location)
                if hits:
                    details.append(
                        {"field": field, "item": item, "city": city, "satisfied": score > 0, "score": score}
                    )
                    strong.update(hits)
        category_pref = section.get("category_pref", {})
        positive = category_pref.get("positive", [])
        negative = category_pref.get("negative", [])
        if not entries:
            continue
        resolved: list[tuple[Any, str]] = []
        for entry in entries:
            location = entry.location
            if location in strong:
                continue
            category = entry.category
            if category is UNRESOLVED:
                category = index.category(entry, city)
            if category is not None:
                resolved.append((location, category))
                item = _category_hit(positive, location, category)
                if item is not None:
                    details.append(_place_detail("category_pref.positive", item, location, city, 1))
        for location, category in resolved:
            item = _category_hit(negative, location, category)
            if item is not None:
                details.append(_place_detail("category_pref.negative", item, location, city, -1))
    return details


def _category_hit(words: Any, location: Any, category: str) -> Any:
    """The first word inside the location, else the category if it is listed, else None."""
    for word in words:
        if word in location:
            return word
    return category if category in words else None


def _place_detail(field: str, item: Any, location: Any, city: str, score: int) -> Detail:
    """A detail of the official shape for attraction categories and meals."""
    return {
        "field": field,
        "item": item,
        "location": location,
        "city": city,
        "satisfied": score > 0,
        "score": score,
    }


def score_food(prefs: Any, user: str, index: ScoreIndex) -> list[Detail]:
    """Per resolvable meal: the first name hit (must > reject > prefer > avoid), else category hits."""
    details: list[Detail] = []
    for city, city_prefs in prefs.get("city_specific_preferences", {}).items():
        section = city_prefs.get("food", {})
        stages = (
            ("must_eat", section.get("must_eat", []), 2),
            ("reject_eat", section.get("reject_eat", []), -2),
            ("prefer_eat", section.get("prefer_eat", []), 1),
            ("avoid_eat", section.get("avoid_eat", []), -1),
        )
        for entry in index.places_of(index.food.get(city), user):
            category = entry.category
            if category is UNRESOLVED:
                category = index.category(entry, city)
            if category is None:
                continue
            location = entry.location
            for field, item, score in _meal_scores(stages, location, category):
                details.append(_place_detail(field, item, location, city, score))
    return details


def _meal_scores(
    stages: tuple[tuple[str, Any, int], ...], location: Any, category: str
) -> list[tuple[str, Any, int]]:
    """Name stage (first substring hit wins), else category stage (must/reject, else prefer/avoid)."""
    for field, items, score in stages:
        for item in items:
            if item in location:
                return [(field, item, score)]
    (_, must, _), (_, reject, _), (_, prefer, _), (_, avoid, _) = stages
    hits: list[tuple[str, Any, int]] = []
    if category in must:
        hits.append(("must_eat", category, 2))
    if category in reject:
        hits.append(("reject_eat", category, -2))
    if not hits:
        if category in prefer:
            hits.append(("prefer_eat", category, 1))
        elif category in avoid:
            hits.append(("avoid_eat", category, -1))
    return hits
