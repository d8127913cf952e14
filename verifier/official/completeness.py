"""Official preference completeness (docs/official.md#scoring): recall of the agent's table ② against ③.

Users are those of the effective table ③ (`ref = entry.get("preference", entry)`); the agent
entry is looked up by the exact same user key and used as is (no unwrapping). A field counts
only when the reference value is truthy. Scalars (avg_budget, intensity caps) score 1 when the
agent value (default 0) equals the reference; lists score each reference item found in the
agent value by `in` (element equality for lists, substring for strings). Agent sections that are
null become {}; only `attractions`, `category_pref` and `food` are also replaced by {} when they
are not objects — any other non-object section raises AttributeError, as officially.
Precision (reported, unused downstream) sums `int(precision × agent_total)` per list field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def _fields(section: str, keys: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(key, path) per key of a section, in comparison order; a city path is `city[…]` + path."""
    return tuple((key, f"{section}.{key}") for key in keys)


TRANSPORT_FIELDS = _fields("global_constraints.transport", ("must", "prefer", "avoid", "reject"))
INTENSITY_FIELDS = _fields("global_constraints.intensity", ("max_poi_per_day", "max_active_hours"))
HOTEL_FIELDS = _fields("global_constraints.hotel_preference", ("prefer", "avoid"))
ATTRACTION_FIELDS = _fields(".attractions", ("must_visit", "reject_visit"))
CATEGORY_FIELDS = _fields(".attractions.category_pref", ("positive", "negative"))
FOOD_FIELDS = _fields(".food", ("must_eat", "prefer_eat", "avoid_eat", "reject_eat"))


@dataclass(slots=True)
class _Tally:
    """Running counts of one user (or of everyone)."""

    collected: int = 0
    possible: int = 0
    agent_total: int = 0
    agent_correct: int = 0
    details: list[dict[str, Any]] = field(default_factory=list)

    def scalar(self, path: str, agent_value: Any, ref_value: Any) -> None:
        if not ref_value:
            return
        collected = 1 if agent_value == ref_value else 0
        self.collected += collected
        self.possible += 1
        if agent_value is not None:
            self.agent_total += 1
            self.agent_correct += collected
        self.details.append(
            {
                "field_path": path,
                "collected": collected,
                "possible": 1,
                "agent_value": agent_value,
                "ref_value": ref_value,
            }
        )

    def listed(self, path: str, agent_value: Any, ref_value: Any) -> None:
        if not ref_value:
            return
        agent_items = agent_value or ()
        matched: list[Any] = []
        missed: list[Any] = []
        spurious: list[Any] = []
        for item in ref_value:
            if item in agent_items:
                matched.append(item)
            else:
                missed.append(item)
        for item in agent_items:
            if item not in ref_value:
                spurious.append(item)
        collected, possible, agent_total = len(matched), len(ref_value), len(agent_items)
        precision = (agent_total - len(spurious)) / agent_total if agent_total else 1.0
        self.collected += collected
        self.possible += possible
        self.agent_total += agent_total
        self.agent_correct += int(precision * agent_total)
        self.details.append(
            {
                "field_path": path,
                "collected": collected,
                "possible": possible,
                "agent_total": agent_total,
                "precision": precision,
                "spurious": spurious,
                "matched": matched,
                "missed": missed,
            }
        )

    def ratios(self) -> tuple[float, float, float]:
        recall = self.collected / self.possible if self.possible else 1.0
        precision = self.agent_correct / self.agent_total if self.agent_total else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return recall, precision, f1


def evaluate_preference_completeness(inferred: Any, effective: dict[str, Any]) -> dict[str, Any]:
    """Official PC: per-user recall/precision/F1 with details, and the totals."""
    per_user: dict[str, Any] = {}
    overall = _Tally()
    for user, entry in effective.items():
        tally = _Tally()
        _compare_user(tally, inferred.get(user, {}), entry.get("preference", entry))
        recall, precision, f1 = tally.ratios()
        per_user[user] = {
            "collected": tally.collected,
            "possible": tally.possible,
            "ratio": recall,
            "precision": precision,
            "f1": f1,
            "details": tally.details,
        }
        overall.collected += tally.collected
        overall.possible += tally.possible
        overall.agent_total += tally.agent_total
        overall.agent_correct += tally.agent_correct
    recall, precision, f1 = overall.ratios()
    return {
        "per_user": per_user,
        "total_collected": overall.collected,
        "total_possible": overall.possible,
        "completeness_ratio": recall,
        "precision": precision,
        "f1": f1,
    }


def _section(value: Any) -> Any:
    """A null/missing agent section is {}; other values are used as is (and may raise later)."""
    return value or {}


def _object(value: Any) -> Any:
    """The guarded agent sections: anything but a non-empty object becomes {}."""
    return value if value and isinstance(value, dict) else {}


def _compare_user(tally: _Tally, agent: Any, ref: Any) -> None:
    ref_global = ref.get("global_constraints", {})
    agent_global = _section(agent.get("global_constraints"))
    tally.scalar(
        "global_constraints.avg_budget", agent_global.get("avg_budget", 0), ref_global.get("avg_budget")
    )
    ref_transport = ref_global.get("transport", {})
    agent_transport = _section(agent_global.get("transport"))
    for key, path in TRANSPORT_FIELDS:
        tally.listed(path, agent_transport.get(key), ref_transport.get(key))
    ref_intensity = ref_global.get("intensity", {})
    agent_intensity = _section(agent_global.get("intensity"))
    for key, path in INTENSITY_FIELDS:
        tally.scalar(path, agent_intensity.get(key, 0), ref_intensity.get(key))
    ref_hotel = ref_global.get("hotel_preference", {})
    agent_hotel = _section(agent_global.get("hotel_preference"))
    for key, path in HOTEL_FIELDS:
        tally.listed(path, agent_hotel.get(key), ref_hotel.get(key))
    agent_cities = _section(agent.get("city_specific_preferences"))
    for city, ref_city in ref.get("city_specific_preferences", {}).items():
        _compare_city(tally, f"city[{city}]", _section(agent_cities.get(city)), ref_city)


def _compare_city(tally: _Tally, prefix: str, agent_city: Any, ref_city: Any) -> None:
    ref_attractions = ref_city.get("attractions", {})
    agent_attractions = _object(agent_city.get("attractions"))
    for key, path in ATTRACTION_FIELDS:
        tally.listed(prefix + path, agent_attractions.get(key), ref_attractions.get(key))
    ref_category = ref_attractions.get("category_pref", {})
    agent_category = _object(agent_attractions.get("category_pref"))
    for key, path in CATEGORY_FIELDS:
        tally.listed(prefix + path, agent_category.get(key), ref_category.get(key))
    ref_food = ref_city.get("food", {})
    agent_food = _object(agent_city.get("food"))
    for key, path in FOOD_FIELDS:
        tally.listed(prefix + path, agent_food.get(key), ref_food.get(key))
