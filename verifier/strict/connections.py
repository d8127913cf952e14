"""Check 6 (connections) — check-in before a departure, getting out after an arrival.

Why: a leg's times are the vehicle's, not the traveller's. Nobody boards a 13:45 flight by
reaching the airport at 13:45, nor leaves the arrival hall the minute the wheels touch down.
Here, for every leg matched to a timetabled departure, each traveller's last item before it
must end at least `before` minutes before the departure, and their first item after it must
start at least `after` minutes after the arrival (`connection_minutes(mode)`). A rest at the
hub itself (or a rest without a place, which keeps the traveller where they are) is waiting
there, not getting there, so it is skipped, and so are other legs (two legs in a row are
`strict.leg_adjacent`). Self-drive (flexible, door to door) needs none;
the first leg from home and the last leg home have nothing on the home side to check.

These numbers are the only copy: the greedy planner, the oracle and the tools read them here.
"""

from __future__ import annotations

from verifier.model.plan import hhmm
from verifier.model.verdict import Violation
from verifier.strict.finding import violation
from verifier.strict.trip import LEG, Item, Trip

CHECK_IN_MINUTES: dict[str, int] = {"飞机": 60, "高铁": 20, "火车": 20, "自驾": 0}
"""Minutes a traveller must be at the departure hub before a departure, by intercity mode."""
EXIT_MINUTES: dict[str, int] = {"飞机": 20, "高铁": 10, "火车": 10, "自驾": 0}
"""Minutes from an arrival before a traveller can leave the arrival hub, by intercity mode."""


def connection_minutes(mode: str) -> tuple[int, int]:
    """(check-in minutes before departure, exit minutes after arrival) for an intercity mode; an
    unknown mode needs none (it never matches a timetable entry anyway)."""
    return CHECK_IN_MINUTES.get(mode, 0), EXIT_MINUTES.get(mode, 0)


def connection_violations(trip: Trip) -> list[Violation]:
    """Check 6: every traveller reaches a departure hub in time and leaves an arrival hub no sooner
    than the mode allows (one violation per leg and side, naming the travellers)."""
    out: list[Violation] = []
    for leg in trip.items:
        option = leg.match.option if leg.kind == LEG and leg.match is not None else None
        if option is None or option.flexible:
            continue
        before, after = connection_minutes(option.mode)
        late: dict[str, int] = {}
        early: dict[str, int] = {}
        for name in trip.travellers:
            hubs = (option.from_hub, option.to_hub)
            mine = [i for i in trip.of(name) if i.kind != LEG and not _waiting(i, *hubs)]
            prior = [i for i in mine if i.index < leg.index]
            later = [i for i in mine if i.index > leg.index]
            if prior and prior[-1].end > leg.start - before:
                late[name] = prior[-1].end
            if later and later[0].start < leg.end + after:
                early[name] = later[0].start
        if late:
            out.append(_late(leg, option.from_hub, before, late))
        if early:
            out.append(_early(leg, option.to_hub, after, early))
    return out


def _waiting(item: Item, *hubs: str) -> bool:
    """A rest at one of the leg's hubs, or without a place."""
    return item.kind == "rest" and item.activity is not None and item.activity.location in ("", *hubs)


def _late(leg: Item, hub: str, before: int, late: dict[str, int]) -> Violation:
    users = list(late)
    reached = hhmm(max(late.values()))
    message = (
        f"{', '.join(users)}: at {hub} by {reached} for a {hhmm(leg.start)} departure; "
        f"check-in needs {before} min"
    )
    return violation(
        "strict.check_in_late", 6, leg.loc, message, hub=hub, required=before, reached=reached, users=users
    )


def _early(leg: Item, hub: str, after: int, early: dict[str, int]) -> Violation:
    users = list(early)
    left = hhmm(min(early.values()))
    message = (
        f"{', '.join(users)}: leave {hub} at {left} after a {hhmm(leg.end)} arrival; "
        f"getting out takes {after} min"
    )
    return violation(
        "strict.hub_exit_early", 6, leg.loc, message, hub=hub, required=after, left=left, users=users
    )
