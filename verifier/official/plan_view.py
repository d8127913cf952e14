"""One walk over a raw plan, shared by every official check and score.

The official evaluator walks the plan once per check; here the structure is walked once and
every check reads the flattened view. Raw values are kept as they are (the official rules
depend on Python semantics of raw JSON), times are parsed once, and participants are
resolved once per activity with `participants_of`.

Structural crashes are part of official behaviour: a day, segment or activity that is not an
object, or a `days` / `city_segments` / `activities` value that cannot be iterated, makes the
official plan functions raise. The view records that error (`structural_error`) instead of
raising, so each official function can raise it at its own entry, exactly where the public
code would fail.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from verifier.official.primitives import parse_time, participants_of

INTERCITY = "intercity_transport"


@dataclass(slots=True)
class ActivityRef:
    """An activity of a city block with its position and pre-computed fields."""

    raw: dict[str, Any]
    day: DayRef
    segment: SegmentRef
    pos: int
    type: Any
    start: int | None
    end: int | None
    members: Any

    @property
    def loc(self) -> str:
        return f"{self.segment.loc}.activities[{self.pos}]"

    @property
    def label(self) -> Any:
        """`location`, else `to`, else "" — the name the official messages and keys use."""
        return self.raw.get("location") or self.raw.get("to") or ""


@dataclass(slots=True)
class SegmentRef:
    """A segment of a day: an intercity leg, a city block, or neither."""

    raw: dict[str, Any]
    day: DayRef
    pos: int
    activities: list[ActivityRef] = field(default_factory=list)

    @property
    def is_intercity(self) -> bool:
        return bool(self.raw.get("type") == INTERCITY)

    @property
    def has_activities(self) -> bool:
        """Official block test used by most checks: the key `activities` is present."""
        return not self.is_intercity and "activities" in self.raw

    @property
    def loc(self) -> str:
        return f"{self.day.loc}.city_segments[{self.pos}]"


@dataclass(slots=True)
class DayRef:
    """A day of the plan, in list order."""

    raw: dict[str, Any]
    pos: int
    segments: list[SegmentRef] = field(default_factory=list)

    @property
    def number(self) -> Any:
        """`day` as written (the label official messages use), default 0."""
        return self.raw.get("day", 0)

    @property
    def loc(self) -> str:
        return f"$.days[{self.pos}]"

    @property
    def blocks(self) -> list[SegmentRef]:
        return [segment for segment in self.segments if segment.has_activities]


@dataclass(slots=True)
class PlanView:
    """The walked plan: days with segments and activities, or the structural error that stops the walk."""

    raw: Any
    user_names: list[str]
    days: list[DayRef] = field(default_factory=list)
    structural_error: Exception | None = None
    error_loc: str = "$"

    def activities(self) -> list[ActivityRef]:
        return [act for day in self.days for seg in day.segments for act in seg.activities]


def build_view(plan: Any, user_names: list[str]) -> PlanView:
    """Walk a raw plan once; record (not raise) the error the official code would raise."""
    view = PlanView(raw=plan, user_names=user_names)
    loc = "$"
    try:
        for day_pos, raw_day in enumerate(plan.get("days", [])):
            loc = f"$.days[{day_pos}]"
            day = DayRef(raw=raw_day, pos=day_pos)
            view.days.append(day)
            for seg_pos, raw_segment in enumerate(raw_day.get("city_segments", [])):
                loc = f"{day.loc}.city_segments[{seg_pos}]"
                segment = SegmentRef(raw=raw_segment, day=day, pos=seg_pos)
                day.segments.append(segment)
                if segment.has_activities:
                    _walk_activities(segment, user_names)
    except (AttributeError, TypeError) as exc:
        view.structural_error, view.error_loc = exc, loc
    return view


def _walk_activities(segment: SegmentRef, user_names: list[str]) -> None:
    for pos, raw in enumerate(segment.raw.get("activities", [])):
        segment.activities.append(
            ActivityRef(
                raw=raw,
                day=segment.day,
                segment=segment,
                pos=pos,
                type=raw.get("type"),
                start=parse_time(raw.get("start_time")),
                end=parse_time(raw.get("end_time")),
                members=participants_of(raw, user_names),
            )
        )
