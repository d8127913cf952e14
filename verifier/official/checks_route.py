"""Official checks 1 (inter-city transport) and 6 (intracity continuity), docs/official.md#the-nine-checks.

Both follow where the group is: check 1 by city name along each day and across day
boundaries, check 6 by place per participant within a day.
"""

from __future__ import annotations

from typing import Any, Protocol

from verifier.official.issue import OfficialIssue
from verifier.official.plan_view import DayRef, PlanView, SegmentRef
from verifier.official.primitives import cities_match

MISSING_INTERCITY = "missing_intercity_transport"
MISSING_INTRACITY = "missing_intracity_transport"
ORIGIN_MISMATCH = "intracity_transport_origin_mismatch"
ARRIVAL = "__intercity_arrival__"
HUB = "交通枢纽(到达点)"
_PLACED = ("attraction", "food", "hotel")


def check_intercity(view: PlanView) -> list[OfficialIssue]:
    """Check 1: a change of city needs an intercity leg, within a day and across days.

    Within a day the city is `to_city` of the last leg or `city` of the last segment having a
    `city` KEY (blocks without it are ignored; `city: ""` counts); a block whose city does not
    `cities_match` the previous one is an issue. Across days, the last city of day i-1 and the
    first of day i are compared only when both are truthy, and the issue is waived whenever
    day i starts with any intercity leg (its `from_city` is never compared). Quirks: one
    suffix is stripped per name ("地区" is shadowed by "区"); same-city legs, adjacent legs
    and origin/return cities are not checked.
    """
    issues: list[OfficialIssue] = []
    for day in view.days:
        prev: Any = None
        for seg in day.segments:
            raw = seg.raw
            if seg.is_intercity:
                prev = raw.get("to_city", "")
            elif "city" in raw:
                cur = raw.get("city", "")
                if prev is not None and not cities_match(prev, cur):
                    issues.append(_within_day(day, seg, prev, cur))
                prev = cur
    for before, day in zip(view.days, view.days[1:], strict=False):
        last, first = _last_city(before), _first_city(day)
        if last and first and not cities_match(last, first) and not _starts_with_leg(day):
            issues.append(
                OfficialIssue(
                    1,
                    day.loc,
                    {
                        "type": MISSING_INTERCITY,
                        "day": day.number,
                        "from_city": last,
                        "to_city": first,
                        "message": f"Day {day.number}: 跨天从 {last} 到 {first} 缺少城间交通",
                    },
                )
            )
    return issues


def _within_day(day: DayRef, seg: SegmentRef, prev: Any, cur: Any) -> OfficialIssue:
    return OfficialIssue(
        1,
        f"{seg.loc}.city",
        {
            "type": MISSING_INTERCITY,
            "day": day.number,
            "segment_index": seg.pos,
            "from_city": prev,
            "to_city": cur,
            "message": f"Day {day.number}: 从 {prev} 到 {cur} 缺少城间交通",
        },
    )


def _last_city(day: DayRef) -> Any:
    for seg in reversed(day.segments):
        if "city" in seg.raw:
            return seg.raw.get("city")
        if seg.is_intercity:
            return seg.raw.get("to_city")
    return None


def _first_city(day: DayRef) -> Any:
    for seg in day.segments:
        if seg.is_intercity:
            return seg.raw.get("to_city")
        if "city" in seg.raw:
            return seg.raw.get("city")
    return None


def _starts_with_leg(day: DayRef) -> bool:
    return bool(day.segments) and day.segments[0].is_intercity


def check_intracity(view: PlanView) -> list[OfficialIssue]:
    """Check 6: each participant must travel (intracity leg) between differing places.

    Positions start unknown every day (nothing carries over from the night before). An
    intercity leg puts every tracked traveller at the arrival hub; from there the next non-rest
    activity must be an intracity leg (its `from` is not compared). Otherwise a located
    activity (attraction/food/hotel `location`, intracity `from`) starting elsewhere than the
    traveller's position is an issue: `missing_intracity_transport`, or for an intracity leg
    `intracity_transport_origin_mismatch`. Quirks: exact string equality; rest and unknown
    types never move anyone; a hotel moves only to a truthy place; participants are iterated
    raw (a string gives one traveller per character; names outside `user_names` are tracked
    too); the first place of a day is free.
    """
    issues: list[OfficialIssue] = []
    for day in view.days:
        walk = _DayWalk(day, view.user_names, issues)
        for seg in day.segments:
            if seg.is_intercity:
                walk.arrive()
            elif seg.has_activities:
                walk.block(seg)
    return issues


