"""The GroupTravelBench task, loaded as it is.

Real tasks are irregular: user keys are not sorted, children appear only in
`metadata.child_members` (they are not users: no preferences, not scored), key order varies,
some strings are garbled and one user may list an item in two tiers. The model accepts all of
that. Users are the keys of `user_preferences` in file order. The raw preference JSON is kept
verbatim because official scoring reads it with Python semantics (`Task.preference_table`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

_NUMERALS = {
    "一": 1,
    "两": 2,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
}


class Lenient(BaseModel):
    """Base for task parts: immutable, unknown keys kept."""

    model_config = ConfigDict(frozen=True, extra="allow")


class TransportPref(Lenient):
    must: list[str] = Field(default_factory=list)
    prefer: list[str] = Field(default_factory=list)
    avoid: list[str] = Field(default_factory=list)
    reject: list[str] = Field(default_factory=list)


class Intensity(Lenient):
    max_poi_per_day: int = 0
    max_active_hours: float = 0


class HotelPref(Lenient):
    prefer: list[str] = Field(default_factory=list)
    avoid: list[str] = Field(default_factory=list)


class GlobalConstraints(Lenient):
    avg_budget: float = 0
    transport: TransportPref = Field(default_factory=TransportPref)
    intensity: Intensity = Field(default_factory=Intensity)
    hotel_preference: HotelPref = Field(default_factory=HotelPref)


class CategoryPref(Lenient):
    positive: list[str] = Field(default_factory=list)
    negative: list[str] = Field(default_factory=list)


class AttractionPref(Lenient):
    must_visit: list[str] = Field(default_factory=list)
    reject_visit: list[str] = Field(default_factory=list)
    category_pref: CategoryPref = Field(default_factory=CategoryPref)


class FoodPref(Lenient):
    must_eat: list[str] = Field(default_factory=list)
    prefer_eat: list[str] = Field(default_factory=list)
    avoid_eat: list[str] = Field(default_factory=list)
    reject_eat: list[str] = Field(default_factory=list)


class CityPref(Lenient):
    attractions: AttractionPref = Field(default_factory=AttractionPref)
    food: FoodPref = Field(default_factory=FoodPref)


class Preference(Lenient):
    global_constraints: GlobalConstraints = Field(default_factory=GlobalConstraints)
    city_specific_preferences: dict[str, CityPref] = Field(default_factory=dict)


class UserProfile(Lenient):
    role: str = ""
    preference: Preference = Field(default_factory=Preference)
    compromisable: bool = False


class ChildMember(Lenient):
    user: str
    role: str = ""


class TaskMetadata(Lenient):
    departure_city: str = ""
    cities: list[str] = Field(default_factory=list)
    date: str = ""
    group_id: str = ""
    group_name: str = ""
    group_tags: list[str] = Field(default_factory=list)
    compromise_pattern: list[str] = Field(default_factory=list)
    child_members: list[ChildMember] = Field(default_factory=list)


class Message(Lenient):
    role: str = ""
    content: str = ""


class Task(Lenient):
    """One GroupTravelBench task."""

    task_id: str
    query: str = ""
    time: str = ""
    context: str = ""
    metadata: TaskMetadata = Field(default_factory=TaskMetadata)
    user_preferences: dict[str, UserProfile] = Field(default_factory=dict)
    initial_messages: list[Message] = Field(default_factory=list)
    difficulty_score: float | None = None
    difficulty_type: str | None = None

    _raw_preferences: dict[str, Any] = PrivateAttr(default_factory=dict)

    @model_validator(mode="wrap")
    @classmethod
    def _keep_raw(cls, data: Any, handler: Any) -> Task:
        task: Task = handler(data)
        if isinstance(data, dict) and isinstance(data.get("user_preferences"), dict):
            task._raw_preferences = data["user_preferences"]
        else:
            task._raw_preferences = {
                name: profile.model_dump(mode="json") for name, profile in task.user_preferences.items()
            }
        return task

    @property
    def user_names(self) -> list[str]:
        """Travellers with a preference table, in file order (children without one are not users)."""
        return list(self.user_preferences)

    @property
    def child_names(self) -> list[str]:
        """Children listed only in metadata: travellers without preferences."""
        return [
            child.user for child in self.metadata.child_members if child.user not in self.user_preferences
        ]

    def preference_table(self) -> dict[str, Any]:
        """The `user_preferences` JSON exactly as loaded (the official effective table ③ by default)."""
        return self._raw_preferences

    def departure_date(self) -> dt.date | None:
        """The departure date (`time`, YYYY-MM-DD), or None when it is not a date."""
        try:
            return dt.date.fromisoformat(self.time)
        except ValueError:
            return None

    def trip_days(self) -> int | None:
        """Days of the trip from `metadata.date` ("五天四夜" → 5), or None when unreadable."""
        text = self.metadata.date
        if not text.endswith("夜") or "天" not in text:
            return None
        return _chinese_number(text.split("天", 1)[0])


def _chinese_number(text: str) -> int | None:
    """Parse 1–99 written as digits or Chinese numerals (一…十, 两)."""
    if text.isdigit():
        return int(text)
    if not text or any(ch not in _NUMERALS for ch in text):
        return None
    if "十" not in text:
        return _NUMERALS[text] if len(text) == 1 else None
    tens, _, units = text.partition("十")
    return (_NUMERALS[tens] if tens else 1) * 10 + (_NUMERALS[units] if units else 0)
