"""A bound that needs no search: every user's best case, component by component.

Each term of the official GU is bounded on its own, per city order (`Frame`; each order has
its own bound, a task the largest over its orders): a leg between task cities scores at most
the user's best mode among its departures, a night at most the best hotel of any task city,
a meal at most the best restaurant of any task city that can serve it that day
(`_BestCase.meals`), attractions at most what the days' time and the intensity caps leave
room for, the meals counted beside the days' rest taking their minutes from it
(`_BestCase.meals_and_attractions`), and +2 per must_visit entry some place matches; budget
penalties and the split penalty are never positive. The legs out of home and back score
together with the days' time they leave (`day_spans`): per leg out of home that no other
beats on score and arrival (`_arrivals`) and per leg home likewise (`_departures`), the first
day starts after that arrival, the last ends before that departure, every day lies within
06:00–24:00. For a waivable user (the ceiling objective) every item counts at its best case
(`Place.best_case`: its negative field parts waived) and the intensity caps cost nothing — as
if every losing field were given up, which is at least what two waivers give. It is the
bound of last resort, used when CP-SAT returns no bound of its own (docs/oracle.md, "The bound
of last resort").
"""

from __future__ import annotations

import bisect
import datetime as dt
import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

from solver.oracle.catalog import CityCatalog, Place
from solver.oracle.scores import ScoredUser
from solver.oracle.skeleton import Frame
from verifier.strict.clock import DAY, NIGHT_END
from verifier.strict.connections import connection_minutes
from verifier.strict.meals import MEALS, REQUIRED
from verifier.world_facts import IntercityOption, WorldFacts

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
    travel_in = {city.key: _travel_in(world, frames, city) for city in cities}
    cases = [_BestCase(cities, u, travel_in) for u in range(users)]
    out: list[list[int]] = []
    for frame in frames:
        rest = _rest(world, frame, cities)
        free = _free_transfers(world, frame, travel_in)
        row: list[int] = []
        for u, case in enumerate(cases):
            user = cities[0].users[u]
            ends = itertools.product(_arrivals(world, frame, user), _departures(world, frame, user))
            row.append(
                fixed[u]
                + _between(world, frame, user)
                + max(
                    arrive.score
                    + leave.score
                    + case.meals_and_attractions(frame, day_spans(frame, arrive, leave), rest, free)
                    for arrive, leave in ends
                )
            )
        out.append(row)
    return out


@dataclass(frozen=True)
class _End:
    """One way a home leg may go for a user: what it scores, and the minute the task city's
    time starts after it (the leg out of home) or ends before it (the leg home)."""

    score: int
    minute: int


def _arrivals(world: WorldFacts, frame: Frame, user: ScoredUser) -> list[_End]:
    """The leg out of home on day 1, per score the earliest its city time may start (a
    timetabled arrival plus its exit minutes; a self-drive leaving at midnight: its driving
    time), only where a better-scoring leg starts later (the others never give more)."""
    ends = [
        _End(
            _leg_best_case(user, option.mode),
            option.arrive - option.depart
            if option.flexible
            else option.arrive + connection_minutes(option.mode)[1],
        )
        for option in world.intercity_options(frame.stops[0], frame.stops[1], frame.date(1))
    ]
    return _front(ends, earliest=True) or [_End(0, DAY)]


def _departures(world: WorldFacts, frame: Frame, user: ScoredUser) -> list[_End]:
    """The leg home on the last day, per score the latest its city time may end (a timetabled
    departure less its check-in minutes; a self-drive: midnight), only where a better-scoring
    leg ends earlier."""
    ends = [
        _End(
            _leg_best_case(user, option.mode),
            DAY if option.flexible else option.depart - connection_minutes(option.mode)[0],
        )
        for option in world.intercity_options(frame.stops[-2], frame.stops[-1], frame.date(frame.days))
    ]
    return _front(ends, earliest=False) or [_End(0, NIGHT_END)]


def _front(ends: list[_End], *, earliest: bool) -> list[_End]:
    """The ends no other end beats on both its score and its minute."""
    sign = 1 if earliest else -1
    out: list[_End] = []
    for end in sorted(ends, key=lambda e: (-e.score, sign * e.minute)):
        if not out or sign * end.minute < sign * out[-1].minute:
            out.append(end)
    return out


