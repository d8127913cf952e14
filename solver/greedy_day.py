"""One city segment of one day, planned greedily: meals, attractions, then a hotel or a hub.

A segment starts at a place and minute (a hotel in the morning, an arrival hub) and ends at the
night's hotel (check-in before midnight) or at the departure hub of the next leg by its
departure minute. The required meals of the segment (lunch and dinner windows lying wholly
inside it, see `verifier.strict.meals`) are always planned; optional meals (breakfast, or a
lunch/dinner that is not required) only when a restaurant the group likes fits. Attractions
with a positive group score are added best first (ties: earliest finish) while the day's caps
(`max_poi_per_day`, `max_active_hours`) hold and the rest of the segment stays feasible.
Every visit sits inside one opening span, lasts at least the place's minimum and every move
between two places is a hop at least as long as the world's transfer time.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

from solver.greedy_city import CityFacts, Style
from verifier.strict.clock import DAY, NIGHT_END
from verifier.strict.meals import MEALS

ATTRACTION_MINUTES = 60
"""Shortest attraction visit the planner plans (longer when the place's minimum is)."""
MEAL_MINUTES = 45
"""Shortest meal the planner plans (longer when the restaurant's minimum is)."""
LAST_CHECK_IN = DAY - 1
"""Hotel check-in no later than 23:59 of the segment's date."""


@dataclass(frozen=True)
class Act:
    """A planned activity in minutes of its date; a transfer has origin, destination and mode."""

    kind: str
    start: int
    end: int
    cost_fen: int = 0
    location: str = ""
    origin: str = ""
    destination: str = ""
    mode: str = ""


@dataclass(frozen=True)
class State:
    """Where the group is, when, and what the trip has done so far (carried across days)."""

    place: str | None
    time: int
    acts: tuple[Act, ...] = ()
    pois: int = 0
    active: int = 0
    meals: frozenset[str] = frozenset()
    visited: frozenset[str] = frozenset()
    satisfied: frozenset[tuple[int, int]] = frozenset()


@dataclass(frozen=True)
class End:
    """How a segment ends: at `place` (a hotel to check in to, or a hub; None = anywhere) by `deadline`."""

    place: str | None
    deadline: int
    hotel: bool
    cost_fen: int = 0


def plan_segment(
    facts: CityFacts, date: dt.date, state: State, end: End, *, required: tuple[str, ...], style: Style
) -> State | None:
    """The segment's activities appended to `state.acts`, or None when it cannot be done."""
    day = _Day(facts, date, end)
    current = state
    for name, low, _high in MEALS:
        if name == "breakfast" and not style.breakfast:
            continue
        pending = tuple(meal for meal in required if _order(meal) >= _order(name))
        after = tuple(meal for meal in pending if meal != name)
        if name in required or current.time < low:
            current = day.attractions(current, pending)
        if name in current.meals:
            continue
        eaten = day.meal(current, name, after, must=name in required)
        if eaten is None and name in required:
            return None
        current = eaten or current
    return day.finish(day.attractions(current, ()))


def _order(meal: str) -> int:
    return [name for name, _, _ in MEALS].index(meal)


class _Day:
    """The greedy moves of one segment (facts, date and end fixed)."""

    def __init__(self, facts: CityFacts, date: dt.date, end: End) -> None:
        self.facts, self.date, self.end = facts, date, end

    def move(self, state: State, destination: str) -> State | None:
        """`state` after a hop to `destination` (unchanged when already there or nowhere)."""
        if state.place is None or state.place == destination:
            return state
        hop = self.facts.hop(state.place, destination)
        if hop is None:
            return None
        act = Act(
            "intracity_transport",
            state.time,
            state.time + hop.minutes,
            hop.cost_fen,
            origin=state.place,
            destination=destination,
            mode=hop.mode,
        )
        return replace(
            state,
            place=destination,
            time=act.end,
            acts=(*state.acts, act),
            active=state.active + hop.minutes,
        )

    def visit(
        self, state: State, kind: str, name: str, *, minutes: int, cost: int, low: int, high: int
    ) -> State | None:
        """`state` after moving to `name` and staying `minutes` inside [low, high] and its opening hours."""
        moved = self.move(state, name)
        if moved is None:
            return None
        start = self.facts.earliest_start(
            name, self.date, moved.time, minutes=minutes, low=max(low, NIGHT_END), high=high
        )
        if start is None:
            return None
        act = Act(kind, start, start + minutes, cost, location=name)
        return replace(moved, place=name, time=act.end, acts=(*moved.acts, act))

    def eat(self, state: State, meal: str, restaurant: int) -> State | None:
        poi, _score = self.facts.restaurants[restaurant]
        _, low, high = MEALS[_order(meal)]
        minutes = max(poi.min_visit_minutes, MEAL_MINUTES)
        cost = self.facts.price(poi.name, self.date)
        done = self.visit(state, "food", poi.name, minutes=minutes, cost=cost, low=low, high=min(high, DAY))
        return None if done is None else replace(done, meals=done.meals | {meal})

    def meal(self, state: State, meal: str, after: tuple[str, ...], *, must: bool) -> State | None:
        """The best-scored feasible meal (ties: earliest finish, world order) keeping `after` feasible;
        an optional meal only at a restaurant the group likes."""
        for score, indices in self.facts.restaurants_by_score:
            if not must and score <= 0:
                return None
            options = [
                (done.time, index, done) for index in indices if (done := self.eat(state, meal, index))
            ]
            for *_, done in sorted(options, key=lambda option: option[:2]):
                if self.completes(done, after):
                    return done
        return None

    def attractions(self, state: State, pending: tuple[str, ...]) -> State:
        """Add liked attractions best first while the caps hold and `pending` meals stay feasible."""
        caps = self.facts.prefs
        while caps.max_pois is None or state.pois < caps.max_pois:
            options: list[tuple[int, int, int, State]] = []
            for index, (poi, fixed, musts) in enumerate(self.facts.attractions):
                if poi.name in state.visited:
                    continue
                score = fixed + 2 * len(musts - state.satisfied)
                if score <= 0:
                    continue
                minutes = max(poi.min_visit_minutes, ATTRACTION_MINUTES)
                cost = self.facts.price(poi.name, self.date)
                done = self.visit(state, "attraction", poi.name, minutes=minutes, cost=cost, low=0, high=DAY)
                if done is None:
                    continue
                done = replace(
                    done,
                    pois=done.pois + 1,
                    active=done.active + minutes,
                    visited=done.visited | {poi.name},
                    satisfied=done.satisfied | musts,
                )
                options.append((-score, done.time, index, done))
            chosen = next(
                (done for *_, done in sorted(options, key=lambda o: o[:3]) if self._fits(done, pending)),
                None,
            )
            if chosen is None:
                return state
            state = chosen
        return state

    def _fits(self, state: State, pending: tuple[str, ...]) -> bool:
        cap = self.facts.prefs.max_active_minutes
        final = self.completion(state, pending)
        return final is not None and (cap is None or final.active <= cap)

    def completes(self, state: State, pending: tuple[str, ...]) -> bool:
        return self.completion(state, pending) is not None

    def completion(self, state: State, pending: tuple[str, ...]) -> State | None:
        """The quickest way to finish: each pending meal where it ends earliest, then the end."""
        current = state
        for meal in pending:
            best: State | None = None
            for minutes, index in self.facts.restaurants_near(current.place):
                if best is not None and current.time + minutes + MEAL_MINUTES >= best.time:
                    break
                done = self.eat(current, meal, index)
                if done is not None and (best is None or done.time < best.time):
                    best = done
            if best is None:
                return None
            current = best
        return self.finish(current)

    def finish(self, state: State) -> State | None:
        """Move to the end: check in at the hotel (before midnight), or reach the hub by the deadline."""
        if self.end.place is None:
            return state if state.time <= self.end.deadline else None
        moved = self.move(state, self.end.place)
        if moved is None or moved.time > self.end.deadline:
            return None
        if not self.end.hotel:
            return moved
        start = max(moved.time, NIGHT_END)
        hotel = Act("hotel", start, start, self.end.cost_fen, location=self.end.place)
        return replace(moved, time=start, acts=(*moved.acts, hotel))
