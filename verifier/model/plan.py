"""The plan an agent emits, as a typed, validated model (the `strict` profile's view).

The shape is the GroupTravelBench plan object: `days[] → city_segments[]`, each segment
either an intercity leg (`type == "intercity_transport"`) or a city block `{city, activities[]}`.
Times are zero-padded `HH:MM`; a time may cross midnight only on a hotel stay or an intercity
leg (the rules decide, not the schema). `tripwright schema plan` publishes this model's JSON
Schema. Raw input is parsed leniently by `verifier.model.plan_parse`, which turns every
malformed part into a violation instead of an exception.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, StringConstraints

ALL = "All"
HHMM = Annotated[str, StringConstraints(pattern=r"^([01]\d|2[0-3]):[0-5]\d$")]
Cost = Annotated[float, Strict()]
ActivityType = Literal["attraction", "food", "hotel", "intracity_transport", "rest"]
SPLITTABLE: frozenset[str] = frozenset({"attraction", "food", "rest", "intracity_transport"})


def minutes(hhmm: str) -> int:
    """Minutes since midnight of a validated `HH:MM` string."""
    return int(hhmm[:2]) * 60 + int(hhmm[3:5])


def hhmm(minute: int) -> str:
    """The `HH:MM` clock reading of a minute count (modulo one day): the inverse of `minutes`."""
    minute %= 1440
    return f"{minute // 60:02d}:{minute % 60:02d}"


class PlanPart(BaseModel):
    """Base for plan parts: immutable; unknown keys are tolerated and ignored."""

    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)


class Activity(PlanPart):
    """One activity inside a city block."""

    type: ActivityType
    location: str = ""
    from_place: str = Field(default="", alias="from")
    to: str = ""
    transport_mode: str = ""
    start_time: HHMM
    end_time: HHMM
    participants: list[str] = Field(default_factory=lambda: [ALL])
    avg_cost: Cost | None = None

    @property
    def start(self) -> int:
        return minutes(self.start_time)

    @property
    def end(self) -> int:
        return minutes(self.end_time)

    @property
    def place(self) -> str:
        """Where the activity happens (the destination for a transfer)."""
        return self.to if self.type == "intracity_transport" else self.location


class IntercityTransport(PlanPart):
    """A leg between cities; always the whole group."""

    type: Literal["intercity_transport"]
    from_city: str
    to_city: str
    transport_mode: str
    start_time: HHMM
    end_time: HHMM
    avg_cost: Cost | None = None

    @property
    def start(self) -> int:
        return minutes(self.start_time)

    @property
    def end(self) -> int:
        return minutes(self.end_time)


class CityBlock(PlanPart):
    """Consecutive activities in one city."""

    city: str
    activities: list[Activity] = Field(min_length=1)


Segment = IntercityTransport | CityBlock


class Day(PlanPart):
    """One calendar day of the trip."""

    day: Annotated[int, Strict()]
    date: dt.date
    city_segments: list[Segment]


class Plan(PlanPart):
    """A whole trip plan (top-level key `days`; other top-level keys are ignored)."""

    days: list[Day] = Field(min_length=1)
