"""A bound that needs no search: every user's best case, component by component.

Each term of the official GU is bounded on its own, per city order (`Frame`; each order has
its own bound, a task the largest over its orders): a leg scores at most the user's best mode
among the transition's departures, a night at most the best hotel of any task city, a meal at
most the best restaurant of any task city that can serve it that day (`_BestCase.meals`),
attractions at most what the days' time and the intensity caps leave room for
(`_BestCase.attractions`), and +2 per must_visit entry some place matches; budget penalties
and the split penalty are never positive. The days' time is what the order's legs leave
(`day_spans`): the first day starts at the earliest arrival of any first leg, the last ends at
the latest departure of any leg home, every day lies within 06:00–24:00. For a waivable user
(the ceiling objective) every item counts at its best case (`Place.best_case`: its negative
field parts waived) and the intensity caps cost nothing — as if every losing field were given
up, which is at least what two waivers give. It is the bound of last resort, used when CP-SAT
returns no bound of its own (docs/oracle.md, "The bound of last resort").
"""

from __future__ import annotations

import bisect
import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

from solver.oracle.catalog import CityCatalog
from solver.oracle.scores import ScoredUser
from solver.oracle.skeleton import Frame
from verifier.strict.clock import DAY, NIGHT_END
from verifier.strict.meals import MEALS
from verifier.world_facts import WorldFacts

UNBOUNDED = 10**6
"""An attraction count no day reaches (a day without an attraction cap)."""


def trivial_bounds(world: WorldFacts, frames: list[Frame], cities: list[CityCatalog]) -> list[list[int]]:
    """Per frame (city order) and user, an upper bound on the user's utility in every modelled
    plan of that order (a frame's sum bounds its GU total, its least the least user utility;
    the largest over frames bounds every plan)."""
    users = len(cities[0].users) if cities else 0
    nights = frames[0].days - 1 if frames else 0
    fixed = [
        nights * max((h.best_case(u) for city in cities for h in city.hotels), default=0)
        + sum(2 * len({item for place in city.attractions for item in place.musts[u]}) for city in cities)
        for u in range(users)
    ]
    cases = [_BestCase(cities, u) for u in range(users)]
    out: list[list[int]] = []
    for frame in frames:
        spans = day_spans(world, frame)
        rest = _rest(world, frame, cities)
        out.append(
            [
                fixed[u]
                + _legs(world, frame, cities, u)
                + case.meals(frame, spans)
                + case.attractions(spans, rest)
                for u, case in enumerate(cases)
            ]
        )
    return out


def day_spans(world: WorldFacts, frame: Frame) -> list[tuple[int, int]]:
    """Per day of `frame`, the minutes of that date a task city's activities may fill: within
    06:00–24:00, from the earliest arrival of any leg out of home on day 1 (a self-drive may
    leave at any minute: at its driving time), until the latest departure of any leg home on
    the last day (a self-drive: midnight)."""
    days = frame.days
    arrivals = [
        option.arrive - option.depart if option.flexible else option.arrive
        for option in world.intercity_options(frame.stops[0], frame.stops[1], frame.date(1))
    ]
    departures = [
        DAY if option.flexible else option.depart
        for option in world.intercity_options(frame.stops[-2], frame.stops[-1], frame.date(days))
    ]
    out = [(NIGHT_END, DAY) for _ in range(days)]
    out[0] = (max(NIGHT_END, min(arrivals, default=DAY)), out[0][1])
    out[-1] = (out[-1][0], min(DAY, max(departures, default=NIGHT_END)))
    return out


def _rest(world: WorldFacts, frame: Frame, cities: list[CityCatalog]) -> int:
    """Minutes every day strictly between the first and the last keeps from attractions. Strict
    requires lunch and dinner on such a day unless a leg overlaps the meal's window, so the day
    either eats both (twice the shortest restaurant service) or rides a leg between two task
    cities that overlaps one: wholly that day (the shortest such leg), or past midnight, when it
    fills at least the minutes after dinner's window (one overlapping lunch's fills the
    morning). The least of the three."""
    meals = 2 * min((r.service for city in cities for r in city.restaurants), default=0)
    overnight = DAY - MEALS[-1][2]
    rides = [
        option.arrive - option.depart
        for i in range(1, frame.cities)
        for day in range(1, frame.days + 1)
        for option in world.intercity_options(frame.stops[i], frame.stops[i + 1], frame.date(day))
    ]
    return min([meals, overnight, *rides])


