"""One walk over a raw plan, shared by every official check and score.

The official evaluator walks the plan once per check; here the structure is walked once and
every check reads the flattened view. Raw values are kept as they are (the official rules
depend on Python semantics of raw JSON), times are parsed once (activities and intercity
legs), and participants are resolved once per activity with `participants_of`. Links only
point down (view → days → segments → activities; an activity knows its day and segment by
position), so a view is freed as soon as it is dropped, without waiting for the cycle
collector.

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
    """An activity of a city block with its positions (day, segment, activity) and pre-computed fields."""

    raw: dict[str, Any]
    day_pos: int
    seg_pos: int
    pos: int
    type: Any
    start: int | None
    end: int | None
    members: Any

    @property
    def loc(self) -> str:
        return f"{segment_loc(self.day_pos, self.seg_pos)}.activities[{self.pos}]"

    @property
    def label(self) -> Any:
        """`location`, else `to`, else "" — the name the official messages and keys use."""
        return self.raw.get("location") or self.raw.get("to") or ""


@dataclass(slots=True)
class SegmentRef:
    """A segment of a day: an intercity leg, a city block, or neither.

    `is_intercity`: `type == "intercity_transport"` (then `start`/`end` are its parsed times).
    `has_activities`: the official block test used by most checks — not intercity and the
    key `activities` is present.
    """

    raw: dict[str, Any]
    day_pos: int
    pos: int
    is_intercity: bool = False
    has_activities: bool = False
    start: int | None = None
    end: int | None = None
    activities: list[ActivityRef] = field(default_factory=list)
    user_overlaps: list[tuple[str, ActivityRef, ActivityRef]] | None = None
    """Memo of `overlap.overlapping_pairs` for this block."""

    @property
    def loc(self) -> str:
        return segment_loc(self.day_pos, self.pos)


@dataclass(slots=True)
class DayRef:
    """A day of the plan, in list order; `blocks` are its segments with `has_activities`."""

    raw: dict[str, Any]
    pos: int
    number: Any = 0
    segments: list[SegmentRef] = field(default_factory=list)
    blocks: list[SegmentRef] = field(default_factory=list)

    @property
    def loc(self) -> str:
        return day_loc(self.pos)


@dataclass(slots=True)
class PlanView:
    """The walked plan: days with segments and activities, or the structural error that stops the walk."""

    raw: Any
    user_names: list[str]
    days: list[DayRef] = field(default_factory=list)
    structural_error: Exception | None = None
    error_loc: str = "$"
    scorers: list[Any] = field(default_factory=list)
    """Scoring state derived from this plan (see `utility.plan_scorer`), shared by GU and GF."""

    def activities(self) -> list[ActivityRef]:
        return [act for day in self.days for seg in day.segments for act in seg.activities]


def build_view(plan: Any, user_names: list[str]) -> PlanView:
    """Walk a raw plan once; record (not raise) the error the official code would raise.

    `DayRef.number` is `day` as written (the label official messages use), default 0.
    """
    view = PlanView(raw=plan, user_names=user_names)
    day_pos = seg_pos = -1
    try:
        for day_pos, raw_day in enumerate(plan.get("days", [])):
            seg_pos = -1
            day = DayRef(raw_day, day_pos, raw_day.get("day", 0))
            view.days.append(day)
            for seg_pos, raw_segment in enumerate(raw_day.get("city_segments", [])):
                day.segments.append(_segment(raw_segment, day, seg_pos, user_names))
    except (AttributeError, TypeError) as exc:
        view.structural_error, view.error_loc = exc, _error_loc(day_pos, seg_pos)
    return view


def day_loc(day_pos: int) -> str:
    return f"$.days[{day_pos}]"


def segment_loc(day_pos: int, seg_pos: int) -> str:
    return f"{day_loc(day_pos)}.city_segments[{seg_pos}]"


def _error_loc(day_pos: int, seg_pos: int) -> str:
    if day_pos < 0:
        return "$"
    if seg_pos < 0:
        return day_loc(day_pos)
    return segment_loc(day_pos, seg_pos)


def _segment(raw: dict[str, Any], day: DayRef, pos: int, user_names: list[str]) -> SegmentRef:
    segment = SegmentRef(raw, day.pos, pos)
    if raw.get("type") == INTERCITY:
        segment.is_intercity = True
        segment.start = parse_time(raw.get("start_time"))
        segment.end = parse_time(raw.get("end_time"))
    elif "activities" in raw:
        segment.has_activities = True
        day.blocks.append(segment)
        _walk_activities(segment, user_names)
    return segment


def _walk_activities(segment: SegmentRef, user_names: list[str]) -> None:
    day_pos, seg_pos, append = segment.day_pos, segment.pos, segment.activities.append
    for pos, raw in enumerate(segment.raw.get("activities", [])):
        get = raw.get
        append(
            ActivityRef(
                raw,
                day_pos,
                seg_pos,
                pos,
                get("type"),
                parse_time(get("start_time")),
                parse_time(get("end_time")),
                participants_of(raw, user_names),
            )
        )
