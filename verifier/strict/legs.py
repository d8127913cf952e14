"""Check 1 — the itinerary: calendar, intercity legs and the cities they connect.

Why: a plan is only a trip if the group can actually get from place to place. The official
check only asks for *some* leg when consecutive city labels differ; here every leg must be a
real departure of the world's timetable, start where the group is, and together the legs must
take the group from the departure city through the task's cities and back home.
"""

from __future__ import annotations

import datetime as dt

from verifier.model.plan import IntercityTransport, hhmm
from verifier.model.verdict import Violation
from verifier.strict.clock import date_of
from verifier.strict.finding import violation
from verifier.strict.trip import Item, Stop, Trip


def itinerary_violations(trip: Trip) -> list[Violation]:
    """Check 1: days and dates, the leg chain from the departure city and back, timetable matches,
    known cities only, the task's cities all visited, one block per city stay."""
    return [*_calendar(trip), *_route(trip), *_coverage(trip)]


def _calendar(trip: Trip) -> list[Violation]:
    """`len(days)` equals the task's day count; day numbers run 1, 2, …; dates run daily from `task.time`."""
    out: list[Violation] = []
    expected = trip.task.trip_days()
    if expected is not None and len(trip.days) != expected:
        message = f"the plan has {len(trip.days)} readable days, the task asks for {expected}"
        out.append(
            violation("strict.day_count", 1, "$.days", message, expected=expected, actual=len(trip.days))
        )
    start = trip.task.departure_date()
    if start is None and trip.days:
        start = _shift(trip.days[0].day.date, -trip.days[0].raw_index)
    for day in trip.days:
        if day.day.day != day.raw_index + 1:
            message = f"day number {day.day.day} at position {day.raw_index + 1}"
            out.append(
                violation(
                    "strict.day_number",
                    1,
                    f"{day.loc}.day",
                    message,
                    expected=day.raw_index + 1,
                    actual=day.day.day,
                )
            )
        want = None if start is None else _shift(start, day.raw_index)
        if want is not None and day.day.date != want:
            message = f"date {day.day.date} but day {day.raw_index + 1} of a trip starting {start} is {want}"
            out.append(
                violation(
                    "strict.date_mismatch",
                    1,
                    f"{day.loc}.date",
                    message,
                    expected=str(want),
                    actual=str(day.day.date),
                )
            )
        if not day.stops:
            out.append(violation("strict.day_empty", 1, f"{day.loc}.city_segments", "the day has no segment"))
    return out


def _shift(date: dt.date, days: int) -> dt.date | None:
    """`date` + `days`, or None outside the calendar."""
    try:
        return date + dt.timedelta(days=days)
    except OverflowError:
        return None


def _route(trip: Trip) -> list[Violation]:
    """Walk every segment in order, tracking the city the group is in."""
    out: list[Violation] = []
    here = trip.departure
    previous: Stop | None = None
    for day in trip.days:
        last_today: Stop | None = None
        for stop in day.stops:
            leg = stop.items[0].leg if stop.is_leg else None
            if leg is not None:
                out += _leg(
                    trip, stop.items[0], leg, here, after_leg=previous is not None and previous.is_leg
                )
                here = trip.key(leg.to_city)
            else:
                out += _block(trip, stop, here, last_today)
                here = stop.key
            previous = last_today = stop
    if trip.days and here != trip.departure:
        loc = f"{trip.days[-1].loc}.city_segments"
        message = f"the trip ends in {here}, not back in the departure city {trip.departure}"
        out.append(violation("strict.leg_missing", 1, loc, message, from_city=here, to_city=trip.departure))
    return out


