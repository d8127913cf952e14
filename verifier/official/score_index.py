"""Per-plan index for official scoring (group utility §3, fairness §4).

The official evaluator flattens the plan into one activity list (intercity segments tagged with
city None, block activities tagged with `block.city or ""`, all tagged with `day.day` default 0)
and re-filters it for every user, city and component. Here the plan is grouped once: attractions
and food by exact city key, hotels, intercity legs, per-day intensity items and the ordered
budget items. Nothing is normalised — raw values are kept so Python raises where the official
code raises. Only string city tags are grouped: preference city keys are JSON object keys
(strings), and no other JSON value equals a string.

The invalid set (§3.2) holds the key `(day, location or to or "", start_time)` of both
activities of every per-user overlapping pair inside a block (`overlapping_pairs`, shared with
check 4). An activity is invalid when its key is in the set, so key collisions propagate.
An entry's invalid flag and POI category are looked up lazily, once per plan.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from verifier.official.overlap import overlapping_pairs
from verifier.official.plan_view import ActivityRef, PlanView, SegmentRef
from verifier.official.poi_db import PoiDb

INTENSITY_TYPES = ("attraction", "intracity_transport")
UNRESOLVED: Any = object()


@dataclass(slots=True)
class PlaceEntry:
    """An attraction or meal of one city key (`number`: its day's), with its lazily resolved flags."""

    act: ActivityRef
    number: Any
    location: Any
    members: Any
    invalid: bool | None = None
    category: Any = UNRESOLVED


@dataclass(slots=True)
class PlaceGroup:
    """The attractions (or meals) of one city key; `everyone` if all are whole-group activities."""

    entries: list[PlaceEntry] = field(default_factory=list)
    everyone: bool = True
    kept_for_everyone: list[PlaceEntry] | None = None


@dataclass(slots=True)
class HotelEntry:
    """A hotel activity: day number, location, its block's raw city and the lazy category."""

    number: Any
    location: Any
    city: Any
    category: Any = UNRESOLVED


@dataclass(slots=True)
class DayLoad:
    """A day's attractions and intracity legs: totals of the whole-group ones, the rest listed.

    `shared_*` sum the items whose participants resolve to everyone (`participants_of`
    returned `user_names` itself); `own` holds `(members, is_poi, minutes)` of the others.
    """

    number: Any
    shared_pois: int = 0
    shared_minutes: int = 0
    own: list[tuple[Any, bool, int]] = field(default_factory=list)


@dataclass(slots=True)
class ScoreIndex:
    """A plan grouped once for every user's components."""

    user_names: list[str]
    poi_db: PoiDb
    invalid: set[tuple[Any, Any, Any]]
    attractions: dict[str, PlaceGroup] = field(default_factory=dict)
    food: dict[str, PlaceGroup] = field(default_factory=dict)
    intercity: list[tuple[Any, dict[str, Any]]] = field(default_factory=list)
    hotels: list[HotelEntry] = field(default_factory=list)
    days: list[DayLoad] = field(default_factory=list)
    budget_items: list[tuple[Any, Any]] = field(default_factory=list)
    budget_shared: bool = True
    _shared_budget: float | None = None

    def places_of(self, group: PlaceGroup | None, user: str) -> list[PlaceEntry]:
        """The entries the user takes part in that are not invalid split activities.

        When every entry is a whole-group activity the answer is the same for every user of
        `user_names` and is computed once.
        """
        if group is None:
            return []
        if group.everyone and user in self.user_names:
            if group.kept_for_everyone is None:
                group.kept_for_everyone = self._kept(group.entries, user)
            return group.kept_for_everyone
        return self._kept(group.entries, user)

    def _kept(self, entries: list[PlaceEntry], user: str) -> list[PlaceEntry]:
        kept: list[PlaceEntry] = []
        for entry in entries:
            if user not in entry.members:
                continue
            invalid = entry.invalid
            if invalid is None:
                act = entry.act
                invalid = (entry.number, act.label, act.raw.get("start_time")) in self.invalid
                entry.invalid = invalid
            if not invalid:
                kept.append(entry)
        return kept

    def category(self, entry: PlaceEntry | HotelEntry, city: Any) -> str | None:
        """The POI category of an entry's location in its city (resolved once)."""
        if entry.category is UNRESOLVED:
            entry.category = self.poi_db.category(entry.location, city)
        category: str | None = entry.category
        return category

    def budget_total(self, user: str) -> float:
        """Σ float(avg_cost) of intercity legs, hotels and the user's meals, in plan order."""
        shared = self.budget_shared and user in self.user_names
        if shared and self._shared_budget is not None:
            return self._shared_budget
        total = 0.0
        for cost, members in self.budget_items:
            if members is not None and user not in members:
                continue
            if cost:
                total += float(cost)
        if shared:
            self._shared_budget = total
        return total


def build_score_index(view: PlanView, poi_db: PoiDb) -> ScoreIndex:
    """Group a walked plan for scoring; raise the official error of a broken structure first."""
    if view.structural_error is not None:
        raise view.structural_error
    index = ScoreIndex(user_names=view.user_names, poi_db=poi_db, invalid=_invalid_keys(view))
    for day in view.days:
        load = DayLoad(day.number)
        for segment in day.segments:
            if segment.is_intercity:
                index.intercity.append((load.number, segment.raw))
                index.budget_items.append((segment.raw.get("avg_cost", 0), None))
                continue
            city = segment.raw.get("city") or ""
            for act in segment.activities:
                _index_activity(index, act, segment, load, city)
        index.days.append(load)
    return index


def _index_activity(
    index: ScoreIndex, act: ActivityRef, segment: SegmentRef, load: DayLoad, city: Any
) -> None:
    kind, raw, members = act.type, act.raw, act.members
    shared = members is index.user_names
    if kind in ("attraction", "food"):
        if type(city) is str:
            groups = index.attractions if kind == "attraction" else index.food
            group = groups.get(city)
            if group is None:
                group = groups[city] = PlaceGroup()
            group.entries.append(PlaceEntry(act, load.number, raw.get("location", ""), members))
            group.everyone = group.everyone and shared
        if kind == "food":
            index.budget_items.append((raw.get("avg_cost", 0), members))
            index.budget_shared = index.budget_shared and shared
    elif kind == "hotel":
        index.hotels.append(HotelEntry(load.number, raw.get("location", ""), segment.raw.get("city")))
        index.budget_items.append((raw.get("avg_cost", 0), None))
    if kind in INTENSITY_TYPES:
        start, end = act.start, act.end
        minutes = end - start if start is not None and end is not None and end > start else 0
        if shared:
            load.shared_pois += kind == "attraction"
            load.shared_minutes += minutes
        else:
            load.own.append((members, kind == "attraction", minutes))


def _invalid_keys(view: PlanView) -> set[tuple[Any, Any, Any]]:
    invalid: set[tuple[Any, Any, Any]] = set()
    for day in view.days:
        number = day.number
        for block in day.blocks:
            for _user, first, second in overlapping_pairs(block, view.user_names):
                invalid.add((number, first.label, first.raw.get("start_time")))
                invalid.add((number, second.label, second.raw.get("start_time")))
    return invalid