class _BestCase:
    """What one user's meals and attractions can score, prepared once for every city order:
    the restaurants best first, and the attractions' counts and knapsack."""

    def __init__(self, cities: list[CityCatalog], u: int) -> None:
        self.restaurants = sorted(
            ((place.best_case(u), place, city) for city in cities for place in city.restaurants),
            key=lambda row: -row[0],
        )
        best: dict[tuple[str, str], tuple[int, int]] = {}
        for city in cities:
            for place in city.attractions:
                score = place.best_case(u)
                if score > 0:
                    key = (city.key, place.place)
                    value, service = best.get(key, (0, place.service))
                    best[key] = (max(value, score), min(service, place.service))
        self.counts = _prefix(sorted((value for value, _ in best.values()), reverse=True))
        self.knapsack = _Knapsack(sorted(best.values(), key=lambda item: -Fraction(item[0], item[1])))
        user = cities[0].users[u]
        self.pois = None if user.waivable else user.max_pois
        self.minutes = None if user.waivable else user.max_minutes

    def meals(self, frame: Frame, spans: list[tuple[int, int]]) -> int:
        """The user's best meals: per day and meal window (strict's: one breakfast, lunch and
        dinner a day), the best score of a restaurant of any task city with a visit inside both
        that window and the day's span on that date, when positive."""
        total = 0
        for day, (first, last) in enumerate(spans, start=1):
            date = frame.date(day)
            for _, opens, closes in MEALS:
                low, high = max(opens, first), min(closes, last)
                serving = (
                    score for score, place, city in self.restaurants if city.starts(place, date, low, high)
                )
                total += max(next(serving, 0), 0)
        return total

    def attractions(self, spans: list[tuple[int, int]], rest: int) -> int:
        """The user's best attraction category total over days of the given spans: each day
        either keeps within the user's caps or breaks one or both (−2 each); the attractions,
        each place once, are at most as many as the days' counts allow (the best scores first)
        and at most what a fractional knapsack of their visits' minutes (the shortest service of
        each place) fits in the days' minutes — the span less `rest` on every day between the
        first and the last, capped by `max_active_hours` on a day that keeps it (visits are
        active minutes)."""
        if not self.knapsack.items:
            return 0
        rooms = [
            max(last - first - (rest if 0 < day < len(spans) - 1 else 0), 0)
            for day, (first, last) in enumerate(spans)
        ]
        options = [_day_options(room, self.pois, self.minutes) for room in sorted(set(rooms))]
        groups = [rooms.count(room) for room in sorted(set(rooms))]
        most = 0
        for mixes in itertools.product(
            *(_mixes(len(opts), n) for opts, n in zip(options, groups, strict=True))
        ):
            count = span = penalty = 0
            for opts, mix in zip(options, mixes, strict=True):
                for (limit, room, charge), days in zip(opts, mix, strict=True):
                    count += days * limit
                    span += days * room
                    penalty += days * charge
            fits = min(Fraction(self.counts[min(count, len(self.counts) - 1)]), self.knapsack(span))
            most = max(most, math.floor(fits) - penalty)
        return most


def _day_options(room: int, pois: int | None, minutes: int | None) -> list[tuple[int, int, int]]:
    """What a day of `room` minutes may hold: (most attractions, most minutes of visits, the
    penalty) when it keeps both caps, breaks the attraction cap, the minutes cap, or both
    (`UNBOUNDED` attractions where no cap limits them)."""
    kept = min(room, minutes) if minutes is not None else room
    options = [(pois if pois is not None else UNBOUNDED, kept, 0)]
    if pois is not None:
        options.append((UNBOUNDED, kept, 2))
    if minutes is not None:
        options.append((pois if pois is not None else UNBOUNDED, room, 2))
    if pois is not None and minutes is not None:
        options.append((UNBOUNDED, room, 4))
    return options


def _mixes(kinds: int, days: int) -> list[tuple[int, ...]]:
    """Every way to give `days` identical days one of `kinds` options: how many days take each."""
    if kinds == 1:
        return [(days,)]
    return [(first, *rest) for first in range(days + 1) for rest in _mixes(kinds - 1, days - first)]


def _prefix(values: list[int]) -> list[int]:
    """prefix[k]: the sum of the first k values."""
    return [0, *itertools.accumulate(values)]


@dataclass
class _Knapsack:
    """A fractional knapsack of (value, minutes) items, best value per minute first."""

    items: list[tuple[int, int]]
    minutes: list[int] = field(init=False)
    """minutes[k]: the minutes of the first k items."""
    values: list[int] = field(init=False)
    """values[k]: the value of the first k items."""

    def __post_init__(self) -> None:
        self.minutes = _prefix([m for _, m in self.items])
        self.values = _prefix([v for v, _ in self.items])

    def __call__(self, capacity: int) -> Fraction:
        """The most value `capacity` minutes hold, items taken whole or in part."""
        whole = bisect.bisect_right(self.minutes, capacity) - 1
        total = Fraction(self.values[whole])
        if whole < len(self.items):
            value, minutes = self.items[whole]
            total += Fraction(value * (capacity - self.minutes[whole]), minutes)
        return total


def _legs(world: WorldFacts, frame: Frame, cities: list[CityCatalog], u: int) -> int:
    user = cities[0].users[u]
    total = 0
    for i in range(frame.cities + 1):
        scores = [
            _leg_best_case(user, option.mode)
            for day in range(1, frame.days + 1)
            for option in world.intercity_options(frame.stops[i], frame.stops[i + 1], frame.date(day))
        ]
        total += max(scores, default=0)
    return total


def _leg_best_case(user: ScoredUser, mode: str) -> int:
    """A leg's score, or for a waivable user the sum of its positive field parts."""
    if not user.waivable:
        return user.prefs.transport(mode)
    return sum(max(score, 0) for _, score in user.prefs.transport_fields(mode))
