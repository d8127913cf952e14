"""Intercity legs: the departures a transition may take on a day, pruned without loss.

A transition (home → first city, city → next city, last city → home) happens on one day. Its
candidates are the world's departures of that date (`WorldFacts.intercity_options`) that
arrive the same date (the return leg may arrive after midnight); a self-drive option has no
timetable, so it becomes one candidate per range of departure minutes over which it has the
same effect on meals, with the departure a model variable. Connection times
(`verifier.strict.connections`) shorten the city time before and after a timetabled leg.

What a leg changes in a plan is: its mode (a per-user transport score), its fare (budget), its
hubs (where the city time ends and starts), the city time it leaves on either side, and for each
meal window whether the window lies before the leg, after it, or is *blocked* (overlapped by it,
or outside the trip for the first and last legs) — which decides the strict required meals.
Among timetabled departures with the same mode, hubs and meal pattern, one that departs no
earlier, arrives no later and costs no more is at least as good in every plan, so only the
Pareto front is kept (exact; docs/oracle.md). A departure strict never matches — one of several
of the same mode and times (codeshares), which strict resolves to the first in timetable
order (`verifier.strict.timetable.matches_itself`) — is no candidate: a plan written with its times
is priced at the first one's fare.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import Enum

from verifier.strict.clock import DAY
from verifier.strict.connections import connection_minutes
from verifier.strict.costs import lowest_cost_fen
from verifier.strict.meals import MEALS
from verifier.strict.timetable import matches_itself
from verifier.world_facts import IntercityOption, WorldFacts


class Side(Enum):
    """Where a meal window lies relative to a leg."""

    BEFORE = "before"
    AFTER = "after"
    BLOCKED = "blocked"


@dataclass(frozen=True)
class LegOption:
    """One candidate leg: a departure (or a self-drive range) and what it does to the day.

    `depart` is the earliest departure minute and `latest` the latest (equal for a timetabled
    departure); `duration` the minutes in transit. `check_in` / `exit` are the connection
    minutes: the city time ends `check_in` before departure and restarts `exit` after arrival.
    """

    option: IntercityOption
    depart: int
    latest: int
    duration: int
    check_in: int
    exit: int
    sides: tuple[Side, ...]
    """Per meal of `verifier.strict.meals.MEALS`."""

    @property
    def flexible(self) -> bool:
        return self.option.flexible


def sides(depart: int, arrive: int, *, first: bool, last: bool) -> tuple[Side, ...]:
    """Where each meal window lies relative to a leg `depart`–`arrive` (strict meal rule: a
    window counts only if it lies wholly after the first arrival, before the last departure and
    overlaps no leg)."""
    out: list[Side] = []
    for _, low, high in MEALS:
        if first:
            out.append(Side.AFTER if arrive <= low else Side.BLOCKED)
        elif last:
            out.append(Side.BEFORE if depart >= high else Side.BLOCKED)
        elif high <= depart:
            out.append(Side.BEFORE)
        elif low >= arrive:
            out.append(Side.AFTER)
        else:
            out.append(Side.BLOCKED)
    return tuple(out)


def leg_options(
    world: WorldFacts, origin: str, destination: str, date: dt.date, *, first: bool, last: bool
) -> tuple[LegOption, ...]:
    """The candidates of one transition on one date, pruned to the Pareto front (see module)."""
    timetabled: list[LegOption] = []
    flexible: list[LegOption] = []
    options = world.intercity_options(origin, destination, date)
    for option in options:
        duration = option.arrive - option.depart
        if duration <= 0 or (not last and option.arrive >= DAY and not option.flexible):
            continue
        if not matches_itself(options, option, option.depart, option.arrive):
            continue
        if option.flexible:
            flexible += _drive_ranges(option, duration, first=first, last=last)
            continue
        check_in, exit_ = connection_minutes(option.mode)
        pattern = sides(option.depart, option.arrive, first=first, last=last)
        timetabled.append(LegOption(option, option.depart, option.depart, duration, check_in, exit_, pattern))
    return (*_front(timetabled, first=first, last=last), *flexible)


def _drive_ranges(option: IntercityOption, duration: int, *, first: bool, last: bool) -> list[LegOption]:
    """A self-drive option as ranges of departure minutes with one meal pattern each (the
    arrival stays on the same date, except on the way home)."""
    latest_start = DAY - 1 if last else DAY - 1 - duration
    out: list[LegOption] = []
    start = 0
    while start <= latest_start:
        pattern = sides(start, start + duration, first=first, last=last)
        end = start
        while (
            end + 1 <= latest_start and sides(end + 1, end + 1 + duration, first=first, last=last) == pattern
        ):
            end += 1
        out.append(LegOption(option, start, end, duration, 0, 0, pattern))
        start = end + 1
    return out


def _front(options: list[LegOption], *, first: bool, last: bool) -> list[LegOption]:
    """Options not dominated within their (mode, hubs, meal pattern) group; world order kept."""
    kept: list[LegOption] = []
    for leg in options:
        group = [
            other
            for other in options
            if other is not leg
            and (other.option.mode, other.option.from_hub, other.option.to_hub, other.sides)
            == (leg.option.mode, leg.option.from_hub, leg.option.to_hub, leg.sides)
        ]
        if not any(_dominates(other, leg, options, first=first, last=last) for other in group):
            kept.append(leg)
    return kept


def _dominates(a: LegOption, b: LegOption, order: list[LegOption], *, first: bool, last: bool) -> bool:
    """`a` departs no earlier, arrives no later and costs no more than `b` (ties: world order).
    The departure of the first leg and the arrival of the last do not matter (home is not
    planned), and neither does the fare below the lowest cost strict lets a plan declare."""
    key_a = (
        0 if first else a.depart,
        0 if last else -(a.depart + a.duration),
        -lowest_cost_fen(a.option.fare_fen),
    )
    key_b = (
        0 if first else b.depart,
        0 if last else -(b.depart + b.duration),
        -lowest_cost_fen(b.option.fare_fen),
    )
    if not all(x >= y for x, y in zip(key_a, key_b, strict=True)):
        return False
    return key_a != key_b or order.index(a) < order.index(b)
