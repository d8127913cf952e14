"""Group-utility components scored over the whole trip (docs/official.md#scoring).

Transport and hotel ignore participants (every user is on every leg and in every hotel);
intensity and budget count only what the user takes part in, except that intercity legs and
hotels are charged to everyone. Invalid split activities are NOT excluded here.
"""

from __future__ import annotations

from typing import Any

from verifier.official.score_index import UNRESOLVED, ScoreIndex

Detail = dict[str, Any]


def _global(prefs: Any, section: str) -> Any:
    return prefs.get("global_constraints", {}).get(section, {})


def score_transport(prefs: Any, index: ScoreIndex) -> list[Detail]:
    """Per intercity leg with a mode: must +2 and reject −2 (both may fire), else prefer +1 / avoid −1."""
    transport = _global(prefs, "transport")
    must, reject = transport.get("must", []), transport.get("reject", [])
    prefer, avoid = transport.get("prefer", []), transport.get("avoid", [])
    details: list[Detail] = []
    for day, leg in index.intercity:
        mode = leg.get("transport_mode", "")
        if not mode:
            continue
        hits: list[tuple[str, int]] = []
        if mode in must:
            hits.append(("transport.must", 2))
        if mode in reject:
            hits.append(("transport.reject", -2))
        if not hits:
            if mode in prefer:
                hits.append(("transport.prefer", 1))
            elif mode in avoid:
                hits.append(("transport.avoid", -1))
        if not hits:
            continue
        route = f"{leg.get('from', '')}->{leg.get('to', leg.get('to_city', ''))}"
        for field, score in hits:
            details.append(
                {
                    "field": field,
                    "item": mode,
                    "route": route,
                    "day": day,
                    "satisfied": score > 0,
                    "score": score,
                }
            )
    return details


def score_hotel(prefs: Any, index: ScoreIndex) -> list[Detail]:
    """Per hotel activity whose category resolves: prefer +1, else avoid −1."""
    section = _global(prefs, "hotel_preference")
    prefer, avoid = section.get("prefer", []), section.get("avoid", [])
    if not prefer and not avoid:
        return []
    details: list[Detail] = []
    for hotel in index.hotels:
        category = hotel.category
        if category is UNRESOLVED:
            category = index.category(hotel, hotel.city)
        if not category:
            continue
        if category in prefer:
            field, score = "hotel_preference.prefer", 1
        elif category in avoid:
            field, score = "hotel_preference.avoid", -1
        else:
            continue
        details.append(
            {
                "field": field,
                "item": category,
                "location": hotel.location,
                "day": hotel.number,
                "satisfied": score > 0,
                "score": score,
            }
        )
    return details


def score_intensity(prefs: Any, user: str, index: ScoreIndex) -> list[Detail]:
    """Per day: −2 if the user's attractions exceed max_poi_per_day, −2 if active hours exceed the cap."""
    section = _global(prefs, "intensity")
    max_poi = section.get("max_poi_per_day", 0)
    max_hours = section.get("max_active_hours", 0)
    if not max_poi and not max_hours:
        return []
    everyone = user in index.user_names
    details: list[Detail] = []
    for load in index.days:
        count, minutes = (load.shared_pois, load.shared_minutes) if everyone else (0, 0)
        for members, is_poi, item_minutes in load.own:
            if user in members:
                count += is_poi
                minutes += item_minutes
        if max_poi > 0 and count > max_poi:
            details.append(
                {
                    "field": "intensity.max_poi_per_day",
                    "day": load.number,
                    "actual": count,
                    "limit": max_poi,
                    "satisfied": False,
                    "score": -2,
                }
            )
        hours = minutes / 60
        if max_hours > 0 and hours > max_hours:
            details.append(
                {
                    "field": "intensity.max_active_hours",
                    "day": load.number,
                    "actual_hours": round(hours, 2),
                    "limit": max_hours,
                    "satisfied": False,
                    "score": -2,
                }
            )
    return details


def score_budget(prefs: Any, user: str, index: ScoreIndex) -> list[Detail]:
    """−2 once if intercity + hotel + the user's meals (float(avg_cost), falsy skipped) exceed avg_budget."""
    budget = prefs.get("global_constraints", {}).get("avg_budget", 0)
    if not budget:
        return []
    total = index.budget_total(user)
    if total > budget:
        return [
            {
                "field": "avg_budget",
                "actual_cost": round(total, 2),
                "budget_limit": budget,
                "satisfied": False,
                "score": -2,
            }
        ]
    return []