def _between(world: WorldFacts, frame: Frame, user: ScoredUser) -> int:
    """The legs between task cities: each at the user's best mode among its departures of any
    day."""
    return sum(
        max(
            (_leg_best_case(user, option.mode) for option in _any_day(world, frame, i)),
            default=0,
        )
        for i in range(1, frame.cities)
    )


def _any_day(world: WorldFacts, frame: Frame, i: int) -> list[IntercityOption]:
    """Transition i's departures (stops[i] → stops[i + 1]) on every day of the frame."""
    return [
        option
        for day in range(1, frame.days + 1)
        for option in world.intercity_options(frame.stops[i], frame.stops[i + 1], frame.date(day))
    ]


def day_spans(frame: Frame, arrive: _End, leave: _End) -> list[tuple[int, int]]:
    """Per day of `frame`, the minutes of that date a task city's activities may fill: within
    06:00–24:00, from the city time `arrive` starts on day 1 until `leave` ends it on the
    last."""
    out = [(NIGHT_END, DAY) for _ in range(frame.days)]
    out[0] = (max(NIGHT_END, arrive.minute), out[0][1])
    out[-1] = (out[-1][0], min(DAY, leave.minute))
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
        option.arrive - option.depart for i in range(1, frame.cities) for option in _any_day(world, frame, i)
    ]
    return min([meals, overnight, *rides])


def _travel_in(world: WorldFacts, frames: list[Frame], city: CityCatalog) -> dict[Place, int]:
    """Per attraction of `city`, the least transfer minutes into it from any other node a plan
    may come from: another attraction, a restaurant, a hotel, or a hub of a leg into or out of
    the city on any date of the frames (every visit follows a transfer from one of them)."""
    hubs = {
        hub
        for frame in frames
        for i in range(frame.cities + 1)
        if city.key in frame.stops[i : i + 2]
        for option in _any_day(world, frame, i)
        for hub, there in ((option.from_hub, frame.stops[i]), (option.to_hub, frame.stops[i + 1]))
        if hub and there == city.key
    }
    sources = [place.members for place in (*city.attractions, *city.restaurants, *city.hotels)]
    sources += [(hub,) for hub in sorted(hubs)]
    out: dict[Place, int] = {}
    for place in city.attractions:
        found = [
            minutes
            for members in sources
            if members is not place.members and (minutes := city.travel(members, place.members)) is not None
        ]
        out[place] = min(found, default=0)
    return out


def _free_transfers(world: WorldFacts, frame: Frame, travel_in: dict[str, dict[Place, int]]) -> int:
    """Minutes of transfer in that visits may skip: after a self-drive into a task city (door to
    door, strict knows no position after it) the first visit needs no transfer, so per task city
    some self-drive reaches on some day, the largest transfer into one of its attractions."""
    return sum(
        max(travel_in[frame.stops[i + 1]].values(), default=0)
        for i in range(frame.cities)
        if any(option.flexible for option in _any_day(world, frame, i))
    )