def _leg(trip: Trip, item: Item, leg: IntercityTransport, here: str, *, after_leg: bool) -> list[Violation]:
    out: list[Violation] = []
    origin, destination = trip.key(leg.from_city), trip.key(leg.to_city)
    if after_leg:
        message = "two intercity legs in a row: the group never stays in the city in between"
        out.append(violation("strict.leg_adjacent", 1, item.loc, message))
    if origin != here:
        message = f"the leg starts in {leg.from_city} but the group is in {here}"
        out.append(
            violation(
                "strict.leg_origin_mismatch",
                1,
                f"{item.loc}.from_city",
                message,
                expected=here,
                actual=leg.from_city,
            )
        )
    unknown = [
        (f, name)
        for f, name in (("from_city", leg.from_city), ("to_city", leg.to_city))
        if trip.world.city(name) is None
    ]
    for field, name in unknown:
        out.append(
            violation(
                "strict.unknown_city",
                1,
                f"{item.loc}.{field}",
                f"the world knows no city {name!r}",
                city=name,
            )
        )
    if destination not in {*trip.cities, trip.departure} and not unknown:
        message = f"{leg.to_city} is neither a city of the task nor the departure city"
        out.append(violation("strict.city_not_in_task", 1, f"{item.loc}.to_city", message, city=leg.to_city))
    if origin == destination:
        out.append(
            violation(
                "strict.leg_same_city",
                1,
                item.loc,
                f"a leg from {leg.from_city} to itself",
                city=leg.from_city,
            )
        )
    elif not unknown:
        out += _timetable(trip, item, leg, origin, destination)
    return out


def _timetable(
    trip: Trip, item: Item, leg: IntercityTransport, origin: str, destination: str
) -> list[Violation]:
    """The leg must be a departure of the world's timetable (mode, date, times within tolerance)."""
    match = item.match
    if match is None or match.option is not None:
        return []
    date = date_of(item.start)
    if leg.transport_mode not in match.modes:
        offered = ", ".join(match.modes) or "none"
        message = f"no {leg.transport_mode!r} from {origin} to {destination} on {date} (offered: {offered})"
        return [
            violation(
                "strict.leg_not_in_timetable",
                1,
                f"{item.loc}.transport_mode",
                message,
                mode=leg.transport_mode,
                date=str(date),
                offered=list(match.modes),
            )
        ]
    departures = [
        f"{o.code} {hhmm(o.depart)}-{hhmm(o.arrive)}" + ("+1" if o.arrive >= 1440 else "")
        for o in trip.world.intercity_options(origin, destination, date)
        if o.mode == leg.transport_mode
    ]
    times = f"{leg.start_time}-{leg.end_time}"
    message = f"no {leg.transport_mode} {times} on {date}; departures: {'; '.join(departures)}"
    return [
        violation(
            "strict.leg_time_mismatch",
            1,
            item.loc,
            message,
            mode=leg.transport_mode,
            start_time=leg.start_time,
            end_time=leg.end_time,
            departures=departures,
        )
    ]


def _block(trip: Trip, stop: Stop, here: str, last_today: Stop | None) -> list[Violation]:
    out: list[Violation] = []
    if not stop.known:
        out.append(
            violation(
                "strict.unknown_city",
                1,
                f"{stop.loc}.city",
                f"the world knows no city {stop.city!r}",
                city=stop.city,
            )
        )
    elif stop.key not in trip.cities:
        message = f"{stop.city} is not one of the task's cities {list(trip.cities)}"
        out.append(violation("strict.city_not_in_task", 1, f"{stop.loc}.city", message, city=stop.city))
    if stop.key != here:
        message = f"the group is in {here} but this block is in {stop.city}: an intercity leg is missing"
        out.append(violation("strict.leg_missing", 1, stop.loc, message, from_city=here, to_city=stop.key))
    elif last_today is not None and not last_today.is_leg:
        message = f"a second block of {stop.city} right after another without a leg: one stay is one block"
        out.append(violation("strict.block_split", 1, stop.loc, message, city=stop.city))
    return out


def _coverage(trip: Trip) -> list[Violation]:
    """Every city of the task has at least one block."""
    visited = {stop.key for day in trip.days for stop in day.stops if not stop.is_leg}
    return [
        violation("strict.city_not_visited", 1, "$.days", f"the plan never stays in {city}", city=city)
        for city in trip.cities
        if city not in visited
    ]
