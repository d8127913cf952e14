"""The plan as the strict rules read it: every leg and activity placed on the absolute clock.

`build_trip` flattens the parsed plan into `Item`s in list order, each with its JSON path,
absolute span (see `verifier.strict.clock`), the travellers taking part and, for a leg, its
matched timetable entry (`verifier.strict.timetable`). Travellers are the task's users
followed by its children (metadata children without a preference table). `["All"]` — or any
list containing "All" — means every traveller, children included; otherwise the known names
listed. Hotels and intercity legs are shared by the whole group whatever the plan says.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from verifier.model.plan import ALL, Activity, Day, IntercityTransport
from verifier.model.plan_parse import ParsedPlan
from verifier.model.task import Task
from verifier.strict import clock
from verifier.strict.timetable import LegMatch, match_leg
from verifier.world_facts import WorldFacts

LEG = "intercity_transport"


@dataclass(frozen=True)
class Item:
    """One leg or activity on the absolute clock."""

    index: int
    loc: str
    day: int
    segment: int
    kind: str
    city: str
    start: int
    end: int
    who: tuple[str, ...]
    activity: Activity | None = None
    leg: IntercityTransport | None = None
    match: LegMatch | None = None

    @property
    def place(self) -> str:
        """Where an activity happens (a transfer's destination); "" for a leg."""
        return self.activity.place if self.activity is not None else ""

    @property
    def forward(self) -> bool:
        """True when the item lasts a positive time."""
        return self.end > self.start


@dataclass(frozen=True)
class Stop:
    """One segment of a day: a city block (its activities) or a leg (one item)."""

    loc: str
    city: str
    key: str
    known: bool
    items: tuple[Item, ...]
    is_leg: bool


@dataclass(frozen=True)
class TripDay:
    """One parsed day: typed index, raw index in the input, path, midnight and segments."""

    index: int
    raw_index: int
    loc: str
    day: Day
    base: int
    stops: tuple[Stop, ...]


@dataclass(frozen=True)
class Trip:
    """Everything the strict checks read: task facts, the world and the placed items."""

    task: Task
    world: WorldFacts
    travellers: tuple[str, ...]
    children: frozenset[str]
    departure: str
    cities: tuple[str, ...]
    days: tuple[TripDay, ...]
    items: tuple[Item, ...]

    def key(self, city: str) -> str:
        """The world's key for a city name, or the name itself when the world does not know it."""
        return self.world.city(city) or city

    def of(self, traveller: str) -> list[Item]:
        """The traveller's items in list order."""
        return self._by_traveller.get(traveller, [])

    @cached_property
    def _by_traveller(self) -> dict[str, list[Item]]:
        table: dict[str, list[Item]] = {name: [] for name in self.travellers}
        for item in self.items:
            for name in item.who:
                table[name].append(item)
        return table


def build_trip(task: Task, parsed: ParsedPlan, world: WorldFacts) -> Trip:
    """Place every kept part of the parsed plan on the clock (see the module docstring)."""
    travellers = tuple(dict.fromkeys([*task.user_names, *task.child_names]))
    key = _city_key(world)
    days: list[TripDay] = []
    items: list[Item] = []
    for i, day in enumerate(parsed.plan.days):
        base = clock.day_base(day.date)
        after_midnight = False
        stops: list[Stop] = []
        for j, segment in enumerate(day.city_segments):
            loc = parsed.paths.segments[i][j]
            if isinstance(segment, IntercityTransport):
                start, end, match = _place_leg(
                    segment, base + (clock.DAY if after_midnight else 0), world, key
                )
                after_midnight = after_midnight or end >= base + clock.DAY
                destination = key(segment.to_city)
                item = Item(
                    len(items), loc, i, j, LEG, destination, start, end, travellers, leg=segment, match=match
                )
                items.append(item)
                stops.append(Stop(loc, segment.to_city, destination, True, (item,), True))
                continue
            block: list[Item] = []
            for k, activity in enumerate(segment.activities):
                start, end = _span(activity, base, after_midnight)
                who = travellers if activity.type == "hotel" else _resolve(activity.participants, travellers)
                path = parsed.paths.activities[i][j][k]
                city = key(segment.city)
                block.append(
                    Item(len(items), path, i, j, activity.type, city, start, end, who, activity=activity)
                )
                items.append(block[-1])
            known = world.city(segment.city) is not None
            stops.append(Stop(loc, segment.city, key(segment.city), known, tuple(block), False))
        days.append(TripDay(i, parsed.paths.day_indices[i], parsed.paths.days[i], day, base, tuple(stops)))
    return Trip(
        task=task,
        world=world,
        travellers=travellers,
        children=frozenset(task.child_names),
        departure=key(task.metadata.departure_city),
        cities=tuple(key(city) for city in task.metadata.cities),
        days=tuple(days),
        items=tuple(items),
    )


def _place_leg(
    leg: IntercityTransport, base: int, world: WorldFacts, key: Callable[[str], str]
) -> tuple[int, int, LegMatch]:
    """A leg's match in its departure date's timetable and its absolute span from the midnight
    `base`: the matched departure's real times (a self-drive: the written departure plus the
    real driving time), so the matching tolerance never buys city time, waives a meal or
    shortens a connection; the written times when nothing matches."""
    start, end = clock.leg_span(base, leg.start, leg.end)
    options = world.intercity_options(key(leg.from_city), key(leg.to_city), clock.date_of(start))
    depart = start % clock.DAY
    match = match_leg(options, leg.transport_mode, depart, depart + end - start)
    option = match.option
    if option is None:
        return start, end, match
    midnight = start - depart
    if option.flexible:
        return start, start + option.arrive - option.depart, match
    return midnight + option.depart, midnight + option.arrive, match


def _span(activity: Activity, base: int, after_midnight: bool) -> tuple[int, int]:
    if activity.type == "hotel":
        return clock.hotel_span(base, activity.start, activity.end, after_midnight)
    return clock.activity_span(base + (clock.DAY if after_midnight else 0), activity.start, activity.end)


def _city_key(world: WorldFacts) -> Callable[[str], str]:
    def key(city: str) -> str:
        return world.city(city) or city

    return key


def _resolve(participants: list[str], travellers: tuple[str, ...]) -> tuple[str, ...]:
    """Travellers named by a participants list ("All" anywhere in it means everyone)."""
    if ALL in participants:
        return travellers
    named = set(participants)
    return tuple(name for name in travellers if name in named)
