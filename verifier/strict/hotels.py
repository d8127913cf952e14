"""Check 2 — nights: exactly one real hotel per night, in the city where the night is spent.

Why: the official check only looks at list position, so several hotel entries a night (each a
preference credit) or a hotel in the wrong city pass. Here night *i* (after every day but the
last) is covered by that day's hotel stay, or by an intercity leg of that day still in transit
at 03:00 (a sleeper train spends the night). A hotel entry is a night stay (see
`verifier.strict.clock`), so it must be the day's last item, exist in the world as a hotel in
its block's city, be in the city the next day starts in, and there is at most one per day and
none on the final day.
"""

from __future__ import annotations

from verifier.model.verdict import Violation
from verifier.strict.clock import DAY, NIGHT_CHECK
from verifier.strict.finding import violation
from verifier.strict.trip import LEG, Item, Trip, TripDay
from verifier.world_facts import PoiKind


def hotel_violations(trip: Trip) -> list[Violation]:
    """Check 2: night coverage, one hotel per night, hotel last, real hotel, right city, no extra night."""
    out: list[Violation] = []
    for day in trip.days:
        hotels = [item for stop in day.stops for item in stop.items if item.kind == "hotel"]
        last = day.index == len(trip.days) - 1
        if last:
            for hotel in hotels:
                message = "a hotel on the final day: the trip has no night after it"
                out.append(violation("strict.hotel_extra_night", 2, hotel.loc, message))
        else:
            out += _night(day, hotels)
        for hotel in hotels:
            out += _hotel(trip, day, hotel)
    return out


def _night(day: TripDay, hotels: list[Item]) -> list[Violation]:
    out: list[Violation] = []
    for extra in hotels[1:]:
        message = f"a second hotel on day {day.raw_index + 1}: one night has one hotel"
        out.append(violation("strict.hotel_multiple", 2, extra.loc, message, first=hotels[0].loc))
    checkpoint = day.base + DAY + NIGHT_CHECK
    in_transit = any(
        item.kind == LEG and item.start <= checkpoint < item.end for stop in day.stops for item in stop.items
    )
    if not in_transit and not any(h.forward for h in hotels):
        message = f"no hotel stay (nor a leg in transit at 03:00) for the night after {day.day.date}"
        out.append(violation("strict.hotel_missing_night", 2, day.loc, message, date=str(day.day.date)))
    return out


def _hotel(trip: Trip, day: TripDay, hotel: Item) -> list[Violation]:
    out: list[Violation] = []
    later = [item for stop in day.stops for item in stop.items if item.index > hotel.index]
    if later:
        message = "the hotel stay must be the day's last item"
        out.append(violation("strict.hotel_not_last", 2, hotel.loc, message, next=later[0].loc))
    place = trip.world.poi(hotel.city, hotel.place)
    if place is None:
        message = f"the world has no place {hotel.place!r} in {hotel.city}"
        out.append(violation("strict.hotel_unknown", 2, f"{hotel.loc}.location", message, city=hotel.city))
    elif place.kind != PoiKind.HOTEL:
        message = f"{hotel.place!r} is of kind {place.kind}, not hotel"
        out.append(
            violation("strict.hotel_not_a_hotel", 2, f"{hotel.loc}.location", message, kind=place.kind)
        )
    wake = _next_city(trip, day)
    if wake is not None and wake != hotel.city:
        message = f"the hotel is in {hotel.city} but the next day starts in {wake}"
        out.append(
            violation("strict.hotel_wrong_city", 2, hotel.loc, message, hotel_city=hotel.city, next_city=wake)
        )
    return out


def _next_city(trip: Trip, day: TripDay) -> str | None:
    """The city the day after `day` starts in (a leg's origin or the first block's city)."""
    if day.index + 1 >= len(trip.days) or not trip.days[day.index + 1].stops:
        return None
    first = trip.days[day.index + 1].stops[0]
    leg = first.items[0].leg if first.is_leg else None
    return trip.key(leg.from_city) if leg is not None else first.key
