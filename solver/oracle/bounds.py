"""A bound that needs no search: every user's best case, component by component.

Each term of the official GU is bounded on its own: a leg scores at most the user's best mode
among the transition's departures, a night at most the best hotel of any task city, a meal at
most the best restaurant of any task city (three meals a day), attractions at most the best
positive category scores that fit the days (`_attractions`) and +2 per must_visit entry some
place matches; budget penalties and the split penalty are never positive. For a waivable user
(the ceiling objective) every item counts at its best case (`Place.best_case`: its negative
field parts waived) and the intensity caps cost nothing — as if every losing field were given
up, which is at least what two waivers give. It is the bound of last resort, used when CP-SAT
returns no bound of its own.
"""

from __future__ import annotations

from solver.oracle.catalog import CityCatalog
from solver.oracle.scores import ScoredUser
from solver.oracle.skeleton import Frame
from verifier.strict.clock import DAY, NIGHT_END
from verifier.strict.meals import MEALS
from verifier.world_facts import WorldFacts


def trivial_bounds(world: WorldFacts, frames: list[Frame], cities: list[CityCatalog]) -> list[int]:
    """Per user, an upper bound on the user's utility in every modelled plan of any of `frames`
    (their sum bounds the GU total, their least the least user utility)."""
    users = len(cities[0].users) if cities else 0
    out: list[int] = []
    for u in range(users):
        total = max(_legs(world, frame, cities, u) for frame in frames)
        nights = frames[0].days - 1
        total += nights * max((h.best_case(u) for city in cities for h in city.hotels), default=0)
        meals = max((r.best_case(u) for city in cities for r in city.restaurants), default=0)
        total += frames[0].days * len(MEALS) * max(meals, 0)
        total += _attractions(cities, u, frames[0].days)
        for city in cities:
            total += 2 * len({item for place in city.attractions for item in place.musts[u]})
        out.append(total)
    return out


def _attractions(cities: list[CityCatalog], u: int, days: int) -> int:
    """The user's best attraction category total: the best places, at most as many a day as
    the day window holds at the shortest visit, and −2 for every day over the count that
    neither intensity cap charges (`max_poi_per_day`, or the visits `max_active_hours` holds)."""
    best: dict[tuple[str, str], int] = {}
    services: list[int] = []
    for city in cities:
        for place in city.attractions:
            if place.best_case(u) > 0:
                key = (city.key, place.place)
                best[key] = max(best.get(key, 0), place.best_case(u))
                services.append(place.service)
    if not best:
        return 0
    values = sorted(best.values(), reverse=True)
    shortest = min(services)
    most = (DAY - NIGHT_END) // shortest
    user = cities[0].users[u]
    free = most
    if user.max_pois is not None and not user.waivable:
        free = min(free, user.max_pois)
    if user.max_minutes is not None and not user.waivable:
        free = min(free, user.max_minutes // shortest)
    return max(sum(values[: over * most + (days - over) * free]) - 2 * over for over in range(days + 1))


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