class _BestCase:
    """What one user's meals and attractions can score, prepared once for every city order:
    the restaurants best first, the shortest meal, and the attractions' counts and knapsack."""

    def __init__(self, cities: list[CityCatalog], u: int, travel_in: dict[str, dict[Place, int]]) -> None:
        self.restaurants = sorted(
            ((place.best_case(u), place, city) for city in cities for place in city.restaurants),
            key=lambda row: -row[0],
        )
        self.meal_minutes = min((place.service for _, place, _ in self.restaurants), default=0)
        best: dict[tuple[str, str], tuple[int, int]] = {}
        for city in cities:
            for place in city.attractions:
                score = place.best_case(u)
                if score > 0:
                    key = (city.key, place.place)
                    weight = place.service + travel_in[city.key][place]
                    value, least = best.get(key, (0, weight))
                    best[key] = (max(value, score), min(least, weight))
        self.counts = _prefix(sorted((value for value, _ in best.values()), reverse=True))
        self.knapsack = _Knapsack(sorted(best.values(), key=lambda item: -Fraction(item[0], item[1])))
        user = cities[0].users[u]
        self.pois = None if user.waivable else user.max_pois
        self.minutes = None if user.waivable else user.max_minutes
        self._served: dict[tuple[dt.date, int, int], int] = {}

    def meals(self, frame: Frame, spans: list[tuple[int, int]]) -> tuple[int, list[int]]:
        """The user's best meals: per day and meal window (strict's: one breakfast, lunch and
        dinner a day), the best score of a restaurant of any task city with a visit inside both
        that window and the day's span on that date, when positive — lunch and dinner of the
        days between the first and the last in one sum (their minutes are the days' `_rest`),
        the others best first (each takes a meal's minutes from the days' time)."""
        kept = 0
        others: list[int] = []
        for day, (first, last) in enumerate(spans):
            for meal, opens, closes in MEALS:
                score = self._serves(frame.date(day + 1), max(opens, first), min(closes, last))
                if score <= 0:
                    continue
                if 0 < day < len(spans) - 1 and meal in REQUIRED:
                    kept += score
                else:
                    others.append(score)
        return kept, sorted(others, reverse=True)

    def _serves(self, date: dt.date, low: int, high: int) -> int:
        """The best score of a restaurant with a visit inside [low, high] on `date` (0: none)."""
        key = (date, low, high)
        if key not in self._served:
            serving = (
                score for score, place, city in self.restaurants if city.starts(place, date, low, high)
            )
            self._served[key] = max(next(serving, 0), 0)
        return self._served[key]

    def meals_and_attractions(
        self, frame: Frame, spans: list[tuple[int, int]], rest: int, free: int = 0
    ) -> int:
        """The user's best meals (`meals`) and attraction category total over days of the given
        spans: each day either keeps within the user's caps or breaks one or both (−2 each);
        the attractions, each place once, are at most as many as the days' counts allow (the
        best scores first) and at most what a fractional knapsack of their visits' minutes (the
        shortest service of each place plus the least transfer into it) fits in the days'
        minutes — the span less `rest` on every day between the first and the last, capped by
        `max_active_hours` on a day that keeps it (visits and transfers are active minutes),
        and less a meal's minutes for each meal counted beside that rest; plus the `free`
        minutes of transfers in that visits may skip (`_free_transfers`)."""
        kept, others = self.meals(frame, spans)
        eaten = _prefix(others)
        rooms = [
            max(last - first - (rest if 0 < day < len(spans) - 1 else 0), 0)
            for day, (first, last) in enumerate(spans)
        ]
        total = sum(rooms)
        most = 0
        for count, span, penalty in _plans_of_days(rooms, self.pois, self.minutes, len(self.counts) - 1):
            for meals, value in enumerate(eaten):
                left = total - meals * self.meal_minutes
                if left < 0:
                    break
                fits = min(Fraction(self.counts[count]), self.knapsack(min(span, left) + free))
                most = max(most, math.floor(fits) + value - penalty)
        return kept + most


def _plans_of_days(
    rooms: list[int], pois: int | None, minutes: int | None, places: int
) -> list[tuple[int, int, int]]:
    """Every way to give the days (of the given rooms) a kind (`_day_options`), as (most
    attractions — at most `places` —, most minutes of visits, penalty), leaving out those
    another way beats on all three."""
    options = [_day_options(room, pois, minutes) for room in sorted(set(rooms))]
    groups = [rooms.count(room) for room in sorted(set(rooms))]
    found: set[tuple[int, int, int]] = set()
    for mixes in itertools.product(*(_mixes(len(opts), n) for opts, n in zip(options, groups, strict=True))):
        count = span = penalty = 0
        for opts, mix in zip(options, mixes, strict=True):
            for (limit, room, charge), days in zip(opts, mix, strict=True):
                count += days * limit
                span += days * room
                penalty += days * charge
        found.add((min(count, places), span, penalty))
    kept: list[tuple[int, int, int]] = []
    for count, span, penalty in sorted(found, key=lambda way: (way[2], -way[0], -way[1])):
        if not any(c >= count and s >= span for c, s, _ in kept):
            kept.append((count, span, penalty))
    return kept


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


def _leg_best_case(user: ScoredUser, mode: str) -> int:
    """A leg's score, or for a waivable user the sum of its positive field parts."""
    if not user.waivable:
        return user.prefs.transport(mode)
    return sum(max(score, 0) for _, score in user.prefs.transport_fields(mode))
