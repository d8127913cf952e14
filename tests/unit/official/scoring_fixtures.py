"""Small hand-written inputs for the official scoring tests: a POI file, plan and profile builders."""

from __future__ import annotations

from typing import Any

from verifier.official.plan_view import PlanView, build_view
from verifier.official.poi_db import PoiDb

USERS = ["User1", "User2", "User3"]

POIS: dict[str, list[dict[str, Any]]] = {
    "三亚市": [
        {"name": "天涯海角", "custom_category": "自然风光", "poi_type": "attractions"},
        {"name": "南山寺", "custom_category": "寺庙", "poi_type": "attractions"},
        {"name": "三亚博物馆", "custom_category": "博物馆", "poi_type": "attractions"},
        {"name": "椰梦长廊", "custom_category": "", "poi_type": "attractions"},
        {"name": "XX海鲜酒楼", "custom_category": "粤菜", "poi_type": "food"},
        {"name": "老王火锅", "custom_category": "火锅", "poi_type": "food"},
        {"name": "东北饺子馆", "custom_category": "东北菜", "poi_type": "food"},
        {"name": "海景度假酒店", "custom_category": "度假酒店", "poi_type": "hotels"},
        {"name": "如家快捷", "custom_category": "快捷酒店", "poi_type": "hotels"},
    ]
}


def poi_db() -> PoiDb:
    return PoiDb(POIS)


def act(
    kind: str, location: str, start: str, end: str, participants: Any = None, **extra: Any
) -> dict[str, Any]:
    """An activity; `participants=None` leaves the key out (everyone)."""
    raw: dict[str, Any] = {"type": kind, "location": location, "start_time": start, "end_time": end}
    if participants is not None:
        raw["participants"] = participants
    raw.update(extra)
    return raw


def block(city: str, *activities: dict[str, Any]) -> dict[str, Any]:
    return {"city": city, "activities": list(activities)}


def leg(to_city: str, mode: str, cost: Any = 0, start: str = "08:00", end: str = "10:00") -> dict[str, Any]:
    return {
        "type": "intercity_transport",
        "from_city": "北京市",
        "to_city": to_city,
        "transport_mode": mode,
        "start_time": start,
        "end_time": end,
        "avg_cost": cost,
    }


def day(number: int, *segments: dict[str, Any]) -> dict[str, Any]:
    return {"day": number, "date": f"2025-09-{number:02d}", "city_segments": list(segments)}


def plan(*days: dict[str, Any]) -> dict[str, Any]:
    return {"days": list(days)}


def view(raw_plan: dict[str, Any], users: list[str] | None = None) -> PlanView:
    return build_view(raw_plan, list(USERS if users is None else users))


def profile(
    *,
    budget: Any = 0,
    transport: dict[str, Any] | None = None,
    intensity: dict[str, Any] | None = None,
    hotel: dict[str, Any] | None = None,
    cities: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A `preference` object: global constraints (empty by default) and city sections."""
    return {
        "global_constraints": {
            "avg_budget": budget,
            "transport": {"must": [], "prefer": [], "avoid": [], "reject": [], **(transport or {})},
            "intensity": {"max_poi_per_day": 0, "max_active_hours": 0, **(intensity or {})},
            "hotel_preference": {"prefer": [], "avoid": [], **(hotel or {})},
        },
        "city_specific_preferences": cities or {},
    }


def city(
    *,
    must_visit: list[str] | None = None,
    reject_visit: list[str] | None = None,
    positive: list[str] | None = None,
    negative: list[str] | None = None,
    **food: list[str],
) -> dict[str, Any]:
    """One city section; food lists by keyword (must_eat=…, prefer_eat=…, avoid_eat=…, reject_eat=…)."""
    return {
        "attractions": {
            "must_visit": must_visit or [],
            "reject_visit": reject_visit or [],
            "category_pref": {"positive": positive or [], "negative": negative or []},
        },
        "food": {key: food.get(key, []) for key in ("must_eat", "prefer_eat", "avoid_eat", "reject_eat")},
    }


def table(**profiles: dict[str, Any]) -> dict[str, Any]:
    """An effective table `{user: {role, preference, compromisable}}`."""
    return {
        user: {"role": "成员", "preference": pref, "compromisable": True} for user, pref in profiles.items()
    }
