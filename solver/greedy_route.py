"""The greedy planner's route search: intercity legs chosen in order, city stays planned between them.

Leg i leaves the group's city on a fixed day (from the nights per city). Its candidates are the
world's departures of that date (a flexible self-drive option expanded to hourly departures)
that a plan can state (shorter than a day) and that the strict check matches back to the same
departure (two departures with equal times are told apart by timetable order). They are ranked
by the group's transport score, then time fit (two-hour buckets) and fare (in the order the
`Style` asks), then timetable order. A candidate is taken when the stay before it can be
planned (hotel nights, then the last day ending at its departure hub) and the rest of the
route succeeds; otherwise the next one is tried (depth-first, a bounded number of tries per
leg). Legs other than the return leg arrive by 23:00 on their departure date, so every
activity of a day's list falls on that day's date.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

from solver.greedy_city import CityFacts, Style
from solver.greedy_day import LAST_CHECK_IN, Act, End, State, plan_segment
from solver.greedy_prefs import GroupPrefs
from verifier.strict.clock import DAY, NIGHT_END
from verifier.strict.connections import connection_minutes
from verifier.strict.meals import required_meals
from verifier.strict.timetable import matches_itself
from verifier.world_facts import IntercityOption, WorldFacts

MORNING = 8 * 60
"""The group leaves the hotel at 08:00 unless an earlier leg needs it sooner."""
LATEST_ARRIVAL = 23 * 60
"""Legs before the return leg arrive by 23:00 (time to reach the hotel before midnight)."""
REST_MINUTES = 30
"""A stopover with nothing to plan is a rest of this length at the arrival hub."""
TRIES_PER_LEG = 6
"""Candidates whose preceding stay can be planned, tried per leg before giving up."""


@dataclass(frozen=True)
class Leg:
    """A chosen departure: the option and the planned departure/arrival minutes of its date."""

    option: IntercityOption
    depart: int
    arrive: int


@dataclass(frozen=True)
class Block:
    """The activities of one city segment on one day."""

    city: str
    acts: tuple[Act, ...]


Event = tuple[int, Leg | Block]


@dataclass(frozen=True)
class Cursor:
    """The route so far: day index, the group's state, when its current segment began (0: at the
    hotel since the night), the events, and the days whose hotel check-out is not `MORNING`."""

    day: int
    state: State
    segment_start: int
    events: tuple[Event, ...] = ()
    mornings: tuple[tuple[int, int], ...] = ()


@dataclass
class Router:
    """Depth-first leg search for one allocation of nights to cities."""

    world: WorldFacts
    home: str
    cities: tuple[str, ...]
    start: dt.date
    nights: tuple[int, ...]
    prefs: GroupPrefs
    facts: dict[str, CityFacts]
    style: Style

    def run(self) -> Cursor | None:
        """The complete route (every event) or None when no combination of tried legs works."""
        return self._leg(0, Cursor(0, State(None, 0), 0))

    def _leg(self, i: int, cursor: Cursor) -> Cursor | None:
        last = len(self.cities)
        origin = self.home if i == 0 else self.cities[i - 1]
        destination = self.home if i == last else self.cities[i]
        day = sum(self.nights[:i])
        if i > 0:
            stayed = self._nights(i - 1, cursor, day)
            if stayed is None:
                return None
            cursor = stayed
        date = self.start + dt.timedelta(days=day)
        tries = 0
        for leg in self._candidates(i, origin, destination, date):
            before = self._before(i, cursor, leg, date)
            if before is None:
                continue
            tries += 1
            after = self._after(i, before, leg, day)
            done = after if i == last else self._leg(i + 1, after)
            if done is not None:
                return done
            if tries >= TRIES_PER_LEG:
                break
        return None

    def _candidates(self, i: int, origin: str, destination: str, date: dt.date) -> list[Leg]:
        legs: list[tuple[tuple[int, ...], Leg]] = []
        last = i == len(self.cities)
        options = self.world.intercity_options(origin, destination, date)
        for index, option in enumerate(options):
            duration = option.arrive - option.depart
            departs = (
                range(NIGHT_END, LATEST_ARRIVAL - duration + 1, 60) if option.flexible else [option.depart]
            )
            for depart in departs:
                leg = Leg(option, depart, depart + duration)
                if not 0 < duration < DAY or (not last and leg.arrive > LATEST_ARRIVAL):
                    continue
                if not matches_itself(options, option, depart, leg.arrive):
                    continue
                fit = _fit(i, last, leg) // 120
                order = (option.fare_fen, fit) if self.style.cheap_legs else (fit, option.fare_fen)
                key = (-self.prefs.transport(option.mode), *order, index)
                legs.append((key, leg))
        return [leg for _, leg in sorted(legs, key=lambda pair: pair[0])]

    def _nights(self, ci: int, cursor: Cursor, until: int) -> Cursor | None:
        """Days in city `ci` from the cursor up to (not including) day `until`, each ending at the hotel."""
        facts = self.facts[self.cities[ci]]
        hotel = facts.hotel(self.style)
        while cursor.day < until:
            if hotel is None:
                return None
            date = self.start + dt.timedelta(days=cursor.day)
            end = End(hotel.name, LAST_CHECK_IN, True, facts.price(hotel.name, date))
            required = required_meals(cursor.segment_start, DAY)
            done = plan_segment(
                facts, date, replace(cursor.state, acts=()), end, required=required, style=self.style
            )
            if done is None:
                return None
            events = (*cursor.events, (cursor.day, Block(facts.city, done.acts)))
            morning = State(hotel.name, MORNING, visited=done.visited, satisfied=done.satisfied)
            cursor = Cursor(cursor.day + 1, morning, 0, events, cursor.mornings)
        return cursor

    def _before(self, i: int, cursor: Cursor, leg: Leg, date: dt.date) -> Cursor | None:
        """The cursor after the last segment in the origin city, ending at the leg's hub in time."""
        if i == 0:
            return cursor
        facts = self.facts[self.cities[i - 1]]
        hub = leg.option.from_hub or None
        state = cursor.state
        mornings = cursor.mornings
        ready = leg.depart - _connection(leg.option)[0]
        if cursor.segment_start == 0 and state.place is not None and hub is not None:
            hop = facts.hop(state.place, hub)
            if hop is None:
                return None
            state = replace(state, time=min(MORNING, ready - hop.minutes))
            if state.time < 0:
                return None
            mornings = (*mornings, (cursor.day, state.time))
        required = required_meals(cursor.segment_start, leg.depart)
        end = End(hub, ready, False)
        done = plan_segment(facts, date, replace(state, acts=()), end, required=required, style=self.style)
        if done is None:
            return None
        acts = done.acts or _rest(done, ready)
        if not acts:
            return None
        events = (*cursor.events, (cursor.day, Block(facts.city, acts)))
        return Cursor(cursor.day, done, cursor.segment_start, events, mornings)

    def _after(self, i: int, cursor: Cursor, leg: Leg, day: int) -> Cursor:
        """The cursor at the arrival hub once the group is out of it (the mode's exit minutes)."""
        out = leg.arrive + _connection(leg.option)[1]
        state = replace(cursor.state, place=leg.option.to_hub or None, time=out, acts=())
        if i == 0:
            state = replace(state, pois=0, active=0, meals=frozenset())
        events = (*cursor.events, (day, leg))
        return Cursor(day, state, leg.arrive, events, cursor.mornings)


def _connection(option: IntercityOption) -> tuple[int, int]:
    """Check-in and exit minutes of a departure (none for a flexible, door-to-door one)."""
    return (0, 0) if option.flexible else connection_minutes(option.mode)


def _fit(i: int, last: bool, leg: Leg) -> int:
    """Minutes away from a comfortable timing: leave home early (not before 07:00) and arrive
    early; change cities around 13:00; return around 17:00 and before midnight."""
    if i == 0:
        return leg.arrive + 3 * max(0, 420 - leg.depart)
    if last:
        return abs(leg.depart - 1020) + (600 if leg.arrive > DAY else 0)
    return abs(leg.depart - 780)


def _rest(state: State, deadline: int) -> tuple[Act, ...]:
    """A short rest where the group is (so a stopover block is never empty), inside the day window."""
    start = max(state.time, NIGHT_END)
    end = min(start + REST_MINUTES, deadline, DAY)
    return (Act("rest", start, end, location=state.place or ""),) if end > start else ()