class _DayWalk:
    """Per-traveller positions through one day.

    While every user in `user_names` stands at the same place (`together`, the identical
    object), a whole-group activity is decided once for all of them; `positions` holds the
    users' places only once they have parted (`together is _APART`) and always holds the
    places of travellers outside `user_names`.
    """

    __slots__ = ("day", "issues", "positions", "together", "users")

    def __init__(self, day: DayRef, users: list[str], issues: list[OfficialIssue]) -> None:
        self.day, self.users, self.issues = day, users, issues
        self.positions: dict[Any, Any] = dict.fromkeys(users)
        self.together: Any = None

    def arrive(self) -> None:
        for user in self.positions:
            self.positions[user] = ARRIVAL
        self.together = ARRIVAL

    def block(self, seg: SegmentRef) -> None:
        city = seg.raw.get("city", "")
        users = self.users
        for act in seg.activities:
            kind = act.type
            if kind == "rest":
                continue
            if kind in _PLACED:
                start = end = act.raw.get("location")
            elif kind == "intracity_transport":
                start, end = act.raw.get("from"), act.raw.get("to")
            else:
                start = end = None
            if act.members is users and self.together is not _APART:
                here = self.together
                outcome, there = _move(kind, here, start, end)
                if outcome is not None:
                    for user in users:
                        self.issues.append(outcome(self.day, city, user, here, start, loc=act.loc))
                if there is not _STAY:
                    self.together = there
                continue
            self._part()
            positions = self.positions
            for user in act.members:
                here = positions.get(user)
                outcome, there = _move(kind, here, start, end)
                if outcome is not None:
                    self.issues.append(outcome(self.day, city, user, here, start, loc=act.loc))
                if there is not _STAY:
                    positions[user] = there
            if act.members is users and users and all(positions[user] is there for user in users):
                self.together = there

    def _part(self) -> None:
        if self.together is not _APART:
            for user in self.users:
                self.positions[user] = self.together
            self.together = _APART


_APART = object()
_STAY = object()


class _Outcome(Protocol):
    """Builds the issue of one traveller's move."""

    def __call__(
        self, day: DayRef, city: Any, user: Any, here: Any, start: Any, *, loc: str
    ) -> OfficialIssue: ...


def _move(kind: Any, here: Any, start: Any, end: Any) -> tuple[_Outcome | None, Any]:
    """The issue (builder) for one traveller at `here`, and the new position (or _STAY)."""
    is_leg = kind == "intracity_transport"
    if here == ARRIVAL:
        return (None if is_leg else _from_hub), (_STAY if end is None else end)
    moved = here is not None and start is not None and here != start
    if kind == "hotel":
        return (_missing if moved else None), (end if end else _STAY)
    outcome = (_mismatch if is_leg else _missing) if moved else None
    return outcome, (_STAY if end is None else end)


def _from_hub(day: DayRef, city: Any, user: Any, here: Any, start: Any, *, loc: str) -> OfficialIssue:
    return OfficialIssue(
        6,
        loc,
        {
            "type": MISSING_INTRACITY,
            "day": day.number,
            "city": city,
            "user": user,
            "from_location": HUB,
            "to_location": start or "(unknown)",
            "message": f"Day {day.number} ({city}): {user} 到达新城市后 直接前往 '{start or '?'}'，"
            "缺少从交通枢纽出发的城内交通",
        },
    )


def _missing(day: DayRef, city: Any, user: Any, here: Any, start: Any, *, loc: str) -> OfficialIssue:
    return OfficialIssue(
        6,
        loc,
        {
            "type": MISSING_INTRACITY,
            "day": day.number,
            "city": city,
            "user": user,
            "from_location": here,
            "to_location": start,
            "message": f"Day {day.number} ({city}): {user} 从 '{here}' 到 '{start}' 缺少城内交通",
        },
    )


def _mismatch(day: DayRef, city: Any, user: Any, here: Any, start: Any, *, loc: str) -> OfficialIssue:
    return OfficialIssue(
        6,
        f"{loc}.from",
        {
            "type": ORIGIN_MISMATCH,
            "day": day.number,
            "city": city,
            "user": user,
            "expected_from": here,
            "actual_from": start,
            "message": f"Day {day.number} ({city}): {user} 的城内交通 起点为 '{start}'，"
            f"但用户当前 位于 '{here}'",
        },
    )
